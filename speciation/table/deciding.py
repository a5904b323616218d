"""Who decides now at a table game: every pending decision, one per deciding seat (several at
once while the rules let seats decide simultaneously), and a recorded decision applied to
the pending decision it answered.

The game API lists the pending decisions (``Game.decisions()``: each with its seat
``player``, its ``id``, ``actor``, ``prompt``, ``optional`` and ``legal_actions()``); a page,
an agent or a replay acts on one of them by its id. Nothing here knows any game.
"""
from __future__ import annotations

from typing import Any

from ..agents.base import SeatView
from ..dsl.errors import IllegalActionError
from ..interpreter.game import Game


def decisions_of(game: Game) -> list:
    """The pending decisions of *game*, in seat order (none once it is over)."""
    if game.is_over:
        return []
    return game.decisions()


def deciders(game: Game) -> list[int]:
    """The seats that must decide now, in seat order."""
    return [d.player for d in decisions_of(game)]


def decision_of(game: Game, seat: int | None) -> Any:
    """Seat *seat*'s pending decision, or None when it has none (a spectator has none)."""
    if seat is None:
        return None
    return next((d for d in decisions_of(game) if d.player == seat), None)


def by_id(game: Game, ident: Any) -> Any:
    """The pending decision whose id is *ident*, or None (an answered or foreign one)."""
    return next((d for d in decisions_of(game) if d.id == ident), None)


def apply_recorded(game: Game, actor: Any, value: Any) -> None:
    """Apply a decision of a game's history (``[actor, value]``) to the pending decision of
    that actor (the history records who answered, in the order they answered)."""
    pending = decisions_of(game)
    if not pending:
        raise IllegalActionError("the game is over; no recorded decision applies")
    found = next((d for d in pending if d.actor == actor), None)
    if found is None:
        who = ", ".join(game.label(d.actor) for d in pending)
        raise IllegalActionError(f"the recorded decision is {game.label(actor)}'s, but {who} decides now")
    game.apply(value, decision=found.id)


def simultaneous(game: Game) -> bool:
    """Whether several seats decide now, or a seat decides in its own part of a simultaneous
    step (whose prompt may name what it chose there, hidden from the others)."""
    pending = decisions_of(game)
    return len(pending) > 1 or any(_in_part(d) for d in pending)


def _in_part(decision: Any) -> bool:
    pending = getattr(decision, "pending", None)
    return isinstance(pending, dict) and pending.get("fiber") is not None


def play_seat(game: Game, agents: Any, seat: int) -> None:
    """Let *seat*'s agent make its pending decision, through its seat's view."""
    apply_choice(game, seat, agents[seat].choose(SeatView(game, seat)))


def apply_choice(game: Game, seat: int, action: Any) -> None:
    """Apply *action*, one of *seat*'s legal actions chosen by its agent (here, or in a worker
    process: thinker.py): as the play loop applies it when the seat is the only one deciding,
    else to the seat's own decision by id (the others' decisions stay pending)."""
    pending = decisions_of(game)
    if len(pending) == 1 and pending[0].player == seat:
        game.apply(action)
        return
    decision = decision_of(game, seat)
    if decision is None:
        raise IllegalActionError(f"seat {seat + 1} has no decision pending")
    game.apply(action, decision=decision.id)


def decision_id(game: Game, seat: int | None) -> str | None:
    """The id a seat's page answers with: its own pending decision's, else the first's."""
    own = decision_of(game, seat)
    return own.id if own is not None else game.decision_id


def next_deciding(deciding: list[int], seats: list[int], shown: int | None) -> int | None:
    """Hot-seat (a page acting for the person seats *seats*, showing seat *shown*): the seat
    to hand the screen over to, or None to stay. It stays while the seat shown must decide;
    else it goes to the first of its seats that must (several decide at once: one after
    another, each behind a hand-over screen)."""
    mine = [seat for seat in deciding if seat in seats]
    return None if not mine or shown in mine else mine[0]
