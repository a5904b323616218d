"""A priority window and a stack (a rule file's 'responses'): responses go on top and
resolve last in, first out; an entry can be countered; what an entry answers is a value;
with ask_all a seat with nothing to play is asked like one with something (issue 22)."""
from __future__ import annotations

import pytest

from speciation import Game, RuleErrors
from speciation.interpreter.codegen import writer as codegen
from speciation.interpreter.saves import from_json, to_json

from support.ruleset_builder import load, main

RESPONSES = """\
kinds:
  player:
    attributes: {vp: 0, counts: {}, hand: []}
  game:
    attributes: {bag: [], out: [], n: 0, stack: [], resolved: [], answered: []}
functions:
  score(p): p.vp
responses:
  stack: game.stack
  order: entities(player)
  options: "[c for c in p.hand if c != top]"
  ask_all: ASK_ALL
  play: |
    remove(p.hand, c)
    log("{} plays {} in answer to {}", p, c, top)
  resolve: |
    if c == cancel:
        remove(game.stack, last(game.stack))
    append(game.resolved, c)
    append(game.answered, [c, target])
"""

BODY = """\
let ps = entities(player)
ps[0].hand = [alpha]
ps[1].hand = [beta, cancel]
ps[2].hand = [gamma]
respond_to(event_x)
game.n = len(game.stack)
"""


def _rules(ask_all: bool) -> dict:
    files = main(BODY, extra="symbols:\n  cards: [alpha, beta, gamma, cancel, event_x]\n")
    files["base.yaml"] = RESPONSES.replace("ASK_ALL", "true" if ask_all else "false")
    return files


@pytest.fixture(params=[True, False], ids=["generated", "closures"])
def ruleset(request, tmp_path, monkeypatch):
    monkeypatch.setattr(codegen, "ENABLED", request.param)
    return load(tmp_path, _rules(True))


def _pick(game, value):
    game.apply(value, decision=game.decision_id)


def test_the_rulebook_example_resolves_3_then_2_then_1(ruleset):
    """Catastrophic, Interaction Cards: player 1 plays, player 2 reacts, player 3 reacts to
    that: player 3's card resolves first, then player 2's, then player 1's."""
    game = Game.new(ruleset, 3, 0)
    assert game.current_player == 0 and game.prompt == "respond to event_x"
    _pick(game, "alpha")
    assert game.current_player == 1 and game.prompt == "respond to alpha"
    _pick(game, "beta")
    assert game.current_player == 2
    _pick(game, "gamma")
    for _ in range(3):                   # everyone passes: gamma resolves
        _pick(game, None)
    state = game.state["ent"]["game"]
    assert state["resolved"] == ["gamma"]
    while not game.is_over:
        _pick(game, None)
    assert state["resolved"] == ["gamma", "beta", "alpha"]
    assert state["answered"] == [["gamma", "beta"], ["beta", "alpha"], ["alpha", "event_x"]]
    assert state["n"] == 0 and state["stack"] == []


def test_a_countered_entry_never_resolves(ruleset):
    game = Game.new(ruleset, 3, 0)
    _pick(game, "alpha")
    _pick(game, "cancel")                 # player 2 answers alpha with a cancel
    while not game.is_over:
        _pick(game, None)
    assert game.state["ent"]["game"]["resolved"] == ["cancel"]   # alpha was taken off the stack


def test_a_seat_with_nothing_to_play_is_asked_all_the_same(ruleset):
    game = Game.new(ruleset, 3, 0)
    _pick(game, "alpha")
    _pick(game, None)
    _pick(game, "gamma")                  # player 3 has nothing left
    _pick(game, None)                     # player 1 (empty hand) is asked
    assert game.current_player == 1 and [a.value for a in game.legal_actions()] == ["beta", "cancel", None]
    _pick(game, None)
    assert game.current_player == 2 and [a.value for a in game.legal_actions()] == [None]


def test_without_ask_all_a_seat_with_nothing_is_skipped(tmp_path):
    game = Game.new(load(tmp_path, _rules(False)), 3, 0)
    _pick(game, "alpha")
    _pick(game, None)
    _pick(game, "gamma")
    assert game.current_player == 1      # player 1 holds nothing: not asked


@pytest.mark.parametrize("stop", [2, 4, 6])
def test_saved_with_entries_on_the_stack_resumes_identically(ruleset, stop):
    picks = ["alpha", "beta", "gamma", None, None, None, None, None, None, None, None, None]
    whole = Game.new(ruleset, 3, 0)
    for v in picks:
        if whole.is_over:
            break
        _pick(whole, v)
    part = Game.new(ruleset, 3, 0)
    for v in picks[:stop]:
        _pick(part, v)
    assert len(part.state["ent"]["game"]["stack"]) >= 2
    resumed = from_json(to_json(part), ruleset)
    for v in picks[stop:]:
        if resumed.is_over:
            break
        _pick(resumed, v)
    assert resumed.digest() == whole.digest()


def test_a_bad_stack_and_a_clash_are_positioned_errors(tmp_path):
    files = _rules(True)
    files["base.yaml"] = files["base.yaml"].replace("stack: game.stack", "stack: stack()")
    with pytest.raises(RuleErrors, match="'stack' must name a list attribute"):
        load(tmp_path / "a", files)
    files = _rules(True)
    files["more.yaml"] = "macros:\n  respond_to(x): |\n    pass\n"
    with pytest.raises(RuleErrors, match="macro 'respond_to' is defined twice"):
        load(tmp_path / "b", files)


def test_always_needs_may(tmp_path):
    with pytest.raises(RuleErrors, match="'always' goes with 'may choose'"):
        load(tmp_path, main("choose x from [] by first(entities(player)) always\n"))


def test_a_save_made_under_another_window_text_is_replayed_not_refused(tmp_path, monkeypatch):
    """The window is rule text the engine writes: the ruleset's digest covers it, so a game
    saved mid-window before that text changed (its statements, so its frames' node ids,
    moved) is replayed from its decisions, not taken for an edited save."""
    from speciation.dsl import responses
    picks = ["alpha", "beta", None, None]
    current = load(tmp_path / "now", _rules(True))
    monkeypatch.setattr(responses, "WINDOW", "let unused = 0\n" + responses.WINDOW)
    older = load(tmp_path / "before", _rules(True))
    monkeypatch.undo()
    assert older.digest != current.digest
    saved = Game.new(older, 3, 0)
    for v in picks:
        _pick(saved, v)
    assert len(saved.state["ent"]["game"]["stack"]) >= 1   # saved with an entry waiting
    resumed = from_json(to_json(saved), current)
    expected = Game.new(current, 3, 0)
    for v in picks:
        _pick(expected, v)
    assert resumed.digest() == expected.digest()
