"""What the table's pictures of a position share is drawn once (speciation/render/shared.py):
every seat's message is the same, to the character, as when everything is drawn anew; seats
whose views are equal share one body; seats whose views differ (a secret card) never do;
the cells, corners and spaces that did not change are not drawn again."""
from __future__ import annotations

import json
import random

import pytest

from speciation.interpreter.views import public_view
from speciation.render import Scene, draw, svg
from speciation.render.shared import Drawings, sharing
from speciation.table import messages
from speciation.table.session import TableGame


def positions(ruleset: str, players: int, count: int, seed: int = 3):
    """A game of *ruleset* played at random, yielded at each of its first *count* positions."""
    session = TableGame.new("shared", ruleset, players, ["human"] * players, seed=seed)
    game, pick = session.game, random.Random(seed)
    for _ in range(count):
        if game.is_over:
            return
        yield session
        actions = game.legal_actions()
        game.apply(actions[pick.randrange(len(actions))])


@pytest.mark.parametrize("ruleset, players", [("original", 3), ("marine", 4), ("evolution", 3), ("catastrophic", 3)])
def test_every_message_is_what_drawing_anew_makes(ruleset, players):
    drawings = Drawings()
    for session in positions(ruleset, players, 40):
        drawings.forget()   # a new position, as the table does
        for seat in [*range(players), None]:
            alone = messages.seat_state(session.game, seat, session.seats, None)
            with sharing(drawings):
                shared = messages.seat_state(session.game, seat, session.seats, None)
            assert json.dumps(shared, default=str) == json.dumps(alone, default=str), (ruleset, seat)
    assert drawings.drawn + drawings.reused == 40 * (players + 1)


def test_seats_with_equal_views_share_one_body_and_a_secret_is_never_shared():
    drawings = Drawings()
    for session in positions("original", 3, 20):   # nothing hidden on the board: one body a position
        drawings.forget()
        with sharing(drawings):
            for seat in (0, 1, 2, None):
                messages.seat_state(session.game, seat, session.seats, None)
    assert (drawings.drawn, drawings.reused) == (20, 60)
    game = next(positions("marine", 3, 1)).game   # the start: each seat keeps a secret trait
    views = [game.view(seat) for seat in range(3)] + [public_view(game)]
    assert views[0]["ent"] != views[1]["ent"]
    drawings = Drawings()
    with sharing(drawings):
        pictures = [draw(Scene.of(view, seat, None, game.ruleset), log=False)
                    for seat, view in zip([0, 1, 2, None], views)]
    assert drawings.reused == 0 and len({p.svg for p in pictures}) == 4
    for seat, picture in enumerate(pictures[:3]):
        assert picture.svg == draw(Scene.of(game, seat=seat), log=False).svg


def test_only_what_changed_is_drawn_again(monkeypatch):
    drawn: list[str] = []
    space = svg._space
    monkeypatch.setattr(svg, "_space", lambda canvas, record, *rest: (drawn.append(record["id"]),
                                                                      space(canvas, record, *rest)))
    drawings = Drawings()
    *_, session = positions("original", 3, 25)   # setup done: pawns are placed one at a time
    game = session.game
    with sharing(drawings):
        draw(Scene.of(game, seat=0), log=False)
        first = len(drawn)
        game.apply(game.legal_actions()[0])
        drawings.forget()
        drawn.clear()
        draw(Scene.of(game, seat=0), log=False)
    assert first > 10 and len(drawn) <= 2, drawn   # the space a pawn went to, not every one
