"""How good a position is for each seat, from the ruleset's own functions.

The evaluation is the ruleset's ``evaluate(player)`` function when its rule files declare one
(strategy hints written as rules), else its ``score(player)``. Search agents call these only on
determinized copies (``SeatView.determinize``), never on the real game.
"""
from __future__ import annotations

import marshal
import math
from collections.abc import Sequence

from ..interpreter.game import Game


class Snapshot:
    """A game frozen once (without its log), to copy many times: the copies to search in."""

    __slots__ = ("ruleset", "lang", "frozen")

    def __init__(self, game: Game):
        self.ruleset, self.lang = game.ruleset, game.lang
        state = {key: value for key, value in game.state.items() if key != "log"}
        self.frozen = marshal.dumps(state)  # marshal: the fastest deep copy of plain data

    def copy(self) -> Game:
        """A fresh copy without a log (which only grows and no search reads); it keeps none:
        log lines are not even formatted."""
        state = marshal.loads(self.frozen)
        state["log"] = []
        twin = Game(self.ruleset, state, self.lang)
        twin.keep_log = False
        return twin


def evaluation_name(ruleset) -> str:
    """The rule function that values a position for one player."""
    return ruleset.conventions.get("evaluate") or ruleset.conventions["score"]


def evaluations(game: Game) -> list[float]:
    """The evaluation of every player (by seat)."""
    name = evaluation_name(game.ruleset)
    return [float(game.evaluate(name, player)) for player in game.state["players"]]


def margin(values: Sequence[float], seat: int) -> float:
    """How far *seat* is ahead of the best other seat (negative: behind)."""
    others = [v for i, v in enumerate(values) if i != seat]
    return values[seat] - (max(others) if others else 0.0)


def results(game: Game) -> list[float]:
    """Each seat's result in [0, 1]: at the end, 1 for the winner (shared on a tie with no
    winner); before it, how far each seat is ahead of the best other by the evaluation, against
    the size of the evaluations, squashed into [0, 1]."""
    count = len(game.state["players"])
    if game.is_over:
        winner = game.winner
        if winner is not None:
            return [1.0 if seat == winner else 0.0 for seat in range(count)]
        scores = game.scores
        best = [seat for seat in range(count) if scores[seat] == max(scores)]
        return [1.0 / len(best) if seat in best else 0.0 for seat in range(count)]
    values = evaluations(game)
    scale = 1.0 + sum(abs(v) for v in values) / (2 * count)  # a lead of half the mean value: 0.88
    return [0.5 + 0.5 * math.tanh(margin(values, seat) / scale) for seat in range(count)]
