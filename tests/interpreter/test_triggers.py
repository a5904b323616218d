"""Triggers with order and effect (docs/language.md, "Events: triggers"): owner-ordered
triggers, before:/instead: triggers that prevent an event, stop, an emit's own body, named
abilities, copies with triggers, and calls of a macro as events."""
from __future__ import annotations

import pytest

from speciation import Game, RuleErrors
from speciation.interpreter.codegen import writer as codegen
from speciation.interpreter.saves import from_json, to_json

from speciation.dsl.errors import Span

from support.ruleset_builder import load

_SPAN = Span("test", 1, 1)

MANIFEST = """\
ruleset: t
title: T
version: "1"
players: {min: 2, max: 3}
"""
ORDERED = MANIFEST + """\
conventions:
  trigger_controller: holder_of
  turn_order: seats
"""

RULES = """\
kinds:
  player:
    attributes: {vp: 0, hp: 5}
  game:
    attributes: {active: p1, heard: []}
  card:
    attributes: {holder: null}
decks:
  gear:
    params: [p]
    active_while: self.holder != none
functions:
  score(p): p.vp
  holder_of(c): c.holder
  seats(): "[game.active] + [p for p in entities(player) if p != game.active]"
triggers:
  - on: attacked(a, b)
    effect: |
      game.heard = game.heard + ["rules"]
macros:
  main: |
    let one = entities(player)[0]
    let two = entities(player)[1]
{main}
  attack(a, b): |
    emit attacked(a, b)
  hurt(p): |
    p.hp -= 1
    game.heard = game.heard + ["hurt " + p]
"""


def _card(name: str, extra: str = "", holder: str = "p1") -> str:
    return f"""\
card: {name.title()}
deck: gear
text: A card of the tests.
provenance: {{confidence: unknown, sources: [the tests]}}
effect: |
  p.vp += 1
attributes: {{holder: {holder}}}
{extra}"""


def _heard(name: str) -> str:
    return f"""\
triggers:
  - on: attacked(a, b)
    effect: |
      game.heard = game.heard + ["{name}"]
"""


DEFAULT_MAIN = """\
    emit attacked(one, two):
        two.hp -= 1
        game.heard = game.heard + ["hit"]
    game.heard = game.heard + ["after"]
"""


def _load(tmp_path, cards: dict[str, str], main: str = DEFAULT_MAIN, manifest: str = ORDERED):
    files = {"ruleset.yaml": manifest, "rules.yaml": RULES.replace("{main}", main.rstrip("\n"))}
    files.update({f"cards/{name}.yaml": text for name, text in cards.items()})
    return load(tmp_path, files, base=False)


def _run(game: Game, answers: list) -> Game:
    for answer in answers:
        game.apply(answer, decision=game.decision_id)
    return game


FOUR = {"alarm": _card("alarm", _heard("alarm"), "p2"), "bell": _card("bell", _heard("bell"), "p2"),
        "gong": _card("gong", _heard("gong"), "p1"), "horn": _card("horn", _heard("horn"), "p1")}


# ---- owner-ordered triggers ------------------------------------------------------------

def test_each_seat_orders_its_own_triggers_in_turn_order_from_the_active_seat(tmp_path):
    game = Game.new(_load(tmp_path, FOUR), 2, 0)
    pending = game.state["pending"]
    assert pending["actor"] == "p1" and sorted(pending["options"]) == ["gong", "horn"]
    assert pending["prompt"] == "which of your triggers next?"
    _run(game, ["horn"])  # gong then runs without asking: one left
    assert game.state["pending"]["actor"] == "p2" and sorted(game.state["pending"]["options"]) == ["alarm", "bell"]
    _run(game, ["bell"])
    assert game.is_over
    # the event's body first, then the rule files' trigger, then p1's in its order, then p2's
    assert game.state["ent"]["game"]["heard"] == ["hit", "rules", "horn", "gong", "bell", "alarm", "after"]


def test_the_order_is_asked_only_when_a_seat_has_two_triggers_firing(tmp_path):
    cards = {"alarm": FOUR["alarm"], "gong": FOUR["gong"]}
    game = Game.new(_load(tmp_path, cards), 2, 0)
    assert game.is_over
    assert game.state["ent"]["game"]["heard"] == ["hit", "rules", "gong", "alarm", "after"]


def test_without_the_convention_triggers_keep_definition_order_and_nobody_is_asked(tmp_path):
    game = Game.new(_load(tmp_path, FOUR, manifest=MANIFEST), 2, 0)
    assert game.is_over
    assert game.state["ent"]["game"]["heard"] == ["hit", "rules", "alarm", "bell", "gong", "horn", "after"]


def test_a_game_saved_while_a_seat_orders_its_triggers_resumes(tmp_path):
    ruleset = _load(tmp_path, FOUR)
    game = Game.new(ruleset, 2, 0)
    _run(game, ["gong"])
    for verify in (False, True):
        resumed = from_json(to_json(game), ruleset, verify=verify)
        assert resumed.state["pending"]["actor"] == "p2"
        _run(resumed, ["alarm"])
        assert resumed.state["ent"]["game"]["heard"] == ["hit", "rules", "gong", "horn", "alarm", "bell", "after"]


# ---- before:, instead:, prevent, stop --------------------------------------------------

SHIELD = _card("shield", """\
abilities:
  guard:
    before: attacked(a, b)
    if: b == self.holder
    effect: |
      game.heard = game.heard + ["guard"]
      prevent
      game.heard = game.heard + ["guard goes on"]
  polish:
    effect: |
      p.vp += 10
""", "p2")


def test_a_before_trigger_prevents_the_event_its_body_and_its_on_triggers(tmp_path):
    game = Game.new(_load(tmp_path, {"shield": SHIELD, "gong": FOUR["gong"]}), 2, 0)
    assert game.is_over
    assert game.state["ent"]["p2"]["hp"] == 5
    assert game.state["ent"]["game"]["heard"] == ["guard", "guard goes on", "after"]


def test_a_before_trigger_that_does_not_prevent_lets_the_event_happen(tmp_path):
    main = DEFAULT_MAIN.replace("attacked(one, two)", "attacked(two, one)").replace("two.hp", "one.hp")
    game = Game.new(_load(tmp_path, {"shield": SHIELD}, main), 2, 0)
    assert game.state["ent"]["p1"]["hp"] == 4
    assert game.state["ent"]["game"]["heard"] == ["hit", "rules", "after"]


def test_a_game_saved_while_a_before_trigger_asks_resumes_and_prevents(tmp_path):
    asks = _card("shield", """\
triggers:
  - before: attacked(a, b)
    effect: |
      may choose x from [1] by b prompt "shield?"
      if x != none:
          prevent
""", "p2")
    ruleset = _load(tmp_path, {"shield": asks, "gong": FOUR["gong"]})
    for answer, heard in ((1, ["after"]), (None, ["hit", "rules", "gong", "after"])):
        game = Game.new(ruleset, 2, 0)
        assert game.state["pending"]["prompt"] == "shield?"
        for verify in (False, True):
            resumed = from_json(to_json(game), ruleset, verify=verify)
            _run(resumed, [answer])
            assert resumed.is_over and resumed.state["ent"]["game"]["heard"] == heard


def test_an_instead_trigger_replaces_the_event(tmp_path):
    decoy = _card("decoy", """\
triggers:
  - instead: attacked(a, b)
    effect: |
      a.hp -= 2
""")
    game = Game.new(_load(tmp_path, {"decoy": decoy}), 2, 0)
    assert (game.state["ent"]["p1"]["hp"], game.state["ent"]["p2"]["hp"]) == (3, 5)
    assert game.state["ent"]["game"]["heard"] == ["after"]


def test_a_handler_stops_the_remaining_handlers(tmp_path):
    stopper = _card("alarm", """\
triggers:
  - on: attacked(a, b)
    effect: |
      game.heard = game.heard + ["alarm"]
      stop
      game.heard = game.heard + ["alarm goes on"]
""")
    game = Game.new(_load(tmp_path, {"alarm": stopper, "bell": FOUR["bell"]}, manifest=MANIFEST), 2, 0)
    assert game.state["ent"]["game"]["heard"] == ["hit", "rules", "alarm", "alarm goes on", "after"]


# ---- abilities, copies, macro calls as events -----------------------------------------

def test_an_activated_ability_is_performed_by_name(tmp_path):
    main = "    perform shield.polish with p = two\n    perform shield with p = two\n"
    game = Game.new(_load(tmp_path, {"shield": SHIELD}, main), 2, 0)
    assert game.state["ent"]["p2"]["vp"] == 11


def test_copies_have_their_own_triggers_with_self_the_copy(tmp_path):
    spark = _card("spark", """\
copies: 3
triggers:
  - on: attacked(a, b)
    effect: |
      game.heard = game.heard + [self]
""", "null")
    main = ("    let sparks = [c for c in entities(card) if c.card == spark]\n"
            "    sparks[0].holder = one\n    sparks[2].holder = one\n" + DEFAULT_MAIN)
    ruleset = _load(tmp_path, {"spark": spark}, main, manifest=MANIFEST)
    game = Game.new(ruleset, 2, 4)
    sparks = [c for c, r in game.state["ent"].items() if r.get("card") == "spark"]
    assert game.state["ent"]["game"]["heard"] == ["hit", "rules", sparks[0], sparks[2], "after"]


WARD = _card("ward", """\
abilities:
  ward:
    before: hurt(p)
    if: p == self.holder
    effect: |
      prevent
  count:
    on: hurt(p)
    effect: |
      game.heard = game.heard + ["counted " + p]
""", "p1")


def test_a_macro_call_is_an_event_that_a_card_can_prevent_or_follow(tmp_path):
    main = "    hurt(one)\n    hurt(two)\n"
    game = Game.new(_load(tmp_path, {"ward": WARD}, main), 2, 0)
    assert (game.state["ent"]["p1"]["hp"], game.state["ent"]["p2"]["hp"]) == (5, 4)
    assert game.state["ent"]["game"]["heard"] == ["hurt p2", "counted p2"]


def test_generated_code_plays_these_events_the_same(tmp_path, monkeypatch):
    heard = []
    for enabled in (False, True):
        monkeypatch.setattr(codegen, "ENABLED", enabled)
        main = DEFAULT_MAIN + "    hurt(one)\n    hurt(two)\n"
        game = Game.new(_load(tmp_path / str(enabled), {**FOUR, "ward": WARD}, main), 2, 0)
        _run(game, ["horn", "bell"])
        assert game.is_over and game.state["ent"]["game"]["heard"][-2:] == ["hurt p2", "counted p2"]
        heard.append((game.state["ent"]["game"]["heard"], game.digest()))
    assert heard[0] == heard[1]


# ---- mistakes --------------------------------------------------------------------------

@pytest.mark.parametrize("extra, message", [
    ("triggers:\n  - on: attacked(a, b)\n    effect: |\n      prevent\n",
     "'prevent' belongs in the effect of a trigger that listens 'before:' an event"),
    ("triggers:\n  - on: attacked(a, b)\n    before: attacked(a, b)\n    effect: |\n      pass\n",
     "a trigger needs exactly one of 'on:', 'before:' or 'instead:'"),
    ("abilities:\n  holder:\n    effect: |\n      pass\n", "ability 'holder' has the name of an attribute"),
    ("triggers:\n  - before: nothing_emits(a)\n    effect: |\n      prevent\n", "no rule emits the event 'nothing_emits'"),
])
def test_mistakes_are_positioned_errors(tmp_path, extra, message):
    with pytest.raises(RuleErrors) as caught:
        _load(tmp_path, {"alarm": _card("alarm", extra)})
    assert message in str(caught.value)


def test_stop_outside_a_trigger_is_an_error(tmp_path):
    with pytest.raises(RuleErrors) as caught:
        _load(tmp_path, {}, "    stop\n")
    assert "'stop' belongs in the effect of a trigger" in str(caught.value)


def test_an_emit_body_cannot_be_left_by_return_or_break(tmp_path):
    main = "    repeat 2:\n        emit attacked(one, two):\n            for x in [1]:\n                break\n            break\n"
    with pytest.raises(RuleErrors) as caught:
        _load(tmp_path, {}, main)
    assert [e.message for e in caught.value.errors] == [
        "'break' cannot leave the body of an emit (the event would be left half done)"]


# ---- the per-action hook: the sample mod 'truce' -----------------------------------------

def test_the_truce_mod_scopes_its_shelter_to_one_competition_action():
    """tests/support/fixtures/mods/truce: before/after the action's macro, prevent an elimination."""
    from speciation.scenarios import run_scenario_file

    from support.ruleset_builder import FIXTURES
    result = run_scenario_file(FIXTURES / "mods" / "truce" / "scenarios" / "truce_lasts_one_competition.yaml")
    assert result.passed, result.reason


def test_stop_and_prevent_stay_usable_as_names_except_starting_a_statement(tmp_path):
    ruleset = _load(tmp_path / "ok", {}, "    let stop = 2\n    let prevent = stop + 1\n    one.vp = prevent\n")
    assert Game.new(ruleset, 2, 0).state["ent"]["p1"]["vp"] == 3
    with pytest.raises(RuleErrors) as caught:
        _load(tmp_path / "bad", {}, "    let stop = 2\n    stop += 1\n")
    assert "'stop' and 'prevent' starting a statement are statements of their own" in str(caught.value)


def test_copies_have_their_own_modifiers_with_self_the_copy(tmp_path):
    charm = _card("charm", """\
copies: 3
modifiers:
  - function: score
    while: self.holder == p
    value: base + 10
""", "null")
    main = ("    let charms = [c for c in entities(card) if c.card == charm]\n"
            "    charms[0].holder = one\n    charms[1].holder = one\n    charms[2].holder = two\n")
    game = Game.new(_load(tmp_path, {"charm": charm}, main), 2, 0)
    score = game.ruleset.compile_expression("score(p)", _SPAN, ["p"])
    assert [game.evaluate_expression(score, {"p": p}) for p in ("p1", "p2")] == [20, 10]


def test_the_language_server_finds_nothing_wrong_in_the_truce_mod():
    from speciation.lsp import analysis

    from support.ruleset_builder import FIXTURES
    files = sorted((FIXTURES / "mods" / "truce").rglob("*.yaml"))
    assert len(files) == 3
    assert {str(p): analysis.diagnostics(str(p), p.read_text(encoding="utf-8")) for p in files} == \
        {str(p): [] for p in files}


def test_a_mod_replaces_one_ability_of_a_card_and_keeps_the_others(tmp_path):
    from speciation import load_ruleset
    main = "    perform shield.polish with p = two\n" + DEFAULT_MAIN
    _load(tmp_path / "base", {"shield": SHIELD}, main)
    (tmp_path / "soft.yaml").write_text("""\
mod: soft
cards:
  shield:
    abilities:
      guard:
        before: attacked(a, b)
        effect: |
          game.heard = game.heard + ["soft guard"]
""", encoding="utf-8")
    game = Game.new(load_ruleset(str(tmp_path / "base"), mods=[str(tmp_path / "soft.yaml")]), 2, 0)
    assert game.state["ent"]["p2"]["vp"] == 10  # polish kept
    assert game.state["ent"]["game"]["heard"] == ["soft guard", "hit", "rules", "after"]  # guard replaced


SPARK = _card("spark", """\
copies: 3
triggers:
  - on: attacked(a, b)
    effect: |
      game.heard = game.heard + ["on " + self.card]
  - before: hurt(p)
    effect: |
      game.heard = game.heard + ["before " + self.card]
modifiers:
  - function: score
    value: base + (100 if self.card == spark else 1000)
""", "null")
DUD = _card("dud", "copies: 4\n", "null")


@pytest.mark.parametrize("enabled", [False, True])
def test_a_copys_triggers_and_modifiers_act_as_that_copy_wherever_the_game_dealt_it(tmp_path, monkeypatch,
                                                                                      enabled):
    """A new game deals the copies' ids anew: 'self' of a copy's trigger or modifier is always
    a copy of the card that has it (never a copy of another card of the deck), each once."""
    monkeypatch.setattr(codegen, "ENABLED", enabled)
    main = ("    for c in entities(card):\n        c.holder = one\n" + DEFAULT_MAIN
            + "    hurt(two)\n    one.hp = score(one)\n")
    ruleset = _load(tmp_path, {"spark": SPARK, "dud": DUD}, main, manifest=MANIFEST)
    dealt = set()
    for seed in range(8):
        game = Game.new(ruleset, 2, seed)
        sparks = tuple(sorted(c for c, r in game.state["ent"].items() if r.get("card") == "spark"))
        dealt.add(sparks)
        heard = game.state["ent"]["game"]["heard"]
        assert heard.count("on spark") == 3 and "on dud" not in heard
        assert heard.count("before spark") == 3 and "before dud" not in heard
        assert game.state["ent"]["p1"]["hp"] == 300
    assert len(dealt) > 1  # the deal differs between seeds: the ids say nothing


def test_a_copys_triggers_follow_its_card_when_the_state_is_edited(tmp_path):
    """A determinized copy deals unseen faces (a copy's 'card' too) by hand: after
    state_edited, the triggers act as what each copy now is (the index of copies is redone)."""
    main = "    for c in entities(card):\n        c.holder = one\n" + DEFAULT_MAIN + "    one.hp = score(one)\n"
    ruleset = _load(tmp_path, {"spark": SPARK, "dud": DUD}, main, manifest=MANIFEST)
    game = Game.new(ruleset, 2, 3)
    ent = game.state["ent"]
    spark = next(c for c, r in ent.items() if r.get("card") == "spark")
    dud = next(c for c, r in ent.items() if r.get("card") == "dud")
    ent[spark]["card"], ent[dud]["card"] = "dud", "spark"
    game.state_edited()
    ent["game"]["heard"] = []
    game.start("main")
    selves = [c for c, r in ent.items() if r.get("card") == "spark"]
    assert dud in selves and spark not in selves
    assert ent["game"]["heard"].count("on spark") == 3 and "on dud" not in ent["game"]["heard"]
    assert ent["p1"]["hp"] == 300
