"""The presentation layer and the renderer (issue 9): rule files declare how the state
looks; SVG/PNG/text are drawn from one seat's view only; every drawn entity is clickable."""
import re

import pytest

from speciation import Game, RuleErrors, load_ruleset
from speciation.agents import RandomAgent
from speciation.cli import main
from speciation.render import Scene, describe, describe_options, render_png, render_svg, render_text
from speciation.api import save_json


@pytest.fixture(scope="module")
def original():
    return load_ruleset("original")


@pytest.fixture(scope="module")
def marine():
    return load_ruleset("marine")


def played(ruleset, players=3, steps=120, seed=1):
    game = Game.new(ruleset, players, seed=seed)
    agents = [RandomAgent(seed, i) for i in range(players)]
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(agents[game.current_player].choose(game))
    return game


def entities(svg):
    return set(re.findall(r'data-entity="([^"]+)"', svg))


def test_marine_states_only_what_differs(original, marine):
    # palettes merge value by value: Marine's terrains added, the original's kept
    assert marine.presentation["palettes"]["terrain"]["reef"] and marine.presentation["palettes"]["terrain"]["sea"]
    # a null entry takes an inherited box away; a list (rows) replaces the original's
    assert "initiative" in original.presentation["display"]["boxes"]
    assert "initiative" not in marine.presentation["display"]["boxes"]
    assert [r.get("from") or r["kind"] for r in marine.presentation["rows"]] == \
        ["game.slots"] + [f"stack_{i}.tiles" for i in (1, 2, 3)] + ["special"]
    assert "game.initiative" in [r["from"] for r in original.presentation["rows"]]
    assert marine.presentation["board"] == original.presentation["board"]


def test_presentation_errors_are_placed_all_at_once(tmp_path):
    (tmp_path / "look.yaml").write_text("presentation:\n  board:\n    cell_fill: {attribute: terain, palette: terrian}\n"
                                        "  panels: {kind: faction, fields: [{attribute: gene_pool}]}\n")
    (tmp_path / "log.yaml").write_text("presentation:\n  log: {line: 3}\n")
    (tmp_path / "marker.yaml").write_text("presentation:\n  board:\n    cell_marker: {function: dominnt}\n")
    with pytest.raises(RuleErrors) as caught:
        load_ruleset("original", mods=[str(tmp_path)])
    found = {(e.span.line, e.span.col, e.message, e.hint) for e in caught.value.errors}
    assert (2, 9, "in 'presentation' → 'log': unknown key 'line'", "did you mean 'lines'?") in found
    assert (3, 28, "a cell has no attribute 'terain'", "did you mean 'terrain'?") in found
    assert (3, 45, "no palette named 'terrian'", "did you mean 'terrain'?") in found
    assert any(m == "a faction has no attribute 'gene_pool'" for _, _, m, _ in found)
    assert (3, 29, "no rule function named 'dominnt'", "did you mean 'dominant' or 'dominated_by'?") in found


def test_every_drawn_entity_is_clickable(original):
    game = played(original)
    svg = render_svg(game, seat=0)
    drawn = entities(svg)
    assert set(original.grid.cells) <= drawn and set(original.grid.cells_at) <= drawn
    assert set(original.kind_members["space"]) <= drawn
    assert set(original.kind_members["stack"]) <= drawn  # the Wanderlust piles
    assert set(game.state["ent"]["game"]["slots"]) <= drawn
    assert {f for f in original.kind_members["faction"] if game.state["ent"][f]["in_play"]} <= drawn
    box = game.state["ent"]["game"]["adaptation_box"]
    assert box and set(box) <= set(re.findall(r'data-value="([^"]+)"', svg))  # tokens in boxes
    # hover text: a card's rule text, a cell's terrain and contents
    card = game.state["ent"]["game"]["slots"][0]
    text = original.cards[card].text.strip()
    assert re.search(rf'data-entity="{card}"><title>[^<]*{re.escape(text[:40])}', svg)
    cell = next(c for c in original.grid.cells if game.state["ent"][c]["terrain"] and game.state["ent"][c]["units"])
    title = re.search(rf'data-entity="{cell}"><title>([^<]*)</title>', svg).group(1)
    record = game.state["ent"][cell]
    assert title.startswith(f"{record['terrain']} {cell}")
    for animal, count in record["units"].items():
        if count:
            assert f"{game.label(animal)} {count}" in title
    # the dominance cone: the rules' own dominant(t), computed from the seat's view
    for cell in original.grid.cells:
        winner = game.evaluate("dominant", cell)
        title = re.search(rf'data-entity="{cell}"><title>([^<]*)</title>', svg).group(1)
        assert (f"dominant: {game.label(winner)})" in title) == (winner is not None), title


def test_cards_in_a_panel_and_a_row_of_a_kind_are_clickable(marine):
    game = Game.new(marine, 3, seed=1)  # the setup's secret trait choice is pending
    seat = game.current_player
    hand = game.legal_actions()
    svg = render_svg(game, seat=seat)
    assert {a.value for a in hand} <= entities(svg)  # the dealt traits: cards in the seat's panel
    assert re.search(rf'data-entity="{hand[0].value}"><title>{re.escape(game.label(hand[0].value))}: ', svg)
    assert set(marine.kind_members["special"]) <= entities(svg)  # the row of special pawns
    record = game.state["ent"]["special_sun"]
    record["controller"] = "fishes"
    assert "<title>special sun: Fishes</title>" in render_svg(game, seat=seat)
    assert "Special pawns: special sun: Fishes, special worms, " in render_text(game, seat=seat)


def test_a_row_of_a_kind_is_checked(tmp_path):
    (tmp_path / "look.yaml").write_text("presentation:\n  rows:\n    - {kind: specal, label: S}\n"
                                        "    - {kind: special, detail: controler}\n    - {kind: special, as: pile}\n"
                                        "    - {label: nothing}\n")
    with pytest.raises(RuleErrors) as caught:
        load_ruleset("marine", mods=[str(tmp_path)])
    found = {(e.span.line, e.message, e.hint) for e in caught.value.errors}
    assert (3, "unknown kind 'specal'", "did you mean 'special'?") in found
    assert (4, "a special has no attribute 'controler'", "did you mean 'controller'?") in found
    assert (5, "only a row that is not a pile may name a 'kind' instead of 'from'", None) in found
    assert (6, "name either 'from' (entity.attribute) or 'kind'", None) in found


def test_a_seat_sees_only_its_own_secrets(marine):
    game = Game.new(marine, 3, seed=1)  # the setup's secret trait choice is pending
    hands = {game.state["ent"][f]["player"]: game.state["ent"][f]["trait_hand"]
             for f in marine.kind_members["faction"] if game.state["ent"][f]["trait_hand"]}
    for seat, player in enumerate(game.state["players"]):
        svg, text = render_svg(game, seat=seat), render_text(game, seat=seat)
        for owner, hand in hands.items():
            for card in hand:
                name = marine.cards[card].name
                assert (name in svg) == (owner == player), (player, name)
                assert (name in text) == (owner == player), (player, name)
    with pytest.raises(ValueError):
        render_svg(game)  # no seat: only when the whole state is asked for
    assert "Hadopelagic" in render_svg(game, omniscient=True)


def test_text_summary_names_terrain_pieces_display_cards_scores(original):
    game = played(original)
    text = render_text(game, seat=1)
    assert "view of Player 2" in text
    for cell in original.grid.cells:
        if game.state["ent"][cell]["terrain"]:
            assert f"{game.state['ent'][cell]['terrain']} {cell}" in text
    assert "Action display:" in text and "Speciation 1: meat" in text
    for i, stack in enumerate(original.kind_members["stack"], 1):  # a pile: its count, its top if face up
        tiles, face_up = game.state["ent"][stack]["tiles"], game.state["ent"][stack]["face_up"]
        top = f" ({tiles[0]} on top)" if face_up and tiles else ""
        assert f"Wanderlust stack {i}: {len(tiles)}{top}\n" in text
    for card in game.state["ent"]["game"]["slots"]:
        assert original.cards[card].name in text
    scores = ", ".join(f"{game.label(p)} {s}" for p, s in zip(game.state["players"], game.scores))
    assert f"Scores: {scores}" in text


def test_options_name_what_they_are(original):
    game = Game.new(original, 2, seed=3)
    scene = Scene.of(game, seat=0)
    corner = next(c for c in original.grid.cells_at if game.state["ent"][c]["token"])
    cells = [c for c in corner.split("|") if c in game.state["ent"]]
    label = scene.describe(corner)
    assert label.startswith("corner of ") and all(c in label for c in cells)
    assert f"[{game.state['ent'][corner]['token']}]" in label
    assert describe(game, "speciation_3", seat=0) == "Speciation 3: seed"
    assert describe(game, "0,0", seat=0).startswith("tundra 0,0")
    while not any(isinstance(a.value, str) and a.value in original.grid.cells for a in game.legal_actions()):
        game.apply(game.legal_actions()[0])
    labels = describe_options(game)
    for action, label in zip(game.legal_actions(), labels):
        if action.value is None:
            assert label == action.label  # not an entity: the rules' own label
        else:
            assert label.startswith(f"{game.state['ent'][action.value]['terrain'] or 'blank hex'} {action.value}")


def test_marine_in_polish(marine):
    game = played(marine, steps=60)
    text = render_text(game, seat=0, lang="pl")
    svg = render_svg(game, seat=0, lang="pl")
    assert "rafa 0,0" in text and "rafa" in svg  # the Reef, in the Polish rulebook's word
    assert "Specjacja" in svg


@pytest.mark.parametrize("fixture", ["tests/support/fixtures/toy", "tests/support/fixtures/mini"])
def test_fixtures_render_with_defaults(fixture):
    ruleset = load_ruleset(fixture)
    game = Game.new(ruleset, 2, seed=1)
    game.apply(game.legal_actions()[0])
    svg = render_svg(game, seat=0)
    assert svg.startswith("<svg") and 'data-entity="p1"' in svg and 'data-entity="p2"' in svg
    assert set(ruleset.grid.cells) <= entities(svg)
    text = render_text(game, seat=0)
    assert "Player 1: vp " in text or "Player 1: letters" in text
    assert render_png(svg).startswith(b"\x89PNG")


def test_render_command(tmp_path, capsys, marine):
    save = tmp_path / "game.json"
    save.write_text(save_json(played(marine, steps=40)))
    assert main(["render", str(save), "--seat", "1", "--out", str(tmp_path / "a.svg")]) == 0
    assert (tmp_path / "a.svg").read_text().startswith("<svg")
    assert main(["render", str(save), "--out", str(tmp_path / "a.png"), "--lang", "pl"]) == 0
    assert (tmp_path / "a.png").read_bytes().startswith(b"\x89PNG")
    assert main(["render", str(save), "--seat", "2"]) == 0
    assert "view of Player 2" in capsys.readouterr().out
    assert main(["render", str(save), "--seat", "9"]) == 2
    assert main(["render", str(save), "--out", str(tmp_path / "a.gif")]) == 2


def test_tokens_beside_each_space_name_it(marine):
    # Marine: the element beside each basic Speciation space, the terrain beside each
    # Competition and Evolution space (a per_space box) are part of the space's label
    game = played(marine, steps=60)
    scene = Scene.of(game, seat=0)
    box = game.state["ent"]["game"]["speciation_box"]
    assert box, "the display has been seeded"
    for i, element in enumerate(box):
        assert scene.describe(f"speciation_{i + 1}") == f"Speciation {i + 1}: {element}"
    markers = game.state["ent"]["game"]["evolution_markers"]
    assert scene.describe("evolution_1") == f"Evolution 1: {markers[0]}"
    assert scene.describe("speciation_5") == "Speciation (special: any element)"


def test_a_hand_cards_faces_are_drawn_inside_it_each_clickable():
    """A tableau's ``faces``: each face a hand card's attributes name is drawn as a part of
    that card (a group of its own inside the card's), so an option naming the face is on it;
    another seat's hand shows card backs, no face."""
    import random

    from speciation.render import draw
    ruleset = load_ruleset("evolution")
    game = Game.new(ruleset, 2, 3)
    rng = random.Random(3)
    while not game.prompt.startswith("Play the card"):
        game.apply(rng.choice(game.legal_actions()))
    seat = game.current_player
    picture = draw(Scene.of(game.view(seat), seat, None, ruleset), log=False)
    hand = game.state["ent"][game.state["players"][seat]]["hand"]
    for card in hand:
        record = game.state["ent"][card]
        for face in (record["main"], record["short"]):
            assert re.search(rf'<g class="card" data-entity="{card}">.*?<g class="face" data-entity="{face}">',
                             picture.svg, re.S), (card, face)
    faces = [a.value for a in game.legal_actions() if a.value != "new animal"]
    assert faces and all(picture.entities_of(face) == [face] for face in faces)
    other = game.state["ent"][game.state["players"][1 - seat]]["hand"]
    assert other and all(f'data-entity="{card}"' not in picture.svg for card in other)
    assert picture.svg.count('<g class="face"') == 2 * len(hand)


def test_faces_name_attributes_that_exist(tmp_path):
    (tmp_path / "look.yaml").write_text("presentation:\n  tableau:\n    seats: {row: row, faces: [main, shrot]}\n")
    with pytest.raises(RuleErrors) as caught:
        load_ruleset("evolution", mods=[str(tmp_path)])
    found = {(e.span.line, e.message, e.hint) for e in caught.value.errors}
    assert (3, "no kind of entity has an attribute 'shrot'", "did you mean 'short'?") in found
