"""Static types and all-errors-at-once, on cards a modder adds to a built-in edition."""
from __future__ import annotations

import textwrap

import pytest

from speciation.dsl.errors import RuleErrors
from speciation.interpreter.ruleset import load_ruleset
from speciation.dsl.types import check_types
from speciation.vocabulary import collect


def _card(tmp_path, deck: str, effect: str, extra: str = "") -> str:
    mod = tmp_path / "mod"
    mod.mkdir()
    (mod / "windfall.yaml").write_text(
        f"card: Windfall\ndeck: {deck}\ntext: Gain VP.\nprovenance: {{confidence: unknown, sources: [test]}}\n"
        "effect: |\n" + textwrap.indent(textwrap.dedent(effect), "  ") + extra)
    return str(mod)


def _errors(tmp_path, deck: str, effect: str, extra: str = "", edition: str = "original"):
    with pytest.raises(RuleErrors) as caught:
        load_ruleset(edition, mods=[_card(tmp_path, deck, effect, extra)])
    return [(e.span.line, e.span.col, e.message) for e in caught.value.errors]


@pytest.mark.parametrize("edition", ["original", "marine"])
def test_both_editions_load_clean_with_types_inferred(edition):
    load_ruleset(edition)  # no false alarm
    defs = collect(edition)
    from speciation.interpreter import ruleset as r
    built = r.load_ruleset(edition)
    assert check_types(defs, built.constants, {i: p for i, (_, p) in built.effects.items()}) == []


def test_a_text_where_gain_vp_needs_a_number_is_an_error_at_the_card_line(tmp_path):
    errors = _errors(tmp_path, "dominance", 'gain_vp(you, "two")\n')
    assert errors == [(6, 16, "'gain_vp' parameter 'n' needs a number, not a text")]
    with pytest.raises(RuleErrors) as caught:
        load_ruleset("original", mods=[str(tmp_path / "mod")])
    assert "used as a number at" in caught.value.format() and "pieces.yaml" in caught.value.format()


def test_types_flow_through_macros_and_attributes(tmp_path):
    errors = _errors(tmp_path, "dominance", '''\
        repeat "three":
            gain_vp(you, 1)
        you.vp += [1]
        you.vp = "lots"
        gain_vp(you, 1 + "a")
        ''')
    assert [(line, message) for line, _, message in errors] == [
        (6, "'repeat' needs a number, not a text"),
        (8, "adding to 'vp' needs a number, not a list"),
        (9, "'vp' holds a number, not a text"),
        (10, "arithmetic needs a number, not a text")]


def test_correct_numbers_pass(tmp_path):
    load_ruleset("original", mods=[_card(tmp_path, "dominance", "gain_vp(you, len(tiles()) + bonus[2])\n")])


def test_misspelled_deck_and_four_compile_errors_come_at_once(tmp_path):
    errors = _errors(tmp_path, "dominanse", '''\
        gain_vp(you, scroe)
        you.vpp += 1
        gain_vp(you)
        explode(tile)
        ''', extra="trigers: []\n")
    assert [(line, message.split(" (")[0]) for line, _, message in errors] == [
        (2, "unknown deck 'dominanse'"), (6, "unknown name 'scroe'"),
        (7, "no kind of entity has an attribute 'vpp'"), (8, "'gain_vp' takes 2 arguments, not 1"),
        (9, "unknown verb or macro 'explode'"), (10, "unknown key 'trigers'")]


def test_order_comparisons_and_numeric_builtins_need_numbers(tmp_path):
    errors = _errors(tmp_path, "dominance", '''\
        if you.vp > "ten":
            gain_bonus(you, [2])
        for i in range("three"):
            pass
        ''')
    assert [(line, message) for line, _, message in errors] == [
        (6, "an order comparison with a number needs a number, not a text"),
        (7, "'gain_bonus' parameter 'n' needs a number, not a list"),
        (8, "'range' needs a number, not a text")]
