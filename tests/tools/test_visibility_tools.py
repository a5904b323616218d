"""Visibility (docs/language.md, "Visibility") in the tools that read the log and the views
directly: the terminal's audiences, undo. Fixture: tests/support/fixtures/faces."""
from __future__ import annotations

import pytest

from speciation import Game, load_ruleset

from support.ruleset_builder import FIXTURES


@pytest.fixture(scope="module")
def faces():
    return load_ruleset(str(FIXTURES / "faces"))


def _after(ruleset, players: int, seed: int, decisions: int) -> Game:
    game = Game.new(ruleset, players, seed)
    for _ in range(decisions):
        game.apply(game.legal_actions()[0])
    return game


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


def test_the_terminal_prints_each_audience_its_version_of_a_line(faces):
    from speciation.agents import RandomAgent
    from speciation.terminal import TerminalSession
    game = _after(faces, 3, 5, 3)
    session = TerminalSession(game, [RandomAgent(1, 1)] * 3, on_log=None)
    name = game.state["ent"][game.state["ent"]["p2"]["shown"][0]]["name"]
    line = f"  {game.label('p2')}: show a card to the next seat → "
    assert line + name in session.lines(0, [1]) and line + "?" not in session.lines(0, [1])
    assert line + "?" in session.lines(0, [0]) and line + name not in session.lines(0, [0])
    assert line + "?" in session.lines(0, []) and line + name not in session.lines(0, [])  # several people
    assert f"[to spectators] {line}?" in session.lines(0, None) and f"[to Player 2] {line}{name}" in session.lines(0, None)


@pytest.mark.parametrize("name, players", [("original", 3), ("marine", 3), ("evolution", 3), ("catastrophic", 3)])
def test_a_checkpoint_keeps_exactly_what_the_seats_view_shows_otherwise(name, players):
    # what an undo checkpoint keeps as hidden from the deciding seat is, at every decision of
    # a random game, each attribute its view (game.view) shows otherwise than it is, no more
    import random
    from speciation.undo import UndoStack
    game = Game.new(load_ruleset(name), players=players, seed=3)
    stack, rng, kept = UndoStack(game, range(players)), random.Random(3), 0
    while not game.is_over and game.decision_number < 150:
        seat = game.decisions()[0].player
        view = game.view(seat)
        expected = {(ident, attr) for ident, record in game.state["ent"].items()
                    for attr, value in record.items() if view["ent"][ident].get(attr) != value}
        mark = stack.checkpoint(seat)
        assert set(mark.hidden) == expected
        kept += len(expected)
        actions = game.decisions()[0].legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    assert kept    # every one of these games hides something from a seat (a hand, a pile's order)
