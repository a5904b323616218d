"""Undo of a person's last decision (with the agents' replies after it), for any table: the
terminal (:mod:`speciation.terminal`) and the web table (:mod:`speciation.table.session`).

An :class:`UndoStack` is built on the seats that are people; before each of their decisions
it keeps a checkpoint: the decision's number, the random state and scripted chance, and what
was hidden from that seat then. Undo is refused where it would let a player take back a move
after learning something hidden: when chance was drawn since (the RNG state or the chance
script changed), when anything hidden from that seat at the decision has become visible
since, or when another person decided since. Nothing here knows any game.

Memory is bounded by the game's size, not its length, and a checkpoint copies no state: the
stack keeps one copy of the state (its *anchor*), made again once the game has gone
:data:`EVERY` decisions past it, and comes back to a checkpoint by taking a copy of the anchor
on through the game's own history (``game.history``), or, for a checkpoint older than the
anchor, by replaying the history from the start. A game without a history (scripted chance,
a resumed checkpoint without one) cannot replay: there each checkpoint keeps a copy of the
state, and only the latest :data:`SNAPSHOTS` of them do (an older one is out of reach).
"""
from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .dsl.errors import SpeciationError
from .i18n import Text
from .interpreter.game import Game
from .interpreter.statecopy import clone_state
from .interpreter.saves import replay, replay_on
from .interpreter.views import copy_plain, hide, seat_index

EVERY = 16      # decisions the game goes past the anchor (the stack's copy of the state) before a new one
SNAPSHOTS = 4   # a game without a history: checkpoints that keep a copy of the state


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
    state: dict | None = None         # a copy of the state (a game without a history: the latest SNAPSHOTS)


def _hidden_from(game: Game, seat: int) -> Iterable[tuple[tuple[str, str], Any]]:
    """((entity, attribute), value) of every attribute the seat's view shows otherwise than it
    is: each record hidden as ``game.view(seat)`` hides it (the interpreter's own ``hide``,
    which replaces an attribute and never changes a value inside one, so a shallow copy of the
    record will do), without copying the rest of the state for a whole view. A record with
    none of the attributes the ruleset hides anything in is shown as it is, and skipped."""
    rules, me = game.ruleset.hidden, game.state["players"][seat_index(game, seat)]
    hideable = rules.attributes
    for ident, record in game.state["ent"].items():
        if hideable.isdisjoint(record):
            continue
        shown = dict(record)
        hide(shown, me, rules)
        for attr, value in record.items():
            if attr in hideable and shown[attr] != value:
                yield (ident, attr), value


class UndoStack:
    """The checkpoints before the decisions of the seats in *people*, latest last, and the
    anchor undo comes back from (a game without a history: the latest *snapshots*
    checkpoints keep a copy of the state instead)."""

    def __init__(self, game: Game, people: Iterable[int], snapshots: int = SNAPSHOTS, every: int = EVERY):
        self.game = game
        self.people = frozenset(people)
        self.snapshots = max(1, snapshots)
        self.every = max(1, every)
        self.checkpoints: list[Checkpoint] = []
        self.anchor: tuple[int, dict] | None = None   # (decision number, a copy of the state then)

    def checkpoint(self, seat: int) -> Checkpoint:
        """The game as it is now, before *seat* decides (kept only once :meth:`push` ed)."""
        game = self.game
        state = game.state
        hidden = {key: copy_plain(value) for key, value in _hidden_from(game, seat)}
        snapshot = None
        if seat in self.people:
            if not game.replayable:
                snapshot = clone_state(state)   # (a copy of the state, no game around it)
            elif self.anchor is None or game.decision_number - self.anchor[0] >= self.every:
                self.anchor = (game.decision_number, clone_state(state))
        return Checkpoint(seat, game.prompt, game.decision_number, copy_plain(state["rng"]),   # (a stream per source is a dict the
                          copy.deepcopy(state["chance"]), hidden, snapshot)                      # game changes in place)

    def push(self, checkpoint: Checkpoint) -> None:
        """Keep *checkpoint*: its seat has taken the decision (a seat that is no person's is
        not kept: only people undo). The copy of the state of a checkpoint older than the
        latest :attr:`snapshots` is dropped."""
        if checkpoint.seat not in self.people:
            return
        self.checkpoints.append(checkpoint)
        if len(self.checkpoints) > self.snapshots:
            self.checkpoints[-self.snapshots - 1].state = None

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
        """What to restore to come back to *mark*: its copy of the state, or a copy of the
        anchor (or the game's start) taken on through the history up to *mark*'s decision,
        which becomes the anchor."""
        game = self.game
        history = game.history
        if history is not None and len(history["decisions"]) >= mark.number:
            history["decisions"] = history["decisions"][:mark.number]
        else:
            history = None
        if mark.state is not None:
            return {"ruleset": game.ruleset.digest, "decisions": mark.number, "history": history,
                    "state": mark.state}
        anchor = self.anchor if self.anchor is not None and self.anchor[0] <= mark.number else None
        try:
            if history is None:
                again = None
            elif anchor is None:
                again = replay(game.ruleset, history)
            else:
                again = replay_on(Game(game.ruleset, clone_state(anchor[1]), history=history, decisions=anchor[0]),
                                  history)
        except SpeciationError:
            again = None
        if again is None or again.decision_number != mark.number:
            raise UndoRefused("that decision is too far back to undo")
        self.anchor = (mark.number, again.state)   # (restore copies what it is given)
        return {"ruleset": game.ruleset.digest, "decisions": mark.number, "history": history,
                "state": again.state}
