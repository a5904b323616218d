"""How a game came out: :class:`GameOutcome`, the one result type of a played game.

The play loop (:func:`speciation.play.play`) returns one; batches and ``speciation simulate``
keep one per game, and a balance study wraps one with its own extra fields
(:class:`speciation.balance.runner.GameRecord`). Plain data: it travels between processes and
into JSON files.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .dsl.errors import SpeciationError
from .interpreter.game import Game


@dataclass
class GameOutcome:
    """One played game. ``completed``: over and its outcome read; ``error``: why not (a rule
    error, an agent that failed, a game too long); ``stopped``: not over after the allowed
    actions (reported by a study, not counted). ``actions`` counts every decision the game
    took, ``seconds`` the CPU time of the process that played it (set by whoever times it)."""

    index: int = 0
    seed: int = 0
    completed: bool = False
    actions: int = 0
    turns: Any = None
    winner: int | None = None
    winner_label: str | None = None
    scores: list = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None
    ending: str | None = None
    stopped: bool = False

    def read(self, game: Game) -> GameOutcome:
        """Fill in how the finished *game* came out, from the ruleset's own functions where
        it declares them (``ruleset.conventions``): ``scores``, ``winner`` (seat), ``turns``
        (``turn_count``), ``winner_label`` (else the winning seat's name in the game's
        language) and ``ending`` (``end_reason``). Raises what a rule function raises
        (nothing is filled in then)."""
        conventions = game.ruleset.conventions
        found: dict[str, Any] = {"scores": game.scores, "winner": game.winner}
        if "turn_count" in conventions:
            found["turns"] = game.evaluate(conventions["turn_count"])
        if "winner_label" in conventions:
            found["winner_label"] = str(game.evaluate(conventions["winner_label"]))
        elif found["winner"] is not None:
            found["winner_label"] = game.label(game.state["players"][found["winner"]])
        if "end_reason" in conventions:
            found["ending"] = str(game.evaluate(conventions["end_reason"]))
        for key, value in found.items():
            setattr(self, key, value)
        self.completed = True
        return self


def describe(error: BaseException) -> str:
    """An error as an outcome records it: a rule error's own message, else its type and text."""
    if isinstance(error, SpeciationError):
        return str(error)
    return f"{type(error).__name__}: {error}"
