"""The MCTS agent: information-set Monte Carlo tree search over determinizations.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012) for any number of players: every
iteration deals a fresh determinization of what the seat cannot see, walks one shared tree
whose edges are actions (each node's actor picks by UCB1 on its *own* result, among the
actions legal in this determinization), adds one node, plays on with a fast policy for at
most ``cutoff`` decisions, and values the end (or the cut-off position, by the evaluation) as
one result in [0, 1] per seat, which every node on the path adds up.
"""
from __future__ import annotations

import math
import random
import time

from ..interpreter.game import Action, Game
from .base import SeatView
from .evaluation import results
from .greedy import lookahead


class _Node:
    __slots__ = ("children", "visits", "available", "totals", "seat")

    def __init__(self, seat: int | None):
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.available = 0  # how often this node's action was legal when its parent was visited
        self.totals: list[float] | None = None
        self.seat = seat  # who acted to reach this node


class MctsAgent:
    """Options: ``iterations`` (default 200), ``cutoff`` (playout decisions before the
    evaluation values the position, default 0), ``seconds`` (time budget per decision, CPU
    time, default 1.5), ``explore`` (the UCB1 constant, default 0.7), ``width`` (the search
    considers only the best ``width`` of the seat's actions by a one-decision lookahead, as
    the greedy agent values them; 0: all of them; default 0)."""

    def __init__(self, seed: int = 0, seat: int = 0, iterations: int = 200, cutoff: int = 0,
                 seconds: float = 1.5, explore: float = 0.7, width: int = 0):
        self.rng = random.Random(f"speciation-mcts:{seed}:{seat}")
        self.iterations = max(1, int(iterations))
        self.cutoff = max(0, int(cutoff))
        self.seconds = float(seconds)
        self.explore = float(explore)
        self.width = max(0, int(width))
        self.last_visits: dict[str, int] = {}

    def choose(self, seat: SeatView) -> Action:
        actions = seat.legal_actions()
        if len(actions) == 1:
            return actions[0]
        root = _Node(None)
        deadline = time.process_time() + self.seconds if self.seconds > 0 else math.inf
        if self.width and len(actions) > self.width:
            actions = self._best(seat, actions)
            if len(actions) == 1:
                return actions[0]
        allowed = {repr(a.value) for a in actions}
        for _ in range(self.iterations):
            self._iterate(root, seat.determinize(self.rng, log=False), allowed)
            if time.process_time() >= deadline:
                break
        self.last_visits = {key: child.visits for key, child in root.children.items()}  # for tests, tools
        by_key = {repr(a.value): a for a in actions}
        visited = [(child.visits, key) for key, child in root.children.items() if key in by_key]
        if not visited:
            return self.rng.choice(actions)
        best = max(v for v, _ in visited)
        return by_key[self.rng.choice(sorted(k for v, k in visited if v == best))]

    def _best(self, seat: SeatView, actions: list[Action]) -> list[Action]:
        """The ``width`` actions with the best one-decision lookahead (ties at random)."""
        values = lookahead(seat.determinize(self.rng, log=False), actions, seat.seat)
        ranked = sorted(zip(values, [self.rng.random() for _ in actions], range(len(actions))), reverse=True)
        return [actions[i] for _, _, i in ranked[:self.width]]

    def _iterate(self, root: _Node, game: Game, allowed: set[str]) -> None:
        path = [root]
        node = root
        while not game.is_over:  # selection and expansion
            seat = game.current_player
            legal = {repr(v): v for v in _values(game)}
            if node is root:
                legal = {k: v for k, v in legal.items() if k in allowed}
            untried = [k for k in legal if k not in node.children]
            for key in legal:
                if key in node.children:
                    node.children[key].available += 1
            if untried:
                key = self.rng.choice(untried)
                child = node.children[key] = _Node(seat)
                child.available = 1
                game.apply(legal[key])
                path.append(child)
                break
            key = max(legal, key=lambda k: self._ucb(node.children[k], seat))
            node = node.children[key]
            game.apply(legal[key])
            path.append(node)
        for _ in range(self.cutoff):  # playout
            if game.is_over:
                break
            game.apply(self.rng.choice(_values(game)))
        values = results(game)
        for node in path:
            node.visits += 1
            if node.totals is None:
                node.totals = [0.0] * len(values)
            for i, value in enumerate(values):
                node.totals[i] += value

    def _ucb(self, node: _Node, seat: int) -> float:
        mean = node.totals[seat] / node.visits
        return mean + self.explore * math.sqrt(math.log(max(node.available, 1)) / node.visits)


def _values(game: Game) -> list:
    """The raw values of the legal actions (cheaper than labelled Actions)."""
    pending = game.pending
    values = list(pending["options"])
    if pending["optional"]:
        values.append(None)
    return values
