"""The random agent: a uniform pick among the legal actions."""
from __future__ import annotations

import random

from ..interpreter.game import Action
from .base import SeatView


class RandomAgent:
    """Picks uniformly among the legal actions, with its own random generator
    (independent of the game's, so the game's chance is not disturbed)."""

    def __init__(self, seed: int = 0, seat: int = 0):
        self.rng = random.Random(f"speciation-agent:{seed}:{seat}")

    def choose(self, seat: SeatView) -> Action:
        return self.rng.choice(seat.legal_actions())
