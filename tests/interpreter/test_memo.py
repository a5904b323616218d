"""The function memo is invisible: the same actions give the same game with it and without it
(with it, state checks are not made again while nothing they read changed: without, always)."""
from __future__ import annotations

import random

import pytest

from speciation import Game, load_ruleset
from speciation.interpreter.codegen import writer as codegen

from support.ruleset_builder import load, main


class Forgetful(dict):
    """A memo that remembers nothing."""

    def __setitem__(self, key, value):
        pass


@pytest.mark.parametrize("name,players,seed", [("original", 4, 3), ("original", 6, 8), ("marine", 3, 5),
                                               ("catastrophic", 3, 2), ("catastrophic", 4, 7)])
def test_memoised_and_plain_games_never_differ(name, players, seed):
    ruleset = load_ruleset(name)
    fast, plain = Game.new(ruleset, players=players, seed=seed), None
    plain = Game.new(ruleset, players=players, seed=seed, start=False)
    plain._machine.memo, plain._machine.static_memo = Forgetful(), Forgetful()
    plain._machine.start("main")
    plain._machine.run()
    chooser = random.Random(seed)
    for _ in range(400):
        if fast.is_over:
            break
        assert [a.value for a in fast.legal_actions()] == [a.value for a in plain.legal_actions()]
        value = chooser.choice(fast.legal_actions()).value
        fast.apply(value, decision=fast.decision_id)
        plain.apply(value, decision=plain.decision_id)
        assert fast.digest() == plain.digest()


# One entity's values: a statement writing an attribute of one entity named by a plain name
# forgets, of a one-parameter function reading that attribute only of its argument, that
# entity's value alone; a check over items reading it only of its item tests that item again.
KEYED = main("""\
for p in entities(player):
    choose n from [1, 3] by p prompt "gain"
    p.vp += n
    choose m from [0, 2] by p prompt "more"
    p.vp += m
choose z from [0, 1] by entities(player)[0] prompt "end"
""", extra="""\
functions:
  double(p): p.vp * 2
  lead(p): p.vp - max([q.vp for q in entities(player)])
checks:
  - each: p in entities(player)
    if: p.vp >= 4
    effect: |
      p.vp = 0
      game.n += 1
""")


def _keyed_ruleset(tmp_path, monkeypatch, generated: bool):
    monkeypatch.setattr(codegen, "ENABLED", generated)
    return load(tmp_path, KEYED)


def test_a_write_to_one_entity_is_keyed_only_for_what_reads_that_entity_alone(tmp_path, monkeypatch):
    ruleset = _keyed_ruleset(tmp_path, monkeypatch, True)
    gains = [(name, keyed) for node_id, (name, keyed) in ruleset.compiler.keyed_writes.items()
             if ruleset.nodes[node_id].text == "aug_stmt" and ruleset.nodes[node_id].writes == {"vp"}]
    assert gains and all(name == "p" for name, _ in gains)
    for _, keyed in gains:
        assert {"double", "score", "#check0"} <= keyed and "lead" not in keyed


def test_keyed_forgetting_keeps_the_other_entities_values(tmp_path, monkeypatch):
    ruleset = _keyed_ruleset(tmp_path, monkeypatch, True)
    game = Game.new(ruleset, 2, 0)
    both = ruleset.compile_expression("[double(entities(player)[0]), double(entities(player)[1]), lead(entities(player)[0])]", ruleset.nodes[0].span)
    assert game.evaluate_expression(both) == [0, 0, 0]
    game.apply(3, decision=game.decision_id)  # p1.vp += 3
    memo = game._machine.memo
    assert "lead" not in memo and "p1" not in memo["double"] and memo["double"]["p2"] == 0
    assert memo["#check0"] is True  # p1 tested again before the next question: it does not hold
    assert game.evaluate_expression(both) == [6, 0, 0]


@pytest.mark.parametrize("generated", [True, False], ids=["generated", "closures"])
def test_checks_test_the_written_item_again_as_a_forgetful_memo_would(tmp_path, monkeypatch, generated):
    ruleset = _keyed_ruleset(tmp_path, monkeypatch, generated)
    for answers in ([3, 2, 3, 2, 0], [3, 0, 1, 2, 1], [1, 2, 3, 2, 1]):
        fast = Game.new(ruleset, 2, 0)
        plain = Game.new(ruleset, 2, 0, start=False)
        plain._machine.memo, plain._machine.static_memo = Forgetful(), Forgetful()
        plain._machine.start("main")
        plain._machine.run()
        for value in answers:
            fast.apply(value, decision=fast.decision_id)
            plain.apply(value, decision=plain.decision_id)
            assert fast.digest() == plain.digest()
        out = fast.state["ent"]
        fired = sum(1 for p in ("p1", "p2") if sum(answers[:4][2 * (p == "p2"):2 * (p == "p2") + 2]) >= 4)
        assert out["game"]["n"] == fired and fast.is_over
