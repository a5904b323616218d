"""The greedy and MCTS agents: they play, take options, and never read what their seat cannot see."""
from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from speciation import Game, load_ruleset
from speciation.agents import GreedyAgent, MctsAgent, RandomAgent, SeatView, make_agent, make_agents
from speciation.play import play

TOY = Path(__file__).parents[1] / "support" / "fixtures" / "toy"


def test_greedy_takes_the_most_points_on_the_toy_game():
    game = Game.new(load_ruleset(str(TOY)), 2, 0)  # each turn: take 1-3 points, or pass
    play(game, [GreedyAgent(0, 0), RandomAgent(0, 1)])
    assert game.scores[0] == 9  # 3 points in each of the 3 rounds


def test_mcts_beats_random_on_the_toy_game():
    toy = load_ruleset(str(TOY))
    for seed in range(4):
        game = Game.new(toy, 2, seed)
        play(game, [MctsAgent(seed, 0, iterations=60, cutoff=0, seconds=0), RandomAgent(seed, 1)])
        assert game.winner == 0  # it plays to win, not to take every point


def test_mcts_width_searches_only_the_best_actions_by_lookahead():
    game = Game.new(load_ruleset("original"), 3, 4)
    walker = RandomAgent(4, 9)
    while len(game.legal_actions()) < 4:
        game.apply(walker.choose(SeatView(game, game.current_player)))
    seat = SeatView(game, game.current_player)
    values = GreedyAgent(1, seat.seat)
    values.choose(seat)
    best = max(values.last_values.values())
    agent = MctsAgent(1, seat.seat, iterations=30, seconds=0, width=1)
    assert values.last_values[repr(agent.choose(seat).value)] == best  # width 1: the lookahead's pick
    agent = MctsAgent(1, seat.seat, iterations=30, seconds=0, width=2)
    agent.choose(seat)
    assert len(agent.last_visits) == 2 < len(seat.legal_actions())  # the search saw only two


def test_mcts_others_answer_as_the_lookahead_would_and_its_own_nodes_widen_slowly():
    game = Game.new(load_ruleset("original"), 4, 3)
    walker = RandomAgent(3, 9)
    for _ in range(40):
        game.apply(walker.choose(SeatView(game, game.current_player)))
    while len(game.legal_actions()) < 4:
        game.apply(walker.choose(SeatView(game, game.current_player)))
    seat = SeatView(game, game.current_player)
    agent = MctsAgent(2, seat.seat, iterations=150, seconds=0)
    agent.choose(seat)
    others = own = 0
    stack = [agent.last_root]
    while stack:
        node = stack.pop()
        stack.extend(node.children.values())
        if not node.children:
            continue
        if node.actor != seat.seat:  # another seat: only its best reply by the lookahead
            others += 1
            assert list(node.children) == [node.order[0]]
        else:  # the seat's own: at most widen x sqrt(visits) children, the best priors first
            own += 1
            assert len(node.children) <= math.ceil(math.sqrt(node.visits))
            assert set(node.children) <= set(node.order[:len(node.children) + 1])
    assert others and own
    assert sum(agent.last_visits.values()) == 149  # every iteration but the first went below the root


def test_mcts_breaks_ties_between_equal_priors_at_random():
    # Marine: placing a pawn acts at once, so the lookahead (one decision ahead: the same seat's
    # next choice within the action) values every space alike. Widening must then not favour
    # the actions whose keys sort first.
    game = Game.new(load_ruleset("marine"), 4, 5)
    walker = RandomAgent(5, 9)
    while len(game.legal_actions()) < 10:  # past the setup, to the first turn
        game.apply(walker.choose(SeatView(game, game.current_player)))
    seat = SeatView(game, game.current_player)
    orders = []
    for seed in range(3):
        agent = MctsAgent(seed, seat.seat, iterations=2, seconds=0)
        agent.choose(seat)
        root = agent.last_root
        assert len({root.priors[key][seat.seat] for key in root.order}) == 1  # all alike
        orders.append(root.order)
    assert all(order != sorted(order) for order in orders)
    assert orders[0] != orders[1] != orders[2]


def test_mcts_picks_by_how_results_compare_not_by_their_scale():
    # Far behind, every result is squashed near 0; a better action must still be preferred to a
    # less visited worse one, as it is when the same results are spread over [0, 1].
    from speciation.agents.mcts import _Node

    def pick(low: float, high: float) -> str:
        node = _Node()
        node.actor, node.visits = 0, 16
        node.priors = {"a": [high], "b": [low]}
        node.order = ["a", "b"]
        for key, visits, value in (("a", 9, high), ("b", 4, low)):
            child = node.children[key] = _Node()
            child.visits, child.totals = visits, [value * visits]
        return MctsAgent(0, 0)._select(node, {"a": 1, "b": 2}, 0)

    assert pick(0.2, 0.8) == pick(0.010, 0.011) == "a"


def test_agent_options_on_the_command_line():
    agents = make_agents("mcts:iterations=400:cutoff=10, greedy ,random,human", 4, seed=2)
    assert [type(a).__name__ for a in agents] == ["MctsAgent", "GreedyAgent", "RandomAgent", "HumanAgent"]
    assert agents[0].iterations == 400 and agents[0].cutoff == 10 and agents[0].seconds == 0.5
    assert make_agent("greedy:samples=3").samples == 3
    with pytest.raises(ValueError, match="agent 'mcts' has options iterations, cutoff, seconds, explore, width"):
        make_agent("mcts:depth=3")
    with pytest.raises(ValueError, match="not key=value"):
        make_agent("mcts:400")
    with pytest.raises(ValueError, match="unknown agent 'bot'"):
        make_agent("bot")


def _poisoned(game: Game, seat: int, seed: int) -> Game:
    """A copy whose hidden facts are scrambled: the order of hidden lists, the contents of
    secret lists and other players' private things (traded among them), and the generator."""
    poisoned = game.clone()
    state = poisoned.state
    hidden = game.ruleset.hidden
    scramble = random.Random(seed)
    me = state["players"][seat]
    pools: dict[str, list[list]] = {}
    for record in state["ent"].values():
        owner = record["id"] if record.get("kind") == "player" else record.get("player")
        for attr in sorted(hidden.order | hidden.contents):
            if isinstance(record.get(attr), list):  # (a face-up first item, shown_heads, stays)
                shown = 1 if record.get(hidden.shown_heads.get(attr)) is True else 0
                tail = hidden.tails.get(attr, 0)  # known to lie among the last N
                cut = max(shown, len(record[attr]) - tail) if tail else len(record[attr])
                for start, stop in ((shown, cut), (cut, len(record[attr]))):
                    part = record[attr][start:stop]
                    scramble.shuffle(part)
                    record[attr][start:stop] = part
        for attr in sorted(hidden.private):
            if owner != me and isinstance(record.get(attr), list):
                pools.setdefault(attr, []).append(record[attr])
    for lists in pools.values():  # trade items between other players' private lists
        items = [item for items in lists for item in items]
        scramble.shuffle(items)
        for held in lists:
            held[:], items = items[:len(held)], items[len(held):]
    state["rng"] = scramble.getrandbits(63)
    poisoned.state_edited()
    assert poisoned.view(seat) == game.view(seat)
    return poisoned


def _choices(game: Game, poisoned: list[Game], seat: int) -> list[int]:
    """How many different choices (with every value they rest on) each agent makes on the
    game and its poisoned copies."""
    counts = []
    for make, stats in ((lambda: GreedyAgent(5, seat), "last_values"),
                        (lambda: MctsAgent(5, seat, iterations=12, cutoff=40, seconds=0), "last_visits")):
        seen = set()
        for g in [game, *poisoned]:
            agent = make()
            choice = agent.choose(SeatView(g, seat))
            seen.add(repr((choice.value, sorted(getattr(agent, stats).items()))))
        counts.append(len(seen))
    return counts


# Positions where the hidden facts matter: an agent that searched the real game (a plain
# clone instead of a determinization) would choose differently on the poisoned copies.
@pytest.mark.parametrize("name,players,actions", [("original", 3, 20), ("marine", 2, 16), ("marine", 2, 101),
                                                   ("evolution", 3, 40)])
def test_choices_do_not_depend_on_hidden_facts(name, players, actions, monkeypatch):
    game = Game.new(load_ruleset(name), players, 11)
    walkers = [RandomAgent(11, s) for s in range(players)]
    for _ in range(actions):
        game.apply(walkers[game.current_player].choose(SeatView(game, game.current_player)))
    seat = game.current_player
    poisoned = [_poisoned(game, seat, s) for s in range(3)]
    assert len({p.digest() for p in poisoned}) == 3  # the hidden facts differ...
    assert _choices(game, poisoned, seat) == [1, 1]  # ...and the choices, and all they rest on, do not
    monkeypatch.setattr(SeatView, "determinize", lambda self, rng, log=True: self._game.clone())
    assert max(_choices(game, poisoned, seat)) > 1  # a cheat would be caught here
