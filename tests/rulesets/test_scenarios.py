"""Every scenario file under tests/scenarios is a test: rulebook examples and cards."""
from __future__ import annotations

from pathlib import Path

import pytest

from speciation.scenarios import run_scenario_file

ROOT = Path(__file__).parents[1] / "scenarios"
FILES = sorted(ROOT.rglob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_scenario(path):
    result = run_scenario_file(path)
    assert result.passed, result.reason


def test_every_card_has_a_scenario():
    from speciation import load_ruleset
    cards = set(load_ruleset("original").cards)
    covered = {p.stem for p in (ROOT / "original" / "cards").glob("*.yaml")}
    assert cards - covered == set()


def test_card_files_are_named_after_their_cards():
    from speciation import load_ruleset
    from speciation.interpreter.ruleset import slug
    for card in load_ruleset("original").cards.values():
        assert Path(card.path).stem == slug(card.name)
