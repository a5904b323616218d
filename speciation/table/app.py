"""The table's web app (Starlette): pages, a small JSON API, and one websocket per page.

Pages are static files; the websocket carries the game. Agents play server-side, in a
worker thread, so the page stays live. See ``docs/table.md``.
"""
from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..dsl.errors import RuleErrors, SpeciationError
from ..dsl.loader import load_file
from ..interpreter.ruleset import available_rulesets, find_ruleset, load_ruleset, variant_files
from . import messages
from .session import HUMAN, Replay, TableGame, agent_names

STATIC = Path(__file__).parent / "static"


@dataclass
class Page:
    """One open page: the websocket, and whose view it shows."""

    socket: WebSocket
    seat: int = 0                # the seat shown now
    fixed: bool = False          # the page asked for one seat (?seat=N): no hand-over
    waiting: int | None = None   # hot-seat: the seat the page is being handed to
    step: int = 0                # replay: the decision shown


@dataclass
class Table:
    """Every game and replay the server holds, and the pages watching them."""

    agent_delay: float = 0.4
    sessions: dict[str, TableGame] = field(default_factory=dict)
    replays: dict[str, Replay] = field(default_factory=dict)
    pages: dict[str, list[Page]] = field(default_factory=dict)
    drivers: dict[str, asyncio.Task] = field(default_factory=dict)
    sent: list[tuple[int, dict]] = field(default_factory=list)   # (seat, message), when recording
    record: bool = False

    def new_id(self) -> str:
        return secrets.token_urlsafe(6)

    # ---- sending --------------------------------------------------------------------------

    async def send(self, page: Page, message: dict) -> None:
        if self.record:
            self.sent.append((page.seat if message.get("type") == "state" else -1, message))
        try:
            await page.socket.send_text(json.dumps(message))
        except Exception:  # the page went away; it is dropped on disconnect
            pass

    async def show(self, ident: str) -> None:
        """Send every page of game *ident* what its seat sees now (or a hand-over screen)."""
        session = self.sessions[ident]
        cache: dict[int, dict] = {}
        for page in list(self.pages.get(ident, [])):
            decider = session.decider
            if not page.fixed and decider is not None and session.human(decider) and decider != page.seat:
                page.waiting = decider
                await self.send(page, messages.handover(session.game, decider))
                continue
            if page.seat not in cache:
                cache[page.seat] = self.state_for(session, page.seat)
            await self.send(page, cache[page.seat])

    def state_for(self, session: TableGame, seat: int) -> dict:
        with session.lock:
            message = messages.seat_state(session.game, seat, session.seats, session.lang)
            refusal = session.undo_refusal(seat)
        message.update(mode="play", game=session.ident, can_undo=refusal is None, undo_reason=refusal or "",
                       agent_thinking=session.agent_to_move())
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
                    await self.send(page, {"type": "error", "text": f"an agent could not move: {error}"})
                return
            await self.show(ident)
            if not moved:
                break

    # ---- what pages send ------------------------------------------------------------------------

    async def on_play_message(self, ident: str, page: Page, data: dict) -> None:
        session = self.sessions[ident]
        kind = data.get("type")
        if kind == "ready" and page.waiting is not None:
            page.seat, page.waiting = page.waiting, None
        elif kind == "choose" and page.seat is not None and page.waiting is None:
            error = await asyncio.to_thread(session.choose, page.seat, data.get("index"))
            if error:
                await self.send(page, {"type": "error", "text": error})
        elif kind == "undo" and page.seat is not None:
            error = session.undo(page.seat)
            if error:
                await self.send(page, {"type": "error", "text": f"cannot undo: {error}"})
        await self.show(ident)
        self.drive(ident)

    async def show_replay(self, ident: str, page: Page) -> None:
        replay = self.replays[ident]
        message = await asyncio.to_thread(_replay_state, replay, page.step, page.seat or 0)
        message["game"] = ident
        page.step = message["step"]
        await self.send(page, message)


def _replay_state(replay: Replay, step: int, seat: int) -> dict:
    """Seat *seat*'s view of a replay after *step* decisions (no options: nothing to decide)."""
    game = replay.game_at(step)
    message = messages.seat_state(game, seat, replay.seats, replay.lang)
    message.update(mode="replay", options=[], yours=False, step=replay.step, total=len(replay.decisions),
                   error=replay.error or "", can_undo=False,
                   seats=[messages.player_name(game, s) for s in range(replay.players)])
    return message


# ---- HTTP -----------------------------------------------------------------------------------------

def _rulesets() -> list[dict]:
    out = []
    for name in available_rulesets():
        try:
            ruleset = load_ruleset(name)
        except (RuleErrors, SpeciationError):
            continue
        variants = []
        for variant, path in variant_files(find_ruleset(name)).items():
            try:
                document, _ = load_file(str(path))
                title = str(document.get("title", "")) if isinstance(document, dict) else ""
            except SpeciationError:
                title = ""
            variants.append({"name": variant, "title": title})
        out.append({"name": name, "title": ruleset.title or name, "min": ruleset.min_players,
                    "max": ruleset.max_players, "variants": variants, "langs": sorted(ruleset.labels)})
    return out


def create_app(table: Table | None = None) -> Starlette:
    """The web app; *table* holds its games (a fresh one unless given, e.g. by tests)."""
    table = table or Table()
    catalogue: list[dict] = []

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def table_page(request: Request) -> Response:
        known = table.sessions if request.url.path.startswith("/play/") else table.replays
        if request.path_params["ident"] not in known:
            return Response("no such game on this server (it may have been restarted)", status_code=404)
        return FileResponse(STATIC / "table.html")

    async def api_rulesets(request: Request) -> Response:
        if not catalogue:
            catalogue.extend(await asyncio.to_thread(_rulesets))
        return JSONResponse({"rulesets": catalogue, "agents": [HUMAN, *agent_names()]})

    async def api_new(request: Request) -> Response:
        body = await _json(request)
        ident = table.new_id()
        try:
            session = await asyncio.to_thread(
                TableGame.new, ident, str(body.get("ruleset", "")), int(body.get("players") or 0),
                list(body.get("seats") or []), int(body.get("seed") or 0), list(body.get("variants") or []),
                list(body.get("mods") or []), body.get("lang") or None)
        except RuleErrors as errors:
            return JSONResponse({"error": errors.format()}, status_code=400)
        except (SpeciationError, ValueError, TypeError) as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        table.sessions[ident] = session
        return JSONResponse({"url": f"/play/{ident}"})

    async def api_save(request: Request) -> Response:
        session = table.sessions.get(request.path_params["ident"])
        if session is None:
            return Response("no such game", status_code=404)
        name = f"speciation-{session.game.ruleset.name}-{session.ident}.json"
        return Response(session.save_json(), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def api_resume(request: Request) -> Response:
        text = (await request.body()).decode("utf-8", "replace")
        ident = table.new_id()
        lang = request.query_params.get("lang") or None
        try:
            if request.url.path.endswith("/replay"):
                table.replays[ident] = await asyncio.to_thread(Replay.from_save, ident, text, lang)
                return JSONResponse({"url": f"/replay/{ident}"})
            table.sessions[ident] = await asyncio.to_thread(TableGame.resume, ident, text, None, lang)
        except (SpeciationError, ValueError, KeyError, TypeError) as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        return JSONResponse({"url": f"/play/{ident}"})

    async def api_replay_of(request: Request) -> Response:
        session = table.sessions.get(request.path_params["ident"])
        if session is None:
            return JSONResponse({"error": "no such game"}, status_code=404)
        ident = table.new_id()
        try:
            table.replays[ident] = Replay.of(ident, session)
        except SpeciationError as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        return JSONResponse({"url": f"/replay/{ident}"})

    async def ws_play(socket: WebSocket) -> None:
        ident = socket.path_params["ident"]
        session = table.sessions.get(ident)
        await socket.accept()
        if session is None:
            await socket.send_text(json.dumps({"type": "error", "text": "no such game"}))
            await socket.close()
            return
        page = _page_for(socket, session)
        table.pages.setdefault(ident, []).append(page)
        try:
            await table.show(ident)
            table.drive(ident)
            while True:
                data = json.loads(await socket.receive_text())
                await table.on_play_message(ident, page, data if isinstance(data, dict) else {})
        except (WebSocketDisconnect, RuntimeError):  # the page closed
            pass
        finally:
            table.pages[ident].remove(page)

    async def ws_replay(socket: WebSocket) -> None:
        ident = socket.path_params["ident"]
        await socket.accept()
        if ident not in table.replays:
            await socket.send_text(json.dumps({"type": "error", "text": "no such replay"}))
            await socket.close()
            return
        page = Page(socket, seat=_seat_param(socket) or 0, fixed=True)
        try:
            await table.show_replay(ident, page)
            while True:
                data = json.loads(await socket.receive_text())
                if isinstance(data, dict) and data.get("type") == "step":
                    page.step = int(data.get("to", 0))
                if isinstance(data, dict) and data.get("type") == "seat":
                    page.seat = int(data.get("seat", 0)) % table.replays[ident].players
                await table.show_replay(ident, page)
        except (WebSocketDisconnect, RuntimeError):  # the page closed
            pass

    routes = [
        Route("/", index),
        Route("/play/{ident}", table_page),
        Route("/replay/{ident}", table_page),
        Route("/api/rulesets", api_rulesets),
        Route("/api/games", api_new, methods=["POST"]),
        Route("/api/games/{ident}/save", api_save),
        Route("/api/games/{ident}/replay", api_replay_of, methods=["POST"]),
        Route("/api/resume", api_resume, methods=["POST"]),
        Route("/api/replay", api_resume, methods=["POST"]),
        WebSocketRoute("/ws/play/{ident}", ws_play),
        WebSocketRoute("/ws/replay/{ident}", ws_replay),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.table = table
    return app


async def _json(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _seat_param(socket: WebSocket) -> int | None:
    text = socket.query_params.get("seat")
    return int(text) if text and text.isdigit() else None


def _page_for(socket: WebSocket, session: TableGame) -> Page:
    """Which seat a new page shows: the one it asks for, else the person deciding (or the
    first person; seat 0 when only agents play)."""
    asked = _seat_param(socket)
    if asked is not None and 0 <= asked < len(session.seats):
        return Page(socket, seat=asked, fixed=True)
    humans = session.humans
    decider = session.decider
    seat = decider if decider in humans else (humans[0] if humans else 0)
    return Page(socket, seat=seat, fixed=len(humans) <= 1)
