"""Cards with copies: 'copies: n' in a card file makes n entities, each its own, with an id of
its deck's (deck#1 ... deck#N) that a new game deals out in an order drawn from its generator,
so an id never tells which card a copy is. Fixture: 84 cards from 24 card files."""
from __future__ import annotations

from collections import Counter

import pytest

from speciation import Game, RuleErrors, load_ruleset
from speciation.interpreter.saves import from_json, to_json

from support.ruleset_builder import FIXTURES, load, main

COPIES = FIXTURES / "copies"


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset(str(COPIES))


def _copies(game):
    return {i: r for i, r in game.state["ent"].items() if r["kind"] == "card"}


def test_84_cards_from_24_card_files(ruleset):
    game = Game.new(ruleset, 2, 1)
    cards = _copies(game)
    assert len(ruleset.cards) == 24 and len(cards) == 84
    assert sorted(cards) == sorted(f"traits#{i}" for i in range(1, 85)) == sorted(ruleset.copies["traits"])
    per_card = Counter(r["card"] for r in cards.values())
    assert len(per_card) == 24 and sorted(per_card.values()) == [3] * 12 + [4] * 12
    assert all(r["name"] == ruleset.cards[r["card"]].name and r["deck"] == "traits" for r in cards.values())
    assert game.evaluate_expression(ruleset.compile_expression("len(entities(card))", _span())) == 84


def _span():
    from speciation.dsl.errors import Span
    return Span("test", 1, 1)


def test_an_id_does_not_tell_which_card_it_is(ruleset):
    """Over many seeds every id holds many different cards, and each game's deal is its seed's."""
    held = {f"traits#{i}": set() for i in range(1, 85)}
    for seed in range(60):
        for ident, record in _copies(Game.new(ruleset, 2, seed)).items():
            held[ident].add(record["card"])
    assert min(len(cards) for cards in held.values()) >= 10
    assert _copies(Game.new(ruleset, 2, 5)) == _copies(Game.new(ruleset, 2, 5)) != _copies(Game.new(ruleset, 2, 6))


def test_copies_are_played_and_saved(ruleset):
    game = Game.new(ruleset, 2, 3)
    first = game.legal_actions()[0].value
    game.apply(first, decision=game.decision_id)
    resumed = [from_json(to_json(game), ruleset, verify=v) for v in (False, True)]
    for g in [game] + resumed:
        g.apply(g.legal_actions()[1].value, decision=g.decision_id)
        assert g.is_over
    assert len({g.digest() for g in [game] + resumed}) == 1
    record = game.state["ent"][first]
    assert game.state["ent"]["p1"]["vp"] == record["worth"]
    assert game.log[-2].endswith(f"played {record['card']} ({record['worth']})") or \
        any(line.endswith(f"played {record['card']} ({record['worth']})") for line in game.log)


def test_a_bad_count_is_refused_and_a_copied_card_may_have_triggers(tmp_path):
    card = ("card: Storm\ndeck: events\ntext: t\nprovenance: {confidence: unknown, sources: [x]}\n"
            "effect: pass\ncopies: N\n")
    files = main("pass", {"ping": "emit ping(1)"}, extra="decks:\n  events:\n    params: [p]\n")
    files["cards/storm.yaml"] = card.replace("N", "2") + "triggers:\n  - on: ping(x)\n    effect: pass\n"
    files["cards/calm.yaml"] = card.replace("Storm", "Calm").replace("N", "0")
    with pytest.raises(RuleErrors) as caught:
        load(tmp_path, files)
    found = sorted((e.span.path.rsplit("/", 1)[1], e.span.line, e.message.split(" (")[0]) for e in caught.value.errors)
    assert found[0][:2] == ("calm.yaml", 6) and "copies" in found[0][2]
    assert len(found) == 1  # each copy has its own triggers (tests/interpreter/test_triggers.py)
