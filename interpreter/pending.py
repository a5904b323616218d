"""The pending decisions of a game, one per deciding seat: :meth:`Game.decisions`.

Most of the time one seat decides and the list holds one :class:`Decision`, the game's
pending decision (``Game.legal_actions()``, ``decision_id``, ``prompt``,
``current_player`` are its). While the seats of a ``simultaneously`` statement decide
(:mod:`.fibers`), each has its own, listed in seat order; ``Game.apply(action,
decision=id)`` takes the action of any of them, and the game's single-decision
properties refer to the first. A decision's id names the game and the decision:
``token/number`` for an ordinary one (the number of decisions taken before it), and
``token/asked:k`` for seat part *k* of a simultaneous statement (asked after *asked*
steps); an id from before (answered, or of another game) is refused.
"""
from __future__ import annotations

from typing import Any, NoReturn

from ..dsl.errors import IllegalActionError
from . import fibers, visibility
from .actions import EMPTY, LegalActions, Offer


class Decision:
    """One pending decision: whose (``player``, the seat index, and ``actor``, the entity
    deciding), its ``id``, ``prompt`` (in the game's language), whether it may be
    declined (``optional``) and ``legal_actions()`` (as ``Game.legal_actions()``; each
    action carries this decision's id, so ``game.apply(action)`` routes it here)."""

    __slots__ = ("_game", "_fiber", "pending", "player", "id")

    def __init__(self, game, fiber: int | None, pending: dict):
        self._game, self._fiber, self.pending = game, fiber, pending
        self.player: int = game.player_of(pending["actor"])
        self.id: str = game.decision_id if fiber is None else fiber_id(game, pending)

    @property
    def actor(self) -> Any:
        return self.pending["actor"]

    @property
    def optional(self) -> bool:
        return bool(self.pending["optional"])

    @property
    def private(self) -> bool:
        return bool(self.pending.get("private"))

    @property
    def prompt(self) -> str:
        game = self._game
        if self._fiber is None:
            return game.prompt
        with _in_fiber(game, self._fiber):
            return game._machine.shown_prompt()

    def legal_actions(self) -> LegalActions:
        game = self._game
        if self._fiber is None:
            return game.legal_actions()
        return fiber_actions(game, self._fiber, self.pending)

    def __repr__(self) -> str:
        return f"Decision(player={self.player}, id={self.id!r}, prompt={self.prompt!r})"


def fiber_id(game, pending: dict) -> str:
    k, asked = pending["fiber"]
    return f"{game._token}/{asked}:{k}"


def _in_fiber(game, k: int):
    state = game.state
    return fibers.inside(game._machine, state["stack"][-1][2][k])


def fiber_actions(game, k: int, pending: dict) -> LegalActions:
    """The legal actions of fiber *k*'s pending decision (*pending*)."""
    if pending is None:
        return EMPTY
    fiber = game.state["stack"][-1][2][k]
    stack = fiber["stack"]
    offer = Offer(game._machine, pending, fiber_id(game, pending), stack[stack[-1][3]][2])
    return LegalActions(pending["options"], offer, pending["optional"])


def decisions(game) -> list[Decision]:
    """Every pending decision, one per deciding seat, in seat order (none once over)."""
    return [Decision(game, k, pending) for k, pending in fibers.pendings(game.state)]


def find(game, decision: Any) -> tuple[int, dict] | None:
    """The fiber index and pending decision a simultaneous decision id names, or None."""
    for k, pending in fibers.pendings(game.state):
        if k is not None and fiber_id(game, pending) == decision:
            return k, pending
    return None


def refuse(game, decision: Any, pending: dict) -> NoReturn:
    """Raise the reason why *decision* is not a pending decision of *game*."""
    now = f"the pending decision {game.decision_number + 1} ('{pending['prompt'] or pending['var']}')"
    token, _, number = decision.partition("/") if isinstance(decision, str) else ("", "", "")
    asked, _, part = number.partition(":")
    if not (token and asked.isdigit() and (not part or part.isdigit())):
        raise IllegalActionError(f"{str(decision)[:40]!r} is not a decision id; {now} is {game.decision_id}")
    if token != game._token:
        raise IllegalActionError(f"this action was offered by another game; {now} is this game's")
    if part:
        raise IllegalActionError(f"this action answers a decision of this game (seat part {int(part) + 1} of a "
                                 f"simultaneous statement, asked after {asked} decisions) that is not pending now")
    raise IllegalActionError(f"this action answers decision {int(asked) + 1} of this game, not {now}")


def unnamed(game, action: Any) -> None:
    """Refuse a bare value while several decisions are pending (it names none of them)."""
    seats = ", ".join(str(d.player) for d in decisions(game))
    raise IllegalActionError(
        f"{game._machine.label(action)!r} names no decision while seats {seats} all decide: apply an "
        "Action from a decision's legal_actions(), or a value with the id of the decision it answers: "
        "apply(value, decision=d.id) for d in game.decisions()")


def log_choice(game, pending: dict, value: Any) -> None:
    """The log line of a choice: a private one (or a seat's part of a simultaneous
    statement's) only its player reads."""
    machine = game._machine
    if not machine.names and not machine.phrases and not pending.get("private") and "fiber" not in pending:
        # no language: the prompt shown is the one the pending decision keeps (shown_prompt)
        choice = visibility.seen_label(machine, value) if value is not None else "passes"
        if choice is not None:  # (None: it names what some seat may not see)
            actor = pending["actor"]
            record = machine.ent.get(actor) if actor.__class__ is str else None
            if record is not None and record.get("name").__class__ is str:  # (Machine.label, written out)
                line = f"  {record['name']}: {pending['prompt'] or pending['var']} → {choice}"
            else:
                line = f"  {machine.label(actor)}: {pending['prompt'] or pending['var']} → {choice}"
            machine.add_log_line(line, line)
            return
    label = machine.label
    choice = label(value) if value is not None else machine.names.get("passes", "passes")
    head = f"  {label(pending['actor'])}: {machine.shown_prompt() or pending['var']} → "
    line = head + choice
    if pending.get("private") or "fiber" in pending:  # a secret choice: only its player reads it
        owner = game.state["players"][game.player_of(pending["actor"])]
        machine.add_log_line([owner, line], line)
    elif value is not None and visibility.mentions_unseen(machine, (value,)):  # it names what some seat does not see
        lines = visibility.log_lines(machine, (value,), lambda label: head + label(value))
        if lines is None:
            machine.add_log_line(line, line)
        else:
            for each in lines:
                machine.add_log_line(each, each if isinstance(each, str) else each[1])
    else:
        machine.add_log_line(line, line)
