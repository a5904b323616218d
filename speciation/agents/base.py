"""Agents that make a game's decisions, the seat handle they decide through, and the loop
that plays a game with them.

An agent never holds the :class:`Game`: it is given a :class:`SeatView`, which shows only
what its seat may see (the seat's view, its own log lines, the legal actions when it is the
seat's turn) and can make a *determinized* copy of the game (everything hidden from the seat
resampled), the only full game an agent may search. See ``docs/agents.md``.

>>> from speciation import Game, load_ruleset
>>> game = Game.new(load_ruleset("tests/fixtures/toy"), players=2, seed=3)  # doctest: +SKIP
>>> play_game(game, [RandomAgent(3, 0), RandomAgent(3, 1)]).is_over  # doctest: +SKIP
True
"""
from __future__ import annotations

import inspect
import random
from typing import Any, Callable, Protocol, Sequence

from ..interpreter.game import Action, Game


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
    def players(self) -> int:
        """How many players the game has."""
        return len(self._game.state["players"])

    @property
    def ruleset(self):
        """The rules (public: every seat knows them)."""
        return self._game.ruleset

    @property
    def my_turn(self) -> bool:
        """Is the pending decision this seat's?"""
        return self._game.current_player == self.seat

    @property
    def is_over(self) -> bool:
        return self._game.is_over

    @property
    def actor(self) -> Any:
        """Who decides now (a player, or an entity a player controls); public."""
        return self._game.current_actor

    @property
    def current_player(self) -> int | None:
        """The seat deciding now, or None when the game is over."""
        return self._game.current_player

    @property
    def prompt(self) -> str:
        """The prompt of this seat's pending decision ("" when it is not its turn)."""
        return self._game.prompt if self.my_turn else ""

    def legal_actions(self) -> list[Action]:
        """The legal actions of this seat's pending decision ([] when it is not its turn)."""
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
        an agent may search it freely (``Game.determinize``). With ``log=False`` the copy
        has an empty log and keeps none (cheaper, for searches)."""
        copy = self._game.determinize(self.seat, rng, log)
        copy.keep_log = log
        return copy


class Agent(Protocol):
    """Anything that picks one of the legal actions of its seat's pending decision."""

    def choose(self, seat: SeatView) -> Action:
        ...


class QuitGame(Exception):
    """A human player asked to stop the game."""


class GameTooLong(Exception):
    """A game went on for more actions than allowed (a rules loop, most likely)."""


AGENT_NAMES = ("random", "greedy", "mcts", "human")


def make_agents(spec: str, players: int, seed: int = 0) -> list[Agent]:
    """Agents from a comma list such as "human,mcts:iterations=400:cutoff=10,greedy": one
    per player, or one for everybody. Each is a name and options ``:key=value``. Raises
    ValueError for an unknown name or option, or a wrong count."""
    specs = [n.strip() for n in spec.split(",") if n.strip()] or ["random"]
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise ValueError(f"--agents names {len(specs)} agents for {players} players")
    return [make_agent(text, seed, seat) for seat, text in enumerate(specs)]


def make_agent(spec: str, seed: int = 0, seat: int = 0) -> Agent:
    """One agent from "name" or "name:key=value:key=value"."""
    from .greedy import GreedyAgent
    from .human import HumanAgent
    from .mcts import MctsAgent
    from .random_agent import RandomAgent
    name, *parts = [p.strip() for p in spec.split(":")]
    name = name.lower()
    options: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise ValueError(f"agent option '{part}' is not key=value (in '{spec}')")
        options[key.strip()] = _number(value.strip())
    makers = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MctsAgent}
    if name == "human":
        if options:
            raise ValueError("the human agent takes no options")
        return HumanAgent()
    if name not in makers:
        raise ValueError(f"unknown agent '{name}' (use {', '.join(AGENT_NAMES)})")
    try:
        return makers[name](seed, seat, **options)
    except TypeError:
        known = [p for p in inspect.signature(makers[name]).parameters if p not in ("seed", "seat")]
        raise ValueError(f"agent '{name}' has options {', '.join(known) or 'none'}, not "
                         f"{', '.join(options)}") from None


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def seat_views(game: Game) -> list[SeatView]:
    """One handle per seat of *game*."""
    return [SeatView(game, seat) for seat in range(len(game.state["players"]))]


def play_game(game: Game, agents: Sequence[Agent], on_log: Callable[[str], None] | None = None,
              max_actions: int | None = None) -> Game:
    """Let each player's agent decide, through its seat's :class:`SeatView`, until the game
    is over; returns the game.

    *on_log* receives every new log line, before each decision and at the end.
    Rule errors (:class:`RuleRuntimeError`) and :class:`QuitGame` propagate."""
    seats = seat_views(game)
    shown = game.log_size
    taken = 0
    while not game.is_over:
        shown = _flush(game, on_log, shown)
        if max_actions is not None and taken >= max_actions:
            raise GameTooLong(f"the game did not end within {max_actions} actions")
        player = game.current_player
        game.apply(agents[player].choose(seats[player]))
        taken += 1
    _flush(game, on_log, shown)
    return game


def _flush(game: Game, on_log: Callable[[str], None] | None, shown: int) -> int:
    """Send the log lines from *shown* on; returns the new count."""
    if on_log is not None:
        for line in game.log_since(shown):
            on_log(line)
    return game.log_size
