"""State checks made by the engine (a rule file's 'checks'): before every decision and when
the program ends, until none holds, with decisions inside their effects; saved and resumed
inside one; stopped by the work budget when an effect never settles it (issue 22)."""
from __future__ import annotations

import pytest

from speciation import Game, RuleErrors, RuleRuntimeError
from speciation.interpreter.codegen import writer as codegen
from speciation.interpreter.saves import from_json, to_json

from support.ruleset_builder import load, main

# Each player holds some "traits"; a player whose traits run out is out ("extinct"), and
# every other player draws one (a cascade: drawing from an empty bag can empty nobody).
# A player with more than 3 traits must discard one of their choice (a decision inside).
RULES = main("""\
for p in entities(player):
    p.counts["traits"] = 2
repeat 3:
    for p in entities(player):
        if not (p in game.out):
            choose n from [0, 1, 2] by p prompt "lose how many"
            p.counts["traits"] -= n
            choose m from [0, 3] by p prompt "gain how many"
            p.counts["traits"] += m
""", extra="""\
checks:
  - each: p in entities(player)
    if: p.counts["traits"] <= 0 and not (p in game.out)
    effect: |
      append(game.out, p)
      log("{} is out", p)
      for q in entities(player):
          if q != p:
              q.vp += 1
  - each: p in entities(player)
    if: p.counts["traits"] > 3
    effect: |
      choose x from [1, 2] by p prompt "discard down"
      p.counts["traits"] -= x
      game.n += 1
""")


@pytest.fixture(params=[True, False], ids=["generated", "closures"])
def ruleset(request, tmp_path, monkeypatch):
    monkeypatch.setattr(codegen, "ENABLED", request.param)
    return load(tmp_path, RULES)


def _answer(game, value):
    game.apply(value, decision=game.decision_id)


def test_a_check_acts_before_the_next_decision(ruleset):
    game = Game.new(ruleset, 2, 0)
    _answer(game, 2)             # p1 loses both traits: out at once, before p1's next question
    assert game.state["ent"]["game"]["out"] == ["p1"]
    assert game.state["ent"]["p2"]["vp"] == 1
    assert game.prompt == "gain how many"   # the interrupted choice is still asked
    assert "p1 is out" in game.log[-1] or any("is out" in line for line in game.log)


def test_a_check_with_a_decision_inside_then_the_choice_listed_anew(ruleset):
    game = Game.new(ruleset, 2, 0)
    _answer(game, 0)
    _answer(game, 3)             # p1 has 5 traits: p1 must discard before p2 is asked
    assert game.prompt == "discard down" and game.current_player == 0
    _answer(game, 1)             # 4: still more than 3, so the check asks again
    assert game.prompt == "discard down"
    _answer(game, 2)
    assert game.state["ent"]["p1"]["counts"]["traits"] == 2 and game.state["ent"]["game"]["n"] == 2
    assert game.prompt == "lose how many" and game.current_player == 1


def test_checks_run_when_the_program_ends(tmp_path):
    rs = load(tmp_path, main("game.n = 5\n", extra="""\
checks:
  - if: game.n > 0
    effect: |
      game.n -= 2
      game.out = concat(game.out, [game.n])
"""))
    game = Game.new(rs, 2, 0)
    assert game.is_over and game.state["ent"]["game"]["out"] == [3, 1, -1]


@pytest.mark.parametrize("stop", [1, 2, 3])
def test_saved_inside_a_check_resumes_identically(ruleset, stop):
    picks = [0, 3, 1, 2, 2, 0]
    whole = Game.new(ruleset, 2, 0)
    for v in picks:
        _answer(whole, v)
    part = Game.new(ruleset, 2, 0)
    for v in picks[:stop]:
        _answer(part, v)
    resumed = from_json(to_json(part), ruleset)
    for v in picks[stop:]:
        _answer(resumed, v)
    assert resumed.digest() == whole.digest()


def test_a_check_that_never_settles_is_stopped_by_the_budget(tmp_path):
    rs = load(tmp_path, main("game.n = 1\n", extra="""\
checks:
  - if: game.n > 0
    effect: |
      game.n += 1
"""))
    with pytest.raises(RuleRuntimeError, match="units of work without a decision"):
        Game.new(rs, 2, 0)


def test_a_bad_check_is_a_positioned_load_error(tmp_path):
    with pytest.raises(RuleErrors) as caught:
        load(tmp_path, main("pass\n", extra="""\
checks:
  - each: p of entities(player)
    if: len(game.out) > 9
    effect: |
      pass
  - if: game.nn > 0
    effect: |
      pass
"""))
    text = caught.value.format()
    assert "'each' must look like 'NAME in EXPRESSION'" in text and "rules.yaml:" in text
    assert "nn" in text


def test_no_checks_no_change(tmp_path):
    rs = load(tmp_path, main("choose n from [1, 2] by first(entities(player))\n"))
    game = Game.new(rs, 2, 0)
    assert rs.checks == [] and rs.settle_id is None and game.pending is not None


def test_settle_makes_the_checks_at_once(tmp_path):
    rs = load(tmp_path, main("""\
game.n = 5
game.out = [game.n]
settle
game.out = concat(game.out, [game.n])
""", extra="""\
checks:
  - if: game.n > 1
    effect: |
      game.n -= 2
"""))
    game = Game.new(rs, 2, 0)
    assert game.state["ent"]["game"]["out"] == [5, 1]


def test_settle_is_a_word_of_the_language(tmp_path):
    with pytest.raises(RuleErrors):
        load(tmp_path, main("let settle = 1\n"))


# The checks are made again only once something they read may have changed (issue 22): what a
# check reads through the rule functions it calls, and the set of entities, count too.
WATCHED = main("""\
for p in entities(player):
    choose n from [0, 1] by p prompt "spend how much"
    if n > 0:
        p.counts["gold"] -= n
    choose m from [0, 1] by p prompt "wave"
    game.n += m
""", extra="""\
functions:
  broke(p): p.counts["gold"] < 0
checks:
  - each: p in entities(player)
    if: broke(p) and not (p in game.out)
    effect: |
      append(game.out, p)
""")


def _counted(ruleset):
    """Count how many times the first check's condition is evaluated."""
    calls = [0]
    test = ruleset.checks[0].test

    def counting(rt, env):
        calls[0] += 1
        return test(rt, env)
    ruleset.checks[0].test = counting
    return calls


@pytest.fixture(params=[True, False], ids=["generated", "closures"])
def watched(request, tmp_path, monkeypatch):
    monkeypatch.setattr(codegen, "ENABLED", request.param)
    return load(tmp_path, WATCHED)


def test_a_write_read_through_a_function_makes_the_checks_again(watched):
    game = Game.new(watched, 2, 0)
    _answer(game, 1)                 # p1's gold below 0: broke(p1), read through a function
    assert game.state["ent"]["game"]["out"] == ["p1"] and game.prompt == "wave"


def test_the_checks_are_not_made_again_while_nothing_they_read_changes(watched):
    calls = _counted(watched)
    game = Game.new(watched, 2, 0)
    made = calls[0]
    assert made > 0                  # made before the first decision: none holds
    _answer(game, 0)                 # p1 spends nothing: no statement writes gold, and
    assert calls[0] == made          # game.n, which no check reads, is all that changes next
    _answer(game, 1)
    assert calls[0] == made
    _answer(game, 1)                 # p2 spends 1: gold written, the checks are made again
    assert calls[0] > made and game.state["ent"]["game"]["out"] == ["p2"]


def test_an_entity_created_makes_the_checks_again(tmp_path):
    rs = load(tmp_path, main("""\
choose n from [0, 1] by first(entities(player)) prompt "create one"
if n == 1:
    let t = create(token)
choose m from [0, 1] by first(entities(player)) prompt "again"
""", extra="""\
kinds:
  token:
    max: 3
    attributes: {v: 0}
checks:
  - if: len(entities(token)) > len(game.out)
    effect: |
      append(game.out, 1)
"""))
    game = Game.new(rs, 2, 0)
    _answer(game, 1)
    assert game.state["ent"]["game"]["out"] == [1] and game.prompt == "again"


def test_a_state_edited_by_hand_makes_the_checks_again(watched):
    game = Game.new(watched, 2, 0)
    game.state["ent"]["p1"]["counts"]["gold"] = -3
    game.state_edited()
    _answer(game, 0)
    assert game.state["ent"]["game"]["out"] == ["p1"]
