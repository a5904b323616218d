"""The table's agents: the one thread that moves them, for every game, and where they think
(in the server, or in a worker process of their own when the table has one, ``Table(thinking=
Drawer(1))``, ``speciation serve --agent-processes``: :mod:`.thinker`). Mixed into
:class:`.app.Table`.
"""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from ..i18n import Text
from .connections import BUILDER
from .drawer import Drawer
from .session import TableGame
from .thinker import Thinker

# Agents think in a thread of their own, one move at a time for every game: a person's move
# (the default executor, asyncio.to_thread) never waits behind them, and the event loop keeps
# its share of the process however many agents play. An agent starts thinking only once no
# person's move is being answered (Builder.after_answers, as the builder holds back): the
# answer has the interpreter to itself but for the event loop and work already under way.
# With a worker process (thinker.py) the thread waits there for the agent's choice.
AGENTS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="speciation-agents")


class Driving:
    """Moving the agents of the table's games (:class:`.app.Table` mixes this in, first: its
    ``drive`` is the one the other mixins name)."""

    agent_delay: float
    sessions: dict[str, TableGame]
    pages: dict[str, list]
    drivers: dict[str, asyncio.Task]
    drawer: Drawer | None
    thinking: Drawer | None  # a worker process the agents think in (None: in the server)
    _thinker: Thinker | None  # made when first asked for
    # the table's own (app.Table, persist.Keeping): named here only, so as to shadow none of them
    error: Callable[[Any, str], Awaitable[None]]
    show: Callable[[str], Awaitable[None]]
    persist: Any   # async (ident) -> the reason it could not be kept, or None

    @property
    def thinker(self) -> Thinker | None:
        """What sends the agents' thinking to a worker process (None: they think here)."""
        pool = self.thinking
        if pool is None:
            return None
        if self._thinker is None or self._thinker.drawer is not pool:
            self._thinker = Thinker(pool)
        return self._thinker

    def drive(self, ident: str) -> None:
        """Start the agents of game *ident* if one must move and none is running."""
        task = self.drivers.get(ident)
        if task is None or task.done():
            self.drivers[ident] = asyncio.get_running_loop().create_task(self._drive(ident))

    async def _drive(self, ident: str) -> None:
        while (session := self.sessions.get(ident)) is not None and session.agent_to_move():
            if self.agent_delay:
                await asyncio.sleep(self.agent_delay)
            try:
                moved = await asyncio.get_running_loop().run_in_executor(
                    AGENTS, BUILDER.after_answers, partial(session.agent_step, self.thinker))
            except Exception as error:  # an agent or rule failure: tell the pages
                for page in self.pages.get(ident, []):
                    await self.error(page, Text("an agent could not move: {error}", error=str(error)))
                return
            if moved and (problem := await self.persist(ident)):
                for page in self.pages.get(ident, []):
                    await self.error(page, problem)
            await self.show(ident)
            if not moved:
                break
