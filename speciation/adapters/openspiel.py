"""Any ruleset as an OpenSpiel Python game, ``python_speciation`` (registered on import).

Parameters: ``ruleset`` (a builtin name or a folder, default "original"), ``players``
(default 2) and ``max_actions`` (the most options a decision may have, default 1024: a subset
decision, choose k of n, may have more, e.g. Catastrophic's discard down to the hand limit). Every chance step of the rules is an explicit chance node: the outcome of each
``draw`` (which of the n items of the list) and of each swap of a ``shuffle`` (Fisher-Yates:
n, n - 1, ..., 2 outcomes), every outcome equally likely, in the order the rules meet them,
from the setup on (the game's seed plays no part); before the setup, the deal of the ids of
cards with copies (``Game.deal_copies``, a shuffle per deck), as a seeded game deals them. A decision is the pending player's, its
actions the indices of the legal options (``Game.legal_actions()``).

Where several seats decide at once: a ruleset whose rules hold a ``simultaneously`` statement
is a simultaneous-move game (``Dynamics.SIMULTANEOUS``; the others stay ``SEQUENTIAL``, as
before). Then every decision node is a simultaneous node: each seat with a pending decision
(``Game.decisions()``) has its own options' indices as legal actions, a seat without one the
single action ``NO_ACTION`` (0, "no action"), and a joint action is applied as each deciding
seat's action to its own decision, by id, in seat order (a flat joint action, as
``legal_actions()`` lists them there, is decoded with seat 0's digit first, as OpenSpiel
does). A node where one seat decides is a simultaneous node where only that seat has options;
``pyspiel.convert_to_turn_based`` makes the game turn-based again.

How: the state keeps the game as it was before the step being resolved (the setup, or the
action just chosen) and the outcomes chosen so far. The step is run on a copy with those
outcomes as its chance (``Game.chance_source``, a ``ChanceTape``); if it needs one more, the
copy is dropped and the state is a chance node with that step's n outcomes; once the step
runs to its end, the copy becomes the game. So a step with k chance steps is run k + 1
times from its start (on copies; the game before it is never touched).

``max_chance_outcomes`` bounds n. The lists rules draw from or shuffle hold the game's pieces
(cards, tiles, disks: 108 at most in either edition), so the bound is the number of values
the game holds after its setup: its entities plus every attribute value and list item in
them, counted in a game set up with the generator for that player count (about 1,400 for
the original with 2 players, 1,800 for Marine). A chance step with more
outcomes (a list made on the spot, longer than all the game's pieces) raises ValueError.

Each player observes only its seat's view (``Game.view``, as JSON text without the log) of
the game before the step being resolved, so no chance outcome shows before its step is
over, and then only as the view shows it; its information state adds the log lines it may
read. Its observation tensor is the seat's features (``features.py``: the ruleset's
``features(player)``, a fixed-length list of numbers computed on a copy determinized for the
seat, or each player's score). The winner gets 1, the others 0 (a tie without a winner shares 1).

>>> import pyspiel, speciation.adapters.openspiel  # doctest: +SKIP
>>> game = pyspiel.load_game("python_speciation", {"ruleset": "marine", "players": 3})  # doctest: +SKIP
"""
from __future__ import annotations

import json
from copy import deepcopy
from functools import lru_cache

import numpy as np
import pyspiel

from ..dsl import graph as g
from ..interpreter.ruleset import load_ruleset
from ..interpreter.chance import ChanceNeeded, ChanceTape
from ..interpreter.game import Game
from .features import checked_features, feature_count

MAX_ACTIONS = 1024
MAX_GAME_LENGTH = 100_000
_DEFAULTS = {"ruleset": "original", "players": 2, "max_actions": MAX_ACTIONS}
_SETUP = "setup"  # the step run first: the ruleset's main macro up to its first decision
_GAME_TYPE = pyspiel.GameType(
    short_name="python_speciation",
    long_name="Speciation (any ruleset)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS)
# A ruleset whose rules let several seats decide at once (a ``simultaneously`` statement): every
# decision node is a simultaneous node (joint actions), OpenSpiel's simultaneous-move games.
_SIMULTANEOUS_TYPE = pyspiel.GameType(
    short_name=_GAME_TYPE.short_name, long_name=_GAME_TYPE.long_name,
    dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS, chance_mode=_GAME_TYPE.chance_mode,
    information=_GAME_TYPE.information, utility=_GAME_TYPE.utility, reward_model=_GAME_TYPE.reward_model,
    max_num_players=_GAME_TYPE.max_num_players, min_num_players=_GAME_TYPE.min_num_players,
    provides_information_state_string=True, provides_information_state_tensor=False,
    provides_observation_string=True, provides_observation_tensor=True,
    parameter_specification=_DEFAULTS)
NO_ACTION = 0   # a seat's one legal action at a simultaneous node where it has no decision


@lru_cache(maxsize=8)
def _ruleset(name: str):
    return load_ruleset(name)


@lru_cache(maxsize=32)
def chance_bound(name: str, players: int) -> int:
    """The most outcomes a chance step may have (see the module's doc): the entities, plus
    every value in them, after a setup."""
    game = Game.new(_ruleset(name), players, 0)
    return len(game.state["ent"]) + _count_values(game.state["ent"])


@lru_cache(maxsize=8)
def decides_at_once(name: str) -> bool:
    """Whether the ruleset's rules can make several seats decide at once (a ``simultaneously``
    statement anywhere in them): then the game is a simultaneous-move game."""
    return any(type(node) is g.Simultaneously for node in _ruleset(name).nodes)


@lru_cache(maxsize=32)
def _feature_count(name: str, players: int) -> int:
    return feature_count(_ruleset(name), players)


def _count_values(value) -> int:
    if isinstance(value, dict):
        return sum(_count_values(item) for item in value.values())
    if isinstance(value, list):
        return sum(_count_values(item) for item in value)
    return 1


class SpeciationGame(pyspiel.Game):
    def __init__(self, params=None):
        params = {**_DEFAULTS, **(params or {})}
        ruleset, players = _ruleset(str(params["ruleset"])), int(params["players"])
        if not ruleset.min_players <= players <= ruleset.max_players:
            raise ValueError(f"{ruleset.name} takes {ruleset.min_players} to {ruleset.max_players} "
                             f"players, not {players}")
        info = pyspiel.GameInfo(num_distinct_actions=int(params["max_actions"]),
                                max_chance_outcomes=chance_bound(str(params["ruleset"]), players),
                                num_players=players, min_utility=0.0, max_utility=1.0,
                                utility_sum=1.0, max_game_length=MAX_GAME_LENGTH)
        at_once = decides_at_once(str(params["ruleset"]))
        super().__init__(_SIMULTANEOUS_TYPE if at_once else _GAME_TYPE, info, params)

    def new_initial_state(self):
        return SpeciationState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        spec = {**_DEFAULTS, **self.get_parameters()}
        return SeatObserver(perfect_recall, _feature_count(str(spec["ruleset"]), int(spec["players"])))


class _Spec:
    """The parameters of a game, read once (pyspiel may copy Game objects without their attributes)."""

    def __init__(self, game):
        params = {**_DEFAULTS, **game.get_parameters()}
        self.name, self.players = str(params["ruleset"]), int(params["players"])
        self.bound = chance_bound(self.name, self.players)
        self.at_once = decides_at_once(self.name)   # every decision node a simultaneous node
        self.max_actions = int(params["max_actions"])

    def options(self, count: int) -> list[int]:
        """The action numbers of a decision with *count* options (no more than max_actions)."""
        if count > self.max_actions:
            raise ValueError(f"a decision with {count} options; the game takes {self.max_actions} "
                             "(load it with a larger max_actions)")
        return list(range(count))

    def __deepcopy__(self, memo):  # pyspiel's clone deep-copies a state's attributes
        return self


class _Position:
    """``inner``: the game before the step being resolved; ``step``: that step (``"setup"``,
    an ``Action`` of ``inner``, or None); ``outcomes``: its chance outcomes chosen so far;
    ``need``: the number of outcomes of its next chance step (None: not a chance node)."""

    __slots__ = ("inner", "step", "outcomes", "need")

    def __init__(self, inner: Game, step=None, outcomes: list | None = None, need: int | None = None):
        self.inner, self.step, self.outcomes, self.need = inner, step, outcomes or [], need

    def __deepcopy__(self, memo):
        return _Position(self.inner.clone(), self.step, list(self.outcomes), self.need)

    def run(self, step, bound: int) -> None:
        """Run *step* on a copy with the outcomes so far: a chance node if it needs another."""
        twin = self.inner.clone()
        twin.chance_source = ChanceTape(self.outcomes)
        try:
            if step is _SETUP:
                twin.deal_copies()  # the copies' ids first, as Game.new deals them: chance nodes
                twin.start("main")
            elif type(step) is tuple:   # a joint action: each seat's, to its own decision by id
                for decision, action in step:
                    twin.apply(action, decision=decision)
            else:
                twin.apply(step)
        except ChanceNeeded as needed:
            if needed.n > bound:
                raise ValueError(f"a chance step with {needed.n} outcomes, more than the {bound} "
                                 "this game allows (max_chance_outcomes)") from None
            self.step, self.need = step, needed.n
            return
        twin.chance_source = None
        self.inner, self.step, self.outcomes, self.need = twin, None, [], None


@lru_cache(maxsize=32)
def _start(name: str, players: int) -> _Position:
    """The position of a new game (the same for every game: the setup up to its first chance)."""
    position = _Position(Game.new(_ruleset(name), players, start=False, deal=False))
    position.run(_SETUP, chance_bound(name, players))
    return position


class SpeciationState(pyspiel.State):
    def __init__(self, game: SpeciationGame):
        super().__init__(game)
        self._spec = _Spec(game)
        self._at: _Position | None = None  # made when first needed (pyspiel's clone sets it)

    @property
    def position(self) -> _Position:
        if self._at is None:
            self._at = deepcopy(_start(self._spec.name, self._spec.players))
        return self._at

    @property
    def inner(self) -> Game:
        """The game before the step being resolved (all of it when no chance is pending)."""
        return self.position.inner

    def current_player(self):
        at = self.position
        if at.need is not None:
            return pyspiel.PlayerId.CHANCE
        if at.inner.is_over:
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.SIMULTANEOUS if self._spec.at_once else at.inner.current_player

    def _legal_actions(self, player):
        at = self.position
        if at.need is not None:
            return list(range(at.need))
        if self._spec.at_once and player == pyspiel.PlayerId.SIMULTANEOUS:   # flat joint actions
            count = 1
            for seat in range(self._spec.players):
                count *= len(self._legal_actions(seat))
            return list(range(count))
        if self._spec.at_once:   # this seat's own decision, or the one "no action" (0)
            own = _own(at.inner, player)
            return self._spec.options(len(own.legal_actions())) if own is not None else [NO_ACTION]
        return self._spec.options(len(at.inner.legal_actions()))

    def chance_outcomes(self):
        need = self.position.need
        return [(outcome, 1.0 / need) for outcome in range(need)]

    def _apply_action(self, action):
        at = self.position
        if at.need is not None:
            at.outcomes.append(int(action))
            at.run(at.step, self._spec.bound)
        elif self._spec.at_once:   # a flat joint action (OpenSpiel's order: seat 0's digit first)
            joint = []
            for seat in range(self._spec.players):
                legal = self._legal_actions(seat)
                joint.append(legal[action % len(legal)])
                action //= len(legal)
            self._apply_actions(joint)
        else:
            at.run(at.inner.legal_actions()[action], self._spec.bound)

    def _apply_actions(self, actions):
        """A joint action: each deciding seat's option index, applied to its own decision by id
        in seat order (the others' entries, :data:`NO_ACTION`, are not read)."""
        at = self.position
        joint = tuple((d.id, d.legal_actions()[actions[d.player]]) for d in at.inner.decisions())
        at.run(joint, self._spec.bound)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        if self.position.need is not None:
            actions: list = []
        elif self._spec.at_once:
            own = _own(self.inner, player)
            actions = own.legal_actions() if own is not None else []
            if own is None and action == NO_ACTION:
                return "no action"
        else:
            actions = self.inner.legal_actions()
        return actions[action].label if 0 <= action < len(actions) else f"option {action}"

    def is_terminal(self):
        return self.position.need is None and self.inner.is_over

    def returns(self):
        count = self._spec.players
        if not self.is_terminal():
            return [0.0] * count
        winner = self.inner.winner
        if winner is not None:
            return [1.0 if seat == winner else 0.0 for seat in range(count)]
        scores = self.inner.scores
        best = [seat for seat in range(count) if scores[seat] == max(scores)]
        return [1.0 / len(best) if seat in best else 0.0 for seat in range(count)]

    def __str__(self):
        at = self.position
        digest = at.inner.digest()
        return digest if at.need is None else f"{digest} chance {at.outcomes} of {at.need}"


def _own(game: Game, player: int):
    """*player*'s pending decision (one of several deciding at once), or None."""
    return next((d for d in game.decisions() if d.player == player), None)


class SeatObserver:
    """One player's observation: its seat's view as JSON (with its log lines for perfect
    recall), and as a tensor the seat's features (``features.py``: the ruleset's
    ``features(player)``, or each player's score)."""

    def __init__(self, perfect_recall: bool, features: int):
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(features, np.float32)
        self.dict = {"features": self.tensor}

    def set_from(self, state, player):
        self.tensor[:] = checked_features(state.inner, player, len(self.tensor))

    def string_from(self, state, player):
        view = state.inner.view(player)
        if not self.perfect_recall:
            view.pop("log", None)
        return json.dumps(view, sort_keys=True, default=str)


pyspiel.register_game(_GAME_TYPE, SpeciationGame)
