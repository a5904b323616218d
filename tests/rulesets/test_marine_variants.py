"""Marine's variants (rulesets/marine/variants/), its Polish names and the mods shown in
docs/marine.md: each variant loads, and the setup steps it changes do what its rule says."""
from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from speciation import Game, load_ruleset
from speciation.cli import main
from speciation.interpreter.ruleset import variant_files

ROOT = Path(__file__).resolve().parents[2]
MARINE = ROOT / "rulesets" / "marine"
ANIMALS = ("reptile", "cephalopod", "fishes", "crustacean")
VARIANTS = ("multi_animal", "random_earth", "alternate_displays", "superheroes", "long", "short", "epic",
            "english_readings")


@functools.cache
def _ruleset(variants: tuple[str, ...]):
    return load_ruleset("marine", list(variants))


def _new(variants: list[str], players: int, seed: int = 0, lang: str | None = None) -> Game:
    """A game stopped at its first decision (the secret trait choice, after the species are placed)."""
    return Game.new(_ruleset(tuple(variants)), players, seed=seed, lang=lang)


def _ent(game: Game) -> dict:
    return game.state["ent"]


def _in_play(game: Game) -> list[str]:
    return [f for f in ANIMALS if _ent(game)[f]["in_play"]]


def _start_tokens(game: Game) -> list[str]:
    ent = _ent(game)
    return [r["token"] for r in ent.values() if r["kind"] == "corner" and r["token"] is not None]


def _through_setup(game: Game) -> Game:
    """Take the first option of every setup decision, up to the first turn."""
    while not game.is_over and not game.prompt.startswith("Turn"):
        game.apply(game.legal_actions()[0])
    return game


def test_every_variant_is_marines_own():
    found = variant_files(MARINE)
    assert set(VARIANTS) <= set(found)
    for name in VARIANTS:
        assert found[name].parent == MARINE / "variants", name  # not the original's file of that name
        text = found[name].read_text(encoding="utf-8")
        assert re.search(r"^source: .*DSM-RB Variant Rules|^source: .*DSM-RB The Cards", text, re.M), name


@pytest.mark.parametrize("variant", VARIANTS)
def test_variant_checks(variant, capsys):
    assert main(["check", "marine", "--variant", variant]) == 0
    assert capsys.readouterr().out.startswith("ok: marine")


def test_all_variants_together():
    ruleset = load_ruleset("marine", ["multi_animal", "random_earth", "alternate_displays", "superheroes", "epic"])
    game = _new(list(ruleset.variants), 2)
    assert len(_in_play(game)) == 4 and len(_start_tokens(game)) == 6


# ---- multi_animal ------------------------------------------------------------------------

def test_multi_animal_two_players_four_animals():
    ruleset = load_ruleset("marine", ["multi_animal"])
    assert (ruleset.min_players, ruleset.max_players) == (2, 2)
    game = _new(["multi_animal"], 2, seed=3)
    ent = _ent(game)
    assert _in_play(game) == list(ANIMALS)
    assert sorted(ent[f]["player"] for f in ANIMALS) == ["p1", "p1", "p2", "p2"]
    assert all(ent[f]["ap_hand"] == 4 for f in ANIMALS)  # basic pawns as in a 4-player game
    assert all(ent["0,0"]["units"][f] == 3 for f in ANIMALS)
    for i, f in enumerate(ANIMALS):
        ent[f]["vp"] = 10 * (i + 1)
    mine = {p: [10 * (i + 1) for i, f in enumerate(ANIMALS) if ent[f]["player"] == p] for p in ("p1", "p2")}
    assert game.scores == [min(mine["p1"]), min(mine["p2"])]  # the lower animal counts


def test_multi_animal_opens_every_domination_space():
    game = _through_setup(_new(["multi_animal"], 2, seed=3))
    spaces = {a.value[1] for a in game.legal_actions() if isinstance(a.value, list)}
    assert {"domination_1", "domination_2", "domination_3"} <= spaces


# ---- random_earth ------------------------------------------------------------------------

def _tile_vp(game: Game, f: str, hex_id: str) -> int:
    ent = _ent(game)
    units = ent[hex_id]["units"]
    present = [g for g in ANIMALS if units.get(g, 0) > 0 and ent[g]["in_play"]]
    ranked = sorted(present, key=lambda g: -units[g])  # stable: ties by the food chain
    points = game.ruleset.constants["tile_scores"][ent[hex_id]["terrain"]]
    return points[ranked.index(f)] if f in ranked and ranked.index(f) < len(points) else 0


@pytest.mark.parametrize("variants, players", [(["random_earth"], 4), (["random_earth"], 3),
                                               (["random_earth", "alternate_displays"], 4)])
def test_random_earth_setup(variants, players):
    constants = _ruleset(tuple(variants)).constants
    fixed = {h: t for h, t in constants["start_tiles"].items() if h not in constants["central_spaces"]}
    redrawn = 0
    for seed in range(12):
        game = _new(variants, players, seed=seed)
        ent = _ent(game)
        redrawn += sum("drawing again" in line for line in game.log)
        assert all(ent[h]["terrain"] == (t if h not in constants["start_vents"] else "vent") for h, t in fixed.items())
        central = sorted(ent[h]["terrain"] for h in constants["central_spaces"])
        assert len(central) == 7 and "vent" not in central
        stacks = [t for k in ("stack_1", "stack_2", "stack_3") for t in ent[k]["tiles"]]
        assert len(stacks) == 21
        pool = sorted(central + stacks)  # the 28 large tiles other than the 8 fixed ones
        assert pool == sorted([t for t, n in {"land": 4, "ocean": 4, "reef": 4, "kelp": 4, "seamount": 4,
                                               "seagrass": 4, "sand": 4}.items() for _ in range(n)])
        tokens = _start_tokens(game)
        assert len(tokens) == 6
        centre = constants["centre"]
        total = sum(constants["tile_scores"][ent[centre]["terrain"]])
        for f in _in_play(game):
            display = ent[f]["printed"] + ent[f]["added"]
            assert any(e in display for e in tokens), (seed, f)  # every animal matches one
            assert ent[centre]["units"].get(f, 0) == sum(tokens.count(e) for e in display)
            assert ent[f]["vp"] == total - _tile_vp(game, f, centre)
    assert redrawn > 0  # the redraw happened in some of these games


# ---- alternate_displays ------------------------------------------------------------------

def test_alternate_displays_draw_three_added_elements():
    game = _new(["alternate_displays"], 3, seed=5)
    ent = _ent(game)
    for f in _in_play(game):
        assert ent[f]["printed"] == [] and len(ent[f]["added"]) == 3
    standard_bag = len(_ent(_new([], 3, seed=5))["game"]["bag"])
    assert len(ent["game"]["bag"]) == standard_bag - 3 * 3
    tokens = _start_tokens(game)
    assert sorted(tokens) == sorted(_ruleset(()).constants["elements"])  # start elements as usual


# ---- superheroes, long, short, epic, english_readings ------------------------------------

def test_superheroes_keep_two_traits():
    game = _through_setup(_new(["superheroes"], 3, seed=2))
    for f in _in_play(game):
        assert len(_ent(game)[f]["traits"]) == 2


@pytest.mark.parametrize("variant, removed", [(None, 10), ("long", 5), ("short", 15), ("epic", 0)])
def test_game_length_variants(variant, removed):
    game = _through_setup(_new([variant] if variant else [], 2, seed=1))
    g = _ent(game)["game"]
    cards = g["slots"] + g["deck"]
    assert len(cards) == 35 - removed
    assert "asteroid" in cards[-5:]


def test_english_readings():
    assert load_ruleset("marine").constants["readings"]["monotypic_habitat"] == "pl"
    readings = load_ruleset("marine", ["english_readings"]).constants["readings"]
    assert readings["monotypic_habitat"] == "en" and readings["pack_hunters"] == "en"


# ---- Polish names --------------------------------------------------------------------------

def test_polish_names_cover_the_pieces():
    ruleset = load_ruleset("marine")
    names = ruleset.labels["pl"]
    wanted = [r["id"] for r in ruleset.entities.values() if r["kind"] in ("faction", "space", "special", "stack")]
    wanted += [s for key in ("elements", "terrains", "sections", "vent_sides") for s in ruleset.constants[key]]
    display = re.findall(r"\{id: (\w+),", (MARINE / "display.yaml").read_text(encoding="utf-8"))
    assert len(display) == 37 and set(display) <= set(wanted)
    assert [w for w in wanted if w not in names] == []
    assert names["reptile"] == "Gady" and names["worms"] == "bezkręgowce" and names["wanderlust"] == "Odkrywanie"
    assert all(card.id in names for card in ruleset.cards.values())


def test_polish_game_is_the_same_game():
    from speciation.agents import RandomAgent, SeatView

    games = [_new([], 2, seed=4), _new([], 2, seed=4, lang="pl")]
    agents = [[RandomAgent(4, seat) for seat in range(2)] for _ in games]
    for _ in range(80):
        for game, seats in zip(games, agents):
            game.apply(seats[game.current_player].choose(SeatView(game, game.current_player)))
    english, polish = games

    assert english.digest() == polish.digest()  # the language is presentation only
    assert english.state["pending"] == polish.state["pending"]
    assert any(line.startswith("Gracz 1 gra jako ") for line in polish.log)  # the Polish sentence (phrases)
    assert any("Specjacja" in line or "Ewolucja" in line or "Wzbogacenie" in line for line in polish.log)
    assert polish.label("speciation_5") == "Specjacja (pole specjalne: dowolny zasób)"


# ---- the mods in docs/marine.md ----------------------------------------------------------------

def _doc_yaml_blocks() -> list[str]:
    text = (ROOT / "docs" / "marine.md").read_text(encoding="utf-8")
    return re.findall(r"^```yaml\n(.*?)^```$", text, re.M | re.S)


def test_doc_mods_load(tmp_path, capsys):
    blocks = _doc_yaml_blocks()
    card = next(b for b in blocks if b.lstrip("# \n").startswith("my_asteroid") or "\ncard: Asteroid" in b)
    icons = next(b for b in blocks if "\nmod: my_icons" in b)
    (tmp_path / "my_asteroid.yaml").write_text(card, encoding="utf-8")
    (tmp_path / "my_icons.yaml").write_text(icons, encoding="utf-8")
    for mod in ("my_asteroid.yaml", "my_icons.yaml"):
        assert main(["check", "marine", "--mod", str(tmp_path / mod)]) == 0, capsys.readouterr().err
    ruleset = load_ruleset("marine", [], [str(tmp_path / "my_asteroid.yaml"), str(tmp_path / "my_icons.yaml")])
    assert ruleset.cards["asteroid"].provenance["confidence"] == "confirmed"
    assert ruleset.constants["event_icons"]["adaptability"] == "survival"
    assert "fertile" not in ruleset.constants["event_icons"]  # the table is replaced whole
