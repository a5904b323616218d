"""Every vocabulary entry of the shipped editions is described and has an example that runs
(issue 23, deliverable 3); the examples runner reports failures with their place."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from speciation.cli import main
from speciation.examples import missing, run_examples, split_example
from speciation.vocabulary import vocabulary

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "support" / "fixtures" / "toy"


@pytest.mark.parametrize("edition", ["original", "marine", "evolution", "catastrophic"])
def test_every_function_macro_attribute_and_event_has_a_description_and_an_example(edition):
    assert missing(edition) == []


@pytest.mark.parametrize("edition", ["original", "marine", "evolution", "catastrophic"])
def test_every_example_of_the_shipped_editions_holds(edition):
    results = run_examples(edition)
    assert len(results) >= {"original": 150, "marine": 140, "evolution": 130, "catastrophic": 85}[edition]
    assert [r.line() for r in results if not r.passed] == []


def test_the_events_are_listed_with_their_values_and_description():
    events = {e.name: e for e in vocabulary("marine").section("event")}
    assert {"vp_gained", "species_added", "eliminated", "tile_added", "tile_scored", "acted",
            "card_enters", "evolution_scored", "retrieved", "trait_lost", "trait_taken"} <= set(events)
    assert events["vp_gained"].signature == "vp_gained(f, n)"
    assert "gained n VP" in events["vp_gained"].doc
    assert events["trait_lost"].signature == "trait_lost(f, c)"


def test_split_example_keeps_separators_inside_strings():
    assert split_example('log("a; b => c"); x.vp = 1 => x.vp == 1') == (['log("a; b => c")', "x.vp = 1"], "x.vp == 1")
    assert split_example("len([1, 2]) == 2") == ([], "len([1, 2]) == 2")


def _toy_with(tmp_path: Path, comment_lines: list[str]) -> Path:
    folder = tmp_path / "toy"
    shutil.copytree(TOY, folder)
    rules = folder / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    block = "".join(f"  # {line}\n" for line in comment_lines)
    rules.write_text(text.replace("  score(p): p.vp\n", block + "  score(p): p.vp\n"), encoding="utf-8")
    return folder


def test_a_false_example_and_a_broken_one_are_reported_with_their_place(tmp_path, capsys):
    folder = _toy_with(tmp_path, ["A player's score.", "Example: setup_helper(p1, 4) => score(p1) == 4",
                                  "Example: score(p1) == 3", "Example: score(p1 == 0"])
    results = run_examples(str(folder))
    assert [r.passed for r in results] == [True, False, False]
    assert "rules.yaml:" in results[1].reason and "'score(p1) == 3' is false" in results[1].reason
    assert "rules.yaml:" in results[2].reason and "error" in results[2].reason
    assert main(["list", str(folder), "examples"]) == 1
    out = capsys.readouterr().out
    assert "1 passed, 2 failed" in out and "Traceback" not in out


def test_an_undescribed_name_is_reported(tmp_path):
    folder = _toy_with(tmp_path, [])
    assert any("function score has no description and example" in line for line in missing(str(folder)))
    assert main(["list", "original", "examples"]) == 0
