"""The function memo is invisible: the same actions give the same game with it and without it
(with it, state checks are not made again while nothing they read changed: without, always)."""
from __future__ import annotations

import random

import pytest

from speciation import Game, load_ruleset


class Forgetful(dict):
    """A memo that remembers nothing."""

    def __setitem__(self, key, value):
        pass


@pytest.mark.parametrize("name,players,seed", [("original", 4, 3), ("original", 6, 8), ("marine", 3, 5),
                                               ("catastrophic", 3, 2), ("catastrophic", 4, 7)])
def test_memoised_and_plain_games_never_differ(name, players, seed):
    ruleset = load_ruleset(name)
    fast, plain = Game.new(ruleset, players=players, seed=seed), None
    plain = Game.new(ruleset, players=players, seed=seed, start=False)
    plain._machine.memo, plain._machine.static_memo = Forgetful(), Forgetful()
    plain._machine.start("main")
    plain._machine.run()
    chooser = random.Random(seed)
    for _ in range(400):
        if fast.is_over:
            break
        assert [a.value for a in fast.legal_actions()] == [a.value for a in plain.legal_actions()]
        value = chooser.choice(fast.legal_actions()).value
        fast.apply(value, decision=fast.decision_id)
        plain.apply(value, decision=plain.decision_id)
        assert fast.digest() == plain.digest()
