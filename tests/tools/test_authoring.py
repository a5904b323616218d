"""Authoring tools: the vocabulary reference, explain, check on a lone file, new card."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from speciation.cli import main
from speciation.dsl.errors import RuleErrors
from speciation.interpreter.ruleset import load_ruleset
from speciation.explain import explain_lines
from speciation.vocabulary import vocabulary

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def _module(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_vocabulary_pages_are_current():
    for path, text in _module(DOCS / "gen_vocabulary.py").pages().items():
        assert path.exists() and path.read_text(encoding="utf-8") == text, "run: python docs/gen_vocabulary.py"


def test_vocabulary_lists_what_a_modder_needs(capsys):
    assert main(["list", "original", "vocabulary"]) == 0
    out = capsys.readouterr().out
    for needle in ("gain_vp(f, n)", "occupied_by(f)", "food_chain()", "dominance(self, you, tile)",
                   "elements: grass", "bonus = {", "faction.vp = 0"):
        assert needle in out, needle
    marine = {e.name: e for e in vocabulary("marine").entries}
    assert marine["evolution"].signature == "evolution(self, you, tile, slot)"
    assert "marine/actions/tectonics.yaml" in str(marine["action_tectonics"].span.path)
    assert marine["bonus_for"].doc.startswith("DS-RB Glossary")


@pytest.mark.parametrize("edition", ["original", "marine"])
def test_explain_every_card(edition):
    vocab = vocabulary(edition)
    ruleset = load_ruleset(edition)
    assert len(ruleset.cards) >= 26
    for ident, card in ruleset.cards.items():
        lines = explain_lines(ident, vocab)
        assert lines is not None, ident
        text = "\n".join(lines)
        assert lines[0].startswith(f"card {card.name} ({ident}), deck {card.deck}"), lines[0]
        assert "cannot analyse" not in text, ident
        assert "reads:" in text and "changes:" in text and "decision" in text


def test_explain_names_decisions_and_whom(capsys):
    assert main(["explain", "original", "Disease"]) == 0
    out = capsys.readouterr().out
    assert 'g chooses: "Disease: lose one of your added elements"  [original/cards/disease.yaml:15]' in out
    assert "changes: added, bag" in out and "elements_held (function)" in out
    assert main(["explain", "marine", "tectonics"]) == 0
    out = capsys.readouterr().out
    assert "macro tectonics(f, t)" in out and "gain_bonus (macro)" in out and "vent_stack" in out
    assert main(["explain", "marine", "gain_vpp"]) == 1
    assert "did you mean 'gain_vp'" in capsys.readouterr().err


# ---- mods as packages ----------------------------------------------------------------------

def _mod(tmp_path, files: dict[str, str]) -> Path:
    folder = tmp_path / "gentle"
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


MANIFEST = """\
mod: gentle
title: Gentle rules
version: "1.2"
author: A. Modder
targets: [marine]
cards:
  marine_snow:
    text: Every Open Ocean tile is scored twice.
    triggers:
      - on: card_enters(c)
        if: c == self
        effect: |
          log("Gentle snow")
"""


def test_a_mod_changes_part_of_a_card_and_says_what_it_brings(tmp_path, capsys):
    folder = _mod(tmp_path, {"mod.yaml": MANIFEST, "scenarios/broken.yaml": "scenario: [not a rule file\n"})
    ruleset = load_ruleset("marine", mods=[str(folder)])
    base = load_ruleset("marine")
    card = ruleset.cards["marine_snow"]
    assert card.text == "Every Open Ocean tile is scored twice."
    assert card.provenance == base.cards["marine_snow"].provenance   # the rest is kept
    snow = [t for t in ruleset.triggers["card_enters"] if t.owner == "marine_snow"]
    assert len(snow) == 1 and snow[0].span.path.endswith("mod.yaml")   # the trigger replaced, not added
    info = ruleset.mod_infos[0]
    assert (info["name"], info["version"], info["author"], info["targets"]) == ("gentle", "1.2", "A. Modder", ["marine"])
    assert info["brings"] == ["card marine_snow (changes text; triggers on card_enters)"]
    assert main(["list", "marine", "--mod", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "mods (1):\n  gentle 1.2 by A. Modder (Gentle rules)" in out and "[mod gentle]" in out
    json_file = tmp_path / "sim.json"
    assert main(["simulate", "marine", "--games", "1", "--mod", str(folder), "--no-progress",
                 "--json", str(json_file)]) == 0
    import json
    assert json.loads(json_file.read_text())["mods"] == [
        {"name": "gentle", "version": "1.2", "author": "A. Modder", "path": str(folder)}]


def test_changing_a_card_no_layer_defines_is_an_error(tmp_path):
    folder = _mod(tmp_path, {"mod.yaml": "mod: m\ncards:\n  marine_snoww:\n    text: x\n"})
    with pytest.raises(RuleErrors) as caught:
        load_ruleset("marine", mods=[str(folder)])
    assert "cannot change card 'marine_snoww'" in caught.value.format()
    assert "did you mean 'marine_snow'" in caught.value.format()


# ---- check on a lone file ------------------------------------------------------------------

CARD = """\
card: Windfall
deck: dominance
text: Gain two VP.
provenance: {confidence: unknown, sources: [a test]}
effect: |
  gain_vp(you, 2)
"""


def test_check_a_lone_card_against_each_builtin(tmp_path, capsys):
    card = tmp_path / "mycard.yaml"
    card.write_text(CARD, encoding="utf-8")
    assert main(["check", str(card)]) == 0
    out = capsys.readouterr()
    assert f"{card}: names no ruleset; checked against each built-in one (evolution, marine, original): it fits original\n" in out.out
    assert f"ok: {card} against original 1.0 (27 cards; brings card windfall)" in out.out
    assert "marine" not in out.out.split("\n", 1)[1] and out.err == ""   # Marine's errors are not shown
    card.write_text(CARD.replace("2)", '"two")'), encoding="utf-8")
    assert main(["check", str(card)]) == 1
    out = capsys.readouterr()
    assert "it fits none; nearest original (choose another with --ruleset NAME)" in out.out
    assert f"failed: {card} against original (1 error)" in out.out and "against marine" not in out.out
    assert out.err.startswith(f"{card}:6:16: error (original): 'gain_vp' parameter 'n' needs a number, not a text")
    assert "unknown deck" not in out.err
    assert main(["check", str(card), "--ruleset", "marine"]) == 1   # asked for: Marine's errors, labelled
    out = capsys.readouterr()
    assert f"{card}: checking against marine (as asked)" in out.out
    assert f"{card}:2:7: error (marine): unknown deck 'dominance'" in out.err
    assert main(["check", str(tmp_path / "nothere.yaml")]) == 1
    assert "no file" in capsys.readouterr().err


def test_check_a_mod_folder_against_its_targets_and_a_ruleset_file(tmp_path, capsys):
    folder = _mod(tmp_path, {"mod.yaml": MANIFEST})
    assert main(["check", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "checking against marine (the rulesets its manifest targets)" in out and "ok:" in out
    assert main(["check", str(ROOT / "rulesets" / "marine" / "cards" / "annelids.yaml")]) == 0
    assert "checking that ruleset" in capsys.readouterr().out
    assert main(["check", str(ROOT / "rulesets" / "marine" / "variants" / "short.yaml")]) == 0
    assert "a variant of the ruleset in" in capsys.readouterr().out


@pytest.mark.parametrize("edition, deck", [("original", "dominance"), ("marine", "trait")])
def test_new_card_writes_a_skeleton_that_loads(tmp_path, capsys, edition, deck):
    args = ["new", "card", edition, "Deep", "Vents", "--out", str(tmp_path)] + (["--deck", deck] if edition == "marine" else [])
    assert main(args) == 0
    path = tmp_path / "deep_vents.yaml"
    text = path.read_text(encoding="utf-8")
    assert f"deck: {deck}" in text and "card: Deep Vents" in text
    ruleset = load_ruleset(edition, mods=[str(path)])
    assert ruleset.cards["deep_vents"].deck == deck
    assert main(args) == 1 and "exists" in capsys.readouterr().err
    assert main(["new", "card", edition, "X", "--deck", "nope", "--out", str(tmp_path)]) == 2


def test_every_schema_key_has_a_description():
    import json
    missing = []

    def walk(node, where):
        if isinstance(node, dict):
            for key, value in (node.get("properties") or {}).items():
                if isinstance(value, dict) and not value.get("description"):
                    missing.append(f"{where}: {key}")
            for value in node.values():
                walk(value, where)
        elif isinstance(node, list):
            for value in node:
                walk(value, where)
    schemas = sorted((ROOT / "dsl" / "schemas").glob("*.json"))
    assert len(schemas) >= 6
    for path in schemas:
        walk(json.loads(path.read_text(encoding="utf-8")), path.name)
    assert missing == []


def test_two_mods_replacing_the_same_name_is_an_error_naming_both(tmp_path):
    one, two = tmp_path / "one.yaml", tmp_path / "two.yaml"
    one.write_text("macros:\n  compete(f, tile): |\n    pass\n", encoding="utf-8")
    two.write_text("mod: two\nmacros:\n  compete(f, tile): |\n    pass\n", encoding="utf-8")
    load_ruleset("original", mods=[str(one)])   # one mod replacing a macro of the ruleset is fine
    with pytest.raises(RuleErrors) as caught:
        load_ruleset("original", mods=[str(one), str(two)])
    assert [str(e) for e in caught.value.errors] == [
        f"{two}:3:3: two mods replace macro 'compete': {one} and {two} (the last would silently win) "
        f"(the other is at {one}:2:3)"]
    change = tmp_path / "change.yaml"
    change.write_text("mod: change\ncards:\n  disease:\n    text: Nothing.\n", encoding="utf-8")
    again = tmp_path / "again.yaml"
    again.write_text("mod: again\ncards:\n  disease:\n    text: Something.\n", encoding="utf-8")
    with pytest.raises(RuleErrors) as caught:
        load_ruleset("original", mods=[str(change), str(again)])
    assert [e.message for e in caught.value.errors] == [
        f"two mods replace card 'disease': {change} and {again} (the last would silently win)"]


def test_a_variant_file_is_given_by_its_path(tmp_path, capsys):
    variant = tmp_path / "rich.yaml"
    variant.write_text("variant: rich\ntitle: Rich start\ntables:\n  bonus: {1: 2}\n", encoding="utf-8")
    ruleset = load_ruleset("original", [str(variant)])
    assert ruleset.variant_titles == {str(variant): "Rich start"} and ruleset.constants["bonus"] == {1: 2}
    assert main(["check", "original", "--variant", str(variant)]) == 0
    assert main(["check", str(variant)]) == 0
    out = capsys.readouterr().out
    assert f"{variant}: names no ruleset; checked against each built-in one (evolution, marine, original): it fits" in out
    scenario = tmp_path / "rich_bonus.yaml"   # a scenario names it by a path from its own folder
    scenario.write_text("scenario: rich\nruleset: original\nvariants: [rich.yaml]\nplayers: 2\n"
                        "expect:\n  - that: bonus[1] == 2\n", encoding="utf-8")
    assert main(["scenario", str(scenario)]) == 0
    with pytest.raises(RuleErrors) as caught:
        load_ruleset("original", ["nowhere"])
    assert caught.value.errors[0].hint == "a variant file elsewhere is given by its path, e.g. --variant my/variant.yaml"


def test_a_card_file_in_a_mod_folder_is_named_after_its_card(tmp_path):
    folder = _mod(tmp_path, {"mod.yaml": "mod: gentle\ntargets: [original]\n", "cards/mycard.yaml": CARD})
    with pytest.raises(RuleErrors) as caught:
        load_ruleset("original", mods=[str(folder)])
    assert [str(e) for e in caught.value.errors] == [
        f"{folder / 'cards' / 'mycard.yaml'}:1:7: card file should be named 'windfall.yaml' after its card"]
    (folder / "cards" / "mycard.yaml").rename(folder / "cards" / "windfall.yaml")
    load_ruleset("original", mods=[str(folder)])
    # a mod of one file is named as the mod (docs/marine.md: my_asteroid.yaml replaces Asteroid)
    lone = tmp_path / "mycard.yaml"
    lone.write_text(CARD, encoding="utf-8")
    assert "windfall" in load_ruleset("original", mods=[str(lone)]).cards


def test_check_a_file_of_a_mod_folder_checks_the_whole_mod(capsys):
    card = ROOT / "tests" / "support" / "fixtures" / "mods" / "windfall" / "cards" / "windfall.yaml"
    assert main(["check", str(card)]) == 0   # its own function and macro are the mod's
    out = capsys.readouterr().out
    assert f"{card}: part of the mod in {card.parent.parent}; checking that mod" in out
    assert "brings card windfall, function windfall_vp, macro take_windfall" in out
