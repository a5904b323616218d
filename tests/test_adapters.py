"""The AI ecosystem adapters: PettingZoo's own API test, and OpenSpiel's MCTS bot playing."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

TOY = str(Path(__file__).parent / "fixtures" / "toy")


def test_pettingzoo_api_test():
    pytest.importorskip("pettingzoo", reason="the PettingZoo adapter needs the ai extra: pip install 'speciation[ai]'")
    from pettingzoo.test import api_test

    from speciation.adapters.pettingzoo_env import decode_view, env
    api_test(env(ruleset=TOY, players=3), num_cycles=40)
    marine = env(ruleset="marine", players=2)
    api_test(marine, num_cycles=30)
    marine.reset(seed=2)
    acting = marine.agent_selection
    seat = marine.possible_agents.index(acting)
    assert decode_view(marine.observe(acting)["observation"])["pending"] == {
        k: v for k, v in marine.game.view(seat)["pending"].items()}
    assert marine.observe(acting)["action_mask"].sum() == len(marine.game.legal_actions())


def test_openspiel_mcts_bot_plays_through_the_adapter():
    pytest.importorskip("pyspiel", reason="the OpenSpiel adapter needs the ai extra: pip install 'speciation[ai]'")
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    import speciation.adapters.openspiel  # noqa: F401  (registers python_speciation)
    game = pyspiel.load_game("python_speciation", {"ruleset": TOY, "players": 2, "seeds": 16})
    rng = np.random.RandomState(3)
    wins = 0
    for _ in range(3):
        state = game.new_initial_state()
        assert state.is_chance_node() and len(state.chance_outcomes()) == 16
        bot = mcts.MCTSBot(game, uct_c=1.4, max_simulations=40, evaluator=mcts.RandomRolloutEvaluator(1, rng),
                           random_state=rng)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.randint(16)))
            elif state.current_player() == 0:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        assert sum(state.returns()) == 1.0
        wins += state.returns()[0] == 1.0
    assert wins == 3  # the toy game rewards taking 3 points a turn; MCTS finds it

    marine = pyspiel.load_game("python_speciation", {"ruleset": "marine", "players": 3})
    state = marine.new_initial_state()
    state.apply_action(5)  # the seed
    deciding = state.current_player()
    view = json.loads(state.observation_string(deciding))
    other = json.loads(state.observation_string((deciding + 1) % 3))
    assert view["pending"]["options"] == state.inner.state["pending"]["options"]
    assert set(other["pending"]["options"]) == {"?"}  # another's options are hidden
    assert len(state.legal_actions()) == len(state.inner.legal_actions())
