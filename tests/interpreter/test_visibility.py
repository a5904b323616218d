"""Visibility apart from control (docs/language.md, "Hidden information"): an entity's face
(``hidden: faces``) is seen by the seats its kind's default names and those it was revealed
to (``reveal X to P``), in views, the log and saves; ``hide X`` turns it face down again.
Fixture: tests/support/fixtures/faces (cards with two faces, seen by nobody until revealed)."""
from __future__ import annotations

from pathlib import Path

import pytest

from speciation import Game, RuleErrors, RuleRuntimeError, load_ruleset
from speciation.dsl.errors import SaveFileError
from speciation.interpreter.saves import from_json, to_json
from speciation.interpreter.views import public_view

from support.ruleset_builder import FIXTURES, load, main

FACES = FIXTURES / "faces"


@pytest.fixture(scope="module")
def faces():
    return load_ruleset(str(FACES))


def _after(ruleset, players: int, seed: int, decisions: int) -> Game:
    game = Game.new(ruleset, players, seed)
    for _ in range(decisions):
        game.apply(game.legal_actions()[0])
    return game


def _face(view: dict, card: str) -> tuple:
    record = view["ent"][card]
    return record["main"], record["short"], record["name"], record["card"]


def test_a_card_revealed_to_one_seat_appears_in_that_seats_view_and_in_no_other(faces):
    game = _after(faces, 3, 5, 3)  # each seat has shown one card to the next seat
    players = game.state["players"]
    for seat, player in enumerate(players):
        shown = game.state["ent"][player]["shown"][0]
        record = game.state["ent"][shown]
        real = (record["main"], record["short"], record["name"], record["card"])
        assert record["seen_by"] == sorted([player, players[(seat + 1) % 3]])
        assert _face(game.view(seat), shown) == real                      # its holder
        assert _face(game.view((seat + 1) % 3), shown) == real            # the seat it was shown to
        assert _face(game.view((seat + 2) % 3), shown) == ("?",) * 4      # no other seat
        assert _face(public_view(game), shown) == ("?",) * 4              # nor a spectator


def test_cards_nobody_has_seen_show_no_face_and_cards_revealed_to_all_show_it_to_everyone(faces):
    game = _after(faces, 2, 3, 3)  # p1 has played a card: revealed to all
    played = game.state["ent"]["game"]["table"][0]
    pile = game.state["ent"]["game"]["pile"]
    views = [game.view(0), game.view(1), public_view(game)]
    for view in views:
        assert view["ent"][played]["name"] == game.state["ent"][played]["name"] != "?"
        assert all(_face(view, card) == ("?",) * 4 for card in pile)
        assert view["ent"]["game"]["pile"] == ["?"] * len(pile)


def test_hide_turns_a_card_face_down_again(faces):
    game = _after(faces, 2, 3, 2 * 2 * 1 + 0)
    while game.state["ent"]["game"]["round"] < 2:  # the end of round 1 put each hand back, face down
        game.apply(game.legal_actions()[0])
    pile = game.state["ent"]["game"]["pile"]
    back = [c for c in pile if "seen_by" not in game.state["ent"][c]]
    assert back and all(_face(game.view(s), c) == ("?",) * 4 for s in (0, 1) for c in back)
    hands = [c for p in ("p1", "p2") for c in game.state["ent"][p]["hand"]]
    assert all(game.state["ent"][c]["seen_by"] in (["p1"], ["p2"]) for c in hands)


def test_the_log_names_a_card_only_to_the_seats_that_see_it(faces):
    game = _after(faces, 3, 5, 3)
    for seat, player in enumerate(game.state["players"]):
        shown = game.state["ent"][player]["shown"][0]
        name = game.state["ent"][shown]["name"]
        line = f"  {game.label(player)}: show a card to the next seat → "
        assert line + name in game.view(seat)["log"]
        for other in ((seat + 1) % 3, (seat + 2) % 3):  # logged before the reveal: '?' to the others
            assert line + name not in game.view(other)["log"] and line + "?" in game.view(other)["log"]
        assert line + "?" in public_view(game)["log"]
    draws = [line for line in game.view(0)["log"] if "Player 1 draws " in line]  # log_to: the drawer's own
    assert draws and not any(" draws " in line for line in game.view(1)["log"] + public_view(game)["log"]
                             if line.startswith("Player 1"))


def test_visibility_is_saved_resumed_and_checked(faces):
    game = _after(faces, 3, 5, 4)
    again = from_json(to_json(game), faces)
    assert again.digest() == game.digest()
    assert (again.view(2)["ent"], again.view(2)["log"]) == (game.view(2)["ent"], game.view(2)["log"])
    import json
    data = json.loads(to_json(game))
    card = data["state"]["ent"]["p1"]["shown"][0]
    data["state"]["ent"][card]["seen_by"] = ["p9"]
    with pytest.raises(SaveFileError, match="who sees entity"):
        from_json(json.dumps(data), faces, verify=False)


KINDS = """\
kinds:
  player:
    attributes: {vp: 0, hand: [], secret: 0}
  game:
    attributes: {n: 0}
  token:
    attributes: {mark: 0, player: none}
entities:
  token:
    - {id: t1, mark: 5}
    - {id: t2, mark: 7}
hidden:
  private: [secret, hand]
  faces:
    token: [mark]
functions:
  score(p): p.vp
"""


def test_a_kind_seen_by_its_controller_and_a_player_revealed_to_another(tmp_path):
    ruleset = load(tmp_path, {"base.yaml": KINDS, **main(
        "let a = entities(player)[0]\nlet b = entities(player)[1]\n"
        "t1.player = a\na.secret = 3\nchoose x from [1, 2] by a\nreveal a to b\n"
        "choose y from [1, 2] by a\nreveal t2 to [a, t1]\nchoose z from [1, 2] by a\nreveal t1 to all\n"
        "choose w from [1, 2] by a\nhide t1\n")})
    game = Game.new(ruleset, 3, 1)
    sees = lambda seat, ident, attr: game.view(seat)["ent"][ident][attr] != "?"  # noqa: E731
    # the controller sees its token, nobody else; private attributes: the controller only
    assert [sees(s, "t1", "mark") for s in range(3)] == [True, False, False]
    assert [sees(s, "t2", "mark") for s in range(3)] == [False, False, False]
    assert [sees(s, "p1", "secret") for s in range(3)] == [True, False, False]
    game.apply(game.legal_actions()[0])  # reveal p1 to p2: p1's private attributes
    assert [sees(s, "p1", "secret") for s in range(3)] == [True, True, False]
    assert game.view(1)["ent"]["p1"]["hand"] == []
    game.apply(game.legal_actions()[0])  # reveal t2 to p1 and to t1's controller (p1 again)
    assert [sees(s, "t2", "mark") for s in range(3)] == [True, False, False]
    game.apply(game.legal_actions()[0])  # reveal t1 to all
    assert [sees(s, "t1", "mark") for s in range(3)] == [True, True, True]
    assert public_view(game)["ent"]["t1"]["mark"] == 5
    game.apply(game.legal_actions()[0])  # hide t1: its controller's again
    assert [sees(s, "t1", "mark") for s in range(3)] == [True, False, False]
    assert game.is_over


def test_reveal_to_what_is_not_a_player_is_an_error_in_the_authors_words(tmp_path):
    ruleset = load(tmp_path, {"base.yaml": KINDS, **main("reveal t1 to t2\n")})
    with pytest.raises(RuleRuntimeError, match="cannot reveal to t2: it is neither a player nor controlled by one"):
        Game.new(ruleset, 2, 1)
    ruleset = load(tmp_path / "b", {"base.yaml": KINDS, **main("hide 3\n")})
    with pytest.raises(RuleRuntimeError, match="cannot hide 3: it is not an entity"):
        Game.new(ruleset, 2, 1)


def _errors(tmp_path, files):
    with pytest.raises(RuleErrors) as caught:
        load(tmp_path, files)
    return [(Path(e.span.path).name, e.span.line, e.message) for e in caught.value.errors]


def test_seen_by_is_reserved_and_faces_name_real_kinds_and_attributes(tmp_path):
    bad = KINDS.replace("attributes: {mark: 0, player: none}", "attributes: {mark: 0, player: none, seen_by: 1}")
    assert _errors(tmp_path / "a", {"base.yaml": bad, **main("pass")}) == [
        ("base.yaml", 7, "'seen_by' is reserved: the engine keeps there who sees the entity ('reveal', 'hide')")]
    bad = KINDS.replace("    token: [mark]", "    tokn: [mark]\n    token: [marks]")
    errors = _errors(tmp_path / "b", {"base.yaml": bad, **main("pass")})
    assert [(line, message.split(" (")[0]) for _, line, message in errors] == [
        (15, "in 'hidden' → 'faces': there is no kind 'tokn'"),
        (16, "in 'hidden' → 'faces': no kind or entity has an attribute 'marks'")]
    bad = KINDS.replace("    token: [mark]", "    token: {attributes: [mark], seen_by: someone}")
    assert _errors(tmp_path / "c", {"base.yaml": bad, **main("pass")})


def test_determinised_copies_hold_only_real_cards(faces):
    """Over 1,200 copies made along random games, for every seat: every card of every copy is
    a real card (its two faces, name and card file together: 0 impossible pairs), the copy
    holds the same cards as the game, the seat's view of it is its view of the game, and the
    cards the seat does not see did change places (the copies are not the game itself)."""
    from collections import Counter
    import random
    from speciation.api import determinize

    def cards(game):
        return Counter((r["main"], r["short"], r["name"], r["card"]) for r in game.state["ent"].values()
                       if r["kind"] == "card")
    real = cards(Game.new(faces, 3, 1))
    assert len(real) == 8 and sum(real.values()) == 24
    rng, copies, impossible, moved = random.Random(1), 0, 0, 0
    for seed in range(20):
        game = Game.new(faces, 3, seed)
        while not game.is_over:
            for seat in range(3):
                copy = determinize(game, seat, rng)
                copies += 1
                held = cards(copy)
                impossible += sum(n for face, n in held.items() if face not in real)
                assert held == real
                assert copy.view(seat)["ent"] == game.view(seat)["ent"]
                moved += copy.state["ent"] != game.state["ent"]
            game.apply(game.legal_actions()[rng.randrange(len(game.legal_actions()))])
    assert copies >= 1000 and impossible == 0 and moved > copies // 2


def test_a_seats_record_holds_only_the_faces_it_sees(faces):
    from speciation.api import seat_record
    game = _after(faces, 3, 5, 3)
    for seat in (0, 1, 2, None):
        record = seat_record(game, seat)
        assert not {"state", "history"} & set(record)
        view = game.view(seat) if seat is not None else public_view(game)
        assert record["view"]["ent"] == view["ent"] and record["log"] == view["log"]
        me = game.state["players"][seat] if seat is not None else None
        for ident, real in game.state["ent"].items():
            if real["kind"] == "card":
                shown = record["view"]["ent"][ident]["main"]
                assert (shown == real["main"]) == (real.get("seen_by") == "all" or me in real.get("seen_by", ()))


def test_undo_is_refused_once_a_card_was_revealed_to_the_seat(faces):
    from speciation.undo import UndoStack
    game = _after(faces, 2, 3, 0)
    stack = UndoStack(game, [0, 1])
    stack.push(stack.checkpoint(0))
    assert stack.refusal(0) is None
    theirs = game.state["ent"]["p2"]["hand"][0]
    game.state["ent"][theirs]["seen_by"] = ["p1", "p2"]  # as 'reveal c to p1' leaves it, no chance drawn
    game.state_edited()
    assert stack.refusal(0).startswith("something hidden from you has been revealed since")
