"""A seat's table message is built from one view and one scene (issue 19): the renderer says
what it drew, scores, markers and the winner come from rule functions evaluated on the view
by one engine reader (no throwaway game), and the board names values as the log does."""
import re

import pytest

from speciation import Game, load_ruleset
from speciation.agents import RandomAgent
from speciation.interpreter import game as game_module
from speciation.interpreter import machine as machine_module
from speciation.interpreter.views import UNKNOWN, ViewReader, evaluate_on_view
from speciation.render import Scene, draw

from speciation.table import messages, present


@pytest.fixture(scope="module")
def original():
    return load_ruleset("original")


def played(ruleset, players=3, seed=3, limit=None):
    game = Game.new(ruleset, players, seed=seed)
    agents = [RandomAgent(seed, i) for i in range(players)]
    steps = 0
    while not game.is_over and (limit is None or steps < limit):
        game.apply(agents[game.current_player].choose(game))
        steps += 1
    return game


def counting(monkeypatch, owner, name):
    calls = []
    original = getattr(owner, name)

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)
    monkeypatch.setattr(owner, name, counted)
    return calls


def test_a_seat_message_builds_one_view_one_scene_one_picture_and_no_game(original, monkeypatch):
    game = played(original, limit=60)
    seat = game.current_player
    views = counting(monkeypatch, Game, "view")
    scenes = counting(monkeypatch, Scene, "__init__")
    pictures = counting(monkeypatch, present, "draw")
    machines = counting(monkeypatch, machine_module.Machine, "__init__")
    games = counting(monkeypatch, game_module.Game, "__init__")
    message = messages.seat_state(game, seat, ["human"] * 3, None)
    assert (len(views), len(scenes), len(pictures)) == (1, 1, 1)
    assert len(machines) == 1 and not games  # the view's reader; no game rebuilt from the view
    assert message["options"] and message["yours"]
    drawn = set(re.findall(r'data-entity="([^"]+)"', message["svg"]))
    for option in message["options"]:
        assert set(option["entities"]) <= drawn
    assert any(option["entities"] for option in message["options"])


def test_the_picture_lists_exactly_what_it_drew(original):
    game = played(original, limit=80)
    picture = draw(Scene.of(game, seat=1))
    assert set(picture.drawn) == set(re.findall(r'data-entity="([^"]+)"', picture.svg))
    cell = original.grid.cells[0]
    assert picture.entities_of([cell, "no such thing", 3]) == [cell]


def test_the_winner_and_scores_come_from_the_view(original):
    game = played(original)
    assert game.is_over
    for seat in range(3):
        message = messages.seat_state(game, seat, ["human"] * 3, None)
        assert message["over"] and message["winner"] == game.label(game.state["players"][game.winner])
        assert [p["score"] for p in message["players"]] == game.scores


def test_a_reader_evaluates_on_a_view_and_says_what_it_cannot_tell(tmp_path):
    (tmp_path / "ruleset.yaml").write_text('ruleset: v\ntitle: V\nversion: "1"\nplayers: {min: 2, max: 2}\n')
    (tmp_path / "rules.yaml").write_text("""hidden:
  contents: [deck]
kinds:
  player:
    attributes: {vp: 0}
  token:
    attributes: {worth: 0}
  game:
    attributes: {deck: [t1, t2]}
entities:
  token:
    - {id: t1, worth: 1}
    - {id: t2, worth: 2}
functions:
  score(p): p.vp
  cards(): len(game.deck)
  top(): first(game.deck).worth
macros:
  main: |
    choose n from [1, 2] by first(entities(player))
""")
    ruleset = load_ruleset(str(tmp_path))
    game = Game.new(ruleset, 2)
    assert game.evaluate("top") == 1
    view = game.view(0)
    assert evaluate_on_view(ruleset, view, "cards") == 2
    assert evaluate_on_view(ruleset, view, "top") is UNKNOWN  # it reads a face-down card
    assert evaluate_on_view(ruleset, view, "nothing") is UNKNOWN
    reader = ViewReader(ruleset, view)
    assert reader.convention("score", "p2") == 0 and reader.convention("winner") is UNKNOWN
    assert Scene.of(view, 0, None, ruleset).scores() == [("Player 1", 0), ("Player 2", 0)]


def test_the_board_names_a_value_as_the_log_does():
    marine = load_ruleset("marine")
    game = Game.new(marine, 3, seed=1, lang="pl")
    scene = Scene.of(game, seat=0)
    for value in ["mammal", "p2", "fishes", True, False, None, 3, ["sun", "mammal"], "no such id"]:
        assert scene.label(value) == game.label(value), value
