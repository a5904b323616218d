"""Catastrophic's Reciprocal Altruism, an offer between seats (the 'offers' section): the
offered cards are seen by the partner only -- a third seat's view is the same whichever
cards are offered; the partner's determinised copies keep them in the offerer's hand (it
knows them); a game saved mid-offer resumes; the search agents answer an offer."""
from __future__ import annotations

import random

import pytest

from speciation import Game, load_ruleset
from speciation.agents.base import SeatView
from speciation.agents.registry import make_agent
from speciation.interpreter.determinize import determinize
from speciation.interpreter.saves import from_json, to_json

OFFER = "one or two cards?"


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset("catastrophic")


@pytest.fixture(scope="module")
def at_offer(ruleset):
    """A random 3-seat game at the decision where Reciprocal Altruism's player makes an offer
    (with at least two cards to offer)."""
    for seed in range(200):
        game, rng = Game.new(ruleset, 3, seed), random.Random(seed)
        while not game.is_over:
            if OFFER in game.prompt and len(game.legal_actions()) > 3:
                return game
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])
    pytest.fail("no random game made an offer")


def _copy(game):
    return from_json(to_json(game), game.ruleset)


def test_a_third_seat_sees_the_same_whichever_cards_are_offered(at_offer):
    offerer = at_offer.current_player
    partner = [i for i in range(3) if at_offer.prompt == f"offer Player {i + 1} {OFFER}"][0]
    third = ({0, 1, 2} - {offerer, partner}).pop()
    games, offers = [], []
    for index in (0, 1):                 # two different offers of one card each
        game = _copy(at_offer)
        action = game.legal_actions()[index]
        game.apply(action)
        games.append(game)
        offers.append(action.value)
    assert offers[0] != offers[1] and all(g.current_player == partner for g in games)
    views = [g.view(third) for g in games]
    for view in views:
        view["pending"].pop("id")          # each game's own token
    assert views[0] == views[1]
    assert views[0]["pending"]["options"] == ["?"]
    mine = [g.view(partner)["pending"]["options"] for g in games]
    assert mine == [[offers[0]], [offers[1]]]        # the partner sees what it is offered


def test_the_partners_copies_keep_the_offer_in_the_offerers_hand(at_offer):
    game = _copy(at_offer)
    offerer = game.current_actor
    action = game.legal_actions()[2]
    game.apply(action)
    partner = game.current_player
    for s in range(10):
        copy = determinize(game, partner, random.Random(s))
        assert all(c in copy.state["ent"][offerer]["hand"] for c in action.value)
        copy.apply(action.value, decision=copy.decision_id)   # accepting works in every copy


@pytest.mark.parametrize("answer", ["accept", "refuse"])
def test_saved_mid_offer_resumes_identically(at_offer, answer):
    game = _copy(at_offer)
    action = game.legal_actions()[1]
    game.apply(action)
    resumed = _copy(game)
    rng_a, rng_b = random.Random(5), random.Random(5)
    for g, rng in ((game, rng_a), (resumed, rng_b)):
        g.apply(action.value if answer == "accept" else None, decision=g.decision_id)
        while not g.is_over:
            actions = g.legal_actions()
            g.apply(actions[rng.randrange(len(actions))])
    assert resumed.digest() == game.digest()


@pytest.mark.parametrize("name", ["greedy", "mcts:iterations=10"])
def test_search_agents_answer_an_offer(at_offer, name):
    game = _copy(at_offer)
    game.apply(game.legal_actions()[0])
    seat = SeatView(game, game.current_player)
    choice = make_agent(name, seed=0, seat=seat.seat).choose(seat)
    assert choice.value in [a.value for a in game.legal_actions()]
