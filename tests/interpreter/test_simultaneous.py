"""Simultaneous decisions: 'simultaneously for p in ITEMS: BODY' — several seats decide at
once, each in its own part (issue 22, deliverable 1 "Simultaneous decisions")."""
from __future__ import annotations

import random

import pytest

from speciation import Game, IllegalActionError, RuleErrors, RuleRuntimeError
from speciation.interpreter.codegen import writer as codegen
from speciation.interpreter.determinize import determinize
from speciation.interpreter.limits import Limits
from speciation.interpreter.saves import from_json, replay, to_json

from support.ruleset_builder import load, main

BASE = """\
kinds:
  player:
    attributes: {vp: 0, hand: [], committed: [], bid: 0}
  game:
    attributes: {pile: [ace, bell, cone, drum, wolf, fern, gold, harp, iris, jade], shown: []}
symbols:
  cards: [ace, bell, cone, drum, wolf, fern, gold, harp, iris, jade]
hidden:
  contents: [pile]
  private: [hand, committed]
  groups: [[pile, hand, committed]]
functions:
  score(p): p.vp
"""

# Each seat commits a card from its hand (face down, kept in 'committed') and then a bid;
# the commitments are revealed together after the statement.
BODY = """\
for p in entities(player):
    repeat 3:
        draw c from game.pile
        append(p.hand, c)
simultaneously for p in entities(player):
    choose c from p.hand by p prompt "commit a card"
    remove(p.hand, c)
    append(p.committed, c)
    log("{} commits {}", p, c)
    choose n from [1, 2, 3] by p prompt "bid"
    p.bid = n
for p in entities(player):
    game.shown = game.shown + p.committed
    p.vp = p.bid
log("revealed: {}", game.shown)
choose last from [1, 2] by entities(player)[0] prompt "after"
"""


@pytest.fixture(params=[True, False], ids=["generated", "closures"])
def ruleset(request, tmp_path, monkeypatch):
    monkeypatch.setattr(codegen, "ENABLED", request.param)
    return load(tmp_path, {"base.yaml": BASE, **main(BODY)})


def test_every_seat_has_its_own_pending_decision_in_seat_order(ruleset):
    game = Game.new(ruleset, 3, seed=1)
    decisions = game.decisions()
    assert [d.player for d in decisions] == [0, 1, 2]
    assert [d.prompt for d in decisions] == ["commit a card"] * 3
    assert len({d.id for d in decisions}) == 3
    for d in decisions:  # each seat is offered its own hand
        assert [a.value for a in d.legal_actions()] == game.state["ent"][f"p{d.player + 1}"]["hand"]
    # the single-decision API refers to the first
    assert game.decision_id == decisions[0].id and game.current_player == 0
    assert game.prompt == "commit a card" and game.legal_actions() == decisions[0].legal_actions()


def test_an_ordinary_decision_is_a_one_element_list(ruleset):
    game = Game.new(ruleset, 2, seed=1)
    for d in game.decisions():
        game.apply(d.legal_actions()[0])
    for d in game.decisions():
        game.apply(d.legal_actions()[0])
    (only,) = game.decisions()
    assert only.id == game.decision_id and only.player == 0 and only.prompt == "after"
    assert only.legal_actions() == game.legal_actions()


def _play(game: Game, order: list[int], pick: int = 0) -> None:
    """Answer the simultaneous part: seats in *order*, each its two decisions."""
    for seat in order:
        for _ in range(2):
            (mine,) = [d for d in game.decisions() if d.player == seat]
            game.apply(mine.legal_actions()[pick])


def test_each_seat_is_answered_independently_in_any_order(ruleset):
    outcomes = set()
    for order in ([0, 1, 2], [2, 1, 0], [1, 2, 0]):
        game = Game.new(ruleset, 3, seed=4)
        _play(game, order)
        assert [d.prompt for d in game.decisions()] == ["after"]
        outcomes.add((tuple(game.state["ent"]["game"]["shown"]), tuple(game.scores)))
    assert len(outcomes) == 1  # what each seat chose, not the order, decides


def test_a_seat_may_answer_while_another_has_not_started(ruleset):
    game = Game.new(ruleset, 2, seed=2)
    second = game.decisions()[1]
    game.apply(second.legal_actions()[1])  # seat 1 first, by its action
    assert [(d.player, d.prompt) for d in game.decisions()] == [(0, "commit a card"), (1, "bid")]
    assert game.decisions()[0].id == second.id.replace(second.id.split("/")[1], "0:0")


def test_stale_foreign_and_absent_ids_are_refused_and_change_nothing(ruleset):
    game = Game.new(ruleset, 2, seed=3)
    other = Game.new(ruleset, 2, seed=3)
    first, second = game.decisions()
    old = first.legal_actions()[0]
    game.apply(old)
    before = game.digest(), game.log_size, [d.id for d in game.decisions()]
    with pytest.raises(IllegalActionError, match="not pending now"):
        game.apply(old)  # answered already: stale
    with pytest.raises(IllegalActionError, match="another game"):
        game.apply(other.decisions()[1].legal_actions()[0])
    with pytest.raises(IllegalActionError, match="names no decision"):
        game.apply(game.state["ent"]["p2"]["hand"][0])  # a bare value, several pending
    with pytest.raises(IllegalActionError, match="not a legal choice"):
        game.apply("zz", decision=game.decisions()[1].id)
    with pytest.raises(IllegalActionError, match="not a decision id"):
        game.apply(1, decision="nonsense")
    assert (game.digest(), game.log_size, [d.id for d in game.decisions()]) == before
    # a bare value with the id of the decision it answers is taken
    game.apply(game.state["ent"]["p2"]["hand"][0], decision=second.id)


def test_a_decision_id_is_unique_in_the_games_history(ruleset):
    game = Game.new(ruleset, 3, seed=5)
    seen = []
    while not game.is_over:
        decisions = game.decisions()
        seen += [d.id for d in decisions if d.id not in seen]
        game.apply(decisions[-1].legal_actions()[0])
    assert len(seen) == len(set(seen)) == 7  # 3 seats x 2, and the last


def test_save_and_resume_while_seats_decide(ruleset):
    game = Game.new(ruleset, 3, seed=6)
    game.apply(game.decisions()[1].legal_actions()[2])
    resumed = from_json(to_json(game), ruleset)
    assert resumed.digest() == game.digest()
    assert [(d.player, d.prompt) for d in resumed.decisions()] == [(0, "commit a card"), (1, "bid"),
                                                                    (2, "commit a card")]
    for g in (game, resumed):
        _play(g, [2, 0])
        (d,) = [d for d in g.decisions() if d.player == 1]
        g.apply(d.legal_actions()[1])
    assert resumed.digest() == game.digest()
    assert resumed.view(1) == game.view(1) | {"pending": resumed.view(1)["pending"]}


def test_the_history_replays_to_the_same_digest(ruleset):
    game = Game.new(ruleset, 3, seed=7)
    _play(game, [2, 0, 1], pick=1)
    history = game.history
    assert [actor for actor, _ in history["decisions"]] == ["p3", "p3", "p1", "p1", "p2", "p2"]
    assert replay(ruleset, history).digest() == game.digest()
    same = Game.new(ruleset, 3, seed=7)
    _play(same, [2, 0, 1], pick=1)
    assert same.digest() == game.digest()


def test_no_seat_sees_another_commitment_before_the_reveal(ruleset):
    game = Game.new(ruleset, 2, seed=8)
    (_, theirs) = game.decisions()
    card = theirs.legal_actions()[0].value
    game.apply(theirs.legal_actions()[0])
    view = game.view(0)
    assert view["pending"]["prompt"] == "commit a card" and view["deciding"] == [0, 1]
    assert view["ent"]["p2"]["committed"] == ["?"] and card not in repr(view)
    assert not any(card in line for line in game.log_for(0))
    assert any(f"commits {card}" in line for line in game.log_for(1))
    own = game.view(1)["pending"]
    assert own["prompt"] == "bid" and own["options"] == [1, 2, 3]
    assert own["id"] == game.decisions()[1].id
    _play(game, [0])
    game.apply(game.decisions()[0].legal_actions()[0])
    assert card in game.view(0)["ent"]["game"]["shown"]  # revealed together
    assert any(card in line for line in game.log_for(0))


def test_a_determinised_copy_does_not_hold_another_seats_commitment(ruleset):
    game = Game.new(ruleset, 2, seed=9)
    (_, theirs) = game.decisions()
    card = theirs.legal_actions()[0].value
    game.apply(theirs.legal_actions()[0])
    rng, kept = random.Random(1), 0
    for _ in range(60):
        copy = determinize(game, 0, rng)
        committed = copy.state["ent"]["p2"]["committed"]
        fiber = copy.state["stack"][-1][2][1]
        assert fiber["stack"][0][2]["c"] == committed[0]  # the part's own name follows the deal
        kept += committed == [card]
        assert copy.decisions()[0].id == game.decisions()[0].id  # the real game's actions fit it
        assert copy.current_player == 0  # the seat's own decision first
    assert kept < 30  # the commitment is one of the cards seat 0 does not see, at random


def test_the_copy_of_the_second_seat_puts_its_own_decision_first(ruleset):
    game = Game.new(ruleset, 2, seed=10)
    copy = determinize(game, 1, random.Random(2))
    assert copy.current_player == 1 and copy.decision_id == game.decisions()[1].id
    copy.apply(copy.legal_actions()[0])
    assert game.decisions()[1].legal_actions()[0].value not in repr(copy.view(0)["ent"]["p2"])


def test_a_decision_by_another_seat_inside_is_a_positioned_error(tmp_path):
    with pytest.raises(RuleErrors, match="by p's seat"):
        load(tmp_path / "a", main("simultaneously for p in entities(player):\n"
                                  "    choose x from [1, 2] by entities(player)[0]\n"))
    ruleset = load(tmp_path / "b", main("simultaneously for p in entities(player):\n    ask(p)\n",
                                        {"ask(p)": "choose x from [1, 2] by entities(player)[0]\n"}))
    with pytest.raises(RuleRuntimeError, match="inside seat 2's part") as info:
        Game.new(ruleset, 2, 1)
    assert info.value.span is not None and info.value.span.line > 0


def test_simultaneously_inside_a_part_is_a_positioned_error(tmp_path):
    with pytest.raises(RuleErrors, match="inside a seat's part") as info:
        load(tmp_path, main("simultaneously for p in entities(player):\n"
                            "    simultaneously for q in [p]:\n        choose x from [1, 2] by q\n"))
    assert "rules.yaml:4:" in str(info.value)


def test_a_seat_listed_twice_is_a_runtime_error(tmp_path):
    ruleset = load(tmp_path, main("let p = entities(player)[0]\n"
                                  "simultaneously for q in [p, p]:\n    choose x from [1, 2] by q\n"))
    with pytest.raises(RuleRuntimeError, match="twice"):
        Game.new(ruleset, 2, 1)


def test_parts_with_no_decision_and_no_items_run_through(tmp_path):
    ruleset = load(tmp_path, main("simultaneously for p in []:\n    p.vp = 1\n"
                                  "simultaneously for p in entities(player):\n    p.vp += 2\n"
                                  "    if p == entities(player)[1]:\n        choose x from [1, 2] by p\n"
                                  "        p.vp += x\n"))
    game = Game.new(ruleset, 2, 1)
    assert [d.player for d in game.decisions()] == [1] and game.scores == [2, 2]
    game.apply(game.legal_actions()[1])
    assert game.is_over and game.scores == [2, 4]


def test_a_loop_around_parts_that_never_decide_ends_in_a_budget_error(tmp_path):
    ruleset = load(tmp_path, main("while true:\n    simultaneously for p in entities(player):\n        p.vp += 1\n"))
    with pytest.raises(RuleRuntimeError, match="20000 units of work"):
        Game.new(ruleset, 2, 1, limits=Limits(work=20_000))


@pytest.mark.parametrize("damage", [
    lambda s: s["stack"][-1][2][0].pop("seat"),                       # a part without its seat
    lambda s: s["stack"][-1][2][1]["stack"][0].__setitem__(3, 5),     # a frame naming no frame
    lambda s: s["stack"][-1][2][1].__setitem__("pending", {"actor": "p2"}),  # a damaged decision
    lambda s: s["pending"]["fiber"].__setitem__(0, 7),                 # the first names no part
    lambda s: s["stack"].append([0, 0, {}, 0]),                        # the parts' frame not on top
])
def test_a_damaged_save_of_parts_is_refused(ruleset, damage):
    import json
    from speciation import SaveFileError
    game = Game.new(ruleset, 2, seed=11)
    game.apply(game.decisions()[1].legal_actions()[0])
    data = json.loads(to_json(game))
    damage(data["state"])
    with pytest.raises(SaveFileError, match="damaged"):
        from_json(json.dumps(data), ruleset, verify=False)


def test_a_secret_choice_s_prompt_reaches_no_other_seat_and_no_spectator():
    """Catastrophic's setup: seat 0's "where does <the card it lays face down> go" names the
    card; a spectator's view (and a save made from it) shows that seat deciding, not the
    prompt (the leak the table's leak test found in a spectator's seat record)."""
    import json

    from speciation import load_ruleset
    from speciation.interpreter.views import public_view
    game = Game.new(load_ruleset("catastrophic"), 3, 4)
    for _ in range(40):
        mine = [d for d in game.decisions() if d.player == 0][0]
        if mine.prompt.startswith("where does"):
            break
        actions = mine.legal_actions()
        game.apply([a for a in actions if a.value is not None][0] if len(actions) > 1 else actions[0])
    assert mine.prompt.startswith("where does") and len(game.decisions()) == 3
    card = mine.prompt[len("where does "):-len(" go")]
    spectator = public_view(game)
    assert spectator["pending"]["prompt"] == "?" and card not in json.dumps([spectator["pending"], spectator["log"]])
    for seat in (1, 2):
        assert game.view(seat)["pending"]["prompt"] != mine.prompt
