"""The table's web app (Starlette): pages, a small JSON API, and one websocket per page.

Pages are static files; the websocket carries the game. A page acts only for the seats
whose token it holds (:mod:`.seats`); without one it is a spectator. Agents play
server-side, in a worker thread (:mod:`.driving`; their searches in a worker process:
:mod:`.thinker`), so the page stays live. See ``docs/table.md``.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..dsl.errors import RuleErrors, SpeciationError
from ..interpreter.ruleset import available_rulesets, load_ruleset
from ..render.shared import sharing
from .. import i18n
from ..i18n import Text
from . import deciding, languages, messages
from .views import position_views
from .connections import BUILDER, Connection
from .drawer import Drawer
from .driving import Driving
from .thinker import Thinker
from .eviction import Eviction
from .guard import (Refused, bool_field, int_field, names_field, origin_allowed, parse_message, text_field)
from .guard import json_body as _json_body
from .guard import read_body as _body
from .limits import Gate, address_of, close_with
from .pages import _lang_of, _links, _origin, _page, engine_error
from .session import HUMAN, Replay, TableGame, agent_names
from .lobby import lobby_routes, offered_rulesets
from .replays import ws_replay
from .persist import Keeping
from .screens import Screens
from .store import Store
from ..rulemessages import rule_errors
from .uploads import uploaded, with_uploads
from .uploads import check as check_uploads

STATIC = Path(__file__).parent / "static"


@dataclass
class Page:
    """One open page: the websocket, the token it holds, and whose view it shows."""

    socket: WebSocket
    token: str | None = None     # the credential the page was opened with (None: a spectator)
    seat: int | None = None      # the seat shown now (None: what every seat sees)
    waiting: int | None = None   # hot-seat: the seat the page is being handed to
    step: int = 0                # replay: the decision shown
    conn: Connection | None = None   # its send queue and rate limit (connections.py)
    lang: str = i18n.DEFAULT     # the language of the page's own words (?lang=, Accept-Language)


@dataclass
class Table(Driving, Keeping, Screens):
    """Every game and replay the server holds, the pages watching them, and what the
    person who started the server offers: ruleset and mod folders by name, origins."""

    agent_delay: float = 0.4
    rulesets: dict[str, str] = field(default_factory=dict)   # name -> folder (serve --ruleset)
    mods: dict[str, str] = field(default_factory=dict)       # name -> folder or file (serve --mod)
    origins: set[str] = field(default_factory=set)           # other origins allowed (serve --origin)
    bound: str = "127.0.0.1"                                 # the address the server listens on
    sessions: dict[str, TableGame] = field(default_factory=dict)
    replays: dict[str, Replay] = field(default_factory=dict)
    pages: dict[str, list[Page]] = field(default_factory=dict)
    drivers: dict[str, asyncio.Task] = field(default_factory=dict)
    sent: list[tuple[int | None, dict]] = field(default_factory=list)   # (seat, message), when recording
    record: bool = False
    store: Store | None = None                                # where games are kept (None: memory only)
    locks: dict[str, asyncio.Lock] = field(default_factory=dict)   # per game: loading and storing
    unloadable: dict[str, str] = field(default_factory=dict)       # game -> why its record cannot be rebuilt
    eviction: Eviction = field(default_factory=Eviction)                # when a game leaves memory
    screens: dict[str, tuple[tuple, dict]] = field(default_factory=dict)  # game -> (key, seat -> message)
    gate: Gate = field(default_factory=Gate)   # limits per address and per server (limits.py; serve flags)
    drawer: Drawer | None = None   # pictures' bodies drawn in a worker process (drawer.py; None: here)
    thinking: Drawer | None = None  # a worker process the agents think in (thinker.py; None: in the server)
    _thinker: Thinker | None = field(default=None, init=False, repr=False)   # (driving.py)

    def new_id(self) -> str:
        return secrets.token_urlsafe(9)

    def ruleset_source(self, name: str) -> str:
        """What to load for ruleset *name*: a built-in's name or a listed folder; never a
        path a page names."""
        if name in self.rulesets:
            return self.rulesets[name]
        if name in available_rulesets():
            return name
        raise Refused(Text("no ruleset named {name} on this server (offered: {offered})", name=repr(name[:60]),
                           offered=", ".join(sorted({*available_rulesets(), *self.rulesets}))))

    def mod_source(self, name: str) -> str:
        if name in self.mods:
            return self.mods[name]
        raise Refused(Text("no mod named {name} on this server (mods are offered by name by the person running it, "
                           "serve --mod DIR; offered: {offered})", name=repr(name[:60]),
                           offered=", ".join(sorted(self.mods)) or "-"))

    # ---- sending --------------------------------------------------------------------------

    async def send(self, page: Page, message: dict) -> None:
        if self.record:
            self.sent.append((page.seat if message.get("type") == "state" else -1, message))
        if page.conn is not None:  # queued: a broadcast never waits for a slow page
            page.conn.send(message)
            return
        try:
            await page.socket.send_text(json.dumps(message))
        except Exception:  # the page went away; it is dropped on disconnect
            pass

    async def error(self, page: Page, text: str) -> None:
        await self.send(page, {"type": "error", "text": i18n.translate(page.lang, text)})

    async def show(self, ident: str, only: Page | None = None, first: Page | None = None) -> None:
        """Send every page of game *ident* (or just *only*) what its seat sees now, or a
        hand-over screen when a hot-seat page passes to another person; *first* (the page
        that acted) is served before the others."""
        session = self.sessions[ident]
        self.eviction.touch(ident)
        pages = [only] if only else list(self.pages.get(ident, []))
        if first in pages:
            pages.remove(first)
            pages.insert(0, first)
        for page in pages:
            seats = session.seating.seats_of(page.token)
            decider = deciding.next_deciding(session.deciders, seats, page.seat)  # hot-seat: whom to hand over to
            if page.seat is not None and page.seat not in seats:
                page.seat = None  # its seat was given to an agent, or its link replaced
            if len(seats) == 1:
                page.seat, page.waiting = seats[0], None
            elif len(seats) > 1 and decider is not None:
                page.waiting = decider
                await self.send(page, messages.handover(session.game, decider))
                continue
            if page is first or only is not None or page.conn is None:   # built first (screens.py)
                await self.send(page, await self.answer(session, page))
            else:  # the others: built off the event loop when sent, the newest only (connections.py)
                page.conn.send_later(self.later(session, page))
            if page is first and len(pages) > 1:
                await asyncio.sleep(0)  # let its sender go before the others' messages are built

    def screens_of(self, session: TableGame) -> dict[tuple[int | None, str], dict]:
        """The messages of the game's position now, by seat and language: each built once per change of the
        game (:func:`messages.screen_key`), however many pages show it or ask again."""
        key = messages.screen_key(session.game, session.seats, len(session.undo_stack.checkpoints))
        known = self.screens.get(session.ident)
        if known is None or known[0] != key:
            known = self.screens[session.ident] = (key, {})
            session.drawings.forget()   # the pictures of the position before: not drawn again
        return known[1]

    def state_for(self, session: TableGame, seat: int | None, lang: str | None = None) -> dict:
        with session.lock:
            shown = languages.game_in(session, lang)  # the same game, its texts in the page's language
            # the seat's view, made once for the message and the undo check (a view of the game
            # itself: a mirror's is the same state, but the undo check reads the game's), from
            # the position's one copy of its entities (views.py)
            view = position_views(session, shown).view(seat)
            refusal = session.undo_refusal(seat, view if shown is session.game else None) if seat is not None \
                else Text("a spectator has nothing to undo")
            session.drawings.remote = self.drawer.remote(session) if self.drawer is not None else None
            with sharing(session.drawings):   # what the seats' pictures share, drawn once
                message = messages.seat_state(shown, seat, session.seats, shown.lang, view)
            message["decision"] = deciding.decision_id(session.game, seat) if message["decision"] is not None else None
            message["seat_name"] = i18n.translate(lang, message["seat_name"])  # "a spectator", in the page's words
            over = session.game.is_over
        message.update(mode="play", game=session.ident, can_undo=refusal is None and not over,
                       undo_reason=i18n.translate(lang, refusal or (Text("the game is over") if over else "")),
                       agent_thinking=session.agent_to_move(), creator=False)
        return message

    # ---- what pages send ------------------------------------------------------------------------

    async def on_play_message(self, ident: str, page: Page, data: dict) -> None:
        """One message of a page; a refusal is told to that page only, the game unchanged."""
        session = self.sessions[ident]
        seats = session.seating.seats_of(page.token)
        seat = page.seat
        kind = data["type"]
        error: str | None = None
        if kind == "ready":
            if page.waiting is None or page.waiting not in seats:
                error = Text("there is no hand-over to accept")
            else:
                page.seat, page.waiting = page.waiting, None
        elif kind in ("choose", "undo") and (seat is None or seat not in seats):
            error = Text("this page watches the game: open your seat's invite link to play")
        elif kind in ("choose", "undo") and page.waiting is not None:
            error = Text("the screen is being handed over: press the button first")
        elif kind == "choose" and seat is not None:
            error = await asyncio.to_thread(self.choose, session, page, seat, data.get("decision"), data.get("index"))
        elif kind == "undo" and seat is not None:
            error = session.undo(seat)
            error = Text("cannot undo: {reason}", reason=error) if error else None
        elif kind in ("invite", "replace"):
            error = await self.on_creator_message(session, page, data)
        else:
            error = Text("unknown message type {kind} (the table knows ready, choose, undo, invite, replace)",
                         kind=repr(kind[:30]))
        if error is None and kind != "ready":
            error = await self.persist(ident)  # committed before the pages hear of it
            if error:
                await self.error(page, error)
                await self.show(ident)
                return
        if error:
            await self.error(page, error)
            await self.show(ident, only=page)
            return
        await self.show(ident, first=page)
        self.drive(ident)

    def choose(self, session: TableGame, page: Page, seat: int, decision: Any, index: Any) -> str | None:
        """*seat*'s choice (the reason if refused) and, in the same thread, its page's screen of
        the position it made (cached: its answer, once the move is kept, without waiting for
        the builder thread and what it is building for other pages)."""
        with BUILDER.first_hand():   # the builder starts no other page's screen meanwhile
            error = session.choose(seat, decision, index)
            if error is None and page.waiting is None:
                self.screen(session, page.seat, page.lang, page.token)   # RETRY if the game is busy: built later
        return error

    async def on_creator_message(self, session: TableGame, page: Page, data: dict) -> str | None:
        if not session.seating.is_creator(page.token):
            return Text("only the page of the game's creator may hand out seats")
        seat = data.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(session.seats):
            return Text("no such seat")
        if data["type"] == "replace":
            return session.replace_by_agent(seat, data.get("agent"))
        try:
            token = session.seating.invite(seat)
        except ValueError as refusal:
            return refusal.args[0]
        await self.send(page, {"type": "invite", "seat": seat, "url": f"/play/{session.ident}#t={token}"})
        return None


# ---- HTTP -----------------------------------------------------------------------------------------

def create_app(table: Table | None = None) -> Starlette:
    """The web app; *table* holds its games (a fresh one unless given, e.g. by tests)."""
    table = table or Table()
    if table.store is not None and table.eviction.hook is None:  # a game leaving memory stays in the database
        table.eviction.hook = lambda ident, _session: table.evict(ident)
    catalogue: list[dict] = []

    def allowed(connection: HTTPConnection) -> bool:
        return origin_allowed(connection.headers.get("origin"), connection.headers.get("host"),
                              connection.url.scheme, table.bound, table.origins)

    def guarded(handler, limited: bool = False):
        """A route that answers every refusal and bad input with a 4xx JSON error; *limited*:
        its requests count against the address's rate (limits.py)."""
        async def route(request: Request) -> Response:
            try:
                if not allowed(request):
                    raise Refused(Text("pages of another site may not use this table"), 403)
                if limited:
                    table.gate.request(address_of(request))
                return await handler(request)
            except Refused as refusal:  # a Text refusal (limits.py) in the asker's language
                return JSONResponse({"error": i18n.translate(_lang_of(request), refusal.args[0])},
                                    status_code=refusal.status,
                                    headers=getattr(refusal, "headers", None))
            except RuleErrors as errors:   # a save's or a ruleset's rule errors, in the asker's language
                return JSONResponse({"error": i18n.translate(_lang_of(request), rule_errors(errors))}, status_code=400)
            except (SpeciationError, ValueError) as error:   # the engine's words, or what went wrong in the page's
                return JSONResponse({"error": engine_error(_lang_of(request), error)}, status_code=400)
        return route

    async def index(request: Request) -> Response:
        return _page("index.html", request)

    async def table_page(request: Request) -> Response:
        ident = request.path_params["ident"]
        if (await table.load_game(ident) is None) if request.url.path.startswith("/play/") else ident not in table.replays:
            return Response(i18n.translate(_lang_of(request), Text("no such game on this server (it may have been "
                                                                   "restarted)")), status_code=404)
        return _page("table.html", request)

    async def api_rulesets(request: Request) -> Response:
        if not catalogue:
            catalogue.extend(await asyncio.to_thread(offered_rulesets, table))
        return JSONResponse({"rulesets": catalogue, "agents": [HUMAN, *agent_names()],
                             "mods": sorted(table.mods)})

    async def api_new(request: Request) -> Response:
        body = await _json_body(request)
        name = text_field(body, "ruleset")
        if name is None:
            raise Refused(Text("name a ruleset ('ruleset')"))
        source = table.ruleset_source(name)
        mods = [table.mod_source(m) for m in names_field(body, "mods")]
        uploads = uploaded(body)  # mods brought as content (uploads.py)
        seats = names_field(body, "seats", 100)
        players = int_field(body, "players", len(seats) or None, 1, 100)
        listed = bool_field(body, "listed", False)
        ident, seed, variants = table.new_id(), int_field(body, "seed", None), names_field(body, "variants")
        lang, hotseat = text_field(body, "lang", None, 20), bool_field(body, "hotseat", True) and not listed
        table.gate.may_start(address := address_of(request), table.sessions)
        session = await asyncio.to_thread(with_uploads, uploads, lambda paths: TableGame.new(
            ident, source, players, seats, seed, variants, mods + paths, lang, hotseat))
        session.origin, session.mod_names, session.listed = name, names_field(body, "mods"), listed
        table.gate.started_game(address, ident)
        return await _kept(session)

    async def _kept(session: TableGame) -> Response:
        """A new game's links, once its record is committed."""
        links = _links(session)
        table.sessions[session.ident] = session
        problem = await table.persist(session.ident)
        if problem:
            table.sessions.pop(session.ident, None)
            raise Refused(problem, 503)
        return JSONResponse(links)

    async def api_mods(request: Request) -> Response:
        """Check uploaded mods against a ruleset (what they bring, or every error)."""
        body = await _json_body(request)
        source = table.ruleset_source(text_field(body, "ruleset") or "")
        mods = uploaded(body)
        if not mods:
            raise Refused(Text("upload at least one mod ({example})",
                               example="'uploads': [{\"name\": \"mod.yaml\", \"text\": ...}]"))
        return JSONResponse(await asyncio.to_thread(check_uploads, source, names_field(body, "variants"), mods,
                                                    load_ruleset))

    async def session_of(request: Request) -> TableGame:
        session = await table.load_game(request.path_params["ident"])
        if session is None:
            raise Refused(Text("no such game on this server"), 404)
        return session

    def shown_seat(session: TableGame, token: str | None, asked: Any) -> int | None:
        """The seat a request with *token* speaks for (the *asked* one if it holds it)."""
        seats = session.seating.seats_of(token)
        if len(seats) == 1:
            return seats[0]
        return asked if asked in seats else None

    async def api_save(request: Request) -> Response:
        session = await session_of(request)
        token = request.query_params.get("token")
        name = f"speciation-{session.game.ruleset.name}-{session.ident}"
        if session.game.is_over or session.seating.all_people_here(token):
            text = await asyncio.to_thread(session.save_json)
        else:
            asked = request.query_params.get("seat", "")
            seat = shown_seat(session, token, int(asked) if asked.isdigit() else None)
            text = await asyncio.to_thread(session.seat_record, seat)
            name += f"-{'seat' + str(seat + 1) if seat is not None else 'spectator'}-record"
        return Response(text, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}.json"'})

    async def api_resume(request: Request) -> Response:
        text = (await _body(request)).decode("utf-8", "replace")
        lang = text_field(dict(request.query_params), "lang", None, 20)
        ident = table.new_id()
        if request.url.path.endswith("/replay"):
            table.replays[ident] = await asyncio.to_thread(Replay.from_save, ident, text, lang, table.rulesets)
            return JSONResponse({"url": f"/replay/{ident}"})
        hotseat = request.query_params.get("hotseat", "1") != "0"
        table.gate.may_start(address := address_of(request), table.sessions)
        session = await asyncio.to_thread(TableGame.resume, ident, text, None, lang, hotseat, table.rulesets)
        session.origin = _origin(table, text, session)
        table.gate.started_game(address, ident)
        return await _kept(session)

    async def api_replay_of(request: Request) -> Response:
        session = await session_of(request)
        body = await _json_body(request)
        token = text_field(body, "token", None, 100)
        if session.game.is_over or session.seating.all_people_here(token):
            only: int | None | bool = False
        else:
            only = shown_seat(session, token, body.get("seat"))
        ident = table.new_id()
        table.replays[ident] = Replay.of(ident, session, only)
        return JSONResponse({"url": f"/replay/{ident}"})

    async def ws_play(socket: WebSocket) -> None:
        if not allowed(socket):
            await socket.close(code=1008)  # before accepting: the handshake is refused (403)
            return
        ident = socket.path_params["ident"]
        session = await table.load_game(ident)
        await socket.accept()
        if why := table.gate.open_page(address := address_of(socket)):
            return await close_with(socket, why, _lang_of(socket))
        if session is None:
            table.gate.close_page(address)
            why = table.unloadable.get(ident) or Text("no such game on this server")
            await socket.send_text(json.dumps({"type": "error", "text": i18n.translate(_lang_of(socket), why)}))
            await socket.close()
            return
        lang = _lang_of(socket)
        conn = Connection(socket, patches=socket.query_params.get("patch") == "1", lang=lang)   # table.js takes patches
        page = Page(socket, token=socket.query_params.get("token") or None, conn=conn, lang=lang)
        conn.start()
        table.eviction.start(table)
        if page.token and not session.seating.seats_of(page.token) and not session.seating.is_creator(page.token):
            await table.error(page, Text("this link's token is not (or no longer) valid for this game: "
                                         "you are watching as a spectator"))
        table.pages.setdefault(ident, []).append(page)
        await table.claim(ident, page.token)
        try:
            await table.show(ident, only=page)
            table.drive(ident)
            while (event := await conn.receive()) is not None:  # within its rate limit
                try:
                    data = parse_message(event.get("text") if event.get("text") is not None else event.get("bytes"))
                except Refused as refusal:
                    await table.error(page, refusal.args[0])
                    continue
                if ident not in table.sessions:  # evicted meanwhile
                    break
                await table.on_play_message(ident, page, data)
        except (WebSocketDisconnect, RuntimeError):  # the page closed
            pass
        finally:
            if page in table.pages.get(ident, []):
                table.pages[ident].remove(page)
            table.eviction.touch(ident)
            table.gate.close_page(address)
            await conn.finish()

    routes = [
        Route("/", index),
        Route("/play/{ident}", table_page),
        Route("/replay/{ident}", table_page),
        Route("/api/rulesets", guarded(api_rulesets)),
        Route("/api/games", guarded(api_new, limited=True), methods=["POST"]),
        Route("/api/mods", guarded(api_mods, limited=True), methods=["POST"]),
        Route("/api/games/{ident}/save", guarded(api_save, limited=True)),
        Route("/api/games/{ident}/replay", guarded(api_replay_of, limited=True), methods=["POST"]),
        Route("/api/resume", guarded(api_resume, limited=True), methods=["POST"]),
        Route("/api/replay", guarded(api_resume, limited=True), methods=["POST"]),
        WebSocketRoute("/ws/play/{ident}", ws_play),
        WebSocketRoute("/ws/replay/{ident}", lambda socket: ws_replay(table, socket, allowed, Page)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    routes[-1:-1] = lobby_routes(table, guarded, _json_body)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        await table.open_store()
        try:
            yield
        finally:
            await table.close_store()
            for pool in (table.drawer, table.thinking):
                if pool is not None:
                    pool.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.table = table
    return app
