"""A replay's page: the websocket that steps through a finished or saved game, each page in
its own language (``?lang=``, Accept-Language, as a game's page), and as the seat the replay
may show (a seat's own replay of a game in play shows only that seat's views)."""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import i18n
from .connections import Connection
from .guard import Refused, int_field, parse_message
from .guard import seat_param as _seat_param
from .languages import replay_in
from .limits import address_of, close_with
from .pages import _lang_of, _replay_state


async def show_replay(table: Any, ident: str, page: Any) -> None:
    """Send *page* the step of replay *ident* it is at, in the page's language."""
    replay = replay_in(table.replays[ident], page.lang)
    message = await asyncio.to_thread(_replay_state, replay, page.step, page.seat)
    message["game"] = ident
    message["seat_name"] = i18n.translate(page.lang, message["seat_name"])  # "a spectator", in its words
    page.step = message["step"]
    await table.send(page, message)


async def ws_replay(table: Any, socket: WebSocket, allowed: Callable[[Any], bool], make_page: Callable[..., Any]) -> None:
    """A replay's websocket; *make_page* makes the table's page record (``app.Page``)."""
    if not allowed(socket):
        await socket.close(code=1008)
        return
    ident = socket.path_params["ident"]
    await socket.accept()
    lang = _lang_of(socket)
    if why := table.gate.open_page(address := address_of(socket)):
        return await close_with(socket, why, lang)
    replay = table.replays.get(ident)
    if replay is None:
        table.gate.close_page(address)
        return await close_with(socket, i18n.Text("no such replay"), lang)
    asked = _seat_param(socket)
    seat = (asked if asked is not None and asked < replay.players else 0) if replay.only is False else replay.only
    page = make_page(socket, seat=seat, conn=(conn := Connection(socket, lang=lang)), lang=lang)
    conn.start()
    table.eviction.start(table)
    table.eviction.opened(ident, +1)
    try:
        await show_replay(table, ident, page)
        while (event := await conn.receive()) is not None:
            try:
                data = parse_message(event.get("text") if event.get("text") is not None else event.get("bytes"))
                if data["type"] == "step":
                    page.step = int_field(data, "to", 0, 0, 10**9) or 0
                elif data["type"] == "seat":
                    if replay.only is not False:
                        raise Refused(i18n.Text("this replay shows only what you saw: no other seat's view"))
                    page.seat = int_field(data, "seat", 0, 0, replay.players - 1)
                else:
                    raise Refused(i18n.Text("unknown message type {kind} (a replay knows step, seat)",
                                            kind=repr(data["type"][:30])))
            except Refused as refusal:
                await table.send(page, {"type": "error", "text": i18n.translate(page.lang, refusal.args[0])})
                continue
            await show_replay(table, ident, page)
    except (WebSocketDisconnect, RuntimeError):  # the page closed
        pass
    finally:
        table.eviction.opened(ident, -1)
        table.gate.close_page(address)
        await conn.finish()
