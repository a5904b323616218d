"""The table's views of a position (speciation/table/views.py) are the interpreter's: at every
decision of seeded random games of each edition (Marine's secret traits, the sealed fixture's
simultaneous private choices, Evolution's hands), each seat's view made from the position's
one copy of its entities equals ``game.view(seat)``, and the spectator's equals
``public_view(game)``; making them changes neither the game nor one another."""
from __future__ import annotations

import random

import pytest

from support.ruleset_builder import FIXTURES

from speciation import Game, load_ruleset
from speciation.interpreter.views import public_view
from speciation.table.views import PositionViews

GAMES = [("original", 3), ("marine", 3), ("evolution", 2), (str(FIXTURES / "sealed"), 3)]


@pytest.mark.parametrize("name,players", GAMES, ids=[g[0].rsplit("/", 1)[-1] for g in GAMES])
def test_each_seats_view_is_the_interpreters(name, players):
    game = Game.new(load_ruleset(name), players, seed=7)
    rng = random.Random(7)
    checked = 0
    while not game.is_over and game.decision_number < 120:
        digest = game.digest()
        views = PositionViews(game)
        made = {seat: views.view(seat) for seat in [None, *range(players)]}
        assert made[None] == public_view(game)
        for seat in range(players):
            assert made[seat] == game.view(seat), f"seat {seat}'s view at decision {game.decision_number}"
        assert game.digest() == digest   # the game unchanged
        decision = rng.choice(game.decisions())
        actions = decision.legal_actions()
        game.apply(actions[rng.randrange(len(actions))], decision=decision.id)
        checked += 1
    assert checked >= 10


def test_a_seats_view_hides_what_the_interpreter_hides():
    """Marine's traits are secret: another seat's view of them is not the owner's (the
    comparison above can fail)."""
    game = Game.new(load_ruleset("marine"), 3, seed=3)
    rng = random.Random(3)
    while not game.is_over and game.decision_number < 60:
        decision = rng.choice(game.decisions())
        actions = decision.legal_actions()
        game.apply(actions[rng.randrange(len(actions))], decision=decision.id)
    views = PositionViews(game)
    assert views.view(0) != views.view(1)
    assert views.view(None) != views.view(0)
