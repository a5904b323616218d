"""A person at the terminal."""
from __future__ import annotations

from typing import Callable

from ..interpreter.game import Action
from .base import QuitGame, SeatView


class HumanAgent:
    """Asks a person: shows the prompt and the numbered options, reads a number.
    'q' (or the end of input) quits; anything else unusable asks again."""

    def __init__(self, read: Callable[[str], str] = input, write: Callable[[str], None] = print):
        self.read = read
        self.write = write

    def choose(self, seat: SeatView) -> Action:
        actions = seat.legal_actions()
        self.write(f"{seat.label(seat.actor)}: {seat.prompt or 'choose'}")
        for number, action in enumerate(actions, 1):
            self.write(f"  {number}. {action.label}")
        while True:
            try:
                answer = self.read(f"choice [1-{len(actions)}, q to quit]: ").strip().lower()
            except EOFError:
                raise QuitGame() from None
            if answer in ("q", "quit"):
                raise QuitGame()
            if answer.isdigit() and 1 <= int(answer) <= len(actions):
                return actions[int(answer) - 1]
            self.write(f"please type a number from 1 to {len(actions)}, or q to quit")
