"""When a game leaves the server's memory: a policy over the table's registry of games.

A game that is over, with no page open on it, leaves memory :attr:`Eviction.finished_after`
seconds after its last activity; an unfinished one nobody has looked at for
:attr:`Eviction.abandoned_after` seconds leaves it too, but only when a :attr:`Eviction.hook`
keeps it elsewhere (a database; the hook is called with the game before it is dropped, and
may bring it back later): without one, an unfinished game stays. A replay with no page open
leaves after :attr:`Eviction.replay_after`. A game that stays but has not changed for
:attr:`Eviction.drawings_after` seconds lets go of what its pictures shared (its
``drawings``, render/shared.py: about 0.5 MB for an original game; drawn again when asked)
and the views of its position (``positions``, views.py: a copy of its entities).
The sweep runs every :attr:`Eviction.interval` seconds, in the server's event loop, started
by the first page that connects.
"""
from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..render.shared import Drawings


@dataclass
class Eviction:
    """The policy, and when each game was last active (a move, a page opening or closing)."""

    finished_after: float = 600.0          # seconds a finished game with no page stays
    abandoned_after: float = 6 * 3600.0    # seconds an unfinished game with no page stays (with a hook)
    replay_after: float = 1800.0           # seconds a replay with no page stays
    drawings_after: float = 60.0           # seconds a game that stays keeps its shared drawings
    interval: float = 30.0                 # seconds between sweeps
    hook: Callable[[str, Any], None] | None = None   # called with (ident, game) before it is dropped
    clock: Callable[[], float] = time.monotonic
    active: dict[str, float] = field(default_factory=dict)
    watching: dict[str, int] = field(default_factory=dict)   # replay -> pages open on it
    _task: asyncio.Task | None = None

    def touch(self, ident: str) -> None:
        self.active[ident] = self.clock()

    def opened(self, ident: str, change: int) -> None:
        """A replay page opened (+1) or closed (-1)."""
        self.watching[ident] = self.watching.get(ident, 0) + change
        self.touch(ident)

    def idle(self, ident: str, now: float) -> float:
        return now - self.active.setdefault(ident, now)

    def due(self, table: Any, now: float | None = None) -> tuple[list[str], list[str]]:
        """The games and the replays of *table* that should leave memory now."""
        now = self.clock() if now is None else now
        games = []
        for ident, session in list(table.sessions.items()):
            if table.pages.get(ident):
                self.touch(ident)
                continue
            over = session.game.is_over
            limit = self.finished_after if over else self.abandoned_after
            if (over or self.hook is not None) and self.idle(ident, now) >= limit:
                games.append(ident)
        replays = [ident for ident in list(table.replays)
                   if self.watching.get(ident, 0) <= 0 and self.idle(ident, now) >= self.replay_after]
        return games, replays

    def sweep(self, table: Any, now: float | None = None) -> list[str]:
        """Drop what is due (calling the hook for each game first); the idents dropped."""
        games, replays = self.due(table, now)
        for ident in games:
            session = table.sessions[ident]
            if self.hook is not None:
                self.hook(ident, session)
            table.sessions.pop(ident, None)
            if table.drawer is not None:   # its pictures' elements in the worker
                table.drawer.forget(ident)
            table.pages.pop(ident, None)
            table.screens.pop(ident, None)
            task = table.drivers.pop(ident, None)
            if task is not None:
                task.cancel()
            self.active.pop(ident, None)
        now = self.clock() if now is None else now
        for ident, session in list(table.sessions.items()):   # idle: its drawings and views go (made anew when asked)
            if now - self.active.get(ident, now) >= self.drawings_after and session.drawings.kept_any():
                session.drawings = Drawings()
            if now - self.active.get(ident, now) >= self.drawings_after and session.positions[1]:
                session.positions = ((), {})
        for ident in replays:
            table.replays.pop(ident, None)
            self.active.pop(ident, None)
            self.watching.pop(ident, None)
        return games + replays

    def start(self, table: Any) -> None:
        """Sweep *table* every :attr:`interval` seconds from now on (once per event loop)."""
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done() or self._task.get_loop() is not loop:
            self._task = loop.create_task(self._loop(table))

    async def _loop(self, table: Any) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                await asyncio.sleep(self.interval)
                self.sweep(table)
