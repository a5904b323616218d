"""The table's web app (Starlette): pages, a small JSON API, and one websocket per page.

Pages are static files; the websocket carries the game. A page acts only for the seats
whose token it holds (:mod:`.seats`); without one it is a spectator. Agents play
server-side, in a worker thread, so the page stays live. See ``docs/table.md``.
"""
from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..dsl.errors import RuleErrors, SpeciationError
from ..dsl.loader import load_file
from ..interpreter.ruleset import available_rulesets, find_ruleset, load_ruleset, variant_files
from .. import i18n
from ..i18n import Text
from . import languages, messages
from .guard import (MAX_BODY, Refused, bool_field, int_field, names_field, origin_allowed, parse_message,
                    text_field)
from .session import HUMAN, Replay, TableGame, agent_names

STATIC = Path(__file__).parent / "static"


@dataclass
class Page:
    """One open page: the websocket, the token it holds, and whose view it shows."""

    socket: WebSocket
    token: str | None = None     # the credential the page was opened with (None: a spectator)
    seat: int | None = None      # the seat shown now (None: what every seat sees)
    waiting: int | None = None   # hot-seat: the seat the page is being handed to
    step: int = 0                # replay: the decision shown
    lang: str = i18n.DEFAULT     # the language of the page's own words (?lang=, Accept-Language)


@dataclass
class Table:
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

    def new_id(self) -> str:
        return secrets.token_urlsafe(9)

    def ruleset_source(self, name: str) -> str:
        """What to load for ruleset *name*: a built-in's name or a listed folder; never a
        path a page names."""
        if name in self.rulesets:
            return self.rulesets[name]
        if name in available_rulesets():
            return name
        raise Refused(f"no ruleset named {name[:60]!r} on this server (offered: "
                      f"{', '.join(sorted({*available_rulesets(), *self.rulesets}))})")

    def mod_source(self, name: str) -> str:
        if name in self.mods:
            return self.mods[name]
        offered = ", ".join(sorted(self.mods)) or "none"
        raise Refused(f"no mod named {name[:60]!r} on this server (mods are offered by name by the person "
                      f"running it, serve --mod DIR; offered: {offered})")

    # ---- sending --------------------------------------------------------------------------

    async def send(self, page: Page, message: dict) -> None:
        if self.record:
            self.sent.append((page.seat if message.get("type") == "state" else -1, message))
        try:
            await page.socket.send_text(json.dumps(message))
        except Exception:  # the page went away; it is dropped on disconnect
            pass

    async def error(self, page: Page, text: str) -> None:
        await self.send(page, {"type": "error", "text": i18n.translate(page.lang, text)})

    async def show(self, ident: str, only: Page | None = None) -> None:
        """Send every page of game *ident* (or just *only*) what its seat sees now, or a
        hand-over screen when a hot-seat page passes to another person."""
        session = self.sessions[ident]
        cache: dict[tuple[int | None, str], dict] = {}
        for page in [only] if only else list(self.pages.get(ident, [])):
            seats = session.seating.seats_of(page.token)
            decider = session.decider
            if page.seat is not None and page.seat not in seats:
                page.seat = None  # its seat was given to an agent, or its link replaced
            if len(seats) == 1:
                page.seat, page.waiting = seats[0], None
            elif len(seats) > 1 and decider in seats and decider != page.seat:
                page.waiting = decider
                await self.send(page, messages.handover(session.game, decider))
                continue
            if (page.seat, page.lang) not in cache:
                cache[page.seat, page.lang] = self.state_for(session, page.seat, page.lang)
            message = cache[page.seat, page.lang]
            if session.seating.is_creator(page.token):
                message = dict(message, creator=True, agents=agent_names(), hotseat=session.seating.hotseat)
            await self.send(page, message)

    def state_for(self, session: TableGame, seat: int | None, lang: str | None = None) -> dict:
        with session.lock:
            shown = languages.game_in(session, lang)  # the same game, its texts in the page's language
            message = messages.seat_state(shown, seat, session.seats, shown.lang)
            message["decision"] = session.game.decision_id if message["decision"] is not None else None
            message["seat_name"] = i18n.translate(lang, message["seat_name"])  # "a spectator", in the page's words
            refusal = session.undo_refusal(seat) if seat is not None else Text("a spectator has nothing to undo")
            over = session.game.is_over
        message.update(mode="play", game=session.ident, can_undo=refusal is None and not over,
                       undo_reason=i18n.translate(lang, refusal or (Text("the game is over") if over else "")),
                       agent_thinking=session.agent_to_move(), creator=False)
        return message

    # ---- agents -----------------------------------------------------------------------------

    def drive(self, ident: str) -> None:
        """Start the agents of game *ident* if one must move and none is running."""
        task = self.drivers.get(ident)
        if task is None or task.done():
            self.drivers[ident] = asyncio.get_running_loop().create_task(self._drive(ident))

    async def _drive(self, ident: str) -> None:
        session = self.sessions[ident]
        while session.agent_to_move():
            if self.agent_delay:
                await asyncio.sleep(self.agent_delay)
            try:
                moved = await asyncio.to_thread(session.agent_step)
            except Exception as error:  # an agent or rule failure: tell the pages
                for page in self.pages.get(ident, []):
                    await self.error(page, f"an agent could not move: {error}")
                return
            await self.show(ident)
            if not moved:
                break

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
            error = await asyncio.to_thread(session.choose, seat, data.get("decision"), data.get("index"))
        elif kind == "undo" and seat is not None:
            error = session.undo(seat)
            error = Text("cannot undo: {reason}", reason=error) if error else None
        elif kind in ("invite", "replace"):
            error = await self.on_creator_message(session, page, data)
        else:
            error = f"unknown message type {kind[:30]!r} (the table knows ready, choose, undo, invite, replace)"
        if error:
            await self.error(page, error)
            await self.show(ident, only=page)
            return
        await self.show(ident)
        self.drive(ident)

    async def on_creator_message(self, session: TableGame, page: Page, data: dict) -> str | None:
        if not session.seating.is_creator(page.token):
            return Text("only the page of the game's creator may hand out seats")
        seat = data.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(session.seats):
            return "no such seat"
        if data["type"] == "replace":
            return session.replace_by_agent(seat, data.get("agent"))
        try:
            token = session.seating.invite(seat)
        except ValueError as refusal:
            return str(refusal)
        await self.send(page, {"type": "invite", "seat": seat, "url": f"/play/{session.ident}#t={token}"})
        return None

    async def show_replay(self, ident: str, page: Page) -> None:
        replay = self.replays[ident]
        message = await asyncio.to_thread(_replay_state, replay, page.step, page.seat)
        message["game"] = ident
        page.step = message["step"]
        await self.send(page, message)


def _replay_state(replay: Replay, step: int, seat: int | None) -> dict:
    """Seat *seat*'s view of a replay after *step* decisions (no options: nothing to decide)."""
    game = replay.game_at(step)
    message = messages.seat_state(game, seat, replay.seats, replay.lang)
    names = [messages.player_name(game, s) for s in range(replay.players)]
    message.update(mode="replay", options=[], yours=False, step=replay.step, total=len(replay.decisions),
                   error=replay.error or "", can_undo=False, locked=replay.only is not False,
                   seats=names if replay.only is False else [])
    return message


def _links(session: TableGame) -> dict:
    """New credentials for a game: the creator's link, an invite per person seat, the
    spectator's link (paths; the token is in the fragment, never sent in a page request)."""
    creator, invites = session.seating.issue()
    ident = session.ident
    return {"game": ident, "url": f"/play/{ident}#t={creator}", "spectator": f"/play/{ident}",
            "hotseat": session.seating.hotseat,
            "invites": [{"seat": seat, "name": messages.player_name(session.game, seat), "url": f"/play/{ident}#t={t}"}
                        for seat, t in invites.items()]}


# ---- HTTP -----------------------------------------------------------------------------------------

def _rulesets(table: Table) -> list[dict]:
    out = []
    for name in [*available_rulesets(), *sorted(table.rulesets)]:
        try:
            source = table.ruleset_source(name)
            ruleset = load_ruleset(source)
            folder = find_ruleset(source)
        except (RuleErrors, SpeciationError, Refused):
            continue
        variants = []
        for variant, path in variant_files(folder).items():
            try:
                document, _ = load_file(str(path))
                title = str(document.get("title", "")) if isinstance(document, dict) else ""
            except SpeciationError:
                title = ""
            variants.append({"name": variant, "title": title,  # and in the ruleset's languages:
                             "titles": {lang: p[title] for lang, p in ruleset.phrases.items() if title in p}})
        out.append({"name": name, "title": ruleset.title or name, "min": ruleset.min_players,
                    "titles": {lang: p[ruleset.title] for lang, p in ruleset.phrases.items() if ruleset.title in p},
                    "max": ruleset.max_players, "variants": variants, "langs": sorted(ruleset.labels)})
    return out


def create_app(table: Table | None = None) -> Starlette:
    """The web app; *table* holds its games (a fresh one unless given, e.g. by tests)."""
    table = table or Table()
    catalogue: list[dict] = []

    def allowed(connection: HTTPConnection) -> bool:
        return origin_allowed(connection.headers.get("origin"), connection.headers.get("host"),
                              connection.url.scheme, table.bound, table.origins)

    def guarded(handler):
        """A route that answers every refusal and bad input with a 4xx JSON error."""
        async def route(request: Request) -> Response:
            try:
                if not allowed(request):
                    raise Refused("pages of another site may not use this table", 403)
                return await handler(request)
            except Refused as refusal:
                return JSONResponse({"error": str(refusal)}, status_code=refusal.status)
            except RuleErrors as errors:
                return JSONResponse({"error": errors.format()}, status_code=400)
            except (SpeciationError, ValueError) as error:
                return JSONResponse({"error": str(error)}, status_code=400)
        return route

    async def index(request: Request) -> Response:
        return _page("index.html", request)

    async def table_page(request: Request) -> Response:
        known = table.sessions if request.url.path.startswith("/play/") else table.replays
        if request.path_params["ident"] not in known:
            return Response("no such game on this server (it may have been restarted)", status_code=404)
        return _page("table.html", request)

    async def api_rulesets(request: Request) -> Response:
        if not catalogue:
            catalogue.extend(await asyncio.to_thread(_rulesets, table))
        return JSONResponse({"rulesets": catalogue, "agents": [HUMAN, *agent_names()],
                             "mods": sorted(table.mods)})

    async def api_new(request: Request) -> Response:
        body = await _json_body(request)
        name = text_field(body, "ruleset")
        if name is None:
            raise Refused("name a ruleset ('ruleset')")
        source = table.ruleset_source(name)
        mods = [table.mod_source(m) for m in names_field(body, "mods")]
        seats = names_field(body, "seats", 100)
        players = int_field(body, "players", len(seats) or None, 1, 100)
        session = await asyncio.to_thread(
            TableGame.new, table.new_id(), source, players, seats, int_field(body, "seed", None),
            names_field(body, "variants"), mods, text_field(body, "lang", None, 20),
            bool_field(body, "hotseat", True))
        table.sessions[session.ident] = session
        return JSONResponse(_links(session))

    def session_of(request: Request) -> TableGame:
        session = table.sessions.get(request.path_params["ident"])
        if session is None:
            raise Refused("no such game on this server", 404)
        return session

    def shown_seat(session: TableGame, token: str | None, asked: Any) -> int | None:
        """The seat a request with *token* speaks for (the *asked* one if it holds it)."""
        seats = session.seating.seats_of(token)
        if len(seats) == 1:
            return seats[0]
        return asked if asked in seats else None

    async def api_save(request: Request) -> Response:
        session = session_of(request)
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
            table.replays[ident] = await asyncio.to_thread(Replay.from_save, ident, text, lang)
            return JSONResponse({"url": f"/replay/{ident}"})
        hotseat = request.query_params.get("hotseat", "1") != "0"
        session = await asyncio.to_thread(TableGame.resume, ident, text, None, lang, hotseat)
        table.sessions[ident] = session
        return JSONResponse(_links(session))

    async def api_replay_of(request: Request) -> Response:
        session = session_of(request)
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
        session = table.sessions.get(ident)
        await socket.accept()
        if session is None:
            await socket.send_text(json.dumps({"type": "error", "text": "no such game on this server"}))
            await socket.close()
            return
        page = Page(socket, token=socket.query_params.get("token") or None, lang=_lang_of(socket))
        if page.token and not session.seating.seats_of(page.token) and not session.seating.is_creator(page.token):
            await table.error(page, "this link's token is not (or no longer) valid for this game: "
                                    "you are watching as a spectator")
        table.pages.setdefault(ident, []).append(page)
        try:
            await table.show(ident, only=page)
            table.drive(ident)
            while True:
                event = await socket.receive()
                if event["type"] == "websocket.disconnect":
                    break
                try:
                    data = parse_message(event.get("text") if event.get("text") is not None else event.get("bytes"))
                except Refused as refusal:
                    await table.error(page, str(refusal))
                    continue
                await table.on_play_message(ident, page, data)
        except (WebSocketDisconnect, RuntimeError):  # the page closed
            pass
        finally:
            table.pages[ident].remove(page)

    async def ws_replay(socket: WebSocket) -> None:
        if not allowed(socket):
            await socket.close(code=1008)
            return
        ident = socket.path_params["ident"]
        await socket.accept()
        replay = table.replays.get(ident)
        if replay is None:
            await socket.send_text(json.dumps({"type": "error", "text": "no such replay"}))
            await socket.close()
            return
        asked = _seat_param(socket)
        seat = (asked if asked is not None and asked < replay.players else 0) if replay.only is False else replay.only
        page = Page(socket, seat=seat, lang=_lang_of(socket))
        try:
            await table.show_replay(ident, page)
            while True:
                event = await socket.receive()
                if event["type"] == "websocket.disconnect":
                    break
                try:
                    data = parse_message(event.get("text") if event.get("text") is not None else event.get("bytes"))
                    if data["type"] == "step":
                        page.step = int_field(data, "to", 0, 0, 10**9) or 0
                    elif data["type"] == "seat":
                        if replay.only is not False:
                            raise Refused("this replay shows only what you saw: no other seat's view")
                        page.seat = int_field(data, "seat", 0, 0, replay.players - 1)
                    else:
                        raise Refused(f"unknown message type {data['type'][:30]!r} (a replay knows step, seat)")
                except Refused as refusal:
                    await table.send(page, {"type": "error", "text": str(refusal)})
                    continue
                await table.show_replay(ident, page)
        except (WebSocketDisconnect, RuntimeError):  # the page closed
            pass

    routes = [
        Route("/", index),
        Route("/play/{ident}", table_page),
        Route("/replay/{ident}", table_page),
        Route("/api/rulesets", guarded(api_rulesets)),
        Route("/api/games", guarded(api_new), methods=["POST"]),
        Route("/api/games/{ident}/save", guarded(api_save)),
        Route("/api/games/{ident}/replay", guarded(api_replay_of), methods=["POST"]),
        Route("/api/resume", guarded(api_resume), methods=["POST"]),
        Route("/api/replay", guarded(api_resume), methods=["POST"]),
        WebSocketRoute("/ws/play/{ident}", ws_play),
        WebSocketRoute("/ws/replay/{ident}", ws_replay),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.table = table
    return app


async def _body(request: Request) -> bytes:
    """The request's body, refused (413) past :data:`MAX_BODY` bytes."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        raise Refused(f"a request may not be larger than {MAX_BODY // 2**20} MB", 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise Refused(f"a request may not be larger than {MAX_BODY // 2**20} MB", 413)
        chunks.append(chunk)
    return b"".join(chunks)


async def _json_body(request: Request) -> dict[str, Any]:
    try:
        body = json.loads(await _body(request) or b"{}")
    except (ValueError, RecursionError):
        raise Refused("the request's body must be JSON") from None
    if not isinstance(body, dict):
        raise Refused("the request's body must be a JSON object")
    return body


def _lang_of(connection: HTTPConnection) -> str:
    """A page's language: ``?lang=``, else its Accept-Language, else English."""
    return i18n.choose(connection.query_params.get("lang"), connection.headers.get("accept-language"))


def _page(name: str, request: Request) -> Response:
    """A static page in its reader's language (its catalog given to ``static/i18n.js``)."""
    return HTMLResponse(i18n.page((STATIC / name).read_text(encoding="utf-8"), _lang_of(request)))


def _seat_param(socket: WebSocket) -> int | None:
    text = socket.query_params.get("seat")
    return int(text) if text and text.isdigit() and len(text) < 4 else None
