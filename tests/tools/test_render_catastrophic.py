"""Catastrophic drawn from a seat's view (issue 22, deliverable 3): each community as its
pyramid of species (level 1 at the bottom, each species between the two it eats, CAT-RB
Trophic level), a deactivated trait turned over, a protected species marked with the turns
left (CAT-RB Protected Species), extinct species gone, the Event History toward the 7th
Event (CAT-RB Winning the game), the stack of Interactions (CAT-RB Interaction Cards), the
deck and discard sizes, each hand as card faces for its seat and backs for the others; the
table's options of a response window map the card in hand to a click, and only the asked
seat gets them. The presentation's new parts are checked at load like every other."""
from __future__ import annotations

import re

import pytest

from speciation import Game, RuleErrors, load_ruleset
from speciation.render import Scene, render_svg, render_text
from speciation.render.levels import COL_W, GAP
from support.catastrophic_positions import play_to_a_response


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset("catastrophic")


@pytest.fixture(scope="module")
def at_response(ruleset):
    """A game where seat 0 is asked to answer a stacked Interaction, holding Cheating."""
    for seed in range(2, 40):
        game = Game.new(ruleset, 3, seed=seed)
        option = play_to_a_response(game, lambda seat, action, game=game: game.apply(action), seed)
        if option is not None:
            return game, option
    raise AssertionError("no seed led to a response window")


def groups(svg: str, cls: str) -> list[str]:
    return re.findall(rf'<g class="{cls}" data-entity="([^"]+)"', svg)


def species(game: Game, owner: str) -> list[dict]:
    return [r for r in game.state["ent"].values() if r.get("kind") == "species" and r["owner"] == owner]


def x_of(svg: str, ident: str) -> float:
    return float(re.search(rf'data-entity="{re.escape(ident)}"><title>[^<]*</title><rect x="([\d.]+)"', svg).group(1))


def y_of(svg: str, ident: str) -> float:
    return float(re.search(rf'data-entity="{re.escape(ident)}"><title>[^<]*</title><rect x="[\d.]+" y="([\d.]+)"',
                           svg).group(1))


def test_each_community_is_a_pyramid_and_extinct_species_are_gone(at_response):
    game, _ = at_response
    svg = render_svg(game, seat=0)
    drawn = set(groups(svg, "entity"))
    living = {r["id"] for p in game.state["players"] for r in species(game, p) if not r["extinct"]}
    extinct = {r["id"] for p in game.state["players"] for r in species(game, p) if r["extinct"]}
    assert living and drawn == living
    assert not drawn & extinct
    # a species on level L at place i stands half a column right of place i of level L - 1
    # (so between the two species it eats), each level one row higher
    def column(record):
        return record["pos"] + (record["level"] - 1) * 0.5
    pairs = 0
    for p in game.state["players"]:
        alive = [r for r in species(game, p) if not r["extinct"]]
        for record in alive:
            apart = (x_of(svg, record["id"]) - x_of(svg, alive[0]["id"])) / (COL_W + GAP)
            assert apart == pytest.approx(column(record) - column(alive[0]), abs=0.01)
            above = y_of(svg, record["id"]) < y_of(svg, alive[0]["id"])
            assert above == (record["level"] > alive[0]["level"]) or record["level"] == alive[0]["level"]
            pairs += record is not alive[0]
            for trait in record["traits"]:
                assert f'data-entity="{trait}"' in svg
    assert pairs >= 3
    text = render_text(game, seat=0)
    assert "Level 1: [" in text


def test_a_turned_over_trait_and_a_protected_species_show(at_response):
    game, _ = at_response
    plant = next(r for r in game.state["ent"].values() if r.get("kind") == "species" and r["owner"] != "p1"
                 and not r["extinct"] and r["traits"])
    owner = plant["owner"]
    view = game.view(0)
    record = view["ent"][plant["id"]]
    record["off"] = [record["traits"][0]]
    record["short"] = True
    record["protected_until"] = view["ent"][owner]["turns"] + 1  # protect(s): to the end of its owner's next turn
    scene = Scene.of(view, 0, ruleset=game.ruleset)
    svg = render_svg(scene)
    assert re.search(rf'<g class="item off" data-entity="{record["traits"][0]}"><title>[^<]*\(turned over\)</title>'
                     r'<g transform="rotate\(', svg)
    assert "protected (turns: 2)" in svg and "one food source" in svg
    text = render_text(scene)
    assert "(turned over)" in text and "<protected (turns: 2)>" in text and "<one food source>" in text
    record["protected_until"] = -1
    assert "protected (" not in render_svg(Scene.of(view, 0, ruleset=game.ruleset))


def test_history_stack_piles_and_hands(at_response):
    game, option = at_response
    ent = game.state["ent"]
    svg = render_svg(game, seat=0)
    history = ent["game"]["history"]
    assert f"Event History: {len(history)} / 7" in svg
    assert f"Deck: {len(ent['game']['deck'])}" in svg and f"Discard pile: {len(ent['game']['discard'])}" in svg
    # the stack, the entry that resolves first drawn first, naming who played it and what it answers
    stacked = groups(svg, "stacked")
    assert stacked == [e[0] for e in reversed(ent["game"]["stack"])]
    top = ent["game"]["stack"][-1]
    assert f"by {game.label(top[1])}, answering {game.label(top[2])}" in svg
    # seat 0's hand as cards with their text; the others' as backs, none of their cards named
    mine = ent["p1"]["hand"]
    assert set(mine) <= set(groups(svg, "card"))
    assert option.value in mine
    for other in ("p2", "p3"):
        assert ent[other]["hand"] and not any(f'"{c}"' in svg for c in ent[other]["hand"])
        assert f"× {len(ent[other]['hand'])}" in svg
    assert svg.count('class="card back"') == len(ent["p2"]["hand"]) + len(ent["p3"]["hand"])
    text = render_text(game, seat=0)
    assert f"Event History ({len(history)} / 7)" in text and "the first resolves first" in text
    assert f"Hand: {len(ent['p2']['hand'])} cards not shown" in text
    assert "Hand: " + ", ".join(game.label(c) for c in mine) in text


def test_the_card_in_hand_answers_and_only_the_asked_seat_gets_options(at_response):
    from speciation.table import messages
    game, option = at_response
    seats = ["human", "human", "human"]
    asked = messages.seat_state(game, 0, seats, None)
    assert asked["yours"] and "in answer to" in asked["prompt"]
    by_card = [o for o in asked["options"] if o["entities"] == [option.value]]
    assert len(by_card) == 1 and by_card[0]["label"] == game.label(option.value)
    assert [o for o in asked["options"] if not o["entities"]], "pass is a button of its own"
    for seat in (1, 2, None):
        other = messages.seat_state(game, seat, seats, None)
        assert not other["yours"] and other["options"] == []
        assert f'data-entity="{option.value}"' not in other["svg"]


def test_the_new_parts_are_checked_at_load(tmp_path):
    (tmp_path / "look.yaml").write_text(
        "presentation:\n"
        "  rows: [{from: game.history, of: events_neded}]\n"
        "  tableau:\n"
        "    stack: {from: game.stak}\n"
        "    seats:\n"
        "      levels:\n"
        "        kind: species\n"
        "        owner: ownr\n"
        "        level: level\n"
        "        items: trait\n"
        "        flags:\n"
        "          - {function: protection_lef, label: x}\n"
        "          - {attribute: short, function: protection_left, label: y}\n"
        "          - {function: winner, label: z}\n")
    with pytest.raises(RuleErrors) as caught:
        load_ruleset("catastrophic", mods=[str(tmp_path)])
    found = {(e.span.line, e.message, (e.hint or "").split(" or ")[0]) for e in caught.value.errors}
    assert (2, "no rule function named 'events_neded'", "did you mean 'events_needed'") in found
    assert (4, "'game' has no attribute 'stak'", "did you mean 'stack'?") in found
    assert (8, "a species has no attribute 'ownr'", "did you mean 'owner'?") in found
    assert (10, "a species has no attribute 'trait'", "did you mean 'traits'?") in found
    assert (12, "no rule function named 'protection_lef'", "did you mean 'protection_left'") in found
    assert (13, "a flag names either an 'attribute' or a 'function'", "") in found
    assert (14, "'winner' takes 0 values; a flag's function takes 1 (the entity)", "") in found
