"""How the table builds pages' screens under load (speciation/table/screens.py,
connections.py): one builder thread, the acting page's screen before any other page's; a
screen whose game an agent is changing is retried, not waited for; and a screen built late
is dropped when a newer one was queued meanwhile."""
from __future__ import annotations

import asyncio
import threading
import time

import pytest

from support.table_support import need_table_extra

need_table_extra()

from speciation.table.connections import RETRY, Builder, Connection  # noqa: E402


def test_the_acting_pages_screen_is_built_before_the_others_waiting():
    builder = Builder()
    order: list[str] = []
    gate = threading.Event()

    def build(name, wait=False):
        def run():
            if wait:
                gate.wait(10)
            order.append(name)
            return name
        return run

    async def scenario():
        busy = asyncio.ensure_future(builder.later(build("busy", wait=True)))   # the thread is on this one
        await asyncio.sleep(0.05)
        others = [asyncio.ensure_future(builder.later(build(f"other {i}"))) for i in range(5)]
        await asyncio.sleep(0.05)
        acting = asyncio.ensure_future(builder.first(build("acting")))
        await asyncio.sleep(0.05)
        gate.set()
        await asyncio.gather(busy, acting, *others)

    asyncio.run(scenario())
    assert order == ["busy", "acting"] + [f"other {i}" for i in range(5)]


def test_no_other_pages_screen_is_started_while_a_move_is_answered_in_another_thread():
    builder = Builder()
    started: list[float] = []

    async def scenario():
        with builder.first_hand():   # a move and its page's screen, in another thread
            begun = time.monotonic()
            other = asyncio.ensure_future(builder.later(lambda: started.append(time.monotonic()) or "other"))
            await asyncio.sleep(0.02)
            assert not started   # waiting for the move's answer
        assert await other == "other" and started[0] - begun >= 0.02
        with builder.first_hand():   # a long one: the others wait for it no longer than YIELD
            begun = time.monotonic()
            assert await builder.later(lambda: "late") == "late"
            assert time.monotonic() - begun < 5

    asyncio.run(scenario())


class FakeSocket:
    def __init__(self):
        self.texts: list[str] = []

    async def send_text(self, text):
        self.texts.append(text)

    async def close(self, code=1000, reason=""):
        pass


def test_a_screen_of_a_busy_game_is_retried_and_a_stale_one_dropped():
    async def scenario():
        socket = FakeSocket()
        conn = Connection(socket)  # type: ignore[arg-type]
        conn.start()
        lock = threading.RLock()
        position = {"n": 1}

        def screen():
            if not lock.acquire(blocking=False):
                return RETRY
            try:
                return {"type": "state", "n": position["n"]}
            finally:
                lock.release()

        held = threading.Event()
        release = threading.Event()

        def agent():   # an agent thinking holds the game
            with lock:
                held.set()
                release.wait(10)
                position["n"] = 2

        thinker = threading.Thread(target=agent)
        thinker.start()
        held.wait(10)
        conn.send_later(screen)
        await asyncio.sleep(0.2)
        assert socket.texts == []          # not sent while the game is busy, and nothing waited for it
        release.set()
        thinker.join(10)
        deadline = time.monotonic() + 10
        while not socket.texts and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert socket.texts == ['{"type": "state", "n": 2}']   # the position once the agent moved
        conn.send_later(screen)            # the same screen again: not sent twice
        conn.send({"type": "error", "text": "x"})
        await asyncio.sleep(0.2)
        assert socket.texts[1:] == ['{"type": "error", "text": "x"}']
        await conn.finish()

    asyncio.run(scenario())


@pytest.mark.parametrize("newer", ["built", "text"])
def test_a_screen_built_while_a_newer_one_is_queued_is_not_sent(newer):
    async def scenario():
        socket = FakeSocket()
        conn = Connection(socket)  # type: ignore[arg-type]
        started, go = threading.Event(), threading.Event()

        def slow():
            started.set()
            go.wait(10)
            return {"type": "state", "n": "old"}

        conn.start()
        conn.send_later(slow)
        while not started.is_set():
            await asyncio.sleep(0.01)
        if newer == "built":
            conn.send_later(lambda: {"type": "state", "n": "new"})
        else:
            conn.send({"type": "state", "n": "new"})
        go.set()
        await asyncio.sleep(0.3)
        assert socket.texts == ['{"type": "state", "n": "new"}']
        await conn.finish()

    asyncio.run(scenario())
