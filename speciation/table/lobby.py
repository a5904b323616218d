"""The lobby: what a server offers (its rulesets, for the new-game page), the open games
with free seats, joining one, and "your games" — the games whose tokens a browser holds
(in its localStorage, never sent but to this server) with whose turn it is.

Nothing here shows a token, a seed or anything of a game's hidden state: a listing names
the ruleset, the seats' kinds, which seats are free and whose turn it is.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..dsl.errors import RuleErrors, SpeciationError
from ..dsl.loader import load_file
from ..interpreter.ruleset import available_rulesets, find_ruleset, load_ruleset, variant_files
from ..i18n import Text
from .guard import Refused
from .persist import record_of
from .seats import HUMAN, Seating
from .store import GameRecord

Table = Any  # the app's Table (app.py imports this module, so not the other way)

MINE_LIMIT = 100   # games a page may ask about at once


def offered_rulesets(table: Table) -> list[dict]:
    """The rulesets of the new-game page: the built-in ones and the folders the server was
    started with (by name), each with its variants, player counts and languages."""
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


def _seats(record: GameRecord) -> list[dict]:
    kinds = list(record.seating.get("kinds") or [])
    claimed = (list(record.claimed) + [False] * len(kinds))[:len(kinds)]
    return [{"seat": s, "kind": kind, "free": kind == HUMAN and not claimed[s]} for s, kind in enumerate(kinds)]


def _deciding(record: GameRecord) -> list[int]:
    """Every seat deciding now (several while seats decide at once; a record kept before the
    table kept them names only the first)."""
    if record.finished:
        return []
    if record.deciding is not None:
        return list(record.deciding)
    return [record.turn] if record.turn is not None else []


def _summary(record: GameRecord) -> dict:
    return {"game": record.ident, "ruleset": record.ruleset, "title": record.title or record.ruleset,
            "players": record.players, "seats": _seats(record), "turn": record.turn,
            "deciding": _deciding(record),
            "decisions": record.decided if record.decided is not None else len(record.decisions),
            "finished": record.finished,
            "updated": record.updated.isoformat() if record.updated else None, "spectate": f"/play/{record.ident}"}


async def _records(table: Table, idents: list[str] | None = None) -> list[GameRecord]:
    """Records of the named games (None: the listed unfinished ones), from the database if the
    table keeps one, else from memory."""
    if table.store is not None:
        if idents is None:
            return await table.store.records(listed=True, finished=False)
        return await table.store.records(idents)
    sessions = [s for i, s in table.sessions.items() if (i in idents if idents is not None else s.listed)]
    records = [record_of(s) for s in sessions]
    return [r for r in records if idents is not None or not r.finished]


def lobby_routes(table: Table, guarded: Callable, json_body: Callable[[Request], Awaitable[dict[str, Any]]]) -> list:
    async def api_lobby(request: Request) -> Response:
        games = [_summary(r) for r in await _records(table)]
        return JSONResponse({"games": [g for g in games if any(seat["free"] for seat in g["seats"])]})

    async def api_join(request: Request) -> Response:
        ident = request.path_params["ident"]
        session = await table.load_game(ident)
        if session is None:
            raise Refused(Text("no such game on this server"), 404)
        if not session.listed:
            raise Refused(Text("this game is not open to join: ask its creator for an invite link"), 403)
        if session.game.is_over:
            raise Refused(Text("this game is over"))
        claimed = (list(session.claimed) + [False] * len(session.seats))[:len(session.seats)]
        free = [s for s in session.seating.people if not claimed[s]]
        if not free:
            raise Refused(Text("every seat of this game is taken: you can watch it"), 409)
        token = session.seating.invite(free[0])
        claimed[free[0]] = True
        session.claimed = claimed
        problem = await table.persist(ident)
        if problem:
            raise Refused(problem, 409)
        await table.show(ident)
        return JSONResponse({"game": ident, "seat": free[0], "url": f"/play/{ident}#t={token}"})

    async def api_mine(request: Request) -> Response:
        body = await json_body(request)
        asked = body.get("games")
        if not isinstance(asked, list) or len(asked) > MINE_LIMIT:
            raise Refused(Text("'games' must be a list of at most {most} {example}", most=MINE_LIMIT,
                               example="{game, token}"))
        tokens: dict[str, str] = {}
        for item in asked:
            if isinstance(item, dict) and isinstance(item.get("game"), str) and isinstance(item.get("token"), str):
                tokens[item["game"][:64]] = item["token"][:100]
        out = []
        for record in await _records(table, list(tokens)):
            data = record.seating
            seating = Seating(kinds=list(data.get("kinds") or []), hashes=list(data.get("hashes") or []),
                              creator=data.get("creator"), hotseat=bool(data.get("hotseat")))
            token = tokens[record.ident]
            seats = seating.seats_of(token)
            if not seats and not seating.is_creator(token):
                continue  # not (or no longer) this browser's game
            summary = _summary(record)
            summary.update(mine=seats, yours=any(seat in seats for seat in summary["deciding"]))
            out.append(summary)
        out.sort(key=lambda g: (not g["yours"], g["finished"]))
        return JSONResponse({"games": out})

    return [Route("/api/lobby", guarded(api_lobby)),
            Route("/api/games/{ident}/join", guarded(api_join), methods=["POST"]),
            Route("/api/mine", guarded(api_mine), methods=["POST"])]
