"""A PettingZoo parallel environment for any ruleset (passes ``pettingzoo.test.parallel_api_test``):
every seat with a pending decision acts in the same step, as the rules' ``simultaneously``
statements let seats decide at once (``Game.decisions()``).

Agents, observations, spaces and rewards are the AEC environment's
(:mod:`.pettingzoo_env`): an observation is the seat's view as JSON bytes, its features, and
the mask of its own decision's option indices. Each step takes one action per live agent;
the actions of the agents with a pending decision are applied, each to its own decision by
id, in seat order; an agent with no decision now has an all-zero mask and its action is not
read (send 0). When only one seat decides, a step is that seat's decision alone, as in the
AEC environment. Once the game is over every agent is terminated and the agent list empties.

>>> from speciation.adapters.pettingzoo_parallel import parallel_env  # doctest: +SKIP
>>> env = parallel_env(ruleset="catastrophic", players=3)  # doctest: +SKIP
>>> observations, infos = env.reset(seed=1)  # doctest: +SKIP
"""
from __future__ import annotations

from typing import Any

from pettingzoo import ParallelEnv

from ..interpreter.game import Game
from ..interpreter.ruleset import Ruleset, load_ruleset
from .pettingzoo_env import MAX_ACTIONS, OBSERVATION_BYTES, _results, env_spaces, observation


class SpeciationParallelEnv(ParallelEnv):
    metadata = {"render_modes": ["ansi"], "name": "speciation_parallel_v0"}

    def __init__(self, ruleset: str | Ruleset = "original", players: int | None = None,
                 render_mode: str | None = None, max_actions: int = MAX_ACTIONS,
                 observation_bytes: int = OBSERVATION_BYTES):
        self.max_actions, self.observation_bytes = max_actions, observation_bytes
        self.ruleset = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        self.players = players or self.ruleset.min_players
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        self.agents: list[str] = []
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
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict[str, dict]:
        game = self.game
        assert game is not None
        options = {d.player: len(d.legal_actions()) for d in game.decisions()}
        return {agent: observation(game, seat, self._features, options.get(seat, 0), self.max_actions,
                                   self.observation_bytes)
                for seat, agent in enumerate(self.possible_agents) if agent in self.agents}

    def step(self, actions: dict[str, Any]):
        game = self.game
        assert game is not None, "reset() the environment first"
        chosen = []
        for decision in game.decisions():   # every seat deciding now, each with its own id
            agent = self.possible_agents[decision.player]
            legal = decision.legal_actions()
            action = actions.get(agent)
            if action is None or not 0 <= int(action) < len(legal):
                raise ValueError(f"{agent}'s action {action} is not one of the {len(legal)} legal option indices "
                                 f"of its decision ('{decision.prompt}')")
            chosen.append((decision.id, legal[int(action)]))
        for ident, action in chosen:
            game.apply(action, decision=ident)
        live = list(self.agents)
        rewards = {a: 0.0 for a in live}
        over = game.is_over
        if over:
            rewards.update((a, r) for a, r in zip(self.possible_agents, _results(game)) if a in rewards)
        observations = self._observations()
        terminations = {a: over for a in live}
        truncations = {a: False for a in live}
        infos: dict[str, dict] = {a: {} for a in live}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self):
        if self.render_mode == "ansi" and self.game is not None:
            return "\n".join(self.game.log[-20:])
        return None

    def close(self):
        pass


def parallel_env(**kwargs) -> SpeciationParallelEnv:
    """The parallel environment, as PettingZoo's convention names it."""
    return SpeciationParallelEnv(**kwargs)
