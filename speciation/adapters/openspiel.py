"""Any ruleset as an OpenSpiel Python game, ``python_speciation`` (registered on import).

Parameters: ``ruleset`` (a builtin name or a folder, default "original"), ``players``
(default 2) and ``seeds`` (default 1000). The first node is a chance node choosing the game's
seed among ``seeds`` equally likely outcomes (all the game's later chance follows from it,
inside the rules); then each decision is the pending player's, its actions the indices of the
legal options (``Game.legal_actions()``). Each player observes only its seat's view
(``Game.view``, as JSON text without the log); its information state adds the log lines it
may read. The winner gets 1, the others 0 (a tie without a winner shares 1).

>>> import pyspiel, speciation.adapters.openspiel  # doctest: +SKIP
>>> game = pyspiel.load_game("python_speciation", {"ruleset": "marine", "players": 3})  # doctest: +SKIP
"""
from __future__ import annotations

import json
from functools import lru_cache

import numpy as np
import pyspiel

from ..dsl.ruleset import load_ruleset
from ..interpreter.game import Game

MAX_ACTIONS = 1024
MAX_GAME_LENGTH = 100_000
_DEFAULTS = {"ruleset": "original", "players": 2, "seeds": 1000}

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
    provides_observation_tensor=False,
    parameter_specification=_DEFAULTS)


@lru_cache(maxsize=8)
def _ruleset(name: str):
    return load_ruleset(name)


class SpeciationGame(pyspiel.Game):
    def __init__(self, params=None):
        params = {**_DEFAULTS, **(params or {})}
        ruleset, players, seeds = _ruleset(str(params["ruleset"])), int(params["players"]), int(params["seeds"])
        if not ruleset.min_players <= players <= ruleset.max_players:
            raise ValueError(f"{ruleset.name} takes {ruleset.min_players} to {ruleset.max_players} "
                             f"players, not {players}")
        info = pyspiel.GameInfo(num_distinct_actions=MAX_ACTIONS, max_chance_outcomes=seeds,
                                num_players=players, min_utility=0.0, max_utility=1.0,
                                utility_sum=1.0, max_game_length=MAX_GAME_LENGTH)
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self):
        return SpeciationState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        return SeatObserver(perfect_recall)


class _Spec:
    """The parameters of a game, read once (pyspiel may copy Game objects without their attributes)."""

    def __init__(self, game):
        params = {**_DEFAULTS, **game.get_parameters()}
        self.ruleset = _ruleset(str(params["ruleset"]))
        self.players = int(params["players"])
        self.seeds = int(params["seeds"])


class SpeciationState(pyspiel.State):
    def __init__(self, game: SpeciationGame, inner: Game | None = None, spec: _Spec | None = None):
        super().__init__(game)
        self._spec = spec or _Spec(game)
        self.inner = inner

    def current_player(self):
        if self.inner is None:
            return pyspiel.PlayerId.CHANCE
        if self.inner.is_over:
            return pyspiel.PlayerId.TERMINAL
        return self.inner.current_player

    def _legal_actions(self, player):
        return list(range(len(self.inner.legal_actions())))

    def chance_outcomes(self):
        share = 1.0 / self._spec.seeds
        return [(seed, share) for seed in range(self._spec.seeds)]

    def _apply_action(self, action):
        if self.inner is None:
            self.inner = Game.new(self._spec.ruleset, self._spec.players, int(action))
        else:
            self.inner.apply(self.inner.legal_actions()[action])

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        actions = self.inner.legal_actions()
        return actions[action].label if 0 <= action < len(actions) else f"option {action}"

    def is_terminal(self):
        return self.inner is not None and self.inner.is_over

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

    def __deepcopy__(self, memo):
        return SpeciationState(self.get_game(), self.inner.clone() if self.inner is not None else None,
                               self._spec)

    def __str__(self):
        return "(chance: the seed)" if self.inner is None else self.inner.digest()


class SeatObserver:
    """One player's observation: its seat's view as JSON (with its log lines for perfect recall)."""

    def __init__(self, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        if state.inner is None:
            return "{}"
        view = state.inner.view(player)
        if not self.perfect_recall:
            view.pop("log", None)
        return json.dumps(view, sort_keys=True, default=str)


pyspiel.register_game(_GAME_TYPE, SpeciationGame)
