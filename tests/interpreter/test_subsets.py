"""A subset in one decision: 'choose NAME from ITEMS count K' (exactly K of them) or
'count LO to HI'. The options are the sub-lists, listed like any other options; the value
chosen is a list (issue 22, deliverable 1)."""
from __future__ import annotations

import pytest

from speciation import Game, IllegalActionError, RuleErrors, RuleRuntimeError
from speciation.interpreter.codegen import writer as codegen
from speciation.interpreter.saves import from_json, to_json

from support.ruleset_builder import load, main

BODY = """\
for p in entities(player):
    let hand = [a, b, c, d]
    choose out from hand by p count 2 prompt "discard two"
    p.counts["discarded"] = len(out)
    game.out = concat(game.out, out)
    may choose keep from hand by p count 1 to 3
    if keep != none:
        p.vp += len(keep)
"""


@pytest.fixture(params=[True, False], ids=["generated", "closures"])
def ruleset(request, tmp_path, monkeypatch):
    monkeypatch.setattr(codegen, "ENABLED", request.param)
    return load(tmp_path, main(BODY, extra="symbols:\n  more: [d]\n"))


def test_exactly_k_of_n_lists_every_pair_once_in_order(ruleset):
    game = Game.new(ruleset, 2, 0)
    assert game.prompt == "discard two"
    values = [a.value for a in game.legal_actions()]
    assert values == [["a", "b"], ["a", "c"], ["a", "d"], ["b", "c"], ["b", "d"], ["c", "d"]]
    game.apply(["b", "d"], decision=game.decision_id)
    assert game.state["ent"]["game"]["out"] == ["b", "d"]


def test_a_range_of_sizes_smallest_first_and_it_may_be_declined(ruleset):
    game = Game.new(ruleset, 2, 0)
    game.apply(["a", "b"], decision=game.decision_id)
    actions = game.legal_actions()
    assert len(actions) == 4 + 6 + 4 + 1          # 1, 2 or 3 of 4, and the pass
    assert actions[0].value == ["a"] and actions[13].value == ["b", "c", "d"] and actions[14].value is None
    game.apply(["a", "c", "d"], decision=game.decision_id)
    assert game.state["ent"]["p1"]["vp"] == 3


def test_a_subset_not_listed_is_refused_and_the_game_unchanged(ruleset):
    game = Game.new(ruleset, 2, 0)
    before = game.digest()
    for wrong in (["d", "b"], ["a"], ["a", "a"], ["a", "e"]):
        with pytest.raises(IllegalActionError):
            game.apply(wrong, decision=game.decision_id)
        assert game.digest() == before


def test_saved_and_resumed_at_a_subset_choice(ruleset):
    game = Game.new(ruleset, 2, 0)
    game.apply(["a", "b"], decision=game.decision_id)
    copy = from_json(to_json(game), ruleset)
    assert [a.value for a in copy.legal_actions()] == [a.value for a in game.legal_actions()]
    for g in (game, copy):
        g.apply(["b", "c"], decision=g.decision_id)
    assert game.digest() == copy.digest()


def test_equal_items_give_each_sub_list_once(tmp_path):
    rs = load(tmp_path, main('choose two from [a, a, b] by first(entities(player)) count 2\ngame.out = two\n'))
    game = Game.new(rs, 2, 0)
    assert [a.value for a in game.legal_actions()] == [["a", "a"], ["a", "b"]]


def test_fewer_items_than_the_count_leaves_nothing_to_choose(tmp_path):
    rs = load(tmp_path, main('choose three from [a, b] by first(entities(player)) count 3\ngame.n = 1 if three == none else 2\n'))
    game = Game.new(rs, 2, 0)
    assert game.is_over and game.state["ent"]["game"]["n"] == 1


@pytest.mark.parametrize("count, message", [('"two"', "whole number"), ("3 to 1", "upper bound is below")])
def test_a_bad_count_is_a_positioned_runtime_error(tmp_path, count, message):
    rs = load(tmp_path, main(f'choose x from [a, b, c] by first(entities(player)) count {count}\n'))
    with pytest.raises(RuleRuntimeError) as caught:
        Game.new(rs, 2, 0)
    assert message in str(caught.value) and "rules.yaml:" in str(caught.value)


def test_too_many_subsets_is_a_budget_error(tmp_path):
    rs = load(tmp_path, main('choose x from range(0, 40) by first(entities(player)) count 0 to 40\n'))
    with pytest.raises(RuleRuntimeError, match="a choice of a subset"):
        Game.new(rs, 2, 0)


def test_count_stays_a_name_outside_a_choice(tmp_path):
    rs = load(tmp_path, main('game.n = count([a, b, a], a)\n'))
    assert Game.new(rs, 2, 0).state["ent"]["game"]["n"] == 2
    with pytest.raises(RuleErrors):
        load(tmp_path / "bad", main('choose x from [a, b] by first(entities(player)) count\n'))
