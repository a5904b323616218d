"""The random agent: a uniform pick among the legal actions."""
from __future__ import annotations

import random

from ..interpreter.game import Action, Game


class RandomAgent:
    """Picks uniformly among the legal actions, with its own random generator
    (independent of the game's, so the game's chance is not disturbed)."""

    def __init__(self, seed: int = 0, seat: int = 0):
        self.rng = random.Random(f"speciation-agent:{seed}:{seat}")

    def choose(self, game: Game) -> Action:
        return self.rng.choice(game.legal_actions())
