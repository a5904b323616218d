"""docs/scenarios.md: its examples run and pass, its helpers exist; the new scenario features
(checkpoints, partial options, expressions, refusals, log and view, seeds, the note on
decisions the rules settled) report what the docs say."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from speciation.interpreter.ruleset import load_ruleset
from speciation.scenarios import run_scenario_file

DOC = Path(__file__).resolve().parents[2] / "docs" / "scenarios.md"
TEXT = DOC.read_text(encoding="utf-8")
EXAMPLES = [m.group(1) for m in re.finditer(r"^```yaml\n(scenario:.*?)^```$", TEXT, re.M | re.S)
            if re.search(r"^ruleset: (original|marine)$", m.group(1), re.M)]


def _run(tmp_path, text: str):
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return run_scenario_file(path)


def test_the_docs_have_runnable_examples_of_both_editions():
    assert len(EXAMPLES) >= 4
    assert any("ruleset: marine" in e for e in EXAMPLES) and any("ruleset: original" in e for e in EXAMPLES)


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.splitlines()[0][10:50] for e in EXAMPLES])
def test_doc_example_passes(tmp_path, example):
    result = _run(tmp_path, example)
    assert result.passed, result.reason


def test_every_documented_helper_exists_in_its_editions():
    section = TEXT.split("## Helpers a scenario may call", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)\([^)]*\)` \| ([a-z, ]+) \|", section, re.M)
    assert len(rows) >= 10
    rulesets = {name: load_ruleset(name) for name in ("original", "marine")}
    for helper, editions in rows:
        for edition in editions.split(", "):
            ruleset = rulesets[edition]
            assert helper in ruleset.macros or helper in ruleset.functions, (helper, edition)


def _disease(tmp_path, choices: str, expect: str = "  - game.bag == [water, grub]\n") -> str:
    base = EXAMPLES[0]
    assert base.startswith("scenario: Disease")
    head = base.split("choices:\n")[0]
    result = _run(tmp_path, head + "choices:\n" + choices + "expect:\n" + expect)
    assert not result.passed
    return result.reason


def test_failures_say_what_went_wrong(tmp_path):
    reason = _disease(tmp_path, "  - {refuse: grass}\n  - water\n")
    assert "expected grass to be refused, but it was accepted" in reason
    reason = _disease(tmp_path, "  - {pick: water, expect_options: {includes: [sun], excludes: [grass]}}\n")
    assert "expected options: ['sun'] not offered and ['grass'] offered" in reason
    reason = _disease(tmp_path, "  - {pick: water, expect: [\"reptile.added == []\"]}\n")
    assert "after choice 1" in reason and "expected reptile.added == []" in reason
    reason = _disease(tmp_path, "  - water\n", "  - {log_contains: Birds loses sun}\n  - {view: 9, lacks: x}\n")
    assert "expected the log to contain 'Birds loses sun', but it does not" in reason
    assert "no seat 9" in reason


def test_a_choice_error_notes_the_decisions_the_rules_settled(tmp_path):
    reason = _disease(tmp_path, "  - water\n  - {by: bird, pick: grub}\n")
    assert "1 choice(s) left unused" in reason
    assert re.search(r"note: since the previous choice the rules settled 1 decision\(s\) by themselves .*"
                     r"'e' at .*disease\.yaml:15:\d+ → grub", reason), reason


def test_seeds_run_each_and_name_the_failing_one(tmp_path):
    reason = _run(tmp_path, "scenario: s\nruleset: original\nplayers: 2\nseeds: [4, 5]\nsetup: |\n"
                            "  start_position([mammal, reptile])\nexpect:\n  - game.slots[0] == none\n").reason
    assert reason.startswith("with seed 4: ")
