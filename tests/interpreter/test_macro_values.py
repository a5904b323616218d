"""Procedures that return values: 'return VALUE' in a macro and 'let x = macro(args)'. The
macro may stop for choices inside; the machine resumes it and then binds the value, and a
save made mid-macro resumes the same way (generated code on and off)."""
from __future__ import annotations

import pytest

from speciation import Game, RuleErrors, RuleRuntimeError
from speciation.interpreter.codegen import writer as codegen
from speciation.interpreter.saves import from_json, to_json

from support.ruleset_builder import load, main

MACROS = {
    "double(n)": "return n * 2",
    "first_big(xs)": "for x in xs:\n    if x > 1:\n        return x\nreturn none",
    "pick(p)": ("choose c from [1, 2, 3] by p prompt \"pick\"\n"
                "let bonus = double(c)\n"
                "choose d from [c, bonus] by p prompt \"again\"\n"
                "return c * 10 + d"),
    "fact(n)": "if n <= 1:\n    return 1\nlet rest = fact(n - 1)\nreturn n * rest",
}
BODY = """\
let a = double(21)
let b = first_big([0, 1, 5, 7])
let f = fact(5)
log("{} {} {}", a, b, f)
for p in entities(player):
    let v = pick(p)
    p.vp += v
    log("{} took {}", p, v)
"""


@pytest.fixture(params=[True, False], ids=["generated", "closures"])
def ruleset(request, tmp_path, monkeypatch):
    monkeypatch.setattr(codegen, "ENABLED", request.param)
    return load(tmp_path, main(BODY, MACROS))


def _play(game, picks):
    for value in picks:
        game.apply(value, decision=game.decision_id)
    return game


def _lines(game):
    return [line for line in game.log if not line.startswith("  ")]  # (not the choices made)


def test_a_macro_returns_a_value_after_choices(ruleset):
    game = _play(Game.new(ruleset, 2), [2, 4, 3, 3])
    assert game.is_over
    assert _lines(game) == ["42 5 120", "Player 1 took 24", "Player 2 took 33"]
    assert [game.state["ent"][p]["vp"] for p in ("p1", "p2")] == [24, 33]


@pytest.mark.parametrize("stop", [1, 2, 3])
def test_a_save_made_inside_the_macro_resumes_it(ruleset, stop):
    picks = [2, 4, 3, 3]
    game = _play(Game.new(ruleset, 2), picks[:stop])
    assert any(type(ruleset.nodes[f[0]]).__name__ == "CallValue" for f in game.state["stack"])
    for verify in (False, True):
        resumed = _play(from_json(to_json(game), ruleset, verify=verify), picks[stop:])
        assert _lines(resumed) == ["42 5 120", "Player 1 took 24", "Player 2 took 33"]
        assert resumed.digest() == _play(Game.new(ruleset, 2), picks).digest()


def test_a_macro_that_returns_nothing_cannot_give_a_value(tmp_path):
    with pytest.raises(RuleErrors) as caught:
        load(tmp_path, main("let x = noisy(1)\nlog(\"{}\", double(2))", {"noisy(n)": "log(\"{}\", n)",
                                                                           "double(n)": "return n * 2"}))
    found = [(e.span.line, e.span.col, e.message, e.hint) for e in caught.value.errors]
    assert found[0][:3] == (3, 13, "'noisy' changes the game and has no value; call it as a statement")
    assert "'return VALUE' appears nowhere in macro 'noisy'" in found[0][3]
    assert found[1][:3] == (4, 15, "'double' changes the game and has no value; call it as a statement")
    assert "let x = double(...)" in found[1][3]
    assert len(found) == 2


def test_a_macro_ending_without_a_value_is_a_placed_runtime_error(tmp_path):
    ruleset = load(tmp_path, main("let x = maybe(0)", {"maybe(n)": "if n > 0:\n    return n"}))
    with pytest.raises(RuleRuntimeError) as caught:
        Game.new(ruleset)
    assert caught.value.span.line == 3 and "ended without 'return VALUE'" in caught.value.message


def test_a_value_returned_by_a_macro_called_as_a_statement_is_dropped(tmp_path):
    ruleset = load(tmp_path, main("double(2)\nlog(\"done\")", {"double(n)": "game.n += n\nreturn n * 2"}))
    game = Game.new(ruleset)
    assert game.log == ["done"] and game.state["ent"]["game"]["n"] == 2 and game.state["stack"] == []
