"""What every agent shares: the seat handle it decides through (:class:`SeatView`), the
:class:`Agent` protocol, and the exceptions an agent or the play loop raises.

An agent never holds the :class:`Game`: it is given a :class:`SeatView`, which shows only
what its seat may see (the seat's view, its own log lines, the legal actions when it is the
seat's turn) and can make a *determinized* copy of the game (everything hidden from the seat
resampled), the only full game an agent may search. See ``docs/agents.md``.

This module imports no agent and nothing that uses agents (the agents import it; the
names are made by :mod:`.registry`; games are played by :func:`speciation.play.play`).
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from ..interpreter.determinize import determinize, share_public
from ..interpreter.game import Action, Game
from ..interpreter.trial import Trial


class SeatView:
    """What one seat may know of a game in progress, and the seat's decisions.

    ``seat`` is the player's index (0-based). Everything here is safe for the seat: nothing
    reads what the ruleset hides from it (its ``hidden`` section: ``order``, ``contents``,
    ``private``), others' private choices and log lines, the random generator)."""

    __slots__ = ("_game", "seat")

    def __init__(self, game: Game, seat: int):
        self._game = game
        self.seat = seat

    @property
    def decision_number(self) -> int:
        """How many decisions the game has taken (every seat may know it)."""
        return self._game.decision_number

    @property
    def streams(self) -> str:
        """How the game draws chance: ``"single"`` or ``"per_source"`` (``interpreter/rng.py``;
        public, as the game's history says; not what it draws)."""
        return "per_source" if isinstance(self._game.state["rng"], dict) else "single"

    @property
    def players(self) -> int:
        """How many players the game has."""
        return len(self._game.state["players"])

    @property
    def ruleset(self):
        """The rules (public: every seat knows them)."""
        return self._game.ruleset

    @property
    def my_turn(self) -> bool:
        """Is a pending decision this seat's? (While several seats decide at once, each of
        them has its own: ``Game.decisions()``.)"""
        pending = self._game.state["pending"]
        if pending is not None and "fiber" in pending:
            return self._own() is not None
        return self._game.current_player == self.seat

    def _own(self):
        """This seat's pending decision while several seats decide at once, or None."""
        return next((d for d in self._game.decisions() if d.player == self.seat), None)

    @property
    def decision_id(self) -> str | None:
        """The id of this seat's pending decision (None when it has none)."""
        if not self.my_turn:
            return None
        own = self._own() if "fiber" in self._game.state["pending"] else None
        return own.id if own is not None else self._game.decision_id

    @property
    def is_over(self) -> bool:
        return self._game.is_over

    @property
    def actor(self) -> Any:
        """Who decides now (a player, or an entity a player controls; this seat's own while
        several decide at once); public."""
        own = self._own() if self._simultaneous else None
        return own.actor if own is not None else self._game.current_actor

    @property
    def current_player(self) -> int | None:
        """The seat deciding now (the first of several), or None when the game is over."""
        return self._game.current_player

    @property
    def deciding(self) -> list[int]:
        """The seats with a pending decision (several while they decide at once); public."""
        return [d.player for d in self._game.decisions()]

    @property
    def _simultaneous(self) -> bool:
        pending = self._game.state["pending"]
        return pending is not None and "fiber" in pending

    @property
    def prompt(self) -> str:
        """The prompt of this seat's pending decision ("" when it is not its turn)."""
        if self._simultaneous:
            own = self._own()
            return own.prompt if own is not None else ""
        return self._game.prompt if self.my_turn else ""

    def legal_actions(self) -> Sequence[Action]:
        """The legal actions of this seat's pending decision ([] when it is not its turn).
        Each action names its decision: ``game.apply(action)`` answers this seat's."""
        if self._simultaneous:
            own = self._own()
            return own.legal_actions() if own is not None else []
        return self._game.legal_actions() if self.my_turn else []

    def view(self) -> dict:
        """The seat's view of the state (``Game.view``): a fresh copy, safe to keep or change."""
        return self._game.view(self.seat)

    def log(self, start: int = 0) -> list[str]:
        """The log lines this seat may read, from number *start* on."""
        return self._game.log_for(self.seat)[start:]

    def label(self, value: Any) -> str:
        """The display name of a value (an entity, a list, a number), in the game's language."""
        return self._game.label(value)

    @property
    def lang(self) -> str | None:
        """The language names are shown in (presentation only; None: the rule files' names)."""
        return self._game.lang

    def determinize(self, rng: random.Random, log: bool = True) -> Game:
        """A full copy of the game in which everything hidden from this seat is resampled
        (using *rng*, the agent's own generator) consistently with what the seat has seen;
        an agent may search it freely (``interpreter/determinize.py``). With ``log=False`` the copy
        has an empty log and keeps none (cheaper, for searches). While several seats decide at
        once, the copy's pending decision is this seat's (its ``decision_id``, ``legal_actions()``).
        A copy without a log is for searching: it shares with the game the values no statement
        writes (``determinize(..., share=True)``), so it must change only through its rules
        (``apply``), never by hand, and be dropped once the agent has chosen."""
        copy = determinize(self._game, self.seat, rng, log, share=not log)
        copy.keep_log = log
        return copy

    def recall(self, copy: Game) -> None:
        """Let *copy*, a determinized copy of the game not yet changed, start from the values
        the game remembers of the rule functions that read nothing hidden
        (``determinize.public_functions``: the same in the game and in every copy of it, so
        nothing the seat may not see is passed). Only speed changes."""
        share_public(self._game, copy)

    def trial(self, copy: Game) -> Trial:
        """``copy.trial()`` for *copy*, a determinized copy of the game not yet changed: its
        snapshot shares the game's records that hold nothing hidden (the same in both) instead
        of copying them (``interpreter/trial.py``). The game does not change while the agent
        decides, and the trial only reads them; use it only during ``choose``."""
        return Trial(copy, origin=self._game)

    def remember(self, copy: Game) -> None:
        """Let the game keep the values of the rule functions that read nothing hidden which
        *copy*, a determinized copy of it not yet changed, has found: they are the game's own
        values, and the next copies start from them (:meth:`recall`) until an action makes
        them stale. Only speed changes."""
        share_public(copy, self._game)


class Agent(Protocol):
    """Anything that picks one of the legal actions of its seat's pending decision."""

    def choose(self, seat: SeatView) -> Action:
        ...


class QuitGame(Exception):
    """A human player asked to stop the game."""


class GameTooLong(Exception):
    """A game went on for more actions than allowed (a rules loop, most likely)."""


class UndoRequest(Exception):
    """Raised by an interactive agent (inside ``choose``) to ask to take back its seat's last
    decision; the play loop hands it to whoever keeps the undo (``play(..., on_undo=...)``)."""

    def __init__(self, seat: int):
        super().__init__(seat)
        self.seat = seat


def seat_views(game: Game) -> list[SeatView]:
    """One handle per seat of *game*."""
    return [SeatView(game, seat) for seat in range(len(game.state["players"]))]
