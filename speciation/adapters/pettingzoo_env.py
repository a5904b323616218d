"""A PettingZoo AEC environment for any ruleset (passes ``pettingzoo.test.api_test``).

Agents are ``player_0`` ... ; the acting agent is the player whose decision is pending. An
observation is ``{"observation": the seat's view (``Game.view`` without the log) as UTF-8 JSON
bytes, zero-padded to OBSERVATION_BYTES (``decode_view`` reads it back), "features": the
seat's features as float32 (``features.py``: the ruleset's ``features(player)``, or each
player's score), "action_mask": which of the first MAX_ACTIONS option indices are legal}``; the action is an index into the pending
decision's legal actions (``Game.legal_actions()``, the pass last when it is allowed). At the
end the winner is rewarded 1 (a tie without a winner shares 1), the others 0.
"""
from __future__ import annotations

import json

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..interpreter.ruleset import Ruleset, load_ruleset
from ..interpreter.game import Game
from .features import checked_features, feature_count

MAX_ACTIONS = 1024
OBSERVATION_BYTES = 1 << 17


class SpeciationEnv(AECEnv):
    metadata = {"render_modes": ["ansi"], "name": "speciation_v0", "is_parallelizable": False}

    def __init__(self, ruleset: str | Ruleset = "original", players: int | None = None,
                 render_mode: str | None = None):
        super().__init__()
        self.ruleset = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        self.players = players or self.ruleset.min_players
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        self.render_mode = render_mode
        text = spaces.Box(0, 255, (OBSERVATION_BYTES,), dtype=np.uint8)
        mask = spaces.Box(0, 1, (MAX_ACTIONS,), dtype=np.int8)
        self._features = feature_count(self.ruleset, self.players)
        features = spaces.Box(-np.inf, np.inf, (self._features,), dtype=np.float32)
        self._observation_space = spaces.Dict({"observation": text, "features": features, "action_mask": mask})
        self._action_space = spaces.Discrete(MAX_ACTIONS)
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
        mask = np.zeros(MAX_ACTIONS, dtype=np.int8)
        if not self.game.is_over and self.game.current_player == seat:
            count = len(self.game.legal_actions())
            if count > MAX_ACTIONS:
                raise ValueError(f"a decision with {count} options; the environment takes {MAX_ACTIONS}")
            mask[:count] = 1
        view = self.game.view(seat)
        view.pop("log", None)
        data = json.dumps(view, sort_keys=True, default=str).encode()
        if len(data) > OBSERVATION_BYTES:
            raise ValueError(f"a view of {len(data)} bytes; the environment takes {OBSERVATION_BYTES}")
        observation = np.zeros(OBSERVATION_BYTES, dtype=np.uint8)
        observation[:len(data)] = np.frombuffer(data, dtype=np.uint8)
        features = np.asarray(checked_features(self.game, seat, self._features), dtype=np.float32)
        return {"observation": observation, "features": features, "action_mask": mask}

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
