"""Both AI adapters play Catastrophic, whose response windows ask every seat and offer
holding priority off (issue 22): whole games end, windows and holds are met, every decision
fits the bounded action space (1,024), and a seat's observation of another seat's window
question shows one '?' option, whatever that seat holds."""
from __future__ import annotations

import json
import random

import pytest

HOLD = "hold priority off"


def _window(game) -> bool:
    return "in answer to" in (game.prompt or "")


def test_pettingzoo_plays_catastrophic_with_windows_and_holds():
    pytest.importorskip("pettingzoo", reason="the PettingZoo adapter needs the ai extra: pip install 'speciation[ai]'")
    from pettingzoo.test import api_test

    from speciation.adapters.pettingzoo_env import MAX_ACTIONS, decode_view, env
    api_test(env(ruleset="catastrophic", players=3), num_cycles=30)
    seen = {"window": 0, "hold": 0, "others_saw_one_option": 0}
    for seed in range(3):
        e = env(ruleset="catastrophic", players=3)
        e.reset(seed=seed)
        rng = random.Random(seed)
        for agent in e.agent_iter(max_iter=20_000):
            observation, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            mask = observation["action_mask"]
            game = e.game
            assert mask.sum() == len(game.legal_actions()) <= MAX_ACTIONS
            action = rng.choice([i for i in range(MAX_ACTIONS) if mask[i]])
            if _window(game):
                seen["window"] += 1
                seen["hold"] += game.legal_actions()[action].value == HOLD
                other = [a for a in e.agents if a != agent][0]
                seen["others_saw_one_option"] += decode_view(e.observe(other)["observation"])["pending"]["options"] == ["?"]
            e.step(action)
        assert game.is_over
    assert seen["window"] > 0 and seen["hold"] > 0 and seen["others_saw_one_option"] == seen["window"]


def test_openspiel_plays_catastrophic_with_windows_and_holds():
    pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel adapter needs the ai extra: pip install 'speciation[ai]'")
    import speciation.adapters.openspiel  # noqa: F401  (registers python_speciation)

    game = pyspiel.load_game("python_speciation", {"ruleset": "catastrophic", "players": 3})
    assert game.num_distinct_actions() == 1024
    rng = random.Random(4)
    windows = holds = 0
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.randrange(len(state.chance_outcomes())))
                continue
            # Catastrophic's setup is simultaneous, so every decision node is a simultaneous
            # node: a seat without a decision has the single 'no action'.
            inner = state.inner
            deciding = inner.current_player
            joint = [rng.choice(state.legal_actions(p)) for p in range(3)]
            assert max(max(state.legal_actions(p)) for p in range(3)) < game.num_distinct_actions()
            if _window(inner):
                windows += 1
                holds += inner.legal_actions()[joint[deciding]].value == HOLD
                other = json.loads(state.observation_string((deciding + 1) % 3))
                assert other["pending"]["options"] == ["?"]
            state.apply_actions(joint)
        assert sum(state.returns()) == 1.0 or sum(state.returns()) == 0.0
    assert windows > 0 and holds > 0
