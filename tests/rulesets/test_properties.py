"""Property tests over random legal play of the original game (hypothesis).

After every step: every piece is conserved (20 of each element across bag, earth,
displays and animals; 55 cubes and 10 pawns per animal), VP never below zero, at most
one element per corner; clone and save/load round trips equal the original.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from speciation import Game, load_ruleset

from support.random_play import element_counts, play_and_check

ELEMENTS = ("grass", "grub", "meat", "seed", "sun", "water")
BOXES = ("bag", "adaptation_box", "regression_box", "abundance_box", "wasteland_box",
         "depletion_box", "wanderlust_box")


@pytest.fixture(scope="module")
def rulesets():
    return {v: load_ruleset("original", variants=list(v)) for v in ((), ("multi_animal",), ("random_earth",))}


def check_invariants(game: Game) -> None:
    ent = game.state["ent"]
    assert element_counts(game.state, BOXES) == Counter({e: 20 for e in ELEMENTS})
    factions = [r for r in ent.values() if r["kind"] == "faction" and r["in_play"]]
    cells = [r for r in ent.values() if r["kind"] == "cell"]
    spaces = [r for r in ent.values() if r["kind"] == "space"]
    for f in factions:
        on_earth = sum(c["units"].get(f["id"], 0) for c in cells)
        assert f["pool"] + on_earth + f["eliminated"] + f["box"] + 1 == 55, f["id"]
        assert min(f["pool"], f["eliminated"], f["box"]) >= 0
        on_display = sum(1 for s in spaces if s["pawn"] == f["id"])
        assert f["ap_hand"] + f["ap_reserve"] + on_display == 10, f["id"]
        assert f["vp"] >= 0
        assert len(f["printed"]) + len(f["added"]) <= 6
    for c in cells:
        assert all(n > 0 for n in c["units"].values())
        if c["terrain"] is None:
            assert not c["units"]
    for record in ent.values():
        if record["kind"] == "corner":
            assert record["token"] is None or record["token"] in ELEMENTS


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_random_play_keeps_every_invariant(rulesets, players, seed):
    play_and_check(rulesets[()], players, seed, steps=300, check=check_invariants)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(players=st.integers(2, 3), seed=st.integers(0, 2**32 - 1),
       variant=st.sampled_from([("multi_animal",), ("random_earth",)]))
def test_variants_keep_every_invariant(rulesets, players, seed, variant):
    play_and_check(rulesets[variant], players, seed, steps=200, check=check_invariants)


@pytest.mark.parametrize("seed", [3, 11])
def test_same_seed_and_actions_give_the_same_game(rulesets, seed):
    def run():
        game = Game.new(rulesets[()], players=4, seed=seed)
        chooser = random.Random(seed)
        for _ in range(150):
            game.apply(chooser.choice(game.legal_actions()))
        return game
    assert run().digest() == run().digest()


def test_illegal_action_is_refused_and_changes_nothing(rulesets):
    from speciation import IllegalActionError
    game = Game.new(rulesets[()], players=3, seed=2)
    before = game.digest()
    with pytest.raises(IllegalActionError, match="not a legal choice"):
        game.apply("no-such-space", decision=game.decision_id)
    assert game.digest() == before
