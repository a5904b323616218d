"""Memory bounded by a game's size, not its length (issue 21, deliverable 8): undo keeps one
copy of the state (its anchor) and takes it on through the game's history to reach a
checkpoint; a finished or abandoned game leaves the table's memory by its eviction policy."""
from __future__ import annotations

import asyncio

import pytest

from speciation.agents.random_agent import RandomAgent
from speciation.interpreter.game import Game
from speciation.interpreter.ruleset import load_ruleset
from speciation.play import play
from speciation.undo import UndoRefused, UndoStack


def reply(game, agents, seat=0):
    while not game.is_over and game.current_player != seat:
        game.apply(agents[game.current_player].choose(game))


@pytest.mark.parametrize("every", [1, 2, 100])
def test_undo_comes_back_to_each_checkpoint_from_its_anchor_or_the_start(every):
    # no checkpoint copies the state: each is reached from the stack's one copy (the anchor),
    # or, once the anchor is past it, by replaying the history from the start
    game = Game.new(load_ruleset("original"), 3, seed=1)
    stack = UndoStack(game, [0], every=every)
    agents = {1: RandomAgent(1, 1), 2: RandomAgent(1, 2)}   # placing pawns early on: no chance drawn
    kept = []
    for _ in range(4):
        reply(game, agents)
        kept.append((game.digest(), list(game.state["log"]), game.decision_number))
        stack.push(stack.checkpoint(0))
        game.apply(game.legal_actions()[0])
    reply(game, agents)
    assert all(c.state is None for c in stack.checkpoints) and stack.anchor is not None
    for digest, log, number in reversed(kept):
        assert stack.refusal(0) is None
        stack.undo(0)
        assert (game.digest(), game.state["log"], game.decision_number) == (digest, log, number)
        assert game.current_player == 0 and stack.anchor[0] == number
    assert stack.refusal(0) == "there is no decision of yours to undo"


def test_a_checkpoint_the_history_no_longer_leads_to_is_refused():
    game = Game.new(load_ruleset("original"), 3, seed=1)
    stack = UndoStack(game, [0], every=100)   # the anchor: at the first checkpoint
    agents = {1: RandomAgent(1, 1), 2: RandomAgent(1, 2)}
    for _ in range(2):
        reply(game, agents)
        stack.push(stack.checkpoint(0))
        game.apply(game.legal_actions()[0])
    reply(game, agents)
    first = stack.checkpoints[0].number
    game._history["decisions"][first][1] = "no such option"   # the record from the anchor on, damaged
    digest = game.digest()
    with pytest.raises(UndoRefused, match="too far back"):
        stack.undo(0)
    assert game.digest() == digest and len(stack.checkpoints) == 2   # refused: nothing changed


def test_a_game_without_a_history_keeps_copies_of_its_latest_checkpoints_only():
    game = Game.new(load_ruleset("original"), 3, seed=1)
    game.state_edited()   # changed by hand: it cannot be replayed
    stack = UndoStack(game, [0], snapshots=2)
    agents = {1: RandomAgent(1, 1), 2: RandomAgent(1, 2)}
    digests = []
    for _ in range(4):
        reply(game, agents)
        digests.append(game.digest())
        stack.push(stack.checkpoint(0))
        game.apply(game.legal_actions()[0])
    reply(game, agents)
    assert [c.state is not None for c in stack.checkpoints] == [False, False, True, True] and stack.anchor is None
    for digest in reversed(digests[2:]):
        stack.undo(0)
        assert game.digest() == digest
    with pytest.raises(UndoRefused, match="too far back"):
        stack.undo(0)


def test_chance_drawn_since_is_seen_in_a_game_with_a_stream_per_source():
    # the generator of such a game is a dict the game changes in place: the checkpoint keeps its own copy
    import random
    game = Game.new(load_ruleset("original"), 2, seed=1, streams="per_source")
    stack, rng, drawn = UndoStack(game, [0, 1]), random.Random(1), 0
    while not game.is_over and drawn < 3:
        seat = game.current_player
        before = repr(game.state["rng"])
        stack.push(stack.checkpoint(seat))
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
        if repr(game.state["rng"]) != before:
            drawn += 1
            assert stack.refusal(seat).startswith("chance has been drawn since")
    assert drawn == 3


def test_a_long_game_keeps_one_copy_of_the_state_for_undo():
    from speciation.table.session import TableGame
    from speciation.undo import EVERY
    session = TableGame.new("long", "original", 3, ["human", "human", "human"], seed=5)
    pick = RandomAgent(1, 3)
    for _ in range(150):
        if session.game.is_over:
            break
        action = pick.choose(session.game)
        index = next(i for i, a in enumerate(session.game.legal_actions()) if a.value == action.value)
        assert session.choose(session.decider, session.game.decision_id, index) is None
    stack = session.undo_stack
    assert len(stack.checkpoints) >= 100 and all(c.state is None for c in stack.checkpoints)
    assert session.game.decision_number - stack.anchor[0] <= EVERY


# ---- eviction ----------------------------------------------------------------------------------

def table_with_games():
    pytest.importorskip("starlette", reason="the table needs the 'table' extra: bash scripts/setup")
    from speciation.table.app import Table
    from speciation.table.session import TableGame
    table = Table()
    clock = [0.0]
    table.eviction.clock = lambda: clock[0]
    playing = TableGame.new("playing", "original", 2, ["human", "random"], seed=1)
    finished = TableGame.new("finished", "original", 2, ["human", "random"], seed=1)
    play(finished.game, {0: RandomAgent(1, 0), 1: RandomAgent(1, 1)})
    for session in (playing, finished):
        table.sessions[session.ident] = session
        table.eviction.touch(session.ident)
    return table, clock


def test_a_finished_game_leaves_memory_after_its_idle_time_and_one_in_play_stays():
    table, clock = table_with_games()
    table.pages["finished"] = [object()]  # a page still open on it: it stays
    clock[0] = 10 * 3600.0
    assert table.eviction.sweep(table) == []
    table.pages["finished"] = []
    clock[0] += table.eviction.finished_after - 1
    assert table.eviction.sweep(table) == []
    clock[0] += 2
    assert table.eviction.sweep(table) == ["finished"]
    clock[0] += 10 ** 6   # no hook to keep it: an unfinished game is never dropped
    assert table.eviction.sweep(table) == [] and list(table.sessions) == ["playing"]


def test_an_abandoned_game_goes_to_the_hook_then_leaves_memory():
    table, clock = table_with_games()
    kept = []
    table.eviction.hook = lambda ident, session: kept.append((ident, session.game.is_over))
    clock[0] = table.eviction.abandoned_after + 1
    assert sorted(table.eviction.sweep(table)) == ["finished", "playing"]
    assert sorted(kept) == [("finished", True), ("playing", False)] and table.sessions == {}


def test_the_sweep_runs_in_the_event_loop():
    table, clock = table_with_games()
    table.eviction.interval = 0.01
    clock[0] = table.eviction.finished_after + 1

    async def run():
        table.eviction.start(table)
        await asyncio.sleep(0.1)
    asyncio.run(run())
    assert list(table.sessions) == ["playing"]


def test_a_replay_keeps_a_game_every_few_decisions_and_rebuilds_the_rest():
    from speciation.api import replay
    from speciation.table.session import KEYFRAME, Replay, TableGame
    session = TableGame.new("long", "original", 3, ["human", "random", "random"], seed=5)
    agents = [RandomAgent(1, seat) for seat in range(3)]
    for _ in range(120):
        session.game.apply(agents[session.game.current_player].choose(session.game))
    history = session.game.history
    shown = Replay.of("r", session)
    for step in (120, 3, 57, 40, 0, 119, 61):
        assert shown.game_at(step).digest() == replay(session.game.ruleset, history, stop=step).digest()
        assert shown.step == step
    assert len(shown._games) <= 120 // KEYFRAME + 1


def test_games_under_the_same_built_in_rules_share_one_ruleset():
    from speciation.table.session import TableGame
    one, two = (TableGame.new(i, "original", 2, [], seed=1) for i in "ab")
    assert one.game.ruleset is two.game.ruleset and one.game is not two.game
    other = TableGame.new("c", "original", 2, [], seed=1, variants=["random_earth"])
    assert other.game.ruleset is not one.game.ruleset and other.game.ruleset.variants
    folder = str(__import__("speciation").__path__[0] + "/../rulesets/original")   # a listed folder: loaded anew
    assert TableGame.new("d", folder, 2, [], seed=1).game.ruleset is not one.game.ruleset


def test_a_game_that_stays_idle_lets_go_of_its_shared_drawings():
    from speciation.render.shared import sharing
    from speciation.table import messages
    table, clock = table_with_games()
    session = table.sessions["playing"]
    with sharing(session.drawings):
        messages.seat_state(session.game, 0, session.seats, None)
    assert session.drawings.kept_any()
    clock[0] += table.eviction.drawings_after - 1
    table.eviction.sweep(table)
    assert session.drawings.kept_any()
    clock[0] += 2
    assert table.eviction.sweep(table) == [] and table.sessions["playing"] is session   # the game stays
    assert not session.drawings.kept_any()


def test_a_game_that_stays_idle_lets_go_of_the_views_of_its_position():
    table, clock = table_with_games()
    session = table.sessions["playing"]
    table.state_for(session, 0)
    assert session.positions[1]   # the position's copy of its entities, kept for its other pages
    clock[0] += table.eviction.drawings_after - 1
    table.eviction.sweep(table)
    assert session.positions[1]
    clock[0] += 2
    assert table.eviction.sweep(table) == [] and table.sessions["playing"] is session   # the game stays
    assert not session.positions[1]
