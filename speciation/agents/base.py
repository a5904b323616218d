"""Agents that make a game's decisions, and the loop that plays a game with them.

>>> from speciation import Game, load_ruleset
>>> game = Game.new(load_ruleset("tests/fixtures/toy"), players=2, seed=3)  # doctest: +SKIP
>>> play_game(game, [RandomAgent(3, 0), RandomAgent(3, 1)]).is_over  # doctest: +SKIP
True
"""
from __future__ import annotations

from typing import Callable, Protocol, Sequence

from ..interpreter.game import Action, Game


class Agent(Protocol):
    """Anything that picks one of the legal actions of the pending decision."""

    def choose(self, game: Game) -> Action:
        ...


class QuitGame(Exception):
    """A human player asked to stop the game."""


class GameTooLong(Exception):
    """A game went on for more actions than allowed (a rules loop, most likely)."""


def make_agents(spec: str, players: int, seed: int = 0) -> list[Agent]:
    """Agents from a comma list such as "human,random": one name per player, or
    one name for everybody. Raises ValueError for an unknown name or a wrong count."""
    names = [n.strip().lower() for n in spec.split(",") if n.strip()] or ["random"]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"--agents names {len(names)} agents for {players} players")
    from .human import HumanAgent
    from .random_agent import RandomAgent
    agents: list[Agent] = []
    for seat, name in enumerate(names):
        if name == "random":
            agents.append(RandomAgent(seed, seat))
        elif name == "human":
            agents.append(HumanAgent())
        else:
            raise ValueError(f"unknown agent '{name}' (use random or human)")
    return agents


def play_game(game: Game, agents: Sequence[Agent], on_log: Callable[[str], None] | None = None,
              max_actions: int | None = None) -> Game:
    """Let each player's agent decide until the game is over; returns the game.

    *on_log* receives every new log line, before each decision and at the end.
    Rule errors (:class:`RuleRuntimeError`) and :class:`QuitGame` propagate."""
    shown = game.log_size
    taken = 0
    while not game.is_over:
        shown = _flush(game, on_log, shown)
        if max_actions is not None and taken >= max_actions:
            raise GameTooLong(f"the game did not end within {max_actions} actions")
        game.apply(agents[game.current_player].choose(game))
        taken += 1
    _flush(game, on_log, shown)
    return game


def _flush(game: Game, on_log: Callable[[str], None] | None, shown: int) -> int:
    """Send the log lines from *shown* on; returns the new count."""
    if on_log is not None:
        for line in game.log_since(shown):
            on_log(line)
    return game.log_size
