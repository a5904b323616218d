"""What one address, and the whole server, may hold and ask of the table (issue 21): pages
open at once per address, games in play per server and per address, and a rate for the API
requests that cost work (starting a game, checking uploaded mods, saving, resuming, replaying).

The rate uses the same token bucket as a page's messages (:class:`.connections.TokenBucket`):
one bucket per address, :attr:`Limits.rate` requests a second on average, bursts of
:attr:`Limits.burst`. Past a limit a request is answered HTTP 429 with a sentence a person
understands (and ``Retry-After``), a new game past the server's limit 503, and a websocket
past its address's limit is accepted, told why in an error message and closed with that
reason (code 1008). An address is the client's as the server sees it (behind a proxy: the
proxy's, unless uvicorn is told to trust its ``X-Forwarded-For``). See ``docs/security.md``.
"""
from __future__ import annotations

import json
import math
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..i18n import Text, translate
from .connections import TokenBucket
from .guard import Refused

BUCKETS = 10_000   # addresses whose bucket is kept before full (idle) ones are forgotten


@dataclass
class Limits:
    """The limits (``speciation serve`` flags; 0 means no limit)."""

    pages_per_address: int = 64       # websockets one address may hold open at once
    games: int = 1000                 # unfinished games the server holds in memory: no new one past it
    games_per_address: int = 100      # unfinished games one address started that the server holds
    rate: float = 2.0                 # costly API requests a second per address, on average
    burst: int = 30                   # ... and in one burst

    @classmethod
    def none(cls) -> Limits:
        """No limit at all (a benchmark's or a test's server)."""
        return cls(pages_per_address=0, games=0, games_per_address=0, rate=0.0, burst=0)


class Limited(Refused):
    """A refusal because a limit was reached: HTTP 429 (or 503), with when to try again."""

    def __init__(self, text: str, status: int = 429, retry_after: float = 1.0):
        super().__init__(text, status)
        self.headers = {"Retry-After": str(max(1, math.ceil(retry_after)))}


def address_of(connection: Any) -> str:
    """The address a request or websocket came from ("unknown" when the server cannot tell)."""
    client = getattr(connection, "client", None)
    return str(client.host) if client is not None and client.host else "unknown"


@dataclass
class Gate:
    """The limits' bookkeeping for one table: open pages and API buckets per address, and the
    games each address started."""

    limits: Limits = field(default_factory=Limits)
    clock: Callable[[], float] = time.monotonic
    pages: Counter[str] = field(default_factory=Counter)
    buckets: dict[str, TokenBucket] = field(default_factory=dict)
    started: dict[str, set[str]] = field(default_factory=dict)   # address -> games it started

    # ---- API requests ------------------------------------------------------------------------

    def request(self, address: str) -> None:
        """Spend one of *address*'s API requests, or refuse (429) saying when to try again."""
        rate = self.limits.rate
        if rate <= 0:
            return
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= BUCKETS:
                self._forget_idle()
            bucket = self.buckets[address] = TokenBucket(rate, max(1, self.limits.burst), self.clock)
        if not bucket.take():
            wait = (1.0 - bucket.tokens) / rate
            raise Limited(Text("too many requests from your address: at most {rate} a second (bursts of "
                               "{burst}); try again in {wait} s", rate=f"{rate:g}", burst=self.limits.burst,
                               wait=max(1, math.ceil(wait))), 429, wait)

    def _forget_idle(self) -> None:
        for address, bucket in list(self.buckets.items()):
            bucket.take()   # brings its tokens up to date (spending one of a full bucket changes nothing kept)
            if bucket.tokens >= bucket.burst - 1:
                del self.buckets[address]

    # ---- pages ---------------------------------------------------------------------------------

    def open_page(self, address: str) -> str | None:
        """A page of *address* opens a websocket: None if it may (counted until
        :meth:`close_page`), else why not."""
        most = self.limits.pages_per_address
        if most and self.pages[address] >= most:
            return Text("too many pages of this table are open from your address (at most {most}): "
                        "close some and reload this one", most=most)
        self.pages[address] += 1
        return None

    def close_page(self, address: str) -> None:
        self.pages[address] -= 1
        if self.pages[address] <= 0:
            del self.pages[address]

    # ---- games -----------------------------------------------------------------------------------

    def may_start(self, address: str, sessions: dict[str, Any]) -> None:
        """Refuse a new game of *address* when the server, or that address, holds its limit
        of unfinished games (*sessions*: the games in memory)."""
        most = self.limits.games
        if most and _unfinished(sessions.values()) >= most:
            raise Limited(Text("this server holds as many games in play as it may ({most}): "
                               "try again when some have ended", most=most), 503, 60)
        most = self.limits.games_per_address
        mine = self.started.get(address)
        if mine:
            mine.intersection_update(i for i in list(mine) if i in sessions and not sessions[i].game.is_over)
        if most and mine is not None and len(mine) >= most:
            raise Limited(Text("you have {count} games in play on this server, as many as one address may "
                               "start ({most}): finish or leave some first", count=len(mine), most=most), 429, 60)

    def started_game(self, address: str, ident: str) -> None:
        self.started.setdefault(address, set()).add(ident)


async def close_with(socket: Any, reason: str, lang: str | None = None) -> None:
    """Tell an accepted websocket's page why it is refused (an error message, in its
    language), and close it with that reason (code 1008: policy)."""
    text = translate(lang, reason)
    try:
        await socket.send_text(json.dumps({"type": "error", "text": text}))
        await socket.close(code=1008, reason=text.encode("utf-8")[:120].decode("utf-8", "ignore"))
    except Exception:  # the page went away first
        pass


def _unfinished(sessions: Iterable[Any]) -> int:
    return sum(1 for session in sessions if not session.game.is_over)
