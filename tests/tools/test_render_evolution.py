"""What a person reads of Evolution: New World at the table (issue 20's last cosmetic items):
option labels in words, never a rule file's identifier, a raw list or a raw boolean. Each
test asserts the text a person reads (an option's label, a drawn label, a panel's line)."""
from __future__ import annotations

import random

import pytest

from speciation import Game, load_ruleset
from speciation.render import Scene, label_of


@pytest.fixture(scope="module")
def evolution():
    return load_ruleset("evolution")


def reach(ruleset, prompt: str, seed: int = 3, limit: int = 4000) -> Game:
    """A 2-player game played at random (seeded) until its prompt starts with *prompt*."""
    game = Game.new(ruleset, 2, seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if game.prompt.startswith(prompt):
            return game
        game.apply(rng.choice(game.legal_actions()))
    raise AssertionError(f"no '{prompt}' in {limit} moves")


def labels(game: Game) -> dict:
    """The deciding seat's options as the table labels them, by value (as JSON-ish keys)."""
    seat = game.current_player
    scene = Scene.of(game.view(seat), seat, game.lang, game.ruleset)
    return {repr(a.value): label_of(scene, a) for a in game.legal_actions()}


def test_a_feeding_option_reads_as_the_rules_show_it_not_as_a_list(evolution):
    """A list option holding words ("feed") is no display space of a presentation that has no
    display: it keeps the rules' ``showing`` label (it read "feed, animal 1, Taiga")."""
    game = reach(evolution, "Feeding: what does")
    shown = labels(game)
    feeds = [label for value, label in shown.items() if value.startswith("['feed'")]
    assert feeds, shown
    for label in feeds:
        assert label.startswith("feed animal ") and " from " in label and "," not in label, label


def paired_targets(ruleset, seed: int = 3) -> Game:
    """A game at a paired trait's 'on which animal' (random play steered to play paired
    traits, and to make animals while a row has fewer than three, as the browser test does)."""
    game = Game.new(ruleset, 2, seed=seed)
    rng = random.Random(seed)
    for _ in range(4000):
        actions = list(game.legal_actions())
        if "on which animal" in game.prompt and all(isinstance(a.value, list) for a in actions):
            return game
        choice = rng.choice(actions)
        if game.prompt.startswith("Play the card"):
            ent = game.state["ent"]
            paired = [a for a in actions if isinstance(a.value, str) and ent.get(a.value, {}).get("paired")]
            if paired:
                choice = paired[0]
            elif len(ent[game.state["players"][game.current_player]]["row"]) < 3:
                choice = actions[0]
        game.apply(choice)
    raise AssertionError("no paired trait's target was asked for")


def test_a_paired_traits_targets_read_as_words_in_the_menu_and_the_log(evolution):
    """A paired trait's target is two animals: its label reads 'animal 1 and animal 3' (it read
    '[animal 1, animal 3]'), and so does the log line of the trait given."""
    game = paired_targets(evolution)
    ent = game.state["ent"]
    shown = labels(game)
    assert shown
    for action in game.legal_actions():
        first, second = (ent[a]["name"] for a in action.value)
        assert shown[repr(action.value)] == f"{first} and {second}"
    action = game.legal_actions()[-1]
    game.apply(action)
    lines = [line if isinstance(line, str) else line[-1] for line in game.state["log"]]
    names = " and ".join(ent[a]["name"] for a in action.value)
    assert any(line.endswith(f"to {names}") for line in lines[-3:]), lines[-3:]
    assert not any("[" in line for line in lines if " gives " in line)


def test_a_single_targets_label_is_the_animals_name(evolution):
    game = reach(evolution, "Play the card")
    while "on which animal" not in game.prompt:
        faces = [a for a in game.legal_actions() if a.value != "new animal"]
        game.apply(faces[0] if faces and "Play the card" in game.prompt else game.legal_actions()[0])
    ent = game.state["ent"]
    shown = labels(game)
    for action in game.legal_actions():
        value = action.value
        assert shown[repr(value)] == (ent[value]["name"] if isinstance(value, str) else
                                      " and ".join(ent[a]["name"] for a in value))


def test_the_glaciers_area_says_in_words_which_animals_it_feeds(evolution):
    """The Glaciers Area (an upper Area for animals without traits) is drawn and listed as
    'Glaciers (no traits)', never with the rule file's identifier ('(no_traits)')."""
    from speciation.render import draw, render_text
    game = Game.new(evolution, 2, seed=3)
    glaciers = next(r for r in game.state["ent"].values() if r.get("card") == "glaciers_tundra")
    view = game.view(0)
    region = view["ent"]["game"]["regions"][0]
    view["ent"][region].update(name=glaciers["upper"], needs=glaciers["needs"])
    scene = Scene.of(view, 0, None, evolution)
    svg = draw(scene, log=False).svg
    assert "(no traits)" in svg and "no_traits" not in svg
    assert "Glaciers (no traits): food" in render_text(view, seat=0, ruleset=evolution)


def test_a_players_passed_flag_reads_as_its_label_while_true_and_nothing_while_false(evolution):
    """A panel field declared ``as: flag`` (Evolution's ``passed``) shows its label while the
    attribute is true and nothing while it is false: never 'Passed false' or 'Passed true'."""
    from speciation.render import draw, render_text
    game = reach(evolution, "Development")
    while not any(game.state["ent"][p]["passed"] for p in game.state["players"]):
        passes = [a for a in game.legal_actions() if a.value == "pass"]
        game.apply(passes[0] if passes else game.legal_actions()[0])
    passed = [game.state["ent"][p]["passed"] for p in game.state["players"]]
    assert passed.count(True) == 1, passed
    text = render_text(game, seat=0)
    names = [game.state["ent"][p]["name"] for p in game.state["players"]]
    panel = text[text.index("Players:"):].splitlines()[1:3]
    assert panel == [f"  {name}: passed" if flag else f"  {name}" for name, flag in zip(names, passed)]
    svg = draw(Scene.of(game, seat=0)).svg
    assert ">false<" not in svg and ">true<" not in svg and ">passed<" in svg
    assert "Passed" not in text and "Passed" not in svg


def test_new_animal_is_a_drawn_place_after_the_seats_own_row_while_it_is_offered(evolution):
    """The tableau's ``slot``: while the seat may play its card as a new animal, an empty
    place drawn after its own animals is that option (a click there chooses it); the other
    seat's picture, a spectator's and the seat's picture at another decision have none."""
    from speciation.interpreter.views import public_view
    from speciation.render import draw
    game = reach(evolution, "Play the card")
    seat = game.current_player
    picture = draw(Scene.of(game, seat=seat), log=False)
    assert picture.svg.count('<g class="slot" data-entity="new animal">') == 1
    assert ">+ new animal<" in picture.svg and picture.entities_of("new animal") == ["new animal"]
    own = picture.svg.index(f">{game.state['ent'][game.state['players'][seat]]['name']}<")
    assert picture.svg.index('class="slot"') > own   # in the seat's own band, after its animals
    other = draw(Scene.of(game, seat=1 - seat), log=False)
    spectator = draw(Scene.of(public_view(game), None, None, evolution), log=False)
    assert 'class="slot"' not in other.svg and 'class="slot"' not in spectator.svg
    game.apply(next(a for a in game.legal_actions() if a.value == "new animal"))
    assert 'class="slot"' not in draw(Scene.of(game, seat=seat), log=False).svg
