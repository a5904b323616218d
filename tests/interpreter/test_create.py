"""Entities created and destroyed in play: 'let x = create(kind)' for a kind declared with a
'max', 'destroy(x)'; ids kind#1.. (the lowest free: nothing about the entity), the bound and
the work budget, rule functions over entities(kind) kept fresh, saves resumed mid-decision."""
from __future__ import annotations

import pytest

from speciation import Game, RuleErrors, RuleRuntimeError
from speciation.interpreter.codegen import writer as codegen
from speciation.interpreter.saves import from_json, to_json

from support.ruleset_builder import load, main

EXTRA = """\
kinds:
  token:
    max: 3
    attributes: {size: 1, tags: {}}
functions:
  tokens(): len(entities(token))
  total(): sum([t.size for t in entities(token)])
"""
BODY = """\
for p in entities(player):
    let t = create(token)
    t.size = tokens() + 1
    choose n from [1, 2] by p prompt "grow"
    t.size += n
    log("{} made {} ({}) of {}", p, t, t.size, tokens())
let u = create(token)
destroy(u)
let w = create(token)
log("{} {} {}", w, tokens(), total())
destroy(first(entities(token)))
let v = create(token)
log("{} {} {}", v, entities(token), total())
"""


@pytest.fixture(params=[True, False], ids=["generated", "closures"])
def ruleset(request, tmp_path, monkeypatch):
    monkeypatch.setattr(codegen, "ENABLED", request.param)
    return load(tmp_path, main(BODY, extra=EXTRA))


LINES = ["Player 1 made token#1 (3) of 1", "Player 2 made token#2 (4) of 2", "token#3 3 8",
         "token#1 [token#1, token#2, token#3] 6"]


def _lines(game):
    return [line for line in game.log if not line.startswith("  ")]


def test_created_and_destroyed(ruleset):
    game = Game.new(ruleset, 2, 1)
    for value in (1, 1):
        game.apply(value, decision=game.decision_id)
    assert _lines(game) == LINES
    assert game.state["ent"]["token#1"] == {"kind": "token", "id": "token#1", "size": 1, "tags": {}}


def test_saved_and_resumed_mid_decision(ruleset):
    game = Game.new(ruleset, 2, 1)
    game.apply(1, decision=game.decision_id)
    assert "token#2" in game.state["ent"] and game.pending
    for verify in (False, True):
        resumed = from_json(to_json(game), ruleset, verify=verify)
        resumed.apply(1, decision=resumed.decision_id)
        assert _lines(resumed) == LINES


def test_the_bound_and_mistakes(tmp_path):
    ruleset = load(tmp_path / "a", main("repeat 4:\n    let t = create(token)", extra=EXTRA))
    with pytest.raises(RuleRuntimeError) as caught:
        Game.new(ruleset)
    assert caught.value.span.line == 4 and "no more than 3 entities of kind 'token'" in caught.value.message
    with pytest.raises(RuleRuntimeError) as caught:
        Game.new(load(tmp_path / "b", main("destroy(game)", extra=EXTRA)))
    assert "only an entity of a kind with a 'max' can be destroyed" in caught.value.message
    with pytest.raises(RuleErrors) as caught:
        load(tmp_path / "c", main("let g = create(player)\nlog(\"{}\", create(token))", extra=EXTRA))
    found = [(e.span.line, e.span.col, e.message) for e in caught.value.errors]
    assert found == [(3, 20, "kind 'player' has no 'max', so its entities cannot be created in play"),
                     (4, 15, "'create' is a change of the game, not a value to compute: take it with a let "
                             "of its own")]
