"""Undo of a person's last decision (with the agents' replies after it), for any table: the
terminal (:mod:`speciation.terminal`) and the web table (:mod:`speciation.table.session`).

An :class:`UndoStack` is built on the seats that are people; before each of their decisions
it keeps a checkpoint: the decision's number, the random state and scripted chance, and what
was hidden from that seat then. Undo is refused where it would let a player take back a move
after learning something hidden: when chance was drawn since (the RNG state or the chance
script changed), when anything hidden from that seat at the decision has become visible
since, or when another person decided since. Nothing here knows any game.

Memory is bounded by the game's size, not its length: only the latest :data:`SNAPSHOTS`
checkpoints keep a copy of the state; an older one is reached by replaying the game's own
history (``game.history``) up to its decision, and checked against the digest of the state
it had (a game without a history cannot go back further than its snapshots).
"""
from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .dsl.errors import SpeciationError
from .i18n import Text
from .interpreter.game import Game, state_digest
from .interpreter.statecopy import clone_state
from .interpreter.saves import replay
from .interpreter.views import hide, seat_index

SNAPSHOTS = 4   # checkpoints that keep a copy of the state; older ones replay the history


class UndoRefused(Exception):
    """An undo that would reveal, or take back, what it may not."""


@dataclass
class Checkpoint:
    """The game just before a person's decision: enough to refuse an undo, and to come back."""

    seat: int
    prompt: str
    number: int                       # the game's decision number then (decisions taken)
    rng: Any                          # the random state then
    chance: Any                       # the scripted chance then (a copy)
    hidden: dict[tuple[str, str], Any]  # (entity, attribute) hidden from the seat -> its value then
    state: dict | None = None         # a copy of the state (only the latest SNAPSHOTS keep one)
    digest: str = ""                  # the state's digest, kept when the copy is dropped


def _hidden_from(game: Game, seat: int) -> Iterable[tuple[tuple[str, str], Any]]:
    """((entity, attribute), value) of every attribute the seat's view shows otherwise than it
    is: each record hidden as ``game.view(seat)`` hides it (the interpreter's own ``hide``,
    which replaces an attribute and never changes a value inside one, so a shallow copy of the
    record will do), without copying the rest of the state for a whole view."""
    rules, me = game.ruleset.hidden, game.state["players"][seat_index(game, seat)]
    for ident, record in game.state["ent"].items():
        shown = dict(record)
        hide(shown, me, rules)
        for attr, value in record.items():
            if shown.get(attr) != value:
                yield (ident, attr), value


class UndoStack:
    """The checkpoints before the decisions of the seats in *people*, latest last; the latest
    *snapshots* of them keep a copy of the state."""

    def __init__(self, game: Game, people: Iterable[int], snapshots: int = SNAPSHOTS):
        self.game = game
        self.people = frozenset(people)
        self.snapshots = max(1, snapshots)
        self.checkpoints: list[Checkpoint] = []

    def checkpoint(self, seat: int) -> Checkpoint:
        """The game as it is now, before *seat* decides (kept only once :meth:`push` ed)."""
        game = self.game
        state = game.state
        hidden = {key: copy.deepcopy(value) for key, value in _hidden_from(game, seat)}
        snapshot = clone_state(state) if seat in self.people else None   # (a copy of the state, no game around it)
        return Checkpoint(seat, game.prompt, game.decision_number, state["rng"],
                          copy.deepcopy(state["chance"]), hidden, snapshot)

    def push(self, checkpoint: Checkpoint) -> None:
        """Keep *checkpoint*: its seat has taken the decision (a seat that is no person's is
        not kept: only people undo). The copy of the state of a checkpoint older than the
        latest :attr:`snapshots` is dropped (its digest kept)."""
        if checkpoint.seat not in self.people:
            return
        self.checkpoints.append(checkpoint)
        if len(self.checkpoints) > self.snapshots:
            old = self.checkpoints[-self.snapshots - 1]
            if old.state is not None:
                old.digest, old.state = state_digest(old.state), None

    def last(self, seat: int) -> Checkpoint | None:
        return next((c for c in reversed(self.checkpoints) if c.seat == seat), None)

    def refusal(self, seat: int, view: dict | None = None) -> str | None:
        """Why *seat* cannot take back its last decision now (None: it can). *view*: the
        seat's view now, if the caller has it (it is not changed)."""
        mark = self.last(seat)
        if mark is None:
            return Text("there is no decision of yours to undo")
        if self.checkpoints[-1] is not mark:
            return Text("another player has decided since")
        now = self.game.state
        if mark.rng != now["rng"] or mark.chance != now["chance"]:
            return Text("chance has been drawn since (something hidden may have been revealed)")
        view = view if view is not None else self.game.view(seat)
        for ident, attr in mark.hidden:
            truth = now["ent"].get(ident, {}).get(attr)
            if view["ent"].get(ident, {}).get(attr) == truth:  # changed and shown, or shown ('reveal')
                return Text("something hidden from you has been revealed since ({what})", what=self.game.label(ident))
        return None

    def undo(self, seat: int) -> str:
        """Take back *seat*'s last decision and every agent's reply after it (in the same
        Game object: seat handles stay valid); returns the prompt it is back at. Raises
        :class:`UndoRefused` with the reason when it may not."""
        reason = self.refusal(seat)
        if reason is not None:
            raise UndoRefused(reason)
        mark = self.checkpoints[-1]
        self.game.restore(self._point(mark))  # the same Game object (its language kept)
        self.checkpoints.pop()
        return mark.prompt

    def _point(self, mark: Checkpoint) -> dict:
        """What to restore to come back to *mark*: its copy of the state, or the game replayed
        from its history up to *mark*'s decision (checked against the digest kept)."""
        game = self.game
        history = game.history
        if history is not None and len(history["decisions"]) >= mark.number:
            history["decisions"] = history["decisions"][:mark.number]
        else:
            history = None
        if mark.state is not None:
            return {"ruleset": game.ruleset.digest, "decisions": mark.number, "history": history,
                    "state": mark.state}
        try:
            again = replay(game.ruleset, history) if history is not None else None
        except SpeciationError:
            again = None
        if again is None or again.digest() != mark.digest:
            raise UndoRefused("that decision is too far back to undo")
        return {"ruleset": game.ruleset.digest, "decisions": mark.number, "history": history,
                "state": again.state}
