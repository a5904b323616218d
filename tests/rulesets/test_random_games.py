"""Random games of the original game finish, for every player count and every variant."""
from __future__ import annotations

import pytest

from speciation import load_ruleset
from speciation.simulation import play_random_game

CASES = [((), n) for n in range(2, 7)] + [(("random_earth",), n) for n in range(2, 7)] + \
        [(("multi_animal",), n) for n in (2, 3)] + [(("multi_animal", "random_earth"), n) for n in (2, 3)]


@pytest.mark.parametrize("variants,players", CASES, ids=[f"{'+'.join(v) or 'base'}-{n}p" for v, n in CASES])
def test_random_game_finishes(variants, players):
    ruleset = load_ruleset("original", variants=list(variants))
    result = play_random_game(ruleset, players=players, seed=players * 7)
    assert result.completed, result.error
    assert result.turns >= 1 and len(result.scores) == players
    assert all(score >= 0 for score in result.scores)
