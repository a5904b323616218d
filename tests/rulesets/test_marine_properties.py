"""Property tests over random legal play of Dominant Species: Marine (hypothesis).

After every step: every piece is conserved - 19 disks of each element across the bag, the
corners of earth, the animals' added elements (and the element spaces of Phenotypic Plasticity)
and every element box of the action display; 16 terrain markers across the red bag and the
Competition and Evolution squares; 35 cubes per animal (gene pool + earth + eliminated + cubes in
Regression + the food-chain marker); 8 basic pawns per animal (hand + box + display). A special
pawn is on at most one space, VP never drop below zero, a corner holds at most one element and a
display at most six elements. Clone and save/load round trips equal the original and go on
exactly as it does. Random games finish for 2, 3 and 4 players and for every variant in
rulesets/marine/variants/.
"""
from __future__ import annotations

import random
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from speciation import Game, load_ruleset

from support.random_play import check_round_trips, element_counts, play_and_check

MARINE = Path(__file__).resolve().parents[2] / "rulesets" / "marine"
ELEMENTS = ("sun", "worms", "plankton", "gastropods", "sponges", "algae")
TERRAINS = ("land", "kelp", "reef", "seamount", "seagrass", "sand", "ocean", "vent")
# The element boxes of the action display, and the draw bag (DSM-RB Action Display, Reseed).
BOXES = ("bag", "abundance_box", "adaptation_box", "speciation_box", "wanderlust_box",
         "autotrophs_box", "depletion_box", "regression_box")
# Element disks an animal holds: its added disks, and the disks on the Phenotypic Plasticity
# trait's element spaces (rules/traits.yaml), when that attribute exists.
ANIMAL_ELEMENT_LISTS = ("added", "plastic_elements")
MARKER_LISTS = ("marker_bag", "competition_markers", "evolution_markers")
DISKS_PER_TYPE = 19          # GF-B.0: 114 disks
MARKERS_PER_TERRAIN = 2      # DSM-RB Terrain Markers: 16
CUBES = 35                   # DSM-RB Setup O: 35 cubes per colour
BASIC_PAWNS = 8              # GF-B.0: 32 coloured cylinders
MAX_ELEMENTS = 6             # DSM-RB Adaptation
STEP_LIMIT = 200_000         # a random game takes a few thousand steps (tens of thousands with
                             # alternate_displays, where species are often endangered)


def variant_names() -> list[str]:
    names = []
    for path in sorted((MARINE / "variants").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        names.append(data.get("variant", path.stem))
    return names


@cache
def ruleset(variant: str | None = None):
    return load_ruleset("marine", variants=[variant] if variant else [])


def check_invariants(game: Game) -> None:
    ent = game.state["ent"]
    g = ent["game"]
    assert element_counts(game.state, BOXES, ANIMAL_ELEMENT_LISTS) == Counter({e: DISKS_PER_TYPE for e in ELEMENTS})
    markers: Counter = Counter()
    for attribute in MARKER_LISTS:
        markers.update(g[attribute])
    assert markers == Counter({t: MARKERS_PER_TERRAIN for t in TERRAINS})
    factions = [r for r in ent.values() if r["kind"] == "faction" and r["in_play"]]
    cells = [r for r in ent.values() if r["kind"] == "cell"]
    spaces = [r for r in ent.values() if r["kind"] == "space"]
    for f in factions:
        on_earth = sum(c["units"].get(f["id"], 0) for c in cells)
        in_regression = g["regression_cubes"].count(f["id"])
        assert f["pool"] + on_earth + f["eliminated"] + in_regression + f["box"] + 1 == CUBES, f["id"]
        assert min(f["pool"], f["eliminated"], f["box"]) >= 0, f["id"]
        on_display = sum(1 for s in spaces if s["pawn"] == f["id"])
        assert f["ap_hand"] + f["ap_reserve"] + on_display == BASIC_PAWNS, f["id"]
        assert min(f["ap_hand"], f["ap_reserve"]) >= 0, f["id"]
        assert f["vp"] >= 0, f["id"]
        assert len(f["printed"]) + len(f["added"]) <= MAX_ELEMENTS, f["id"]
    specials = {r["id"] for r in ent.values() if r["kind"] == "special"}
    placed = Counter(s["pawn"] for s in spaces if s["pawn"] in specials)
    assert all(n == 1 for n in placed.values()), placed
    for c in cells:
        assert all(n > 0 for n in c["units"].values())
        if c["terrain"] is None:
            assert not c["units"]
    for record in ent.values():
        if record["kind"] == "corner":
            assert record["token"] is None or record["token"] in ELEMENTS


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_random_play_keeps_every_invariant(players, seed):
    play_and_check(ruleset(), players, seed, steps=500, check=check_invariants, every=50)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_game_keeps_every_invariant(players):
    game = play_and_check(ruleset(), players, seed=100 + players, steps=STEP_LIMIT, check=check_invariants, every=200)
    assert game.is_over
    check_round_trips(game, random.Random(0))


def finishing_cases() -> list[tuple[str | None, int]]:
    cases = [(None, n) for n in (2, 3, 4)]
    for name in variant_names():
        rules = ruleset(name)
        cases += [(name, n) for n in (2, 3, 4) if rules.min_players <= n <= rules.max_players]
    return cases


@pytest.mark.parametrize("variant,players", finishing_cases(),
                         ids=lambda v: str(v) if v is not None else "standard")
def test_random_games_finish(variant, players):
    rules = ruleset(variant)
    game = Game.new(rules, players=players, seed=7 * players + 1)
    chooser = random.Random(players)
    for _ in range(STEP_LIMIT):
        if game.is_over:
            break
        game.apply(chooser.choice(game.legal_actions()))
    assert game.is_over, f"not over after {STEP_LIMIT} steps (round {game.state['ent']['game']['round']})"
    check_invariants(game)
    ent = game.state["ent"]
    assert ent["game"]["ended"]
    # The game ends after the Asteroid's round (or, by the stalemate house rule, when no animal
    # has a species left on earth or in its gene pool).
    assert ent["game"]["last_round"] or game.evaluate("stalemate")
    if ent["game"]["last_round"]:
        assert "asteroid" in ent["game"]["discard"]
    assert game.winner is not None


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_variants_keep_every_invariant(seed, data):
    name = data.draw(st.sampled_from(variant_names() or [None]))
    rules = ruleset(name)
    players = data.draw(st.integers(rules.min_players, rules.max_players))
    play_and_check(rules, players, seed, steps=400, check=check_invariants, every=50)


@pytest.mark.parametrize("seed", [3, 11])
def test_same_seed_and_actions_give_the_same_game(seed):
    def run():
        game = Game.new(ruleset(), players=4, seed=seed)
        chooser = random.Random(seed)
        for _ in range(300):
            if game.is_over:
                break
            game.apply(chooser.choice(game.legal_actions()))
        return game
    assert run().digest() == run().digest()


def test_illegal_action_is_refused_and_changes_nothing():
    from speciation import IllegalActionError
    game = Game.new(ruleset(), players=3, seed=2)
    before = game.digest()
    with pytest.raises(IllegalActionError, match="not a legal choice"):
        game.apply("no-such-space", decision=game.decision_id)
    assert game.digest() == before
