"""The greedy agent: looks one decision ahead and takes the best by the evaluation."""
from __future__ import annotations

import random
from collections.abc import Sequence

from ..interpreter.game import Action, Game
from .base import SeatView
from .evaluation import Snapshot, evaluations, margin
from .holding import hold_off


class GreedyAgent:
    """For each legal action, on a determinized copy of the game (the same copy for every
    action), takes the action and lets the rules run to the next decision (its own or
    another's; chance on the way is the copy's); then values the position by the evaluation
    (its lead over the best other seat) and picks the best, breaking ties at random.

    Options: ``samples`` (determinizations averaged per decision, default 1)."""

    def __init__(self, seed: int = 0, seat: int = 0, samples: int = 1):
        self.rng = random.Random(f"speciation-greedy:{seed}:{seat}")
        self.samples = max(1, int(samples))
        self.last_values: dict[str, float] = {}

    def choose(self, seat: SeatView) -> Action:
        actions = seat.legal_actions()
        if len(actions) == 1:
            return actions[0]
        held = hold_off(seat.ruleset, actions)  # nothing to answer with: hold priority off
        if held is not None:
            return held
        totals = [0.0] * len(actions)
        for _ in range(self.samples):
            for number, value in enumerate(lookahead(seat.determinize(self.rng, log=False), actions, seat.seat)):
                totals[number] += value
        self.last_values = dict(zip((repr(a.value) for a in actions), totals))  # for tests and tools
        best = max(totals)
        return self.rng.choice([a for a, t in zip(actions, totals) if t == best])


def lookahead(base: Game, actions: Sequence[Action], seat: int) -> list[float]:
    """For each action, on its own copy of *base* (a determinized game): take it, let the
    rules run to the next decision, and value the position for *seat* by the evaluation (its
    lead over the best other seat; a finished game won by *seat* counts above all).

    *base* is valued first and every copy starts from the rule-function values it remembers
    (``Game.share_remembered``): the rules forget only those an action's statements make
    stale, so most of the evaluation is looked up, not run again (the values, hence the
    choices, are the same as from a cold copy)."""
    found = []
    evaluations(base)  # values every copy starts from: after an action only what it changed is valued again
    snapshot = Snapshot(base)
    for action in actions:
        game = snapshot.copy()
        game.share_remembered(base)
        game.apply(action.value, decision=game.decision_id)
        values = game.scores if game.is_over else evaluations(game)
        bonus = 1e6 if game.is_over and game.winner == seat else 0.0
        found.append(margin(values, seat) + bonus)
    return found
