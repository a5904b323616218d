"""Games in a database (issue 21, deliverable 3): every game's record committed before a
move is acknowledged; a restarted server resumes each unfinished game from its record
(replaying its decisions from the seed) and its invite links keep working; undo removes
decisions; a finished game leaves memory and comes back on demand; the lobby lists open
games with free seats, joins one, and tells a browser which of its games wait for it.
SQLite (the default); PostgreSQL is in test_table_postgres.py."""
from __future__ import annotations

import asyncio
import json

import pytest

from support.table_support import RunningTable, need_table_extra, recv, request

need_table_extra()
pytest.importorskip("sqlalchemy", reason="the table's database needs the 'table' extra (sqlalchemy): bash scripts/setup")

from websockets.sync.client import connect  # noqa: E402

from speciation.table.persist import record_of, restore  # noqa: E402
from speciation.table.session import TableGame  # noqa: E402
from speciation.table.store import Conflict, Store, database_url  # noqa: E402




def token_of(url: str) -> str:
    return url.split("#t=", 1)[1]


def ws(running, ident, token=None):
    query = f"?token={token}" if token else ""
    return connect(running.url.replace("http", "ws", 1) + f"/ws/play/{ident}{query}")


def serve(path) -> RunningTable:
    return RunningTable(store=Store(database_url(data=path)))


# ---- the store itself ------------------------------------------------------------------------

def test_a_record_round_trips_and_a_stale_version_is_refused(tmp_path):
    session = TableGame.new("g1", "original", 2, ["human", "greedy"], seed=5)
    session.origin = "original"
    for _ in range(6):
        session._apply(session.game.current_player, session.game.legal_actions()[0])

    async def scenario():
        store = Store(database_url(data=tmp_path))
        await store.open()
        record = record_of(session)
        assert await store.save(record) == 1
        loaded = await store.load("g1")
        assert loaded is not None and loaded.decisions == record.decisions and loaded.seed == 5
        assert loaded.seating["kinds"] == ["human", "greedy"] and loaded.finished is False
        stale = record_of(session)
        stale.version = 0 + 1
        record.decisions = record.decisions[:2]                 # an undo: rows past 2 go
        await store.save(record)
        with pytest.raises(Conflict):                           # another process wrote version 2 first
            await store.save(stale)
        store.forget("g1")
        assert len((await store.load("g1")).decisions) == 2
        assert await store.unfinished() == ["g1"]
        await store.close()
        return loaded

    loaded = asyncio.run(scenario())
    again = restore(loaded, lambda name: name, lambda name: name)
    assert again.game.digest() == session.game.digest() and again.seats == ["human", "greedy"]
    assert again.seating.to_dict() == session.seating.to_dict()


def test_the_data_folder_is_created_on_first_run(tmp_path):
    url = database_url(data=tmp_path / "new" / "folder")
    assert (tmp_path / "new" / "folder").is_dir() and url.startswith("sqlite+aiosqlite:///")
    assert database_url(database="postgresql://u@h/db").startswith("postgresql+psycopg://")


# ---- a server restarted mid-game ---------------------------------------------------------------

def test_a_restarted_server_resumes_the_game_and_its_invite_links_work(tmp_path):
    running = serve(tmp_path)
    try:
        status, links = request(running, "/api/games", {"ruleset": "marine", "players": 2,
                                                        "seats": ["human", "human"], "hotseat": False})
        assert status == 200, links
        ident, tokens = links["game"], [token_of(i["url"]) for i in links["invites"]]
        for _ in range(4):
            session = running.table.sessions[ident]
            seat = session.game.current_player
            with ws(running, ident, tokens[seat]) as socket:
                state = recv(socket)
                socket.send(json.dumps({"type": "choose", "decision": state["decision"], "index": 0}))
                recv(socket)   # acknowledged: the record was committed before this
        digest = running.table.sessions[ident].game.digest()
        decided = len(running.table.sessions[ident].decisions)
    finally:
        running.stop()
    running = serve(tmp_path)            # a new process's memory: nothing but the database
    try:
        assert ident not in running.table.sessions
        seat = None
        with ws(running, ident, tokens[0]) as socket:
            state = recv(socket)
            session = running.table.sessions[ident]
            assert session.game.digest() == digest and len(session.decisions) == decided
            assert state["seat"] == 0 and "no longer valid" not in json.dumps(state)
            seat = session.game.current_player
        with ws(running, ident, tokens[seat]) as socket:
            state = recv(socket)
            socket.send(json.dumps({"type": "choose", "decision": state["decision"], "index": 0}))
            after = recv(socket)
            assert after["decision"] != state["decision"]
    finally:
        running.stop()


def test_a_game_leaves_memory_and_comes_back(tmp_path):
    running = serve(tmp_path)
    try:
        status, links = request(running, "/api/games", {"ruleset": "original", "players": 2,
                                                        "seats": ["human", "human"], "hotseat": False})
        ident = links["game"]
        digest = running.table.sessions[ident].game.digest()
        running.table.evict(ident)
        assert ident not in running.table.sessions
        with ws(running, ident, token_of(links["invites"][0]["url"])) as socket:
            assert recv(socket)["seat"] == 0
        assert running.table.sessions[ident].game.digest() == digest
    finally:
        running.stop()


def test_an_abandoned_game_leaves_memory_by_the_eviction_policy_and_comes_back(tmp_path):
    """With a database the eviction policy may drop an unfinished game nobody looks at: its
    record keeps it (issue 21: memory bounded; the game survives in the database)."""
    running = serve(tmp_path)
    try:
        status, links = request(running, "/api/games", {"ruleset": "original", "players": 2,
                                                        "seats": ["human", "human"], "hotseat": False})
        ident = links["game"]
        digest = running.table.sessions[ident].game.digest()
        assert running.table.eviction.hook is not None
        eviction = running.table.eviction
        eviction.touch(ident)
        dropped = eviction.sweep(running.table, now=eviction.clock() + eviction.abandoned_after + 1)
        assert ident in dropped and ident not in running.table.sessions
        with ws(running, ident, token_of(links["invites"][0]["url"])) as socket:
            assert recv(socket)["seat"] == 0
        assert running.table.sessions[ident].game.digest() == digest
    finally:
        running.stop()


# ---- the lobby ---------------------------------------------------------------------------------

def test_the_lobby_lists_open_games_joins_and_says_whose_turn(tmp_path):
    running = serve(tmp_path)
    try:
        status, links = request(running, "/api/games", {"ruleset": "original", "players": 2,
                                                        "seats": ["human", "human"], "listed": True})
        assert status == 200, links
        ident = links["game"]
        mine = token_of(links["invites"][0]["url"])
        with ws(running, ident, mine) as socket:           # the creator takes seat 1
            recv(socket)
        status, lobby = request(running, "/api/lobby")
        listed = [g for g in lobby["games"] if g["game"] == ident]
        assert len(listed) == 1 and [s["free"] for s in listed[0]["seats"]] == [False, True]
        assert "seed" not in json.dumps(lobby) and mine not in json.dumps(lobby)
        status, joined = request(running, f"/api/games/{ident}/join", {})
        assert status == 200 and joined["seat"] == 1
        status, lobby = request(running, "/api/lobby")
        assert ident not in [g["game"] for g in lobby["games"]]          # no free seat left
        status, again = request(running, f"/api/games/{ident}/join", {})
        assert status == 409
        theirs = token_of(joined["url"])
        turn = running.table.sessions[ident].game.current_player
        status, answer = request(running, "/api/mine", {"games": [{"game": ident, "token": mine},
                                                                  {"game": "nope", "token": "x"}]})
        assert [g["game"] for g in answer["games"]] == [ident]
        assert answer["games"][0]["mine"] == [0] and answer["games"][0]["yours"] == (turn == 0)
        status, answer = request(running, "/api/mine", {"games": [{"game": ident, "token": theirs}]})
        assert answer["games"][0]["yours"] == (turn == 1)
        status, answer = request(running, "/api/mine", {"games": [{"game": ident, "token": "forged"}]})
        assert answer["games"] == []
    finally:
        running.stop()


def test_a_game_of_a_folder_ruleset_needs_the_folder_offered_again(tmp_path):
    from pathlib import Path

    folder = str(Path(__file__).resolve().parents[2] / "rulesets" / "original")
    running = RunningTable(store=Store(database_url(data=tmp_path)), rulesets={"mine": folder})
    try:
        status, links = request(running, "/api/games", {"ruleset": "mine", "players": 2,
                                                        "seats": ["human", "human"], "hotseat": False})
        assert status == 200, links
        ident, token = links["game"], token_of(links["invites"][0]["url"])
    finally:
        running.stop()
    running = serve(tmp_path)        # started without --ruleset: the game cannot be rebuilt, and the page is told
    try:
        with ws(running, ident, token) as socket:
            error = recv(socket, "error")
            assert "no ruleset named 'mine'" in error["text"] and folder not in error["text"]
    finally:
        running.stop()
    running = RunningTable(store=Store(database_url(data=tmp_path)), rulesets={"mine": folder})
    try:
        with ws(running, ident, token) as socket:
            assert recv(socket)["seat"] == 0
    finally:
        running.stop()


def test_an_undo_is_kept_too(tmp_path):
    running = serve(tmp_path)
    try:
        status, links = request(running, "/api/games", {"ruleset": "original", "players": 2,
                                                        "seats": ["human", "random"], "seed": 3, "hotseat": False})
        ident, token = links["game"], token_of(links["invites"][0]["url"])
        running.table.agent_delay = 0
        with ws(running, ident, token) as socket:
            state = recv(socket)
            while not state["yours"]:
                state = recv(socket)
            socket.send(json.dumps({"type": "choose", "decision": state["decision"], "index": 0}))
            state = recv(socket)
            while not state["can_undo"]:
                state = recv(socket)
            made = len(running.table.sessions[ident].decisions)
            socket.send(json.dumps({"type": "undo"}))
            state = recv(socket)
        kept = list(running.table.sessions[ident].decisions)
        assert len(kept) < made
        digest = running.table.sessions[ident].game.digest()
    finally:
        running.stop()
    running = serve(tmp_path)
    try:
        with ws(running, ident, token) as socket:
            recv(socket)
        assert running.table.sessions[ident].decisions == kept
        assert running.table.sessions[ident].game.digest() == digest
    finally:
        running.stop()
