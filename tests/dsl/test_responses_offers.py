"""Offers between seats (a rule file's 'offers' section, issue 22): seat p offers seat q
some of its things in one decision; they are revealed to q only (views, log, determinisation
as for 'reveal'); q accepts or refuses; 'offer(...)' gives the accepted list or none; a game
saved mid-offer resumes. Fixture: tests/support/fixtures/faces (cards with hidden faces)."""
from __future__ import annotations

import random
import shutil

import pytest

from speciation import Game, RuleErrors, load_ruleset
from speciation.interpreter.determinize import determinize
from speciation.interpreter.saves import from_json, to_json
from speciation.interpreter.views import public_view

from support.ruleset_builder import FIXTURES

MAIN = '''\
  main: |
    game.pile = [c for c in entities(card)]
    shuffle game.pile
    for p in entities(player):
        deal(p)
    let ps = entities(player)
    let got = offer(ps[0].hand, 1, 2, ps[0], ps[1])
    if got != none:
        for c in got:
            remove(ps[0].hand, c)
            append(ps[1].hand, c)
        log("{} takes {} cards", ps[1], len(got))
    else:
        log("no exchange")
offers:
  answer: 'format("{} offers you cards: take them?", p)'
'''


def _ruleset(root, main=MAIN):
    folder = root / "offers"
    shutil.copytree(FIXTURES / "faces", folder)
    rules = (folder / "rules.yaml").read_text()
    (folder / "rules.yaml").write_text(rules[:rules.index("  main: |")] + main)
    return load_ruleset(str(folder))


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory):
    return _ruleset(tmp_path_factory.mktemp("offers"))


def _offered(ruleset, seed=1, pick=3):
    """A 3-seat game in which seat 0 has offered seat 1 two cards (the *pick*-th subset)."""
    game = Game.new(ruleset, 3, seed)
    assert game.current_player == 0 and game.prompt == "make Player 2 an offer?"
    action = game.legal_actions()[pick]
    game.apply(action)
    return game, action.value


def _face(view, card):
    return tuple(view["ent"][card][a] for a in ("main", "short", "name", "card"))


def test_the_offer_is_one_subset_decision_then_the_partners_accept_or_refuse(ruleset):
    game = Game.new(ruleset, 3, 1)
    hand = game.state["ent"]["p1"]["hand"]
    values = [a.value for a in game.legal_actions()]
    assert values[:-1] == [[c] for c in hand] + [[a, b] for i, a in enumerate(hand) for b in hand[i + 1:]]
    assert values[-1] is None                                  # p may make no offer
    game, offered = _offered(ruleset)
    assert game.current_player == 1 and game.prompt == "Player 1 offers you cards: take them?"
    assert [a.value for a in game.legal_actions()] == [offered, None]
    game.apply(offered, decision=game.decision_id)
    assert game.is_over and all(c in game.state["ent"]["p2"]["hand"] for c in offered)
    refused, offered = _offered(ruleset)
    refused.apply(None, decision=refused.decision_id)
    assert refused.log[-1] == "no exchange" and all(c in refused.state["ent"]["p1"]["hand"] for c in offered)


def test_the_offered_cards_are_seen_by_the_partner_only(ruleset):
    game, offered = _offered(ruleset)
    real = {c: _face(game.view(0), c) for c in offered}
    assert all("?" not in face for face in real.values())
    for c in offered:
        assert _face(game.view(1), c) == real[c]              # the partner sees them
        assert _face(game.view(2), c) == ("?",) * 4           # a third seat does not
        assert _face(public_view(game), c) == ("?",) * 4      # nor a spectator
    third = game.view(2)
    assert third["pending"]["options"] == ["?"]              # not even how many cards
    names = {real[c][2] for c in offered}
    others_lines = " ".join(third["log"][-3:]) + " ".join(public_view(game)["log"][-3:])
    assert not any(name in others_lines for name in names)
    for seat in (1, 2):                                       # the offer's line is the offerer's
        assert not any("make Player 2 an offer? →" in line for line in game.view(seat)["log"])
    assert any("make Player 2 an offer? →" in line for line in game.view(0)["log"])


def test_determinisation_keeps_the_offer_for_the_partner_and_deals_it_anew_for_a_third_seat(ruleset):
    game, offered = _offered(ruleset)
    faces = {c: _face(game.state, c) for c in offered}
    changed = False
    for s in range(8):
        for_partner = determinize(game, 1, random.Random(s))
        assert {c: _face(for_partner.state, c) for c in offered} == faces
        assert [a.value for a in for_partner.legal_actions()] == [offered, None]
        for_third = determinize(game, 2, random.Random(s))
        assert for_third.view(2)["ent"] == game.view(2)["ent"]
        changed |= {c: _face(for_third.state, c) for c in offered} != faces
    assert changed                                           # the third seat's copies guess


@pytest.mark.parametrize("answer", ["accept", "refuse"])
def test_a_game_saved_mid_offer_resumes_identically(ruleset, answer):
    game, offered = _offered(ruleset)
    resumed = from_json(to_json(game), ruleset)
    assert resumed.current_player == 1 and [a.value for a in resumed.legal_actions()] == [offered, None]
    for g in (game, resumed):
        g.apply(offered if answer == "accept" else None, decision=g.decision_id)
    assert resumed.digest() == game.digest() and resumed.is_over


def test_offer_clashes_with_a_macro_of_the_same_name(tmp_path):
    with pytest.raises(RuleErrors, match="macro 'offer' is defined twice"):
        _ruleset(tmp_path, MAIN.replace("offers:", "  offer(a, b, c, d, e): |\n    pass\noffers:"))
