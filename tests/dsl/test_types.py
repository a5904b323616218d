"""Static types and all-errors-at-once, on cards a modder adds to a built-in edition."""
from __future__ import annotations

import textwrap
from pathlib import Path

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


# ---- lengths, entities, true/false and format texts (issue 23) ------------------------------

ROOT = Path(__file__).resolve().parents[2]
PIECES = "rulesets/original/rules/pieces.yaml"


def _line(text: str) -> int:
    """The line of pieces.yaml holding *text* (doc comments above may move it)."""
    lines = (Path(__file__).resolve().parents[2] / PIECES).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


@pytest.mark.parametrize("effect, expected", [
    ("let n = len(5)", (6, 15, "'len' needs a list, a table or a text, not a number", "")),
    ("let n = len(you.vp > 1)", (6, 15, "'len' needs a list, a table or a text, not a true/false", "")),
    ("let n = you + 1", (6, 11, "arithmetic needs a number, not a faction", "")),
    ("let n = 3 - tile", (6, 15, "arithmetic needs a number, not a cell", "")),
    ("let n = self - 1", (6, 11, "arithmetic needs a number, not a card", "")),
    ("repeat mammal:\n    pass", (6, 10, "'repeat' needs a number, not a faction", "")),
    ("gain_vp(you, true)", (6, 16, "'gain_vp' parameter 'n' needs a number, not a true/false",
                            f"it is used as a number at {PIECES}:{_line('f.vp = max(0, f.vp + n)')}:26")),
    ("eliminate(tile, you, 1)", (6, 19, "'eliminate' parameter 't' needs a cell, not a faction",
                                 f"it reads t.units at {PIECES}:{_line('let k = min(n, t.units[f])')}:20")),
    ("gain_vp(tile, 1)", (6, 11, "'gain_vp' parameter 'f' needs a faction, not a cell",
                          f"it reads f.vp at {PIECES}:{_line('f.vp = max(0, f.vp + n)')}:19")),
    ('log("{} {}", you)', (6, 7, "'log': the text has 2 places for a value ({}) but 1 value follows", "")),
    ('log_to(you, "x {}", 1, 2)', (6, 15, "'log_to': the text has 1 place for a value ({}) but 2 values follow", "")),
    ('let q = format("{}", you, 2)', (6, 18, "'format': the text has 1 place for a value ({}) but 2 values follow", "")),
])
def test_wrong_kinds_lengths_and_format_texts_are_errors_at_the_card_line(tmp_path, effect, expected):
    with pytest.raises(RuleErrors) as caught:
        load_ruleset("original", mods=[_card(tmp_path, "dominance", effect + "\n")])
    found = [(e.span.line, e.span.col, e.message, e.hint.replace(str(ROOT) + "/", "")) for e in caught.value.errors]
    assert found == [expected]


@pytest.mark.parametrize("effect", [
    "eliminate(you, tile, 1)", 'log("{} has {} on {}", you, 1, tile)', "gain_vp(you, len([1, 2]) + 1)",
    "let n = tile.units[you] + 1", "if you.vp > 1:\n    gain_vp(you, -1)",
])
def test_what_is_right_is_not_reported(tmp_path, effect):
    load_ruleset("original", mods=[_card(tmp_path, "dominance", effect + "\n")])


def test_a_parameter_needs_a_kind_only_where_it_is_surely_read(tmp_path):
    """An attribute read inside a branch (or after an early return) says nothing of what a
    macro's parameter must be: the branch may never run for the value given."""
    extra = ("\nmacros:\n  maybe_vp(f, x): |\n    if x > 0:\n        f.vp += x\n"
             "  surely_vp(f, x): |\n    f.vp += x\n")
    (tmp_path / "mod").mkdir()
    (tmp_path / "mod" / "rules.yaml").write_text(extra, encoding="utf-8")
    (tmp_path / "mod" / "windfall.yaml").write_text(
        "card: Windfall\ndeck: dominance\ntext: x\nprovenance: {confidence: unknown, sources: [test]}\n"
        "effect: |\n  maybe_vp(tile, 0)\n  surely_vp(tile, 1)\n", encoding="utf-8")
    with pytest.raises(RuleErrors) as caught:
        load_ruleset("original", mods=[str(tmp_path / "mod")])
    assert [(e.span.line, e.message) for e in caught.value.errors] == [
        (7, "'surely_vp' parameter 'f' needs a faction, not a cell")]


@pytest.mark.parametrize("edition", ["original", "marine"])
def test_every_variant_of_both_editions_loads_with_no_false_alarm(edition):
    from speciation.interpreter.ruleset import find_ruleset, variant_files
    for variant in variant_files(find_ruleset(edition)):
        load_ruleset(edition, [variant])
