"""Pairs that correspond for search agents too (issue 23): in a game with per-source streams, a
seat's determinization deals each hidden group by keys of its own (one card more in a deck
leaves the others' order and every other group alone), and the greedy agent draws from a
generator of its own per decision; the default (one stream) is unchanged."""
from __future__ import annotations

import random
from pathlib import Path

from speciation import Game, load_ruleset
from speciation.agents import SeatView
from speciation.agents.greedy import GreedyAgent
from speciation.interpreter import rng
from speciation.interpreter.determinize import determinize

RUMOUR = str(Path(__file__).parents[2] / "benchmarks" / "mods" / "rumour")  # one Dominance card more


def _deck(game: Game, seat: int, seed: int) -> list:
    copy = determinize(game, seat, random.Random(seed), log=False)
    return copy.state["ent"]["game"]["deck"]


def test_a_keyed_order_keeps_the_others_in_order_when_one_item_is_added():
    items = [f"card{i}" for i in range(20)]
    for key in range(50):
        plain, more = list(items), items + ["rumour"]
        rng.keyed_order(f"k{key}", plain)
        rng.keyed_order(f"k{key}", more)
        assert [item for item in more if item != "rumour"] == plain
    orders = set()
    for key in range(50):
        shuffled = list(items)
        rng.keyed_order(f"k{key}", shuffled)
        orders.add(tuple(shuffled))
    assert len(orders) == 50  # a real shuffle: every key its own order


def test_with_per_source_streams_one_card_more_in_the_deck_moves_only_that_card():
    plain_rules, mod_rules = load_ruleset("original"), load_ruleset("original", mods=[RUMOUR])
    for seed in range(6):
        plain = Game.new(plain_rules, 4, seed, streams="per_source")
        modded = Game.new(mod_rules, 4, seed, streams="per_source")
        assert "rumour" in modded.state["ent"]["game"]["deck"] + modded.state["ent"]["game"]["slots"]
        deck, deck_more = _deck(plain, 1, seed), _deck(modded, 1, seed)
        common = (set(deck) & set(deck_more)) - {"rumour"}  # (setup may have dealt other cards face up)
        assert len(common) >= len(deck) - 3
        assert [card for card in deck_more if card in common] == [card for card in deck if card in common]
        assert determinize(plain, 1, random.Random(seed)).state["rng"]["scheme"] == "per_source"


def test_with_one_stream_the_determinization_draws_as_before():
    # digests of determinizations made before per-source dealing existed (the same draws in turn;
    # Catastrophic's from the merged rules with simultaneous setup and holds, by the code before).
    # Evolution's and Catastrophic's rule data changed since ('Glaciers (no traits)', game.played):
    # today's code on the rule files of bc76844 still gives d0c55f66efa8ac93 and 6ca84f2494f7d790.
    # Catastrophic's game pauses here inside a response window, whose generated statements changed
    # (the two-block pass): its frames' node ids moved, so its digest did (e952818c0d11fb94 before);
    # every other part of the determinized state is what it was (the same draws).
    before = {"original": "8db54d2f8f0e56fb", "marine": "b4ece636bc905170", "evolution": "6e71de3d5dd5b116",
              "catastrophic": "62f167cfc9ade849"}
    for name, players in (("original", 4), ("marine", 4), ("evolution", 4), ("catastrophic", 2)):
        game = Game.new(load_ruleset(name), players, 2)
        moves = random.Random(2)
        for _ in range(30):
            actions = game.legal_actions()
            game.apply(actions[moves.randrange(len(actions))])
        copy = determinize(game, 1, random.Random(7), log=False)
        assert isinstance(copy.state["rng"], int) and copy.digest()[:16] == before[name], name


def test_greedy_draws_per_decision_only_with_per_source_streams():
    ruleset = load_ruleset("original")
    keyed = Game.new(ruleset, 4, 3, streams="per_source")
    seat = SeatView(keyed, keyed.current_player)
    first, second = GreedyAgent(seed=1, seat=seat.seat), GreedyAgent(seed=1, seat=seat.seat)
    second.rng.random()  # its own generator drawn from before: per-decision draws do not see it
    assert first.choose(seat).value == second.choose(seat).value
    assert first.last_values == second.last_values
    plain = Game.new(ruleset, 4, 3)
    view = SeatView(plain, plain.current_player)
    agent = GreedyAgent(seed=1, seat=view.seat)
    state = agent.rng.getstate()
    agent.choose(view)
    assert agent.rng.getstate() != state  # one stream: the agent's generator is drawn in turn
