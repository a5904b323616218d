"""Agents' decisions computed in a worker process (speciation/table/thinker.py): a
game played with the worker ends as the same game played without it (the same choices, the
agents' generators drawn alike); the worker is sent what the seat may believe, the same
whatever lies where the seat cannot see; the agents think here where the worker cannot."""
from __future__ import annotations

import marshal
import os
import random
import signal

import pytest

from speciation.agents.base import SeatView
from speciation.agents.greedy import GreedyAgent
from speciation.agents.mcts import MctsAgent
from speciation.table.app import Table
from speciation.table.drawer import Drawer
from speciation.table.session import TableGame
from speciation.table.thinker import Thinker, _think, resampled_alike
from support.workers import ready


@pytest.fixture(scope="module")
def drawer():
    made = Drawer(1)
    yield made
    made.close()


def played(session: TableGame, thinker: Thinker | None, seed: int, decisions: int) -> TableGame:
    """*session* played to its *decisions*-th decision: the people pick seeded random options,
    the agents step as the table steps them."""
    pick = random.Random(seed)
    while not session.game.is_over and session.game.decision_number < decisions:
        if session.agent_to_move():
            assert session.agent_step(thinker)
        else:
            decision = session.game.decisions()[0]
            assert session.choose(decision.player, decision.id, pick.randrange(len(decision.legal_actions()))) is None
    return session


@pytest.mark.parametrize("ruleset, seats, decisions", [
    ("original", ["human", "greedy", "mcts"], 70),
    ("marine", ["greedy", "human", "mcts"], 90),      # secret traits: hands that trade with the pool
    ("evolution", ["greedy", "mcts"], 90),            # hands and bodies dealt from the deck
])
def test_a_game_played_with_the_worker_thinking_ends_as_without_it(drawer, ruleset, seats, decisions):
    games = []
    for thinker in (None, Thinker(drawer)):
        session = TableGame.new(ruleset, ruleset, len(seats), seats, seed=7)
        for seat, kind in enumerate(seats):
            if kind == "mcts":   # a fixed budget: no clock in its choices
                session.agents[seat] = MctsAgent(7, seat, iterations=12, seconds=0)
        if thinker is not None:
            ready(drawer, session)
        games.append((played(session, thinker, 7, decisions), thinker))
    (here, _), (there, thinker) = games
    assert there.game.decision_number == here.game.decision_number
    assert there.game.digest() == here.game.digest()
    assert there.game.history == here.game.history   # every decision, the agents' too
    for seat, agent in here.agents.items():   # the agents' generators drawn as far, their last search alike
        assert there.agents[seat].rng.getstate() == agent.rng.getstate()
        stats = "last_values" if isinstance(agent, GreedyAgent) else "last_visits"
        assert getattr(there.agents[seat], stats) == getattr(agent, stats)
    assert thinker.thought > 10 and thinker.redone == 0   # the worker made the choices


@pytest.mark.parametrize("ruleset, players", [("original", 3), ("marine", 3), ("evolution", 2)])
def test_the_worker_is_sent_what_the_seat_may_believe_whatever_lies_where_it_cannot_see(ruleset, players):
    session = played(TableGame.new(ruleset, ruleset, players, ["human"] * players, seed=3), None, 3, 25)
    seat = session.game.current_player
    session.seating.to_agent(seat, "greedy")
    session.agents[seat] = GreedyAgent(3, seat)

    class Recorder:
        def __init__(self):
            self.sent: list[tuple] = []

        def ready(self, recipe, digest):
            return True

        def submit(self, function, *args):
            self.sent.append(args)
            return None

    # the same position as the seat sees it, with what it cannot see dealt otherwise
    other = TableGame(session.ident, SeatView(session.game, seat).determinize(random.Random(99)), session.seating)
    other.recipe, other.agents = session.recipe, session.agents
    assert other.game.view(seat) == session.game.view(seat)
    assert other.game.digest() != session.game.digest()   # (the test means something: hidden things differ)
    recorder = Recorder()
    for each in (session, other):
        Thinker(recorder).ask(each, seat)
    assert len(recorder.sent) == 2
    (recipe, digest, state, lang, number, asked, agent), second = recorder.sent
    believed = marshal.loads(state)
    assert second[:2] == (recipe, digest) and marshal.loads(second[2]) == believed and asked == seat == second[5]
    assert believed["log"] == [] and "history" not in believed
    # the worker's answer is the seat's agent's choice in the game itself
    index, shown, after = _think(recipe, digest, state, lang, number, seat, GreedyAgent(3, seat))
    choice = GreedyAgent(3, seat).choose(SeatView(session.game, seat))
    assert shown == repr(choice.value) == repr(SeatView(session.game, seat).legal_actions()[index].value)


def test_games_the_worker_cannot_think_for_are_thought_here(drawer, monkeypatch):
    thinker = Thinker(drawer)
    # a face-down species' faces trade places as wholes: the result depends on where they lay
    catastrophic = TableGame.new("c", "catastrophic", 2, ["greedy", "greedy"], seed=1)
    assert not resampled_alike(catastrophic.game.ruleset)
    assert all(resampled_alike(TableGame.new(n, n, 3, ["human"] * 3, seed=1).game.ruleset)
               for n in ("original", "marine"))
    assert thinker.ask(catastrophic, catastrophic.game.current_player) is None
    random_seats = TableGame.new("r", "original", 3, ["random"] * 3, seed=1)   # cheaper here than sent
    assert thinker.ask(random_seats, random_seats.game.current_player) is None
    modded = TableGame.new("m", "original", 3, ["greedy"] * 3, seed=1)
    modded.recipe = None   # as a game with mods, from a folder or a save
    assert thinker.ask(modded, modded.game.current_player) is None
    before = thinker.thought
    assert played(catastrophic, thinker, 1, 20).game.decision_number == 20 and thinker.thought == before


def test_a_worker_that_dies_leaves_the_agents_to_the_server():
    drawer = Drawer(1)
    try:
        session = TableGame.new("killed", "original", 3, ["human", "greedy", "greedy"], seed=4)
        table = Table(agent_delay=0.0, thinking=drawer)
        ready(drawer, session)
        for process in list(drawer.pool._processes.values()):
            os.kill(process.pid, signal.SIGKILL)
            process.join(10)
        alone = played(TableGame.new("alone", "original", 3, ["human", "greedy", "greedy"], seed=4), None, 4, 40)
        played(session, table.thinker, 4, 40)
        assert drawer.failed and session.game.digest() == alone.game.digest()
        assert Table(agent_delay=0.0, drawer=drawer).thinker is None   # the drawing worker is not the agents'
        apart = Drawer(1)   # a worker of their own for the agents (made when first needed)
        assert Table(agent_delay=0.0, drawer=drawer, thinking=apart).thinker.drawer is apart
        assert Table(agent_delay=0.0).thinker is None
    finally:
        drawer.close()
