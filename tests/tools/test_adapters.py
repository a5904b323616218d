"""The AI ecosystem adapters: PettingZoo's own API test; OpenSpiel's chance nodes, checks and MCTS bot."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

TOY = str(Path(__file__).parents[1] / "support" / "fixtures" / "toy")


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
    from speciation.adapters.features import seat_features
    features = marine.observe(acting)["features"]
    assert features.dtype.name == "float32" and features.shape == marine.observation_space(acting)["features"].shape
    assert features.tolist() == seat_features(marine.game, seat) and len(features) == 3 + 4 * 12


SPIEL = "the OpenSpiel adapter needs the ai extra: pip install 'speciation[ai]'"


def _spiel():
    pyspiel = pytest.importorskip("pyspiel", reason=SPIEL)
    import speciation.adapters.openspiel  # noqa: F401  (registers python_speciation)
    return pyspiel


def _play(state, choose_outcome, choose_action, decisions=None):
    """Play *state* on to its end (or to the *decisions*-th decision); the chance nodes met,
    each as (number of outcomes, outcome). Checks each chance node on the way."""
    met, taken = [], 0
    bound = state.get_game().max_chance_outcomes()
    while not state.is_terminal() and (decisions is None or taken < decisions or state.is_chance_node()):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert [o for o, _ in outcomes] == state.legal_actions() == list(range(len(outcomes)))
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9 and 2 <= len(outcomes) <= bound
            outcome = choose_outcome(len(outcomes))
            met.append((len(outcomes), outcome))
            state.apply_action(outcome)
        else:
            state.apply_action(choose_action(state.legal_actions()))
            taken += 1
    return met


# Catastrophic's setup is simultaneous, so its OpenSpiel game is a simultaneous-move game
# (joint actions): test_adapters_simultaneous.py::test_openspiel_catastrophic plays it.
@pytest.mark.parametrize("ruleset, decisions", [(TOY, None), ("original", 60), ("marine", 60), ("evolution", 60)])
def test_openspiel_every_chance_step_is_a_chance_node(ruleset, decisions, monkeypatch):
    """The rules' own chance, step by step: a game played through the adapter with the
    outcomes a seeded ``Game`` drew (each chance node having as many outcomes as the list the
    rules drew from or shuffled, or the copies' ids a new game deals) is that game, state for
    state (bar the seed and generator)."""
    import random

    from speciation import Game, load_ruleset
    from speciation.interpreter.game import state_digest
    from speciation.interpreter.machine import Machine
    pyspiel = _spiel()
    drawn, random_below = [], Machine.random_below

    def recorded(machine, n):
        outcome = random_below(machine, n)
        if n > 1:  # a draw from a list of one is no chance step
            drawn.append((n, outcome))
        return outcome
    monkeypatch.setattr(Machine, "random_below", recorded)
    original = Game.new(load_ruleset(ruleset), 2, 11)
    rng, picks = random.Random(5), []
    while not original.is_over and (decisions is None or len(picks) < decisions):
        picks.append(rng.randrange(len(original.legal_actions())))
        original.apply(original.legal_actions()[picks[-1]])
    monkeypatch.setattr(Machine, "random_below", random_below)
    assert drawn and (decisions is not None or original.is_over)

    state = pyspiel.load_game("python_speciation", {"ruleset": ruleset, "players": 2}).new_initial_state()
    outcomes, moves = iter(outcome for _, outcome in drawn), iter(picks)
    met = _play(state, lambda n: next(outcomes), lambda legal: legal[next(moves)], len(picks))
    assert met == drawn

    def rest(game_state):
        return state_digest({key: value for key, value in game_state.items() if key not in ("rng", "seed")})
    assert rest(state.inner.state) == rest(original.state) and state.inner.log == original.log


@pytest.mark.parametrize("ruleset, decisions", [(TOY, None), ("original", 40), ("marine", 40), ("evolution", 40)])
def test_openspiel_chance_played_by_rule_is_reproducible(ruleset, decisions):
    """Always outcome 0, or seeded random outcomes: the same game every time; the same as a
    ``Game`` given those outcomes on a tape; clones and the history replay it; a chance node
    shows no seat the outcomes chosen so far."""
    import numpy as np

    from speciation import Game
    from speciation.interpreter.chance import ChanceTape
    pyspiel = _spiel()
    game = pyspiel.load_game("python_speciation", {"ruleset": ruleset, "players": 2})
    for policy in ("first", "seeded"):
        digests = []
        for _ in range(2):
            rng = np.random.RandomState(7)
            state = game.new_initial_state()
            # _play calls these lambdas before the loop goes on: each sees this pass's rng
            met = _play(state, (lambda n: 0) if policy == "first" else (lambda n: int(rng.randint(n))),  # noqa: B023
                        lambda legal: int(rng.choice(legal)), decisions)  # noqa: B023
            digests.append(str(state))
            taped = Game.new(state.inner.ruleset, 2, start=False, deal=False)
            taped.chance_source = ChanceTape([outcome for _, outcome in met])
            taped.deal_copies()
            taped.start("main")
            for step in state.full_history():
                if step.player != pyspiel.PlayerId.CHANCE:
                    taped.apply(taped.legal_actions()[step.action])
            assert taped.digest() == state.inner.digest()
            replayed = game.new_initial_state()
            for action in state.history():
                replayed.apply_action(action)
            assert str(replayed) == str(state) == str(state.clone())
        assert digests[0] == digests[1] and len(met) >= (3 if ruleset == TOY else 80)

    state, checked = game.new_initial_state(), 0
    for _ in range(3000):  # find chance steps in mid-game with more outcomes to come
        if state.is_terminal() or checked == 3:
            break
        if state.is_chance_node() and state.inner.decision_number > 0:
            first, other = state.clone(), state.clone()
            first.apply_action(0)
            other.apply_action(1)
            if first.is_chance_node() and other.is_chance_node():  # the same step, other outcomes so far
                checked += 1
                for seat in range(2):
                    assert (first.observation_string(seat) == other.observation_string(seat)
                            == state.observation_string(seat))
                    assert first.information_state_string(seat) == other.information_state_string(seat)
        state.apply_action(state.legal_actions()[0])
    assert checked == 3 or ruleset == TOY  # the toy draws one letter at a time
    state = game.new_initial_state()
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(ValueError, match="more than the 1 this game allows"):  # the bound is checked
        state.position.run(state.position.step, 1)


def test_openspiel_random_sim_test_on_the_toy():
    """OpenSpiel's own consistency checks (chance outcomes, legal actions, clones, histories,
    observations, returns) over whole random games."""
    pyspiel = _spiel()
    for players in (2, 3):
        pyspiel.random_sim_test(pyspiel.load_game("python_speciation", {"ruleset": TOY, "players": players}),
                                num_sims=10, serialize=False, verbose=False)


def test_openspiel_mcts_bot_plays_through_the_adapter():
    pyspiel = _spiel()
    import numpy as np
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("python_speciation", {"ruleset": TOY, "players": 2})
    rng = np.random.RandomState(3)
    wins = 0
    for _ in range(3):
        state = game.new_initial_state()
        bot = mcts.MCTSBot(game, uct_c=1.4, max_simulations=150, evaluator=mcts.RandomRolloutEvaluator(1, rng),
                           random_state=rng)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.randint(len(state.chance_outcomes()))))
            elif state.current_player() == 0:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        assert sum(state.returns()) == 1.0
        wins += state.returns()[0] == 1.0
    assert wins == 3  # the toy game rewards taking 3 points a turn; MCTS finds it

    marine = pyspiel.load_game("python_speciation", {"ruleset": "marine", "players": 3})
    state = marine.new_initial_state()
    assert state.is_chance_node()
    while state.is_chance_node():  # the setup's draws and shuffles
        state.apply_action(int(rng.randint(len(state.chance_outcomes()))))
    deciding = state.current_player()
    view = json.loads(state.observation_string(deciding))
    other = json.loads(state.observation_string((deciding + 1) % 3))
    assert view["pending"]["options"] == state.inner.state["pending"]["options"]
    assert set(other["pending"]["options"]) == {"?"}  # another's options are hidden
    assert len(state.legal_actions()) == len(state.inner.legal_actions())
    from speciation.adapters.features import seat_features  # the observation tensor: the seat's features
    for seat in range(3):
        assert state.observation_tensor(seat) == pytest.approx(seat_features(state.inner, seat))
    assert len(state.observation_tensor(0)) == marine.observation_tensor_size() == 3 + 4 * 12
