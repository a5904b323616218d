"""A replay's page follows its own language (``?lang=``, else Accept-Language), as a game's
page does (issue 21): two pages of one replay, one Polish and one English, each read the same
step's names, prompt and log in their own words; the replay is not fixed to the language it was
made in."""
from __future__ import annotations

import json
import random

import pytest

from support.table_support import RunningTable, advance, need_table_extra

need_table_extra()
pytest.importorskip("websockets", reason="these tests talk to the table's websocket (websockets)")

from websockets.sync.client import connect  # noqa: E402

from speciation.table import messages  # noqa: E402
from speciation.table.session import Replay, TableGame  # noqa: E402


@pytest.fixture(scope="module")
def running():
    server = RunningTable()
    yield server
    server.stop()


def step(socket, to: int) -> dict:
    socket.send(json.dumps({"type": "step", "to": to}))
    while True:
        message = json.loads(socket.recv(timeout=60))
        if message["type"] == "state" and message["step"] == to:
            return message


def test_each_page_of_a_replay_reads_it_in_its_own_language(running):
    session = TableGame.new("replayed", "marine", 2, ["random", "random"], seed=4)
    advance(session, lambda game: len(session.decisions) >= 12, random.Random(2))
    running.table.replays["r1"] = Replay.of("r1", session)   # made in the game's language: English
    base = running.url.replace("http", "ws", 1) + "/ws/replay/r1"
    with connect(base + "?lang=pl") as polish, connect(base, additional_headers={"Accept-Language": "pl"}) as asked, \
            connect(base + "?lang=en") as english:
        shown = {name: step(socket, 10) for name, socket in (("pl", polish), ("asked", asked), ("en", english))}
    expected = {lang: messages.seat_state(Replay.of("x", session).game_at(10) if lang is None else
                                          Replay("x", session.game.ruleset, session.game.history, session.seats,
                                                 lang).game_at(10), 0, session.seats, lang)
                for lang in (None, "pl")}
    for name, lang in (("pl", "pl"), ("asked", "pl"), ("en", None)):
        assert shown[name]["log"] == expected[lang]["log"], name
        assert shown[name]["prompt"] == expected[lang]["prompt"]
        assert [p["name"] for p in shown[name]["players"]] == [p["name"] for p in expected[lang]["players"]]
    assert shown["pl"]["log"] != shown["en"]["log"]          # the two languages differ: the test can fail
    assert shown["pl"]["svg"] != shown["en"]["svg"]


def test_a_spectators_replay_page_says_spectator_in_its_language(running):
    session = TableGame.new("replayed2", "marine", 2, ["random", "random"], seed=5)
    advance(session, lambda game: len(session.decisions) >= 4, random.Random(3))
    running.table.replays["r2"] = Replay.of("r2", session, only=None)
    with connect(running.url.replace("http", "ws", 1) + "/ws/replay/r2?lang=pl") as socket:
        message = step(socket, 2)
    assert message["seat"] is None and message["seat_name"] == "widz"
