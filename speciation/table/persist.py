"""A table game and its database record (:class:`.store.GameRecord`): the record of a
session, and a session rebuilt from its record by replaying its decisions from the seed.

The ruleset and mods are found by the names the server offers them under (built-in names,
``serve --ruleset DIR``, ``serve --mod PATH``), never by a path kept in the database; a mod
must still have the content it had when the game began (its digest is in the record).
"""
from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from pathlib import Path

from ..api import replay
from ..agents.registry import make_agent
from ..dsl.errors import SaveFileError, SpeciationError
from ..i18n import Text
from ..interpreter.ruleset import load_ruleset
from ..undo import UndoStack
from .deciding import apply_recorded
from .seats import HUMAN, Seating
from .session import TableGame
from .store import Conflict, GameRecord, Store
from .uploads import is_upload, upload_path


def record_of(session: TableGame) -> GameRecord:
    """The record of *session* now (its version: the one it was last stored at)."""
    with session.lock:
        game = session.game
        history = game.history
        if history is None:
            raise SaveFileError("this game has no decision history, so it cannot be kept")
        digests = list(game.ruleset.mod_digests)
        mods, texts = _mods_of(session, digests)
        people = session.seating.people
        claimed = (list(session.claimed) + [False] * len(session.seats))[:len(session.seats)]
        return GameRecord(
            ident=session.ident, ruleset=session.origin or game.ruleset.name, title=game.ruleset.title or "",
            players=int(history["players"]), seed=int(history["seed"]), seating=session.seating.to_dict(),
            variants=list(game.ruleset.variants),
            mods=mods, texts=texts,
            chance=list(history.get("chance") or []), lang=session.lang,
            claimed=[claimed[s] if s in people else True for s in range(len(session.seats))],
            listed=session.listed, turn=session.decider, deciding=session.deciders, finished=game.is_over,
            decisions=[list(d) for d in history["decisions"]], version=session.version)


def _mods_of(session: TableGame, digests: list[str]) -> tuple[list[dict], dict[str, dict]]:
    """A game's mods as its record names them: those the server offers by name, then those a
    page uploaded, by their file name and content digest, with their texts (by digest)."""
    ruleset = session.game.ruleset
    offered = len(session.mod_names)
    mods: list[dict] = [{"name": n, "digest": d} for n, d in zip(session.mod_names, digests)]
    texts: dict[str, dict] = {}
    for info, digest in zip(list(ruleset.mod_infos)[offered:], digests[offered:]):
        path = str(info.get("path"))
        if is_upload(path):
            mods.append({"name": Path(path).name, "digest": digest, "upload": True})
            texts[digest] = {"name": Path(path).name, "text": ruleset.sources.get(path, "")}
    return mods, texts


def _mod_path(record: GameRecord, mod: dict, mod_source: Callable[[str], str]) -> str:
    """What to load for one mod of *record*: an uploaded one's text, written again where the
    loader reads uploads (uploads.py), or the folder the server offers under its name."""
    if not mod.get("upload"):
        return mod_source(str(mod.get("name")))
    kept = record.texts.get(str(mod.get("digest")))
    if kept is None:
        raise SaveFileError(f"the uploaded mod {str(mod.get('name'))[:60]!r} of game {record.ident} is not "
                            "in the database")
    return upload_path(str(kept["name"]), str(kept["text"]))


def restore(record: GameRecord, ruleset_source: Callable[[str], str],
            mod_source: Callable[[str], str]) -> TableGame:
    """The session *record* describes: its game replayed from the seed (slow for a long game:
    run it in a thread). *ruleset_source* and *mod_source* turn an offered name into what
    to load (they raise when the server no longer offers it)."""
    mods = [_mod_path(record, m, mod_source) for m in record.mods]
    ruleset = load_ruleset(ruleset_source(record.ruleset), list(record.variants), mods)
    if list(ruleset.mod_digests) != [m.get("digest") for m in record.mods]:
        raise SaveFileError(f"a mod of game {record.ident} changed since the game began "
                            f"({', '.join(str(m.get('name')) for m in record.mods)})")
    game = replay(ruleset, record.history, lang=record.lang)
    seating = Seating(kinds=list(record.seating.get("kinds") or []),
                      hashes=list(record.seating.get("hashes") or []),
                      creator=record.seating.get("creator"), hotseat=bool(record.seating.get("hotseat")))
    session = TableGame(record.ident, game, seating, record.lang, origin=record.ruleset,
                        mod_names=[str(m.get("name")) for m in record.mods], listed=record.listed,
                        claimed=list(record.claimed), version=record.version)
    return session._with_agents(secrets.randbits(48))


def catch_up(session: TableGame, record: GameRecord) -> bool:
    """Bring *session* to *record* (a newer version another process committed) in place when
    the record only adds decisions or changes the seats: the decisions are applied to the
    game as it is (so the ids of its decisions stay those the pages hold). False when the
    record took decisions back (an undo): then the game must be rebuilt (:func:`restore`)."""
    with session.lock:
        mine, theirs = session.decisions, record.decisions
        if [list(d) for d in theirs[:len(mine)]] != [list(d) for d in mine]:
            return False
        game = session.game
        try:
            for actor, value in theirs[len(mine):]:
                apply_recorded(game, actor, value)   # to that actor's pending decision
        except SpeciationError:
            return False
        data = record.seating
        before = list(session.seats)
        session.seating = Seating(kinds=list(data.get("kinds") or []), hashes=list(data.get("hashes") or []),
                                  creator=data.get("creator"), hotseat=bool(data.get("hotseat")))
        session.claimed, session.listed, session.version = list(record.claimed), record.listed, record.version
        for seat, kind in enumerate(session.seats):
            if kind != before[seat] and kind != HUMAN:
                session.agents[seat] = make_agent(kind, secrets.randbits(48), seat)
        if len(theirs) > len(mine) or session.seats != before:
            session.undo_stack = UndoStack(game, session.humans)   # no undo past another's move
        return True


class Keeping:
    """What the table (:class:`.app.Table`, which mixes this in) does with its store: load a
    game on demand, commit each change before the pages hear of it, take in what another
    process committed, and let a game leave memory."""

    store: Store | None
    sessions: dict[str, TableGame]
    drivers: dict
    locks: dict[str, asyncio.Lock]
    unloadable: dict[str, str]   # games whose record could not be rebuilt, and why

    def ruleset_source(self, name: str) -> str:  # the table's (app.Table)
        raise NotImplementedError

    def mod_source(self, name: str) -> str:
        raise NotImplementedError

    async def show(self, ident: str, only=None) -> None:
        raise NotImplementedError

    def drive(self, ident: str) -> None:
        raise NotImplementedError

    def _lock(self, ident: str) -> asyncio.Lock:
        return self.locks.setdefault(ident, asyncio.Lock())

    async def open_store(self) -> None:
        if self.store is not None:
            await self.store.open()
            self.store.listen(self.changed)

    async def close_store(self) -> None:
        if self.store is not None:
            await self.store.close()

    async def load_game(self, ident: str) -> TableGame | None:
        """Game *ident*: in memory, or rebuilt from its record (None: no such game). A
        restarted server resumes each game this way, when a page or the lobby asks for it."""
        session = self.sessions.get(ident)
        if session is not None or self.store is None or len(ident) > 64:
            return session
        async with self._lock(ident):
            session = self.sessions.get(ident)
            if session is None:
                record = await self.store.load(ident)
                if record is None:
                    return None
                try:
                    session = await asyncio.to_thread(restore, record, self.ruleset_source, self.mod_source)
                except Exception as error:  # its ruleset or a mod is no longer offered, or changed
                    self.unloadable[ident] = str(error)[:300]
                    return None
                self.unloadable.pop(ident, None)
                self.sessions[ident] = session
        return session

    def evict(self, ident: str) -> None:
        """Game *ident* leaves memory (it stays in the database; :meth:`load_game` brings it back)."""
        self.sessions.pop(ident, None)
        task = self.drivers.pop(ident, None)
        if task is not None:
            task.cancel()
        self.locks.pop(ident, None)
        if self.store is not None:
            self.store.forget(ident)

    async def persist(self, ident: str) -> Text | None:
        """Commit game *ident* as it is now; the reason if that failed (the game is then
        reloaded from its record, as every page will see it)."""
        if self.store is None or ident not in self.sessions:
            return None
        async with self._lock(ident):
            session = self.sessions[ident]
            record = await asyncio.to_thread(record_of, session)
            try:
                session.version = await self.store.save(record)
                return None
            except Conflict:
                problem = Text("another page moved first (through another server): your move was not made")
            except Exception as error:  # the database failed: nothing is acknowledged
                problem = Text("the game could not be stored ({error}): your move was not made",
                               error=type(error).__name__)
            try:
                await self._reload(ident)
            except Exception as error:  # the record cannot be read back either: the game leaves memory
                self.sessions.pop(ident, None)
                problem = Text("{problem} (and the game could not be reloaded: {error})", problem=problem,
                               error=type(error).__name__)
            return problem

    async def _reload(self, ident: str, catching_up: bool = False) -> None:
        """Game *ident* as its record is now: caught up in place when it only moved on
        (*catching_up*: another process's commit), else rebuilt."""
        if self.store is None:
            return
        record = await self.store.load(ident)
        if record is None:
            self.sessions.pop(ident, None)
            return
        session = self.sessions.get(ident)
        if catching_up and session is not None and await asyncio.to_thread(catch_up, session, record):
            return
        self.sessions[ident] = await asyncio.to_thread(restore, record, self.ruleset_source, self.mod_source)

    async def changed(self, ident: str, version: int) -> None:
        """Another process committed version *version* of game *ident*: take it in if this one
        holds the game, and show it to its pages."""
        session = self.sessions.get(ident)
        if session is None or session.version >= version:
            return
        async with self._lock(ident):
            session = self.sessions.get(ident)
            if session is None or session.version >= version:
                return
            await self._reload(ident, catching_up=True)
        if ident in self.sessions:
            await self.show(ident)
            self.drive(ident)

    async def claim(self, ident: str, token: str | None) -> None:
        """A page opened its seat's invite link: that seat is taken (the lobby no longer offers it)."""
        session = self.sessions.get(ident)
        if session is None or not token:
            return
        seats = session.seating.seats_of(token)
        if len(seats) != 1:
            return
        claimed = (list(session.claimed) + [False] * len(session.seats))[:len(session.seats)]
        if not claimed[seats[0]]:
            claimed[seats[0]] = True
            session.claimed = claimed
            await self.persist(ident)
