"""Helpers for the table's tests: a real server in a thread, a browser, games made ready.

Tests that need the ``table`` extra (starlette, uvicorn) or a browser skip with a message
saying what is missing.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def need_table_extra():
    """Skip unless the table's web stack is installed."""
    pytest.importorskip("starlette", reason="the table needs the 'table' extra (starlette): bash scripts/setup")
    pytest.importorskip("uvicorn", reason="the table needs the 'table' extra (uvicorn): bash scripts/setup")


def chromium() -> str:
    """The system's Chromium, or skip saying how to install it."""
    for candidate in (os.environ.get("SPECIATION_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    pytest.skip("browser tests need Chromium: apt-get install -y chromium (.ci/run installs it)")


class RunningTable:
    """The table's app served by uvicorn on a free local port, in a thread."""

    def __init__(self, agent_delay: float = 0.0, port: int = 0, **options):
        import uvicorn

        from speciation.table.app import Table, create_app
        from speciation.table.limits import Gate, Limits
        options.setdefault("gate", Gate(Limits.none()))   # tests of the limits give their own
        self.table = Table(agent_delay=agent_delay, **options)
        config = uvicorn.Config(create_app(self.table), host="127.0.0.1", port=port, log_level="warning",
                                ws_max_size=1 << 20)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the table's server did not start")
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    def add(self, session) -> str:
        """Put a session made in the test on the table; the address of its creator's page
        (which, hot-seat, acts for every person's seat)."""
        self.table.sessions[session.ident] = session
        creator, self.invites = session.seating.issue()
        return f"{self.url}/play/{session.ident}#t={creator}"

    def seat_url(self, session, seat: int) -> str:
        """The invite link of person seat *seat* (the session is put on the table if needed)."""
        self.table.sessions[session.ident] = session
        return f"{self.url}/play/{session.ident}#t={session.seating.invite(seat)}"

    def ws(self, session, token: str | None = None) -> str:
        """The websocket address of a page of *session* holding *token* (None: a spectator)."""
        self.table.sessions[session.ident] = session
        query = f"?token={token}" if token else ""
        return self.url.replace("http", "ws", 1) + f"/ws/play/{session.ident}{query}"


def advance(session, until, rng: random.Random, limit: int = 5000) -> None:
    """Make random decisions for every seat (recorded in the history) until *until(game)*."""
    for _ in range(limit):
        if session.game.is_over or until(session.game):
            return
        seat = session.game.current_player
        error = session._apply(seat, rng.choice(session.game.legal_actions()))
        assert error is None, error
    raise AssertionError("the condition was not reached")


def request(running, path, body=None):
    """GET (or, with *body*, POST as JSON) *path* of a running table: (HTTP status, JSON)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(running.url + path, data=data, method="POST" if data is not None else "GET",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def recv(socket, kind="state", timeout=30) -> dict:
    """The next message of *kind* on a table websocket (skipping others)."""
    while True:
        message = json.loads(socket.recv(timeout=timeout))
        if message["type"] == kind:
            return message


def drain(socket, wait=0.4) -> list[dict]:
    """Every message a table websocket has waiting (until none comes for *wait* seconds)."""
    out = []
    try:
        while True:
            out.append(json.loads(socket.recv(timeout=wait)))
    except TimeoutError:
        return out
