"""A game played with a mod a page uploaded survives a restart of the server: the mod's text is
kept in the database by its content digest (one row however many games use it), and the
restarted server rebuilds the game with it (issue 21). Without the text, the game cannot be
rebuilt, and says so."""
from __future__ import annotations

import asyncio
import json

import pytest

from support.table_support import RunningTable, need_table_extra, recv, request

need_table_extra()
pytest.importorskip("websockets", reason="these tests talk to the table's websocket (websockets)")

from sqlalchemy import func, select  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from speciation.table.store import Store, database_url, uploads  # noqa: E402

SHORTER = ("mod: shorter\ntitle: A shorter Aquatic text\ncards:\n  aquatic:\n"
           "    text: Place up to 4 species on one tile.\n")




def serve(path) -> RunningTable:
    return RunningTable(store=Store(database_url(data=path)))


def new_game(running) -> dict:
    status, links = request(running, "/api/games", {"ruleset": "original", "players": 2, "seats": ["human", "human"],
                                                    "hotseat": False,
                                                    "uploads": [{"name": "shorter.yaml", "text": SHORTER}]})
    assert status == 200, links
    return links


def uploaded_rows(path) -> int:
    async def count():
        store = Store(database_url(data=path))
        async with store.engine.connect() as conn:
            rows = (await conn.execute(select(func.count()).select_from(uploads))).scalar()
        await store.close()
        return rows
    return asyncio.run(count())


def test_a_game_with_an_uploaded_mod_is_rebuilt_by_a_restarted_server(tmp_path):
    running = serve(tmp_path)
    try:
        links = new_game(running)
        new_game(running)   # a second game with the same mod: its text is kept once
        ident, tokens = links["game"], [i["url"].split("#t=", 1)[1] for i in links["invites"]]
        for _ in range(3):
            session = running.table.sessions[ident]
            seat = session.game.current_player
            with connect(running.url.replace("http", "ws", 1) + f"/ws/play/{ident}?token={tokens[seat]}") as socket:
                state = recv(socket)
                socket.send(json.dumps({"type": "choose", "decision": state["decision"], "index": 0}))
                recv(socket)
        digest = running.table.sessions[ident].game.digest()
        mods = list(running.table.sessions[ident].game.ruleset.mod_digests)
    finally:
        running.stop()
    assert uploaded_rows(tmp_path) == 1
    running = serve(tmp_path)   # a new process's memory: nothing but the database
    try:
        assert ident not in running.table.sessions
        with connect(running.url.replace("http", "ws", 1) + f"/ws/play/{ident}?token={tokens[0]}") as socket:
            state = recv(socket)
            session = running.table.sessions[ident]
            assert session.game.digest() == digest and list(session.game.ruleset.mod_digests) == mods
            assert session.game.ruleset.cards["aquatic"].text == "Place up to 4 species on one tile."
            assert state["seat"] == 0 and len(session.decisions) == 3
    finally:
        running.stop()


def test_without_its_uploaded_text_the_game_says_it_cannot_be_rebuilt(tmp_path):
    running = serve(tmp_path)
    try:
        ident = new_game(running)["game"]
    finally:
        running.stop()

    async def forget():
        store = Store(database_url(data=tmp_path))
        async with store.engine.begin() as conn:
            await conn.execute(uploads.delete())
        await store.close()
    asyncio.run(forget())
    running = serve(tmp_path)
    try:
        with connect(running.url.replace("http", "ws", 1) + f"/ws/play/{ident}") as socket:
            text = recv(socket, "error")["text"]
        assert "uploaded mod 'shorter.yaml'" in text and "not in the database" in text
        assert "/tmp" not in text
    finally:
        running.stop()
