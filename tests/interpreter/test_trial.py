"""Trials (interpreter/trial.py): every action taken and rolled back leaves the game exactly as it
was (digest, pending decision, log, history, remembered values), in every shipped ruleset, and an
agent's lookahead through a trial values each action as a fresh copy would."""
from __future__ import annotations

import doctest
import random

import pytest

import speciation.interpreter.trial

from speciation import Game, load_ruleset
from speciation.agents.evaluation import Snapshot, evaluations, margin
from speciation.agents.greedy import lookahead


def _positions(name: str, players: int, seed: int, every: int, count: int):
    """Positions of a random game of *name*: every *every*-th decision, *count* of them."""
    game = Game.new(load_ruleset(name), players, seed)
    rng = random.Random(seed)
    found = 0
    while not game.is_over and found < count:
        for _ in range(every):
            if game.is_over:
                return
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])
        if not game.is_over:
            found += 1
            yield game


@pytest.mark.parametrize("name,players", [("original", 4), ("marine", 3), ("evolution", 4), ("catastrophic", 2)])
def test_every_action_rolled_back_leaves_the_game_as_it_was(name, players):
    for game in _positions(name, players, seed=3, every=23, count=8):
        before, log, history, number = game.digest(), game.log_size, game.history, game.decision_number
        pending = repr(game.pending)
        evaluations(game) if "evaluate" in game.ruleset.conventions or "score" in game.ruleset.conventions else None
        remembered = {name: dict(t) if type(t) is dict else t for name, t in game._machine.memo.items()}
        trial = game.trial()
        actions = list(game.legal_actions())
        for action in actions:
            game.apply(action)
            trial.rollback()
            assert game.digest() == before and game.log_size == log and game.decision_number == number
            assert repr(game.pending) == pending and game.history == history
            for table_name, table in remembered.items():  # what it remembered is still there, unchanged
                kept = game._machine.memo[table_name]
                assert kept == table if type(table) is not dict else {k: kept[k] for k in table} == table
        game.apply(actions[-1])  # an action listed before the trial is still accepted


def test_a_rolled_back_game_plays_on_as_one_never_tried():
    ruleset = load_ruleset("original")
    tried, plain = Game.new(ruleset, 4, 5), Game.new(ruleset, 4, 5)
    rng = random.Random(5)
    for _ in range(150):
        trial = tried.trial()
        for action in tried.legal_actions():
            tried.apply(action)
            evaluations(tried) if not tried.is_over else None
            trial.rollback()
        index = rng.randrange(len(plain.legal_actions()))
        tried.apply(tried.legal_actions()[index])
        plain.apply(plain.legal_actions()[index])
        assert tried.digest() == plain.digest() and tried.log == plain.log
        if plain.is_over:
            break


def test_the_greedy_lookahead_through_a_trial_values_actions_as_fresh_copies_do():
    for game in _positions("original", 4, seed=11, every=17, count=10):
        actions = game.legal_actions()
        seat = game.current_player
        cold = []
        snapshot = Snapshot(game)
        for action in actions:  # each action on a fresh copy with nothing remembered
            copy = snapshot.copy()
            copy.apply(action.value, decision=copy.decision_id)
            values = copy.scores if copy.is_over else evaluations(copy)
            cold.append(margin(values, seat) + (1e6 if copy.is_over and copy.winner == seat else 0.0))
        before = game.digest()
        assert lookahead(game, actions, seat) == cold
        assert game.digest() == before


def test_the_module_example_runs():
    result = doctest.testmod(speciation.interpreter.trial)
    assert result.attempted >= 5 and result.failed == 0


def test_a_rollback_compares_what_the_statements_run_wrote_and_no_mark_outlives_a_write():
    game = Game.new(load_ruleset("original"), 4, 2)
    while "place an action pawn" not in game.prompt:  # Planning: a pawn goes to a space, nothing is scored
        game.apply(game.legal_actions()[0])
    before = game.digest()
    trial = game.trial()
    memo = game._machine.memo
    assert {"#pawn", "#vp"} <= set(memo)
    game.apply(game.legal_actions()[0])
    assert "#pawn" not in memo and "#vp" in memo  # placing a pawn wrote a space's pawn, no animal's VP
    trial.rollback()
    assert game.digest() == before and {"#pawn", "#vp"} <= set(game._machine.memo)


def test_a_ruleset_with_a_statement_that_changes_the_state_without_noting_what_gets_no_marks():
    game = Game.new(load_ruleset("evolution"), 2, 1)
    game.trial()
    assert not any(isinstance(name, str) and name.startswith("#") for name in game._machine.memo)


def test_an_entity_destroyed_and_created_again_under_its_id_is_put_back():
    """Evolution destroys traits' entities and creates others under the lowest free id: an
    action tried that does both leaves the same ids with new records (the ids alone compared
    equal, and a later game had another animal's traits: found playing on after trials)."""
    ruleset = load_ruleset("evolution")
    tried, plain = Game.new(ruleset, 3, 1), Game.new(ruleset, 3, 1)
    rng = random.Random(1)
    while not plain.is_over:
        trial = tried.trial()
        for action in tried.legal_actions():
            tried.apply(action)
            trial.rollback()
        index = rng.randrange(len(plain.legal_actions()))
        tried.apply(tried.legal_actions()[index])
        plain.apply(plain.legal_actions()[index])
        assert tried.digest() == plain.digest(), f"after {len(plain.history)} decisions"


def test_a_trial_snapshot_copies_every_written_list_and_map_and_only_those_may_be_shared_otherwise():
    # the original notes every write and creates nothing: its snapshot shares the values no
    # statement writes and copies the written lists and maps (the rules change those in place)
    game = Game.new(load_ruleset("original"), 4, 1)
    written = game.ruleset.compiler.written
    before = game.trial()._pristine["ent"]
    copied = shared = 0
    for ident, record in game.state["ent"].items():
        for attr, value in record.items():
            if isinstance(value, (list, dict)):
                assert before[ident][attr] == value
                if attr in written:
                    assert before[ident][attr] is not value
                    copied += 1
                else:
                    shared += before[ident][attr] is value
    assert copied and shared


@pytest.mark.parametrize("name,players", [("original", 4), ("marine", 3)])
def test_a_greedy_search_of_a_shared_copy_values_as_a_full_copy_and_leaves_the_game_alone(name, players):
    # the copy shares with the game what no statement writes (determinize(share=True)), and the
    # trial's snapshot takes the game's records that hold nothing hidden (Trial(copy, origin=game))
    from speciation.agents import SeatView
    from speciation.interpreter.determinize import determinize
    from speciation.interpreter.trial import Trial
    for game in _positions(name, players, seed=5, every=19, count=6):
        seat = game.current_player
        actions = game.legal_actions()
        before = game.digest()
        full = determinize(game, seat, random.Random(3), log=False)
        shared = determinize(game, seat, random.Random(3), log=False, share=True)
        assert shared.state == full.state and shared.digest() == full.digest()
        reference = lookahead(full, actions, seat)
        assert lookahead(shared, actions, seat, make_trial=lambda copy, origin=game: Trial(copy, origin=origin)) == reference
        assert shared.digest() == full.digest() and game.digest() == before
        view = SeatView(game, seat)  # as the greedy agent searches
        copy = view.determinize(random.Random(3), log=False)
        view.recall(copy)
        assert lookahead(copy, actions, seat, valued=view.remember, make_trial=view.trial) == reference
        assert game.digest() == before


def test_a_trial_from_the_game_a_copy_was_made_from_snapshots_as_one_from_the_copy():
    from speciation.interpreter.determinize import determinize
    from speciation.interpreter.trial import Trial
    for game in _positions("original", 4, seed=2, every=29, count=4):
        copy = determinize(game, game.current_player, random.Random(1), log=False, share=True)
        assert Trial(copy, origin=game)._pristine == Trial(copy)._pristine
        assert Trial(copy, origin=game)._pristine["ent"]["game"] is not game.state["ent"]["game"]  # hides the deck


def test_the_quick_shuffle_draws_as_random_shuffle():
    from speciation.interpreter.determinize import _SAME_SHUFFLE, _shuffle
    assert _SAME_SHUFFLE
    for seed in range(5):
        ours, theirs = random.Random(seed), random.Random(seed)
        for size in range(40):
            mine, reference = list(range(size)), list(range(size))
            _shuffle(mine, ours.getrandbits)
            theirs.shuffle(reference)
            assert mine == reference
        assert ours.random() == theirs.random()


def test_actions_alike_share_one_value_only_where_each_would_get_it_alone(monkeypatch):
    # the original's alike(x): Planning placements on open spaces of one section; the agent
    # values one of them and gives its value to the others: the same values as one by one
    from speciation.agents.greedy import alike_keys
    shared = planning = 0
    for game in _positions("original", 4, seed=4, every=7, count=40):
        ruleset = game.ruleset
        assert ruleset.conventions.get("alike") == "alike"
        actions = game.legal_actions()
        seat = game.current_player
        keys = [k for k in alike_keys(game, actions) if k is not None]
        with monkeypatch.context() as patch:
            patch.setattr(ruleset, "conventions", {k: v for k, v in ruleset.conventions.items() if k != "alike"})
            assert alike_keys(game, actions) is None
            alone = lookahead(game, actions, seat)
        assert lookahead(game, actions, seat) == alone
        planning += bool(keys)
        shared += len(keys) - len(set(keys))
    assert planning >= 5 and shared >= 50  # the positions had Planning decisions with spaces alike
