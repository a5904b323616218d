"""Several server processes on one PostgreSQL database (issue 21, deliverable 4): two real
``speciation serve`` processes share a game; a move made through one reaches the page
connected to the other (LISTEN/NOTIFY), and a stale move is refused, not applied twice.
Starts a real PostgreSQL (tests/support/postgres.py) and skips, saying why, where none can run."""
from __future__ import annotations

import json
import time

import pytest

from support.postgres import Serve, running_postgres
from support.table_support import need_table_extra

need_table_extra()
pytest.importorskip("psycopg", reason="PostgreSQL needs the 'table' extra (psycopg): bash scripts/setup")

from websockets.sync.client import connect  # noqa: E402


class Server(Serve):
    """A server process whose pages are websocket clients."""

    def page(self, ident: str, token: str):
        return connect(self.url.replace("http", "ws", 1) + f"/ws/play/{ident}?token={token}")


def number(message: dict) -> str:
    """The decision's number (each process has its own game object, whose ids carry its own
    prefix: a page answers the ids of the server it is connected to)."""
    return message["decision"].rsplit("/", 1)[1]


def state(socket, timeout=30) -> dict:
    while True:
        message = json.loads(socket.recv(timeout=timeout))
        if message["type"] == "state":
            return message


@pytest.fixture(scope="module")
def database():
    with running_postgres() as url:
        yield url


def test_two_server_processes_serve_one_game_to_two_pages(database):
    one, two = Server(database), Server(database)
    try:
        links = one.post("/api/games", {"ruleset": "marine", "players": 2, "seats": ["human", "human"],
                                        "hotseat": False})
        ident = links["game"]
        tokens = [i["url"].split("#t=", 1)[1] for i in links["invites"]]
        with one.page(ident, tokens[0]) as first, two.page(ident, tokens[1]) as second:
            pages = [first, second]
            shown = [state(first), state(second)]
            assert number(shown[0]) == number(shown[1])
            for _ in range(6):
                mover = 0 if shown[0]["yours"] else 1
                assert shown[mover]["yours"] and not shown[1 - mover]["yours"]
                before = shown[mover]["decision"]
                pages[mover].send(json.dumps({"type": "choose", "decision": before, "index": 0}))
                shown[mover] = state(pages[mover])
                while int(number(shown[mover])) <= int(before.rsplit("/", 1)[1]):  # (a page may hear of a
                    shown[mover] = state(pages[mover])                              # seat claimed, too)
                other = state(pages[1 - mover])           # heard through the other server
                while number(other) != number(shown[mover]):
                    other = state(pages[1 - mover])
                shown[1 - mover] = other
                assert shown[mover]["decision"] != before
            # a move answering a decision already taken (made through the other server) is refused
            mover = 0 if shown[0]["yours"] else 1
            stale = shown[mover]["decision"]
            pages[mover].send(json.dumps({"type": "choose", "decision": stale, "index": 0}))
            state(pages[mover])
            pages[mover].send(json.dumps({"type": "choose", "decision": stale, "index": 0}))
            error = json.loads(pages[mover].recv(timeout=30))
            while error["type"] != "error":
                error = json.loads(pages[mover].recv(timeout=30))
            assert "already taken" in error["text"]
        # the same seat through both servers at once: one decision is made, never two
        time.sleep(2)                              # both servers have heard of every move
        with one.page(ident, tokens[0]) as look:
            mover = 0 if state(look)["yours"] else 1
        with one.page(ident, tokens[mover]) as here, two.page(ident, tokens[mover]) as there:
            mine, theirs = state(here), state(there)
            start = int(number(mine))
            assert int(number(theirs)) == start
            here.send(json.dumps({"type": "choose", "decision": mine["decision"], "index": 0}))
            there.send(json.dumps({"type": "choose", "decision": theirs["decision"], "index": 0}))
            time.sleep(3)
        with one.page(ident, tokens[0]) as look, two.page(ident, tokens[1]) as look2:
            assert int(number(state(look))) == int(number(state(look2))) == start + 1
    finally:
        one.stop()
        two.stop()
