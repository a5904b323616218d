"""The table's limits per address and per server (issue 21): pages open at once per address,
games in play per server and per address, and a rate for the API requests that cost work.
Past a limit a request gets HTTP 429 (503 for a full server) with a sentence a person
understands and ``Retry-After``; a websocket is told why and closed with that reason."""
from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from support.table_support import RunningTable, need_table_extra

need_table_extra()
pytest.importorskip("websockets", reason="these tests talk to the table's websocket (websockets)")

from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from speciation.table.limits import Gate, Limits, Limited  # noqa: E402


def request(running, path, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(running.url + path, data=data, method="POST" if data is not None else "GET",
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=60) as response:
            return response.status, json.loads(response.read()), response.headers
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), error.headers


def new_game(running, headers=None):
    return request(running, "/api/games", {"ruleset": "original", "players": 2, "seats": ["human", "greedy"]},
                   headers)


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


# ---- the bookkeeping, on a clock of its own -----------------------------------------------------

def test_an_address_past_its_rate_is_refused_until_its_bucket_fills_again():
    clock = Clock()
    gate = Gate(Limits(rate=2.0, burst=3), clock=clock)
    for _ in range(3):
        gate.request("10.0.0.1")
    with pytest.raises(Limited) as refused:
        gate.request("10.0.0.1")
    assert refused.value.status == 429 and refused.value.headers == {"Retry-After": "1"}
    assert "at most 2 a second" in str(refused.value)
    gate.request("10.0.0.2")             # another address has its own bucket
    clock.now += 0.5                     # one request's worth at 2 a second
    gate.request("10.0.0.1")
    with pytest.raises(Limited):
        gate.request("10.0.0.1")


def test_pages_per_address_are_counted_until_they_close():
    gate = Gate(Limits(pages_per_address=2))
    assert gate.open_page("a") is None and gate.open_page("a") is None
    why = gate.open_page("a")
    assert why is not None and "at most 2" in why
    assert gate.open_page("b") is None
    gate.close_page("a")
    assert gate.open_page("a") is None
    assert Gate(Limits.none()).open_page("a") is None


# ---- through the server ---------------------------------------------------------------------------

def test_creating_games_past_the_rate_gets_429_with_a_reason_and_retry_after():
    running = RunningTable(gate=Gate(Limits(rate=0.01, burst=2)))
    try:
        assert new_game(running)[0] == 200
        assert new_game(running)[0] == 200
        status, answer, headers = new_game(running)
        assert status == 429
        assert answer["error"].startswith("too many requests from your address: at most 0.01 a second")
        assert int(headers["Retry-After"]) >= 1
        assert request(running, "/api/rulesets")[0] == 200      # a page's other requests are not limited
        status, answer, _ = request(running, "/api/mods", {"ruleset": "original",
                                                           "uploads": [{"name": "m.yaml", "text": "mod: m\n"}]})
        assert status == 429                                      # checking uploads counts too
        status, answer, _ = new_game(running, {"Accept-Language": "pl"})
        assert status == 429 and answer["error"].startswith("zbyt wiele")   # in the asker's language
    finally:
        running.stop()


def test_games_past_the_servers_and_an_addresss_limit_are_refused():
    running = RunningTable(gate=Gate(Limits(games=3, games_per_address=2, rate=0)))
    try:
        assert new_game(running)[0] == 200 and new_game(running)[0] == 200
        status, answer, _ = new_game(running)
        assert status == 429 and "as many as one address may start (2)" in answer["error"]
        running.table.gate.started.clear()           # as if the next came from another address
        assert new_game(running)[0] == 200
        status, answer, headers = new_game(running)
        assert status == 503 and "as many games in play as it may (3)" in answer["error"]
        assert headers["Retry-After"] == "60"
        running.table.sessions.pop(links := next(iter(running.table.sessions)))   # one leaves memory
        assert links and new_game(running)[0] == 200
    finally:
        running.stop()


def test_a_page_past_its_addresss_limit_is_told_why_and_closed():
    running = RunningTable(gate=Gate(Limits(pages_per_address=2, rate=0)))
    try:
        status, links, _ = new_game(running)
        assert status == 200
        ws = running.url.replace("http", "ws", 1) + f"/ws/play/{links['game']}"
        with connect(ws) as first, connect(ws) as second:
            assert json.loads(first.recv(timeout=30))["type"] == "state"
            assert json.loads(second.recv(timeout=30))["type"] == "state"
            with connect(ws) as third:
                message = json.loads(third.recv(timeout=30))
                assert message == {"type": "error", "text": "too many pages of this table are open from your "
                                                            "address (at most 2): close some and reload this one"}
                with pytest.raises(ConnectionClosed) as closed:
                    third.recv(timeout=30)
                assert closed.value.rcvd.code == 1008 and closed.value.rcvd.reason.startswith("too many pages")
            with connect(running.url.replace("http", "ws", 1) + "/ws/replay/none") as replay:
                assert "too many pages" in json.loads(replay.recv(timeout=30))["text"]   # replays count too
        with connect(ws) as again:                   # closing pages frees their places
            assert json.loads(again.recv(timeout=30))["type"] == "state"
        assert running.table.gate.pages.total() <= 1
    finally:
        running.stop()


def test_serve_takes_the_limits_as_flags(monkeypatch):
    import uvicorn

    from speciation.cli import main

    served = {}

    def run(server, *args, **kwargs):
        served["table"] = server.config.app.state.table
        server.should_exit = True

    monkeypatch.setattr(uvicorn.Server, "run", run)
    assert main(["serve", "--memory", "--no-browser", "--port", "0", "--max-pages-per-address", "5",
                 "--max-games", "7", "--max-games-per-address", "3", "--api-rate", "0.5", "--api-burst", "4"]) == 0
    assert served["table"].gate.limits == Limits(pages_per_address=5, games=7, games_per_address=3, rate=0.5, burst=4)
    assert main(["serve", "--memory", "--no-browser", "--port", "0"]) == 0
    assert served["table"].gate.limits == Limits()   # the defaults
