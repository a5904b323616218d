"""The one loop that plays a game with agents.

Every place that lets agents play uses it: ``speciation play`` (through the terminal's
:class:`speciation.terminal.TerminalSession`), batches and ``speciation simulate``
(:mod:`speciation.batch`), balance studies (:mod:`speciation.balance.runner`) and the agents'
moves at the web table (:class:`speciation.table.session.TableGame`).

>>> from speciation import Game, load_ruleset
>>> from speciation.agents import RandomAgent
>>> game = Game.new(load_ruleset("tests/support/fixtures/toy"), players=2, seed=3)  # doctest: +SKIP
>>> play(game, [RandomAgent(3, 0), RandomAgent(3, 1)]).completed  # doctest: +SKIP
True
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from .agents.base import Agent, GameTooLong, UndoRequest, seat_views
from .interpreter.game import Action, Game
from .outcome import GameOutcome, describe


def play(game: Game, agents: Sequence[Agent] | Mapping[int, Agent], *, max_actions: int | None = None,
         decisions: int | None = None, on_log: Callable[[str], None] | None = None,
         before_decision: Callable[[int], None] | None = None,
         after_decision: Callable[[int, Action], None] | None = None,
         on_undo: Callable[[UndoRequest], None] | None = None) -> GameOutcome:
    """Let the agent of the seat whose decision is pending decide, through its seat's
    :class:`~speciation.agents.SeatView`, until the game is over; returns its outcome.

    Limits: after *max_actions* actions a game not over raises :class:`GameTooLong` (a rules
    loop, most likely); after *decisions* actions the loop returns with the game not over
    (a pause: ``completed`` is False). *on_log* receives every new log line (every seat's,
    private ones marked with whom they are for), before each decision and at the end.
    *before_decision(seat)* is called before the seat's agent is asked, *after_decision(seat,
    action)* once the game has applied its action. An agent that asks to undo
    (:class:`UndoRequest`) is handed to *on_undo*, and the loop goes on from whatever
    decision is then pending; without *on_undo* the request propagates, as do rule errors,
    :class:`~speciation.agents.QuitGame` and :class:`GameTooLong`.

    The outcome of a game that ended is read from the ruleset's functions
    (:meth:`GameOutcome.read`); a rule function that fails there is recorded in ``error``."""
    seats = seat_views(game)
    shown = game.log_size
    taken = 0
    while not game.is_over:
        shown = _flush(game, on_log, shown)
        if decisions is not None and taken >= decisions:
            break
        if max_actions is not None and taken >= max_actions:
            raise GameTooLong(f"the game did not end within {max_actions} actions")
        seat = game.current_player
        assert seat is not None  # a game not over has a player to decide
        if before_decision is not None:
            before_decision(seat)
        try:
            action = agents[seat].choose(seats[seat])
        except UndoRequest as request:
            if on_undo is None:
                raise
            on_undo(request)
            shown = min(shown, game.log_size)
            continue
        game.apply(action)
        taken += 1
        if after_decision is not None:
            after_decision(seat, action)
    _flush(game, on_log, shown)
    return _outcome(game)


def _outcome(game: Game) -> GameOutcome:
    outcome = GameOutcome(seed=int(game.state.get("seed", 0)), actions=game.state["steps"])
    if game.is_over:
        try:
            outcome.read(game)
        except Exception as error:  # a scoring function that fails: recorded, never raised here
            outcome.error = describe(error)
    return outcome


def _flush(game: Game, on_log: Callable[[str], None] | None, shown: int) -> int:
    """Send the log lines from *shown* on; returns the new count."""
    if on_log is not None:
        for line in game.log_since(shown):
            on_log(line)
    return game.log_size
