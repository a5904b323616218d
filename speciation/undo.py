"""Undo of a person's last decision (with the agents' replies after it), for any table: the
terminal (:mod:`speciation.terminal`) and the web table (:mod:`speciation.table.session`).

An :class:`UndoStack` is built on the seats that are people; before each of their decisions
it keeps a checkpoint (a copy of the game). Undo is refused where it would let a player take
back a move after learning something hidden: when chance was drawn since (the RNG state or
the chance script changed), when anything hidden from that seat at the decision has become
visible since, or when another person decided since. Nothing here knows any game.
"""
from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Iterable

from .i18n import Text
from .interpreter.game import Game


class UndoRefused(Exception):
    """An undo that would reveal, or take back, what it may not."""


@dataclass
class Checkpoint:
    """The state just before a person's decision."""

    game: Game                        # a copy of the game (state and whatever else it keeps)
    seat: int
    prompt: str
    hidden: list[tuple[str, str]]     # (entity, attribute) hidden from the seat then


class UndoStack:
    """The checkpoints before the decisions of the seats in *people*, latest last."""

    def __init__(self, game: Game, people: Iterable[int]):
        self.game = game
        self.people = frozenset(people)
        self.checkpoints: list[Checkpoint] = []

    def checkpoint(self, seat: int) -> Checkpoint:
        """The game as it is now, before *seat* decides (kept only once :meth:`push` ed)."""
        view = self.game.view(seat)
        state = self.game.state
        hidden = [(ident, attr) for ident, record in state["ent"].items()
                  for attr, value in record.items() if view["ent"][ident].get(attr) != value]
        return Checkpoint(self.game.clone(), seat, self.game.prompt, hidden)

    def push(self, checkpoint: Checkpoint) -> None:
        """Keep *checkpoint*: its seat has taken the decision (a seat that is no person's is
        not kept: only people undo)."""
        if checkpoint.seat in self.people:
            self.checkpoints.append(checkpoint)

    def last(self, seat: int) -> Checkpoint | None:
        return next((c for c in reversed(self.checkpoints) if c.seat == seat), None)

    def refusal(self, seat: int) -> str | None:
        """Why *seat* cannot take back its last decision now (None: it can)."""
        mark = self.last(seat)
        if mark is None:
            return Text("there is no decision of yours to undo")
        if self.checkpoints[-1] is not mark:
            return Text("another player has decided since")
        before, now = mark.game.state, self.game.state
        if before["rng"] != now["rng"] or before["chance"] != now["chance"]:
            return Text("chance has been drawn since (something hidden may have been revealed)")
        view = self.game.view(seat)
        for ident, attr in mark.hidden:
            truth = now["ent"].get(ident, {}).get(attr)
            if view["ent"].get(ident, {}).get(attr) == truth and truth != before["ent"][ident][attr]:
                return Text("something hidden from you has been revealed since ({what})", what=self.game.label(ident))
        return None

    def undo(self, seat: int) -> str:
        """Take back *seat*'s last decision and every agent's reply after it (in the same
        Game object: seat handles stay valid); returns the prompt it is back at. Raises
        :class:`UndoRefused` with the reason when it may not."""
        reason = self.refusal(seat)
        if reason is not None:
            raise UndoRefused(reason)
        mark = self.checkpoints.pop()
        self.game.restore(mark.game)  # the same Game object (its language kept): seat handles stay valid
        return mark.prompt
