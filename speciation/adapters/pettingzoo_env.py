"""A PettingZoo AEC environment for any ruleset (passes ``pettingzoo.test.api_test``); the
parallel one, where seats decide at once, is :mod:`.pettingzoo_parallel`.

Agents are ``player_0`` ... ; the acting agent is the player whose decision is pending (while
several seats decide at once, ``Game.decisions()``, the first of them; the others follow, one
at a time). An observation is ``{"observation": the seat's view (``Game.view`` without the
log) as UTF-8 JSON bytes, zero-padded to ``observation_bytes`` (OBSERVATION_BYTES unless given:
a view lists the seat's own options, and a subset decision's may be long; ``decode_view``
reads it back),
"features": the seat's features as float32 (``features.py``: the ruleset's
``features(player)``, or each player's score), "action_mask": which of the first ``max_actions``
option indices are legal}`` (MAX_ACTIONS unless given: a subset decision, choose k of n, may
have more options than that, e.g. Catastrophic's discard down to the hand limit); the action is an index into the pending decision's legal actions
(``Game.legal_actions()``, the pass last when it is allowed). At the end the winner is
rewarded 1 (a tie without a winner shares 1), the others 0.
"""
from __future__ import annotations

import json
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..interpreter.ruleset import Ruleset, load_ruleset
from ..interpreter.game import Game
from .features import checked_features, feature_count

MAX_ACTIONS = 1024
OBSERVATION_BYTES = 1 << 17


def env_spaces(ruleset: Ruleset, players: int, max_actions: int, observation_bytes: int) -> tuple[int, Any, Any]:
    """The feature count, the observation space and the action space every agent of an
    environment shares (the AEC and the parallel one alike)."""
    features = feature_count(ruleset, players)
    observation = spaces.Dict({"observation": spaces.Box(0, 255, (observation_bytes,), dtype=np.uint8),
                               "features": spaces.Box(-np.inf, np.inf, (features,), dtype=np.float32),
                               "action_mask": spaces.Box(0, 1, (max_actions,), dtype=np.int8)})
    return features, observation, spaces.Discrete(max_actions)


class SpeciationEnv(AECEnv):
    metadata = {"render_modes": ["ansi"], "name": "speciation_v0", "is_parallelizable": False}

    def __init__(self, ruleset: str | Ruleset = "original", players: int | None = None,
                 render_mode: str | None = None, max_actions: int = MAX_ACTIONS,
                 observation_bytes: int = OBSERVATION_BYTES):
        super().__init__()
        self.max_actions, self.observation_bytes = max_actions, observation_bytes
        self.ruleset = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        self.players = players or self.ruleset.min_players
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        self.render_mode = render_mode
        self._features, self._observation_space, self._action_space = env_spaces(
            self.ruleset, self.players, max_actions, observation_bytes)
        self.game: Game | None = None

    def observation_space(self, agent):
        return self._observation_space

    def action_space(self, agent):
        return self._action_space

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.game = Game.new(self.ruleset, self.players, seed if seed is not None else 0)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        seat = self.game.current_player
        assert seat is not None  # a new game starts with a decision
        self.agent_selection = self.possible_agents[seat]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        acting = not self.game.is_over and self.game.current_player == seat
        return observation(self.game, seat, self._features, len(self.game.legal_actions()) if acting else 0,
                           self.max_actions, self.observation_bytes)

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self.game.legal_actions()
        if action is None or not 0 <= int(action) < len(legal):
            raise ValueError(f"action {action} is not one of the {len(legal)} legal option indices")
        self.game.apply(legal[int(action)])
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if self.game.is_over:
            for a, result in zip(self.possible_agents, _results(self.game)):
                self.rewards[a] = result
                self.terminations[a] = True
            self.agent_selection = agent
        else:
            self.agent_selection = self.possible_agents[self.game.current_player]
        self._accumulate_rewards()

    def render(self):
        if self.render_mode == "ansi":
            return "\n".join(self.game.log[-20:])
        return None

    def close(self):
        pass


def observation(game: Game, seat: int, features: int, options: int, max_actions: int = MAX_ACTIONS,
                size: int = OBSERVATION_BYTES) -> dict:
    """Seat *seat*'s observation: its view as JSON bytes, its *features*, and the mask of
    its first *options* option indices (0: it has no decision to take now)."""
    if options > max_actions:
        raise ValueError(f"a decision with {options} options; the environment takes {max_actions} "
                         "(make it with a larger max_actions)")
    mask = np.zeros(max_actions, dtype=np.int8)
    mask[:options] = 1
    view = game.view(seat)
    view.pop("log", None)
    data = json.dumps(view, sort_keys=True, default=str).encode()
    if len(data) > size:
        raise ValueError(f"a view of {len(data)} bytes; the environment takes {size} "
                         "(make it with a larger observation_bytes)")
    shown = np.zeros(size, dtype=np.uint8)
    shown[:len(data)] = np.frombuffer(data, dtype=np.uint8)
    numbers = np.asarray(checked_features(game, seat, features), dtype=np.float32)
    return {"observation": shown, "features": numbers, "action_mask": mask}


def _results(game: Game) -> list[float]:
    count = len(game.state["players"])
    if game.winner is not None:
        return [1.0 if seat == game.winner else 0.0 for seat in range(count)]
    scores = game.scores
    best = [seat for seat in range(count) if scores[seat] == max(scores)]
    return [1.0 / len(best) if seat in best else 0.0 for seat in range(count)]


def decode_view(observation) -> dict:
    """The seat's view from an observation's bytes."""
    return json.loads(bytes(np.asarray(observation, dtype=np.uint8)).rstrip(b"\0"))


def env(**kwargs) -> SpeciationEnv:
    """The environment, as PettingZoo's convention names it."""
    return SpeciationEnv(**kwargs)
