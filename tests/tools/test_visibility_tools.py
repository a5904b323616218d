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
