"""Holding priority off as the agents' choice (docs/agents.md): greedy and mcts hold off when
the window offers only the pass and the hold (nothing to answer with), and search otherwise;
random treats the hold as one option. In Catastrophic games they finish, and hold off."""
from __future__ import annotations

import pytest

from speciation import Game, load_ruleset
from speciation.agents.base import SeatView
from speciation.agents.holding import hold_off
from speciation.agents.registry import make_agent


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset("catastrophic")


def _to_window(ruleset, seed, answerable):
    """A Catastrophic game at a window question whose asked seat has (or has not) a card to answer with."""
    game = Game.new(ruleset, 3, seed)
    option = ruleset.constants["responses_hold_option"]
    while not game.is_over:
        values = [a.value for a in game.legal_actions()]
        if option in values and (len(values) > 2) == answerable:
            return game
        game.apply(None if None in values and option in values else game.legal_actions()[0].value,
                   decision=game.decision_id)
    pytest.skip("no such window")


@pytest.mark.parametrize("name", ["greedy", "mcts:iterations=20:seconds=0"])
def test_search_agents_hold_off_with_nothing_to_answer_with(ruleset, name):
    game = _to_window(ruleset, 1, answerable=False)
    seat = SeatView(game, game.current_player)
    assert make_agent(name, seed=0, seat=seat.seat).choose(seat).value == "hold priority off"


@pytest.mark.parametrize("name", ["greedy", "mcts:iterations=20:seconds=0"])
def test_search_agents_search_when_they_could_answer(ruleset, name):
    game = _to_window(ruleset, 1, answerable=True)
    seat = SeatView(game, game.current_player)
    assert hold_off(ruleset, seat.legal_actions()) is None
    agent = make_agent(name, seed=0, seat=seat.seat)
    agent.choose(seat)
    searched = agent.last_values if name == "greedy" else agent.last_visits
    assert len(searched) == len(seat.legal_actions())   # every option was weighed


def test_hold_off_only_with_the_pass_and_the_hold(ruleset):
    game = _to_window(ruleset, 1, answerable=False)
    actions = game.legal_actions()
    assert hold_off(ruleset, actions).value == "hold priority off"
    assert hold_off(load_ruleset("original"), actions) is None   # no hold in the ruleset
