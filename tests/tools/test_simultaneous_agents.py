"""Simultaneous decisions in the tools: agents answer their own seat's decision, the play
loop and the terminal go through every seat's, and a seat's record shows nothing of
another's commitment (issue 22, deliverable 1 "Simultaneous decisions")."""
from __future__ import annotations

import io
import sys

from speciation import Game, load_ruleset
from speciation.agents import make_agent
from speciation.agents.base import seat_views
from speciation.api import seat_record
from speciation.cli import main
from speciation.play import play

from support.ruleset_builder import load, main as rules

BASE = """\
kinds:
  player:
    attributes: {vp: 0, hand: [], committed: []}
  game:
    attributes: {pile: [ace, bell, cone, drum, wolf, fern, gold, harp, iris, jade], shown: []}
symbols:
  cards: [ace, bell, cone, drum, wolf, fern, gold, harp, iris, jade]
tables:
  worth: {ace: 1, bell: 2, cone: 3, drum: 4, wolf: 5, fern: 6, gold: 7, harp: 8, iris: 9, jade: 10}
hidden:
  contents: [pile]
  private: [hand, committed]
  groups: [[pile, hand, committed]]
functions:
  score(p): p.vp
"""

BODY = """\
for p in entities(player):
    repeat 3:
        draw c from game.pile
        append(p.hand, c)
repeat 2:
    simultaneously for p in entities(player):
        choose c from p.hand by p prompt "commit a card" privately
        remove(p.hand, c)
        append(p.committed, c)
    for p in entities(player):
        p.vp += worth[p.committed[0]]
        game.shown = game.shown + p.committed
        p.committed = []
"""


def _ruleset(tmp_path):
    return load(tmp_path, {"base.yaml": BASE, **rules(BODY)})


def test_each_seat_view_offers_its_own_decision(tmp_path):
    game = Game.new(_ruleset(tmp_path), 3, seed=1)
    views = seat_views(game)
    assert [v.my_turn for v in views] == [True, True, True] and views[2].deciding == [0, 1, 2]
    for view, decision in zip(views, game.decisions()):
        assert view.decision_id == decision.id and view.prompt == "commit a card"
        assert view.actor == decision.actor
        assert [a.value for a in view.legal_actions()] == [a.value for a in decision.legal_actions()]
    game.apply(views[1].legal_actions()[0])
    assert not views[1].my_turn and views[1].legal_actions() == [] and views[1].decision_id is None


def test_every_agent_answers_its_own_seat_first(tmp_path):
    ruleset = _ruleset(tmp_path)
    for name in ("random", "greedy", "mcts:iterations=30:seconds=0.5"):
        game = Game.new(ruleset, 3, seed=2)
        agent = make_agent(name, seed=1, seat=2)
        action = agent.choose(seat_views(game)[2])
        assert action.decision == game.decisions()[2].id, name
        game.apply(action)
        assert [d.player for d in game.decisions()] == [0, 1], name  # seat 2's part has ended


def test_the_play_loop_plays_games_through_every_seats_decisions(tmp_path):
    ruleset = _ruleset(tmp_path)
    for names in (["random"] * 3, ["greedy", "random", "mcts:iterations=20:seconds=0.2"]):
        game = Game.new(ruleset, 3, seed=3)
        agents = [make_agent(n, seed=3, seat=i) for i, n in enumerate(names)]
        outcome = play(game, agents, max_actions=100)
        assert outcome.completed and game.is_over and outcome.actions == 6
        assert sorted(game.state["ent"]["game"]["shown"]) == sorted(
            c for c in game.history["decisions"] for c in [c[1]])


def test_a_seat_record_shows_nothing_of_another_seats_commitment(tmp_path):
    game = Game.new(_ruleset(tmp_path), 2, seed=4)
    theirs = game.decisions()[1]
    card = theirs.legal_actions()[0].value
    game.apply(theirs.legal_actions()[0])
    for seat in (0, None):
        record = repr(seat_record(game, seat))
        assert card not in record and "'deciding': [0]" in record  # seat 1's part has ended
    assert card in repr(seat_record(game, 1))


def test_two_people_at_one_terminal_each_answer_with_a_hand_over(capsys, monkeypatch):
    """Catastrophic's simultaneous setup at the terminal: Player 1 lays its community down,
    the terminal is handed over, then Player 2 (who never sees Player 1's lines)."""
    answers = ["", "1"] + ["1"] * 10 + ["q"] * 5
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(a + "\n" for a in answers)))
    assert main(["play", "catastrophic", "--agents", "human,human", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    first, _, second = out.partition("Pass the terminal to Player 2")
    assert "Player 1: your first plant species" in first and "Player 2: your first plant" not in first
    assert "Player 2: your first plant species" in second or "Player 2: lay down" in second
    assert "Player 1 starts a new species" not in second and "Player 1 adds" not in second


def test_catastrophic_games_complete_with_the_simultaneous_setup():
    ruleset = load_ruleset("catastrophic")
    for players in (2, 4):
        game = Game.new(ruleset, players, seed=players)
        outcome = play(game, [make_agent("random", seed=1, seat=i) for i in range(players)], max_actions=5000)
        assert outcome.completed and game.is_over
        assert any("lays down" in line for line in game.log)
