"""The adapters where several seats decide at once (issue 22): PettingZoo's parallel API
(``parallel_env``, with ``parallel_api_test``) beside the AEC environment, and OpenSpiel's
simultaneous-move games (joint actions, each applied as its seat's decision), on the fixture
``sealed`` (every seat seals a stone at once, revealed together) and on Catastrophic."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

SEALED = str(Path(__file__).parents[1] / "support" / "fixtures" / "sealed")
TOY = str(Path(__file__).parents[1] / "support" / "fixtures" / "toy")
STONES = ["amethyst", "basalt", "cobalt"]
# Catastrophic's discard down to the hand limit is one subset decision (choose k of n): thousands
# of options, each listed in the seat's view.
LARGE = {"max_actions": 1 << 17, "observation_bytes": 1 << 22}

pytest.importorskip("pettingzoo", reason="the PettingZoo adapter needs the ai extra: pip install 'speciation[ai]'")


def _stones(view: dict) -> list:
    return [view["ent"][p]["sealed"] for p in ("p1", "p2", "p3")]


# ---- PettingZoo -------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset, players, cycles", [(SEALED, 3, 200), (TOY, 3, 60), ("catastrophic", 3, 150)],
                         ids=["sealed", "toy", "catastrophic"])
def test_pettingzoo_parallel_api_test(ruleset, players, cycles):
    from pettingzoo.test import parallel_api_test

    from speciation.adapters.pettingzoo_parallel import parallel_env
    parallel_api_test(parallel_env(ruleset=ruleset, players=players, **LARGE), num_cycles=cycles)


@pytest.mark.parametrize("ruleset", [SEALED, "catastrophic"], ids=["sealed", "catastrophic"])
def test_pettingzoo_aec_api_test_where_seats_decide_at_once(ruleset):
    from pettingzoo.test import api_test

    from speciation.adapters.pettingzoo_env import env
    api_test(env(ruleset=ruleset, players=3, **LARGE), num_cycles=100)


def test_pettingzoo_parallel_every_deciding_seat_acts_in_one_step_and_sees_no_other_commitment():
    from speciation.adapters.pettingzoo_env import decode_view
    from speciation.adapters.pettingzoo_parallel import parallel_env
    env = parallel_env(ruleset=SEALED, players=3)
    observations, infos = env.reset(seed=4)
    assert set(observations) == set(infos) == {"player_0", "player_1", "player_2"}
    assert [int(observations[a]["action_mask"].sum()) for a in env.agents] == [3, 3, 3]   # each its own decision
    observations, rewards, terminations, _, _ = env.step({"player_0": 2, "player_1": 1, "player_2": 0})
    assert [d[1] for d in env.game.history["decisions"]] == ["cobalt", "basalt", "amethyst"]  # each seat's own
    views = [decode_view(observations[a]["observation"]) for a in env.agents]
    assert [_stones(v) for v in views] == [["cobalt", "?", "?"], ["?", "basalt", "?"], ["?", "?", "amethyst"]]
    assert [int(observations[a]["action_mask"].sum()) for a in env.agents] == [2, 2, 2]   # how to play it
    assert not any(terminations.values()) and set(rewards.values()) == {0.0}
    observations, *_ = env.step({"player_0": 0, "player_1": 1, "player_2": 0})
    views = [decode_view(observations[a]["observation"]) for a in env.agents]
    assert all(v["ent"]["p1"]["shown"] == "cobalt" for v in views)                 # revealed together
    assert all(v["ent"]["p2"]["style"] == "?" for v in views if v is not views[1])  # the way stays its own
    # An ordinary decision: one seat's mask, the others' actions not read.
    assert [int(observations[a]["action_mask"].sum()) for a in env.agents] == [2, 0, 0]


def test_pettingzoo_parallel_refuses_an_illegal_action_and_changes_nothing():
    from speciation.adapters.pettingzoo_parallel import parallel_env
    env = parallel_env(ruleset=SEALED, players=3)
    env.reset(seed=1)
    digest = env.game.digest()
    for actions in ({"player_0": 0, "player_1": 7, "player_2": 0}, {"player_0": 0, "player_2": 0}):
        with pytest.raises(ValueError, match="player_1"):
            env.step(actions)
        assert env.game.digest() == digest


def test_pettingzoo_parallel_plays_a_whole_game_of_each_seat_count():
    from speciation.adapters.pettingzoo_parallel import parallel_env
    rng = random.Random(2)
    for players in (2, 3, 4):
        env = parallel_env(ruleset=SEALED, players=players)
        observations, _ = env.reset(seed=players)
        steps = 0
        while env.agents:
            actions = {a: int(rng.choice(o["action_mask"].nonzero()[0])) if o["action_mask"].any() else 0
                       for a, o in observations.items()}
            observations, rewards, terminations, _, _ = env.step(actions)
            steps += 1
        assert env.game.is_over and all(terminations.values()) and sum(rewards.values()) == pytest.approx(1.0)
        assert steps == 6   # two rounds: two joint steps and one ordinary decision each


# ---- OpenSpiel -----------------------------------------------------------------------------------

def _spiel():
    pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel adapter needs the ai extra: pip install 'speciation[ai]'")
    import speciation.adapters.openspiel  # noqa: F401  (registers python_speciation)
    return pyspiel


def test_openspiel_a_ruleset_where_seats_decide_at_once_is_a_simultaneous_move_game():
    pyspiel = _spiel()
    sealed = pyspiel.load_game("python_speciation", {"ruleset": SEALED, "players": 3})
    assert sealed.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    for name in (TOY, "original", "marine"):   # the others stay turn-based
        game = pyspiel.load_game("python_speciation", {"ruleset": name, "players": 2})
        assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    state = sealed.new_initial_state()
    assert state.is_simultaneous_node() and state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    assert [state.legal_actions(p) for p in range(3)] == [[0, 1, 2]] * 3 and len(state.legal_actions()) == 27
    assert [state.action_to_string(p, 2) for p in range(3)] == ["cobalt"] * 3
    # A joint action is each seat's decision, applied to its own; a flat one is the same.
    joint, flat = state.clone(), state.clone()
    joint.apply_actions([2, 1, 0])
    flat.apply_action(2 + 1 * 3 + 0 * 9)   # OpenSpiel's flat joint action: seat 0's digit first
    assert str(joint) == str(flat)
    assert [joint.inner.state["ent"][p]["sealed"] for p in ("p1", "p2", "p3")] == STONES[::-1]
    views = [joint.observation_string(p) for p in range(3)]
    assert all(stone not in views[2] for stone in ("cobalt", "basalt")) and "amethyst" in views[2]
    assert "cobalt" in views[0] and "basalt" not in views[0]
    # An ordinary decision after the reveal: a simultaneous node where one seat has options.
    joint.apply_actions([0, 0, 1])
    assert [joint.legal_actions(p) for p in range(3)] == [[0, 1], [0], [0]]
    assert joint.action_to_string(1, 0) == "no action"
    assert "cobalt" in joint.observation_string(2)   # revealed


def test_openspiel_random_simulations_and_the_turn_based_conversion():
    pyspiel = _spiel()
    game = pyspiel.load_game("python_speciation", {"ruleset": SEALED, "players": 3})
    pyspiel.random_sim_test(game, num_sims=10, serialize=False, verbose=False)
    turns = pyspiel.convert_to_turn_based(game)
    rng = random.Random(3)
    state = turns.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert sum(state.returns()) == pytest.approx(1.0)


def test_openspiel_catastrophic():
    pyspiel = _spiel()
    game = pyspiel.load_game("python_speciation", {"ruleset": "catastrophic", "players": 3, "max_actions": 1 << 17})
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS   # its setup
    rng = random.Random(7)
    state = game.new_initial_state()
    joint_nodes = 0
    for _ in range(300):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        elif state.is_simultaneous_node():
            choices = [rng.choice(state.legal_actions(p)) for p in range(3)]
            joint_nodes += sum(len(state.legal_actions(p)) > 1 for p in range(3)) > 1
            state.apply_actions(choices)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert joint_nodes   # the setup: every seat lays its community down at once


def test_pettingzoo_parallel_catastrophic_setup_is_answered_in_joint_steps():
    """Catastrophic's setup (CAT-RB Setting up the game: the communities laid down at once):
    every seat acts in the first steps, each step one decision per seat."""
    from speciation.adapters.pettingzoo_parallel import parallel_env
    env = parallel_env(ruleset="catastrophic", players=3, **LARGE)
    observations, _ = env.reset(seed=3)
    for step in range(2):
        assert all(o["action_mask"].any() for o in observations.values())
        observations, *_ = env.step({agent: 0 for agent in env.agents})
        assert [actor for actor, _ in env.game.history["decisions"]] == ["p1", "p2", "p3"] * (step + 1)
