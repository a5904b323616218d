"""The greedy agent: looks one decision ahead and takes the best by the evaluation."""
from __future__ import annotations

import random

from ..interpreter.game import Action
from .base import SeatView
from .evaluation import evaluations, margin, scratch_copy


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
        totals = [0.0] * len(actions)
        for _ in range(self.samples):
            base = seat.determinize(self.rng, log=False)
            for number, action in enumerate(actions):
                game = scratch_copy(base)
                game.apply(action.value)
                values = game.scores if game.is_over else evaluations(game)
                bonus = 1e6 if game.is_over and game.winner == seat.seat else 0.0
                totals[number] += margin(values, seat.seat) + bonus
        self.last_values = dict(zip((repr(a.value) for a in actions), totals))  # for tests and tools
        best = max(totals)
        return self.rng.choice([a for a, t in zip(actions, totals) if t == best])
