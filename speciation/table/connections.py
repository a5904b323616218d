"""One page's websocket under load: what the server sends it goes through a bounded queue
drained by one sender task, and what it sends is metered by a token bucket.

A game's broadcast never awaits a socket: :meth:`Connection.send` only queues. A state (or
hand-over) message replaces the one still waiting for that page, since each is the page's
whole screen; so a slow page gets the latest screen, not a backlog. A screen may be queued
as a builder (:meth:`Connection.send_later`): built, and JSON-encoded, by the one
:data:`BUILDER` thread when the page's sender reaches it, so the event loop never builds
the screens of a broadcast, and a page behind gets one build of its newest. A page whose queue still
overflows, or whose socket accepts nothing for :data:`SEND_TIMEOUT` seconds, is a laggard:
it is closed (its page reconnects and is sent the whole state again). A page sending faster
than :data:`RATE` messages a second (bursts of :data:`BURST`) has the excess dropped unread
with one error message saying so; one that keeps flooding (:data:`FLOOD` messages dropped
before its bucket is half full again: a page that sends a little faster than the rate for
long is a flood too, though a message of its gets through now and then) is closed. See
``docs/security.md``.
"""
from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from functools import partial
from concurrent.futures import Future
from typing import Any, TypeVar

from starlette.websockets import WebSocket

from .. import i18n
from ..i18n import Text
from .messages import patched

T = TypeVar("T")
RATE = 20.0            # messages a second a page may send, on average
BURST = 40             # ... and in one burst
FLOOD = 400            # messages dropped in one run (until the bucket is half full again) before the socket is closed
QUEUE = 64             # messages waiting for one page before it is a laggard
SEND_TIMEOUT = 60.0    # seconds one send may take before the page is a laggard (a stuck page costs
                       # one waiting screen meanwhile: the others are not delayed)
RETRY_AFTER = 0.02     # seconds before a screen whose game was busy is built again
YIELD = 0.05           # seconds another page's screen waits at most while a move is answered
CLOSE_TIMEOUT = 2.0    # seconds to wait for a close to be sent
SCREENS = ("state", "handover")   # whole-screen messages: the newest replaces a waiting one
FLOODED = 1008         # close codes: policy violation (flooding)
LAGGARD = 1013         # try again later (could not keep up)


class Builder:
    """The one thread that builds the screens of every page, so the event loop never does: the
    screen of the page that acted (:meth:`first`) before any other page's (:meth:`later`), so
    a move's answer never waits behind the broadcasts of other moves (each page's sender asks
    for one build at a time: the queue holds at most one per page)."""

    def __init__(self) -> None:
        self.queue: queue.PriorityQueue = queue.PriorityQueue()
        self.order = itertools.count()
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()
        self.moving = 0                  # moves being applied with their page's screen (:meth:`first_hand`)
        self.calm = threading.Event()    # set while none is
        self.calm.set()

    @contextlib.contextmanager
    def first_hand(self) -> Iterator[None]:
        """Within it another thread applies a move and builds its page's screen: the builder
        starts no other page's screen meanwhile (for at most :data:`YIELD` seconds each), so
        that work has the interpreter to itself but for the agents and the event loop."""
        with self.lock:
            self.moving += 1
            self.calm.clear()
        try:
            yield
        finally:
            with self.lock:
                self.moving -= 1
                if not self.moving:
                    self.calm.set()

    def hold_back(self) -> None:
        """Wait (at most :data:`YIELD` seconds) until no move is being answered: other work of
        the process (an agent's thinking) starts after it."""
        if not self.calm.is_set():
            self.calm.wait(YIELD)

    def after_answers(self, work: Callable[[], T]) -> T:
        """*work* done once no move is being answered (:meth:`hold_back`): an agent's move."""
        self.hold_back()
        return work()

    async def first(self, build: Callable[[], T]) -> T:
        return await asyncio.wrap_future(self._submit(0, build))

    async def later(self, build: Callable[[], T]) -> T:
        return await asyncio.wrap_future(self._submit(1, build))

    def _submit(self, rank: int, build: Callable[[], T]) -> Future:
        future: Future = Future()
        self.queue.put((rank, next(self.order), build, future))
        with self.lock:
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="speciation-screens", daemon=True)
                self.thread.start()
        return future

    def _run(self) -> None:
        while True:
            rank, order, build, future = self.queue.get()
            if rank == 1 and not self.calm.is_set():   # a move is being answered: wait (once) for it
                self.calm.wait(YIELD)
                self.queue.put((rank - 0.5, order, build, future))   # (an answer that came meanwhile goes first)
                continue
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(build())
            except BaseException as error:  # given to the awaiting task
                future.set_exception(error)


BUILDER = Builder()


RETRY = "retry"   # what a builder returns when it cannot build now (its game is being changed)


def _encoded(build: Callable[[], dict | str | None], conn: Connection) -> tuple[dict, str, str | None] | str | None:
    """A screen built and encoded for *conn* (:meth:`Connection.encode`), in the builder thread
    (which, between the two, lets a move being answered go first: :meth:`Builder.hold_back`)."""
    message = build()
    if message is None or isinstance(message, str):
        return message
    BUILDER.hold_back()
    return conn.encode(message)


class TokenBucket:
    """*rate* tokens a second, at most *burst* kept; :meth:`take` spends one if there is one."""

    def __init__(self, rate: float = RATE, burst: int = BURST, clock=time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.stamp = float(burst), clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Connection:
    """A page's websocket with its send queue, its sender task and its rate limit."""

    def __init__(self, socket: WebSocket, queue: int | None = None, rate: float | None = None,
                 burst: int | None = None, flood: int | None = None, send_timeout: float | None = None,
                 patches: bool = False, lang: str = i18n.DEFAULT):
        self.socket = socket  # the limits: the module's (read now, so a test may change them)
        self.lang = lang        # the page's language: what the connection itself says (rate, laggard) is said in it
        self.patches = patches  # the page takes a picture as the lines changed (messages.patched)
        self.picture: str | None = None   # ... and shows this one (the last sent)
        self.log: list[str] | None = None   # ... and this log (the last sent)
        self.split: tuple[str, list[str]] | None = None   # the picture split last, and its lines (:meth:`_lines`)
        self.limit, self.flood = queue or QUEUE, flood or FLOOD
        self.send_timeout = send_timeout or SEND_TIMEOUT
        self.bucket = TokenBucket(rate or RATE, burst or BURST)
        self.waiting: deque[tuple[str, Any]] = deque()   # (type, JSON text, a state, or a screen's builder)
        self.wake = asyncio.Event()
        self.closed = asyncio.Event()
        self.dropped = 0        # incoming messages dropped in this run (reset when the bucket is half full)
        self.warned = False     # told about the current run of dropped messages
        self.reason = ""        # why the server closed it
        self.sent = 0
        self.last: str | dict = ""   # the last message sent (a state: the message itself, not as patched)
        self.screens = 0        # screens queued so far
        self._sender: asyncio.Task | None = None
        self._closing: asyncio.Task | None = None
        self._reading: asyncio.Future | None = None   # the read under way (cancelled by a close)

    # ---- sending -------------------------------------------------------------------------

    def start(self) -> None:
        if self._sender is None:
            self._sender = asyncio.get_running_loop().create_task(self._send_loop())

    def send(self, message: dict | str, kind: str | None = None) -> None:
        """Queue *message* (a dict, or its JSON text with its *kind*); never waits. A state
        for a page that takes patches is encoded when it is sent (:meth:`encode`)."""
        if isinstance(message, dict) and self.patches and message.get("type") == "state":
            self._queue("state", message)
            return
        if isinstance(message, dict):
            kind, text = str(message.get("type", "")), json.dumps(message)
        else:
            text = message
        self._queue(kind or "", text)

    def encode(self, message: dict) -> tuple[dict, str, str | None]:
        """A state (*message* itself, which the sender keeps to know the screen it sent last:
        comparing it costs no encoding), its JSON text as it goes to this page (patched against
        the picture the page shows, :func:`.messages.patched`, if it takes patches: the whole
        message is then never encoded), and its picture. Called by the sender alone (or the
        builder while the sender waits for it), so the picture and log the page shows are the
        ones sent last."""
        svg = message.get("svg") if isinstance(message.get("svg"), str) else None
        return message, json.dumps(patched(message, self.picture, self.log, self._lines) if self.patches else message), svg

    def _lines(self, svg: str) -> list[str]:
        """The lines of *svg* (a picture this page is sent, or shows): the picture split last
        is kept split (about 0.15 MB: the picture encoded last is the base of the next patch
        once it is sent), so each picture is split once."""
        kept = self.split
        if kept is not None and kept[0] is svg:
            return kept[1]
        lines = svg.split("\n")
        self.split = (svg, lines)
        return lines

    def send_later(self, build: Callable[[], dict | str | None]) -> None:
        """Queue a screen (a state) that *build* makes when the sender reaches it, in the
        builder thread (:data:`BUILDER`, after the acting pages' screens): the event loop never builds it, and a page that is
        sent screens faster than it reads gets one build of the newest (None: send nothing;
        :data:`RETRY`: build it again a little later)."""
        self._queue("state", build)

    def _queue(self, kind: str, item: str | dict | Callable[[], dict | str | None]) -> None:
        if self.closed.is_set():
            return
        if kind in SCREENS:  # the page needs only its newest screen
            self.screens += 1
            for i, (waiting, _) in enumerate(self.waiting):
                if waiting in SCREENS:
                    del self.waiting[i]
                    break
        self.waiting.append((kind, item))
        if len(self.waiting) > self.limit:
            self.close(LAGGARD, Text("this page could not keep up with the game; reload it"))
            return
        self.wake.set()

    async def _send_loop(self) -> None:
        try:
            while not self.closed.is_set():
                if not self.waiting:
                    self.wake.clear()
                    await self.wake.wait()
                    continue
                kind, item = self.waiting.popleft()
                whole: dict | None = None
                picture: str | None = None
                if callable(item):   # a screen built now, off the event loop
                    queued = self.screens
                    try:
                        built = await BUILDER.later(partial(_encoded, item, self))
                    except Exception:  # the game left memory meanwhile, or failed: a newer show says so
                        built = None
                    if built is RETRY:   # its game is being changed (an agent thinking): try again soon
                        if queued == self.screens:
                            self.waiting.appendleft((kind, item))
                        await asyncio.sleep(RETRY_AFTER)
                        continue
                    if not isinstance(built, tuple) or built[0] == self.last or queued != self.screens \
                            or self.closed.is_set():
                        continue   # (the very screen it was sent last, or a newer one is queued: not this)
                    whole, text, picture = built
                elif isinstance(item, dict):   # a state, patched against what the page shows now
                    whole, text, picture = self.encode(item)
                else:
                    text = item
                try:
                    await asyncio.wait_for(self.socket.send_text(text), self.send_timeout)
                    self.sent += 1
                    self.last = whole if whole is not None else text
                    if picture is not None:
                        self.picture = picture
                    elif kind == "handover":   # the page forgets the last person's picture and log
                        self.picture = self.log = None
                    if whole is not None and isinstance(whole.get("log"), list):
                        self.log = whole["log"]
                except TimeoutError:
                    self.close(LAGGARD, Text("this page did not read what the server sent; reload it"))
                except Exception:  # the page went away
                    self.close(1000, "")
        except asyncio.CancelledError:
            pass

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Stop sending, and close the socket (without waiting for a page that does not read);
        *reason* (an :class:`~speciation.i18n.Text`) is said in the page's language."""
        if self.closed.is_set():
            return
        reason = i18n.translate(self.lang, reason) if reason else ""
        self.reason = reason
        self.waiting.clear()
        self.closed.set()
        self.wake.set()
        if self._reading is not None:   # the page's reader stops (receive returns None)
            self._reading.cancel()
        self._closing = asyncio.get_running_loop().create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            # a close reason holds at most 123 bytes: cut as UTF-8, never within a letter
            await asyncio.wait_for(self.socket.close(code, reason.encode("utf-8")[:120].decode("utf-8", "ignore")),
                                   CLOSE_TIMEOUT)

    async def finish(self) -> None:
        """The page is gone (or closed by the server): stop the sender, let the close be sent."""
        self.closed.set()
        self.wake.set()
        for task in (self._sender, self._closing):
            if task is None:
                continue
            if task is self._sender:
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ---- receiving -----------------------------------------------------------------------

    async def receive(self) -> dict[str, Any] | None:
        """The page's next message event within the rate limit (None: the page is gone, or
        the server closed it). Messages past the limit are dropped unread; the first of a run
        gets one error message, a run of :attr:`flood` closes the socket."""
        while not self.closed.is_set():
            event = await self._next_event()
            if event is None or event["type"] == "websocket.disconnect":
                return None
            if self.bucket.take():
                if self.bucket.tokens >= self.bucket.burst / 2:   # the page has slowed down: a new run
                    self.dropped, self.warned = 0, False
                return event
            self.dropped += 1
            if self.dropped >= self.flood:
                self.close(FLOODED, Text("too many messages: this page was disconnected"))
                return None
            if not self.warned:
                self.warned = True
                self.send({"type": "error", "text": i18n.translate(self.lang, Text(
                    "too many messages: at most {rate} a second; the ones past that were dropped",
                    rate=format(self.bucket.rate, "g")))})
        return None

    async def _next_event(self) -> dict[str, Any] | None:
        """The socket's next event, or None once the server closes the page (:meth:`close`
        cancels the read: a flood's messages are each read, and none waits on the close)."""
        if self.closed.is_set():
            return None
        self._reading = reading = asyncio.ensure_future(self.socket.receive())
        try:
            return dict(await reading)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if reading.cancelled() and self.closed.is_set() and not (task and task.cancelling()):
                return None   # closed by the server: the read was cancelled, not this task
            raise
        except Exception:  # the socket went away
            return None
        finally:
            self._reading = None
