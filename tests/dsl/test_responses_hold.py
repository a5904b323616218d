"""Holding priority off (a 'responses' section's 'hold', issue 22): in a window any asked
seat may hold off, whatever it holds; a held seat passes without being asked until the
hold's condition holds (then it is asked, and the hold ends) or an event of 'ends' happens;
the choice is logged for every seat; with 'ask_all' another seat cannot tell from the
protocol (the views, the log) whether the asked seat could have answered."""
from __future__ import annotations

import pytest

from speciation import Game, RuleErrors
from speciation.interpreter.saves import from_json, to_json

from support.ruleset_builder import load, main

HOLD = "hold priority off"

RESPONSES = """\
kinds:
  player:
    attributes: {vp: 0, hand: []}
  game:
    attributes: {stack: [], resolved: [], holding: [], aimed: null}
functions:
  score(p): p.vp
macros:
  turn(p): |
    game.aimed = none
hidden:
  private: [hand]
responses:
  stack: game.stack
  order: entities(player)
  options: "[c for c in p.hand if c != top]"
  ask_all: ASK_ALL
  hold:
    list: game.holding
    until: game.aimed == p
    ends: [turn(p)]
  play: |
    remove(p.hand, c)
    log("{} plays {}", p, c)
  resolve: |
    append(game.resolved, c)
"""

BODY = """\
let ps = entities(player)
ps[0].hand = [alpha]
ps[1].hand = [beta]
respond_to(one)
respond_to(two)
game.aimed = ps[1]
respond_to(three)
respond_to(four)
turn(ps[1])
respond_to(five)
"""


def _load(tmp_path, ask_all=True, body=BODY, responses=RESPONSES):
    files = main(body, extra="symbols:\n  cards: [alpha, beta, one, two, three, four, five]\n")
    files["base.yaml"] = responses.replace("ASK_ALL", "true" if ask_all else "false")
    return load(tmp_path, files)


@pytest.fixture
def ruleset(tmp_path):
    return _load(tmp_path)


def _asked(game, answers):
    """Play to the end: each asked seat answers by *answers*(game); the (seat, subject) asked."""
    asked = []
    while not game.is_over:
        asked.append((game.current_player, game.prompt.split()[-1]))
        game.apply(answers(game), decision=game.decision_id)
    return asked


def test_a_held_seat_is_not_asked_until_its_condition_holds(ruleset):
    game = Game.new(ruleset, 3, 0)
    assert [a.value for a in game.legal_actions()] == ["alpha", HOLD, None]
    asked = _asked(game, lambda g: HOLD if g.current_player == 1 and g.prompt.endswith("one") else None)
    assert asked == [(0, "one"), (1, "one"), (2, "one"),
                     (0, "two"), (2, "two"),                 # player 2 holds off: not asked
                     (0, "three"), (1, "three"), (2, "three"),   # aimed at player 2: asked again
                     (0, "four"), (1, "four"), (2, "four"),      # ... and the hold has ended
                     (0, "five"), (1, "five"), (2, "five")]
    assert game.state["ent"]["game"]["holding"] == []


def test_the_hold_ends_at_an_event_of_ends(ruleset):
    game = Game.new(ruleset, 3, 0)
    # player 3 holds off at every question: asked at one, then at five only (turn(p3) never
    # happens) -- player 2 holds off at 'four' and is asked again after turn(p2)
    def answers(g):
        return HOLD if g.current_player == 2 or (g.current_player == 1 and g.prompt.endswith("four")) else None
    asked = _asked(game, answers)
    assert [s for s, _ in asked if s == 2] == [2]
    assert (1, "five") in asked
    assert game.state["ent"]["game"]["holding"] == ["p3"]


def test_holding_is_offered_whatever_the_seat_holds_and_logged_for_everyone(ruleset):
    game = Game.new(ruleset, 3, 0)
    game.apply(None, decision=game.decision_id)
    game.apply(None, decision=game.decision_id)
    assert game.current_player == 2 and [a.value for a in game.legal_actions()] == [HOLD, None]
    game.apply(HOLD, decision=game.decision_id)
    line = f"  Player 3: respond to one → {HOLD}"
    for seat in range(3):
        assert line in game.view(seat)["log"]


def test_with_ask_all_another_seat_cannot_tell_a_seat_that_could_answer(tmp_path):
    """Player 1 holds a card it may answer with, or one it may not (the card answered): to
    every other seat the game looks the same (state, pending decision, log), before and
    after player 1 passes or holds off."""
    body = "entities(player)[0].hand = [HAND]\nrespond_to(one)\nrespond_to(two)\n"
    rulesets = [_load(tmp_path / hand, body=body.replace("HAND", hand)) for hand in ("alpha", "one")]
    for answer in (None, HOLD):
        games = [Game.new(r, 3, 0) for r in rulesets]
        assert [len(g.legal_actions()) for g in games] == [3, 2]
        for _ in range(3):
            for seat in (1, 2):
                first, second = (g.view(seat) for g in games)
                for view in (first, second):
                    view["pending"].pop("id")    # each game's own token, and the decision's number
                assert first["ent"]["p1"]["hand"] == ["?"]
                if games[0].current_player == 0:
                    assert first["pending"]["options"] == ["?"]    # not how many it has
                assert first == second
            for g in games:
                g.apply(answer, decision=g.decision_id)


def test_without_ask_all_a_seat_with_nothing_is_neither_asked_nor_offered_the_hold(tmp_path):
    game = Game.new(_load(tmp_path, ask_all=False), 3, 0)
    assert game.current_player == 0 and [a.value for a in game.legal_actions()] == ["alpha", HOLD, None]
    game.apply(None, decision=game.decision_id)
    assert game.current_player == 1
    game.apply(None, decision=game.decision_id)
    assert game.current_player == 0 and game.prompt.endswith("two")   # player 3 holds nothing


@pytest.mark.parametrize("stop", [2, 3, 5])
def test_a_save_with_a_held_seat_resumes_identically(ruleset, stop):
    def answers(g):
        return HOLD if g.current_player in (1, 2) and not g.prompt.endswith("three") else None
    whole = Game.new(ruleset, 3, 0)
    _asked(whole, answers)
    part = Game.new(ruleset, 3, 0)
    for _ in range(stop):
        part.apply(answers(part), decision=part.decision_id)
    assert part.state["ent"]["game"]["holding"]
    resumed = from_json(to_json(part), ruleset)
    _asked(resumed, answers)
    assert resumed.digest() == whole.digest()


def test_a_bad_hold_is_a_positioned_error(tmp_path):
    bad = RESPONSES.replace("list: game.holding", "list: holding()")
    with pytest.raises(RuleErrors, match=r"base.yaml:\d+:\d+: .*hold's 'list' must name a list attribute"):
        _load(tmp_path / "a", responses=bad)
    bad = RESPONSES.replace("ends: [turn(p)]", "ends: [turn]")
    with pytest.raises(RuleErrors, match="hold's 'ends' lists events"):
        _load(tmp_path / "b", responses=bad)
    bad = RESPONSES.replace("until: game.aimed == p", "until: game.aimed == q")
    with pytest.raises(RuleErrors, match="q"):
        _load(tmp_path / "c", responses=bad)
