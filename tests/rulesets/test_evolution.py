"""Evolution: New World (rulesets/evolution): the deck as the ruleset declares it, random games
for every player count, saves mid-game, dice replayed, and what a seat may not see."""
from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from speciation import Game, determinize, load_ruleset, load_save, save_json as to_json
from speciation.simulation import play_random_game

ROOT = Path(__file__).parents[2] / "rulesets" / "evolution"
SCENARIOS = Path(__file__).parents[1] / "scenarios" / "evolution"


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset("evolution")


def _played(ruleset, players: int, seed: int, actions: int) -> Game:
    game = Game.new(ruleset, players=players, seed=seed)
    chooser = random.Random(seed)
    for _ in range(actions):
        if game.is_over:
            break
        game.apply(chooser.choice(game.legal_actions()))
    return game


def test_84_evolution_cards_from_24_card_files(ruleset):
    files = sorted((ROOT / "cards").glob("*.yaml"))
    assert len(files) == 24
    copies = [e for e in Game.new(ruleset, players=2, seed=1).state["ent"].values()
              if e.get("kind") == "card" and e.get("deck") == "evolution"]
    assert len(copies) == 84
    kinds = Counter(e["card"] for e in copies)
    assert len(kinds) == 24 and set(kinds.values()) <= {3, 4}


def test_20_area_cards_and_every_trait_the_rulebook_names(ruleset):
    game = Game.new(ruleset, players=2, seed=1)
    areas = [e for e in game.state["ent"].values() if e.get("kind") == "card" and e.get("deck") == "area"]
    assert len(areas) == 20
    traits = {c.name for c in ruleset.cards.values() if c.deck == "trait"}
    seed = (Path(__file__).parents[3] / "shared" / "seeds" / "003_d827e2c15f6ef74f.txt")
    named = {"Carnivorous", "Fat Tissue", "High Body Weight", "Swimming", "Sharp Vision", "Burrowing",
             "Communication", "Hibernation", "Piracy", "Camouflage", "Hoofed", "Nocturnal", "Running",
             "Cooperation", "Partnership", "Scavenger", "Tail Loss", "Poisonous", "Horned", "Repelling",
             "Cosmopolitan", "Metamorphosis", "Detrimental Mutation", "Parasite", "Stasis"}
    assert traits == named
    if seed.exists():  # every one of them is printed in the rulebook
        text = seed.read_text().lower()
        assert all(name.lower() in text for name in named)
    # every face of every Evolution card is one of the traits
    faces = {e[face] for e in game.state["ent"].values() if e.get("deck") == "evolution" for face in ("main", "short")}
    assert faces == {name.lower().replace(" ", "_") for name in named}


def test_every_trait_has_provenance_and_a_scenario(ruleset):
    covered = " ".join(p.read_text() for p in SCENARIOS.rglob("*.yaml"))
    for card in ruleset.cards.values():
        if card.deck != "trait":
            continue
        assert card.provenance["confidence"] in {"confirmed", "reconstructed"}
        if card.provenance["confidence"] == "reconstructed":
            assert card.provenance.get("note"), card.name
        assert card.id in covered, f"no scenario uses {card.id}"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_finish(ruleset, players):
    for seed in range(3):
        result = play_random_game(ruleset, players=players, seed=seed * 11 + players)
        assert result.completed, result.error
        assert result.turns == 6 and len(result.scores) == players


def test_save_and_resume_mid_decision(ruleset):
    """Animals and traits are entities created in play: a save taken mid-decision resumes with
    them, and the resumed game goes on exactly as the original does."""
    game = _played(ruleset, 3, 4, 120)
    assert not game.is_over and game.pending is not None
    assert any(e.get("kind") == "animal" for e in game.state["ent"].values())
    resumed = load_save(to_json(game))
    assert resumed.digest() == game.digest()
    chooser_a, chooser_b = random.Random(9), random.Random(9)
    while not game.is_over:
        game.apply(chooser_a.choice(game.legal_actions()))
        resumed.apply(chooser_b.choice(resumed.legal_actions()))
    assert resumed.digest() == game.digest() and resumed.scores == game.scores


def test_dice_replay_identically_from_a_save(ruleset):
    """Running and Horned roll the die (EVO-RB Setup): a save replays every roll."""
    for seed in range(40):
        game = _played(ruleset, 2, seed, 10_000)
        rolls = [line for line in game.log if "roll →" in line]
        if len(rolls) > 1:  # the First Player roll and at least one Running/Horned roll
            break
    again = load_save(to_json(game))
    assert again.digest() == game.digest()
    assert [line for line in again.log if "roll →" in line] == rolls


def test_seats_do_not_see_hands_or_face_down_animals(ruleset):
    game = _played(ruleset, 3, 2, 60)
    state = game.state["ent"]
    for seat in range(3):
        me = game.state["players"][seat]
        view = game.view(seat)["ent"]
        for ident, record in state.items():
            if record.get("kind") == "player" and ident != me:
                assert set(view[ident]["hand"]) <= {"?"}
            if record.get("kind") == "animal" and record["player"] != me:
                assert view[ident]["body"] in ("?", None)
        assert all(v == "?" for v in view["game"]["deck"])
        # the card chosen in Development is logged to its player only
        for line in game.log_for(seat):
            assert "Development: play a card" not in line or line.startswith(f"  {game.label(me)}")


def test_determinized_copies_deal_real_cards(ruleset):
    """A seat's guess deals the hidden cards as whole cards: every copy id stays one card with
    both its faces, and the seat's own hand and animals are untouched."""
    game = _played(ruleset, 3, 7, 90)
    names = {i: e["name"] for i, e in game.state["ent"].items() if e.get("deck") == "evolution"}
    me = game.state["players"][0]
    for k in range(20):
        copy = determinize(game, 0, random.Random(k))
        ent = copy.state["ent"]
        assert {i: e["name"] for i, e in ent.items() if e.get("deck") == "evolution"} == names
        hidden = list(ent["game"]["deck"]) + [c for p in copy.state["players"] if p != me for c in ent[p]["hand"]]
        hidden += [e["body"] for e in ent.values() if e.get("kind") == "animal" and e["player"] != me]
        assert all(c in names for c in hidden) and len(set(hidden)) == len(hidden)
        assert ent[me]["hand"] == game.state["ent"][me]["hand"]


VARIANTS = ["short_game", "long_game", "unlimited_hand", "cataclysm", "random_mutations"]
EPOCHS = {"short_game": 4, "long_game": 8, "cataclysm": 1}


@pytest.mark.parametrize("variant", VARIANTS)
def test_variant_games_finish(variant):
    ruleset = load_ruleset("evolution", variants=[variant])
    for players in (2, 4):
        result = play_random_game(ruleset, players=players, seed=players)
        assert result.completed, result.error
        assert result.turns == EPOCHS.get(variant, 6)


def test_random_mutations_hide_the_gene_pool_from_its_owner():
    game = _played(load_ruleset("evolution", variants=["random_mutations"]), 2, 3, 5)
    me = game.state["players"][0]
    assert game.state["ent"][me]["hand"] and set(game.view(0)["ent"][me]["hand"]) == {"?"}


def test_random_mutations_hide_a_new_animals_card_from_its_owner_until_revealed():
    """The variant declares the faces of deck 'evolution' (a deck, in a variant file) as seen
    by nobody: a new animal's card is unseen by its owner too (EVO-RB Random Mutations: "you may
    not look at the card"), a card played as a trait was revealed to all."""
    ruleset = load_ruleset("evolution", variants=["random_mutations"])
    assert set(ruleset.hidden.faces) == {"evolution"}
    game = _played(ruleset, 2, 4, 40)
    ent, bodies, traits = game.state["ent"], 0, 0
    for seat, me in enumerate(game.state["players"]):
        view = game.view(seat)["ent"]
        for record in ent.values():
            if record.get("kind") == "animal" and record["player"] == me and record["body"] is not None:
                card = view[record["body"]]
                if ent[record["body"]].get("seen_by") is None:  # never revealed: no face shows
                    bodies += 1
                    assert card["main"] == card["short"] == card["card"] == "?"
            if record.get("kind") == "feature" and record["source"] is not None:
                traits += 1
                assert view[record["source"]]["main"] == ent[record["source"]]["main"]
    assert bodies and traits


def test_a_faces_entry_names_a_kind_or_a_deck(tmp_path):
    """A mod (like a variant) may declare the faces of a deck; a name that is neither a kind
    nor a deck is a positioned error that suggests the deck."""
    from speciation import RuleErrors
    good, bad = tmp_path / "good", tmp_path / "bad"
    for folder, name in ((good, "evolution"), (bad, "evolutoin")):
        folder.mkdir()
        (folder / "mod.yaml").write_text(f"mod: {folder.name}\nversion: '1'\ntargets: [evolution]\nhidden:\n"
                                         f"  faces:\n    {name}: {{attributes: [main, short], seen_by: all}}\n")
    assert set(load_ruleset("evolution", mods=[str(good)]).hidden.faces) == {"evolution"}
    with pytest.raises(RuleErrors) as caught:
        load_ruleset("evolution", mods=[str(bad)])
    error = caught.value.errors[0]
    assert (Path(error.span.path).name, error.span.line) == ("mod.yaml", 6)
    assert "there is no kind or deck 'evolutoin'" in error.message and "evolution" in str(error)


def test_a_mod_may_change_what_the_base_rule_files_declare(tmp_path):
    """Extend, don't fork: a mod's (and a variant's) 'kinds' may set a kind's 'max' as a base
    rule file does (before: "unknown key 'max'")."""
    folder = tmp_path / "herds"
    folder.mkdir()
    (folder / "mod.yaml").write_text("mod: herds\nversion: '1'\ntargets: [evolution]\nkinds:\n  animal:\n    max: 120\n")
    assert len(load_ruleset("evolution", mods=[str(folder)]).creatable["animal"][1]) == 120
    assert len(load_ruleset("evolution").creatable["animal"][1]) == 80
