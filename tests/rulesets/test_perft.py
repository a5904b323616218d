"""Perft-style counts: from each named position of tests/perft/*.yaml, the numbers of legal
action sequences of length 1..depth are as recorded; on a mismatch the failure lists every
option of the position with its subtree count, expected against got (docs/testing.md)."""
from __future__ import annotations

import copy

import pytest

from support.perft import Position, all_positions

POSITIONS = all_positions()


@pytest.mark.parametrize("position", [p for _, p in POSITIONS],
                         ids=[f"{path.stem}: {p.name}" for path, p in POSITIONS])
def test_counts_are_as_recorded(position):
    report = position.difference()
    if report:
        pytest.fail(report, pytrace=False)


@pytest.mark.parametrize("position", [p for _, p in POSITIONS],
                         ids=[f"{path.stem}: {p.name}" for path, p in POSITIONS])
def test_each_record_adds_up(position):
    recorded = position.recorded()
    assert len(recorded["counts"]) == position.entry["depth"]
    assert len(recorded["divide"]) == recorded["counts"][0]
    assert sum(n for _, n in recorded["divide"]) == recorded["counts"][-1]


def test_both_editions_and_variants_have_positions():
    rulesets = {p.entry["ruleset"] for _, p in POSITIONS}
    varied = {p.entry["ruleset"] for _, p in POSITIONS if p.entry.get("variants")}
    assert rulesets == varied == {"original", "marine"}


def test_a_changed_count_names_the_option_expected_and_got():
    position = next(p for _, p in POSITIONS if p.entry["depth"] >= 3)
    got = copy.deepcopy(position.recorded())
    label, count = got["divide"][1]
    got["divide"][1][1] = count + 1
    got["counts"][-1] += 1
    report = position.difference(got)
    assert f"perft position '{position.name}' differs" in report
    changed = [line for line in report.splitlines() if line.lstrip().startswith("!=")]
    assert len(changed) == 1 and label in changed[0]
    assert changed[0].split()[-2:] == [str(count), str(count + 1)]


def test_an_option_no_longer_offered_is_listed():
    position = Position({"name": "x", "depth": 1, "actor": "a", "prompt": "p", "counts": [2],
                         "divide": [["one", 1], ["two", 1]]})
    got = {"actor": "a", "prompt": "p", "counts": [1], "divide": [["one", 1]]}
    report = position.difference(got)
    assert "expected [2], got [1]" in report
    assert any(line.split() == ["!=", "two", "1", "-"] for line in report.splitlines())
