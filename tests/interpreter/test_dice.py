"""Dice: 'let r = roll(6)' (or roll of a list of faces) is a chance step drawn from the game's
seeded generator, logged, replayed identically from a save, scriptable, and a chance node
with its outcomes for a chance source (the OpenSpiel adapter's ChanceTape)."""
from __future__ import annotations

import pytest

from speciation import Game, RuleErrors, RuleRuntimeError
from speciation.interpreter.chance import ChanceNeeded, ChanceTape
from speciation.interpreter.codegen import writer as codegen
from speciation.interpreter.saves import from_json, to_json

from support.ruleset_builder import load, main

BODY = """\
for p in entities(player):
    repeat 3:
        choose n from [1, 2] by p prompt "how many dice"
        repeat n:
            let r = roll(6)
            p.vp += r
        let f = roll([a, a, b])
        p.counts[f] += 1
"""


@pytest.fixture(params=[True, False], ids=["generated", "closures"])
def ruleset(request, tmp_path, monkeypatch):
    monkeypatch.setattr(codegen, "ENABLED", request.param)
    return load(tmp_path, main(BODY))


def _play(game, picks):
    for value in picks:
        game.apply(value, decision=game.decision_id)
    return game


PICKS = [2, 1, 2, 2, 2, 1]


def test_rolls_come_from_the_seed_and_are_logged(ruleset):
    games = [_play(Game.new(ruleset, 2, seed), PICKS) for seed in (1, 1, 2)]
    assert games[0].digest() == games[1].digest() != games[2].digest()
    rolls = [line for line in games[0].log if line.startswith("  roll → ")]
    assert len(rolls) == 10 + 6
    faces = [line.split("→ ")[1] for line in rolls]
    assert {f for f in faces if f.isdigit()} <= set("123456") and set(faces) - set("123456") <= {"a", "b"}
    vp = [games[0].state["ent"][p]["vp"] for p in ("p1", "p2")]
    assert vp[0] == sum(int(f) for f in faces[:8] if f.isdigit())
    many = [_play(Game.new(ruleset, 2, seed), PICKS) for seed in range(40)]
    seen = {line for g in many for line in g.log if line.startswith("  roll → ")}
    assert {f"  roll → {n}" for n in range(1, 7)} | {"  roll → a", "  roll → b"} == seen


@pytest.mark.parametrize("stop", [2, 4])
def test_a_save_replays_and_resumes_the_same_rolls(ruleset, stop):
    whole = _play(Game.new(ruleset, 2, 9), PICKS)
    part = _play(Game.new(ruleset, 2, 9), PICKS[:stop])
    for verify in (False, True):
        resumed = _play(from_json(to_json(part), ruleset, verify=verify), PICKS[stop:])
        assert resumed.digest() == whole.digest() and resumed.log == whole.log


def test_scripted_rolls_and_a_wrong_one(ruleset):
    game = _play(Game.new(ruleset, 2, 1, chance=[6, 6, "b", 5, "a"]), [2, 1])
    assert game.state["ent"]["p1"]["vp"] == 17 and game.state["ent"]["p1"]["counts"] == {"a": 1, "b": 1}
    with pytest.raises(RuleRuntimeError) as caught:
        _play(Game.new(ruleset, 2, 1, chance=[7]), [1])
    assert caught.value.span.line == 7 and "7 is not a face of the die" in caught.value.message


def test_a_roll_is_a_chance_node_with_its_outcomes(ruleset):
    """A chance source that has run out stops at the roll with its number of outcomes; the
    outcome chosen picks the face (outcome i: face i + 1)."""
    game = Game.new(ruleset, 2, 1)
    empty = game.clone()
    empty.chance_source = ChanceTape([])
    with pytest.raises(ChanceNeeded) as needed:
        empty.apply(2, decision=empty.decision_id)
    assert needed.value.n == 6
    twin = game.clone()
    twin.chance_source = ChanceTape([5, 0, 2])
    twin.apply(2, decision=twin.decision_id)
    assert twin.state["ent"]["p1"]["vp"] == 6 + 1 and twin.state["ent"]["p1"]["counts"] == {"b": 1}


def test_roll_inside_an_expression_is_refused(tmp_path):
    with pytest.raises(RuleErrors) as caught:
        load(tmp_path, main('log("{}", roll(6))\nlet r = roll(6, 2)'))
    found = [(e.span.line, e.span.col, e.message) for e in caught.value.errors]
    assert found == [(3, 15, "'roll' is a chance step, not a value to compute: take it with a let of its own"),
                     (4, 13, "'roll' takes 1 argument, not 2")]


def test_the_openspiel_adapter_makes_a_roll_a_chance_node_of_its_faces(tmp_path):
    pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel adapter needs the ai extra")
    import speciation.adapters.openspiel  # noqa: F401  (registers python_speciation)
    load(tmp_path, main(BODY))
    state = pyspiel.load_game("python_speciation", {"ruleset": str(tmp_path), "players": 2}).new_initial_state()
    met = []
    while not state.is_terminal():
        if state.is_chance_node():
            met.append(len(state.chance_outcomes()))
            state.apply_action(len(met) % len(state.chance_outcomes()))
        else:
            state.apply_action(state.legal_actions()[-1])
    assert met.count(6) == 12 and met.count(3) == 6
    assert state.returns() and sum(state.returns()) is not None
