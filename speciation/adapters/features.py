"""A seat's position as a list of numbers of fixed length, for learning agents (the OpenSpiel
adapter's observation tensor, the PettingZoo environment's ``features``).

The numbers come from the ruleset: its ``features(player)`` function when its rule files
declare one (a strategy hint, like ``evaluate``), else each player's ``score``, the observing
seat's first. They are computed on a copy of the game determinized for the seat (seeded by the
decision number and the seat, so the same position gives the same numbers), so they read
only what the seat may see. A list may hold lists (flattened in order); true and false count
1 and 0. Nothing here knows a game.
"""
from __future__ import annotations

import random

from ..dsl.errors import RuleRuntimeError
from ..interpreter.determinize import determinize
from ..interpreter.game import Game

FUNCTION = "features"  # the convention (role) whose function gives the numbers


def seat_features(game: Game, seat: int) -> list[float]:
    """The numbers describing *game* as seat *seat* (0-based) sees it."""
    rng = random.Random(f"features:{game.decision_number}:{seat}")
    copy = determinize(game, seat, rng, False)
    players = game.state["players"]
    conventions = game.ruleset.conventions
    if FUNCTION in conventions:
        value = copy.evaluate(conventions[FUNCTION], players[seat])
    else:
        value = [copy.evaluate(conventions["score"], players[(seat + i) % len(players)]) for i in range(len(players))]
    out: list[float] = []
    _flatten(value, out)
    return out


def feature_count(ruleset, players: int) -> int:
    """How many numbers a seat's features hold in a game of *players* players (the same all
    game: checked by :func:`checked_features`)."""
    return len(seat_features(Game.new(ruleset, players, 0), 0))


def checked_features(game: Game, seat: int, count: int) -> list[float]:
    """:func:`seat_features`, refused with a clear error unless it holds *count* numbers."""
    values = seat_features(game, seat)
    if len(values) != count:
        raise RuleRuntimeError(f"{FUNCTION}(player) gave {len(values)} numbers at decision "
                               f"{game.decision_number + 1}, but {count} at the start of the game: "
                               "it must give the same number of values all game")
    return values


def _flatten(value, out: list[float]) -> None:
    if isinstance(value, list):
        for item in value:
            _flatten(item, out)
    elif isinstance(value, (bool, int, float)):
        out.append(float(value))
    else:
        raise RuleRuntimeError(f"{FUNCTION}(player) must give numbers, true/false, or lists of them, "
                               f"not {value!r:.60}")
