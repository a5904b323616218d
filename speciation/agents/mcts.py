"""The MCTS agent: information-set Monte Carlo tree search over determinizations, guided by
the one-decision lookahead.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012) for any number of players: every
iteration deals a fresh determinization of what the seat cannot see and walks one shared tree
whose edges are actions; each node's actor picks on its *own* result, among the actions legal
in this determinization. A node met for the first time is *expanded*: each of its actions is
valued by the lookahead the greedy agent uses (take it, let the rules run to the next
decision, evaluate every seat), and those values are the children's priors: each counts as one
visit, and a node considers its children best prior first, a few more as its visits grow
(progressive widening, Coulom 2007; Chaslot et al. 2008). So the other seats first answer as
the lookahead would, and the search spends its time on the seat's best candidates, looking
deeper where they are close. A new node's value is its actor's best prior (after ``cutoff``
random decisions from there, when asked for), one result in [0, 1] per seat, which every node
on the path adds up.

Two details matter when the lookahead sees little. Equal priors are ordered at random (when
a choice only pays off at a later decision of the same seat, every action looks alike one
decision ahead, and widening must not favour the ones whose keys sort first). And UCB1 compares
the candidates' mean results rescaled to [0, 1] among them (min-max, as MuZero normalises its
values): a seat far behind or far ahead sees all its results squashed near 0 or 1, and without
the rescaling the exploration term alone would decide.
"""
from __future__ import annotations

import math
import random
import time

from ..interpreter.game import Action, Game
from .base import SeatView
from .evaluation import Snapshot, results
from .holding import hold_off


class _Node:
    __slots__ = ("children", "priors", "order", "visits", "totals", "actor", "ties")

    def __init__(self):
        self.children: dict[str, _Node] = {}
        self.priors: dict[str, list[float]] | None = None  # the lookahead's result per action
        self.order: list[str] = []  # the actions, best prior for the actor first
        self.visits = 0
        self.totals: list[float] | None = None
        self.actor = 0  # who decides here
        self.ties: dict[str, float] = {}  # a random tie-break between equal priors


class MctsAgent:
    """Options: ``iterations`` (default 300), ``cutoff`` (random decisions played from a new
    node before the evaluation values the position, default 0), ``seconds`` (time budget per
    decision, CPU time, default 0.5), ``explore`` (the UCB1 constant on results rescaled to [0, 1]
    among a node's candidates, default 1), ``width``
    (the seat considers at most its best ``width`` actions by the lookahead; 0: all of them;
    default 0), ``widen`` (a node considers its best ``widen`` × √visits children; 0: all of
    them; default 1)."""

    def __init__(self, seed: int = 0, seat: int = 0, iterations: int = 300, cutoff: int = 0,
                 seconds: float = 0.5, explore: float = 1.0, width: int = 0, widen: float = 1.0):
        self.rng = random.Random(f"speciation-mcts:{seed}:{seat}")
        self.iterations = max(1, int(iterations))
        self.cutoff = max(0, int(cutoff))
        self.seconds = float(seconds)
        self.explore = float(explore)
        self.width = max(0, int(width))
        self.widen = max(0.0, float(widen))
        self.last_visits: dict[str, int] = {}
        self.last_root: _Node | None = None  # the last search's tree (for tests, tools)

    def __getstate__(self) -> dict:
        """The agent as another process is sent it (the table's worker: table/thinker.py): its
        options, generator and last visits; not the last search's tree (for tests and tools,
        it stays in the process that searched)."""
        return {**self.__dict__, "last_root": None}

    def choose(self, seat: SeatView) -> Action:
        actions = seat.legal_actions()
        if len(actions) == 1:
            return actions[0]
        held = hold_off(seat.ruleset, actions)  # nothing to answer with: hold priority off
        if held is not None:
            return held
        root = _Node()
        deadline = time.process_time() + self.seconds if self.seconds > 0 else math.inf
        allowed = {repr(a.value) for a in actions}
        for _ in range(self.iterations):
            self._iterate(root, seat.determinize(self.rng, log=False), allowed, seat.seat)
            if time.process_time() >= deadline:
                break
        self.last_visits = {key: child.visits for key, child in root.children.items()}  # for tests, tools
        self.last_root = root
        by_key = {repr(a.value): a for a in actions}
        best = max(root.order, key=lambda key: (self._visits(root, key), self._mean(root, key)))
        return by_key[best]

    def _iterate(self, root: _Node, game: Game, allowed: set[str], me: int) -> None:
        path = [root]
        node = root
        while True:
            if game.is_over:
                value = results(game)
                break
            legal = {repr(v): v for v in _values(game)}
            if node is root:
                legal = {k: v for k, v in legal.items() if k in allowed}
            if len(legal) == 1 and node is not root:  # a forced move is no decision
                game.apply(next(iter(legal.values())), decision=game.decision_id)
                continue
            if node.priors is None or any(key not in node.priors for key in legal):
                fresh = node.priors is None
                self._expand(node, game, legal, self.width if node is root else 0)
                if fresh and node.actor == me:
                    value = self._value(node, game, legal)
                    break
            key = self._select(node, legal, me)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Node()
            game.apply(legal[key], decision=game.decision_id)
            node = child
            path.append(node)
        for node in path:
            node.visits += 1
            if node.totals is None:
                node.totals = [0.0] * len(value)
            for i, result in enumerate(value):
                node.totals[i] += result

    def _expand(self, node: _Node, game: Game, legal: dict, width: int = 0) -> None:
        """Value the actions of *node* not valued yet by the lookahead, in this game; equal
        priors in a random order (as the greedy agent breaks its ties), so that widening
        does not favour the actions that sort first when the lookahead sees no difference."""
        if node.priors is None:
            node.priors, node.actor, node.ties = {}, game.current_player, {}
        priors = node.priors
        snapshot = Snapshot(game)
        for key, value in legal.items():
            if key not in priors:
                copy = snapshot.copy()
                copy.apply(value, decision=copy.decision_id)
                priors[key] = results(copy)
                node.ties[key] = self.rng.random()
        node.order = sorted(priors, key=lambda k: (-priors[k][node.actor], node.ties[k]))
        if width:  # the root: the seat's best few only
            node.order = node.order[:width]

    def _value(self, node: _Node, game: Game, legal: dict) -> list[float]:
        """A new node's value: its actor's best prior, or a short random playout from there."""
        best = next(k for k in node.order if k in legal)
        if not self.cutoff:
            assert node.priors is not None  # expanded just before
            return node.priors[best]
        game.apply(legal[best], decision=game.decision_id)
        for _ in range(self.cutoff):
            if game.is_over:
                break
            game.apply(self.rng.choice(_values(game)), decision=game.decision_id)
        return results(game)

    def _select(self, node: _Node, legal: dict, me: int) -> str:
        candidates = [key for key in node.order if key in legal]
        if node.actor != me:  # the others answer as the lookahead would
            return candidates[0]
        if self.widen:
            candidates = candidates[:max(1, math.ceil(self.widen * math.sqrt(node.visits)))]
        means = {key: self._mean(node, key) for key in candidates}
        low, high = min(means.values()), max(means.values())
        span = high - low or 1.0  # means rescaled to [0, 1] among the candidates
        spread = self.explore * math.sqrt(math.log(node.visits + 1))
        return max(candidates, key=lambda key: (means[key] - low) / span + spread / math.sqrt(self._visits(node, key)))

    @staticmethod
    def _visits(node: _Node, key: str) -> int:
        child = node.children.get(key)
        return 1 + (child.visits if child else 0)  # the prior counts as one visit

    @staticmethod
    def _mean(node: _Node, key: str) -> float:
        """The actor's mean result of *key*, its prior counted as one visit."""
        child = node.children.get(key)
        seat = node.actor
        assert node.priors is not None  # only an expanded node is selected from
        total = node.priors[key][seat] + (child.totals[seat] if child and child.totals else 0.0)
        return total / MctsAgent._visits(node, key)


def _values(game: Game) -> list:
    """The raw values of the legal actions (cheaper than labelled Actions)."""
    pending = game.pending
    assert pending is not None  # called while the game is not over
    values = list(pending["options"])
    if pending["optional"]:
        values.append(None)
    return values
