"""A page's screen (its seat's state message) as the table builds and sends it: the page that
acted is answered first, the others later, and the event loop builds neither.

Each seat's message is built once per change of the game (``Table.screens_of``, by seat and
language). The acting page's screen (and a page that connects or was refused something) is
taken from that cache on the event loop when it is there, else built by the builder thread
before any other (:meth:`.connections.Builder.first`); every other page's is queued as a
builder its sender runs when it reaches it (:meth:`.connections.Connection.send_later`): the
position then, dropped if the page moved on (a hot-seat hand-over) or a newer screen was
queued meanwhile. :class:`.app.Table` mixes this in.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import Any

from . import messages
from .connections import BUILDER, RETRY, RETRY_AFTER
from .session import TableGame, agent_names


class Screens:
    sessions: dict[str, TableGame]
    screens: dict[str, tuple[tuple, dict]]
    record: bool
    sent: list[tuple[int | None, dict]]

    def screens_of(self, session: TableGame) -> dict[tuple[int | None, str], dict]:  # the table's (app.Table)
        raise NotImplementedError

    def state_for(self, session: TableGame, seat: int | None, lang: str | None = None) -> dict:
        raise NotImplementedError

    def screen(self, session: TableGame, seat: int | None, lang: str, token: str | None) -> dict | str:
        """The message of *seat*'s screen in *lang* now (the creator's page: with what it may
        do); :data:`.connections.RETRY` while the game is being changed (an agent thinking
        holds it): the builder thread never waits for an agent."""
        if not session.lock.acquire(blocking=False):
            return RETRY
        try:
            cache = self.screens_of(session)  # the position now (another show may have run meanwhile)
            if (seat, lang) not in cache:
                cache[seat, lang] = self.state_for(session, seat, lang)
            message = cache[seat, lang]
        finally:
            session.lock.release()
        return self._for(session, message, token)

    async def answer(self, session: TableGame, page: Any) -> dict:
        """*page*'s screen now, before any other page's: from the cache if built already (a
        refusal's re-send, a page reconnecting), else by the builder thread first."""
        while True:
            message: dict | str | None = self.cached(session, page.seat, page.lang, page.token)
            if message is None:
                message = await BUILDER.first(partial(self.screen, session, page.seat, page.lang, page.token))
            if isinstance(message, dict):
                return message
            await asyncio.sleep(RETRY_AFTER)   # an agent of this game is thinking

    def cached(self, session: TableGame, seat: int | None, lang: str, token: str | None) -> dict | None:
        """*seat*'s screen now if it is built already and the game is not being changed (None:
        build it): a refusal's or a reconnecting page's answer without the builder thread."""
        if not session.lock.acquire(blocking=False):
            return None
        try:
            known = self.screens.get(session.ident)
            key = messages.screen_key(session.game, session.seats, len(session.undo_stack.checkpoints))
            message = known[1].get((seat, lang)) if known is not None and known[0] == key else None
        finally:
            session.lock.release()
        return None if message is None else self._for(session, message, token)

    def later(self, session: TableGame, page: Any) -> Callable[[], dict | str | None]:
        """*page*'s screen, to build when its sender reaches it (in the builder thread): the
        position then; nothing if the page moved on meanwhile (a hand-over: a newer show serves
        it); :data:`.connections.RETRY` while the game is being changed (an agent thinking holds
        it): the builder goes on with other pages' screens meanwhile."""
        seat = page.seat

        def build() -> dict | str | None:
            if page.seat != seat or page.waiting is not None or self.sessions.get(session.ident) is not session:
                return None
            message = self.screen(session, seat, page.lang, page.token)
            if self.record and isinstance(message, dict):
                self.sent.append((seat, message))
            return message
        return build

    @staticmethod
    def _for(session: TableGame, message: dict, token: str | None) -> dict:
        if session.seating.is_creator(token):
            return dict(message, creator=True, agents=agent_names(), hotseat=session.seating.hotseat)
        return message
