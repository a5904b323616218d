"""The table's games in a database: SQLAlchemy 2 Core over asyncio, SQLite (aiosqlite) by
default, PostgreSQL (psycopg 3) for a server shared by several processes.

A game's record is plain data (:class:`GameRecord`): the ruleset by the name the server
offers it under (a built-in, or a folder named at ``serve --ruleset``), its variants, its
mods by name and content digest, each seat's kind and token hash, the seed, the decisions
taken so far (one row each, so a move writes one row), when it was created and last
changed, and whether it is over. A game is rebuilt from its record by replaying its
decisions from the seed (:mod:`.persist`).

Every write checks the record's ``version`` (optimistic concurrency): two processes that
both answer the same decision cannot both commit; the second is told
(:class:`Conflict`) and reloads the game. With PostgreSQL each commit also sends a
notification (``pg_notify``, delivered at commit) that the other processes hear through
psycopg's async notifies (:meth:`Store.listen`), so a move made through one server reaches
the pages connected to another.
"""
from __future__ import annotations

import asyncio
import json
import os
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (JSON, BigInteger, Boolean, Column, DateTime, ForeignKey, Integer, MetaData, String,
                        Table, Text, delete, event, func, insert, select, update)
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

CHANNEL = "speciation_games"

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("ident", String(64), primary_key=True),
    Column("ruleset", String(200), nullable=False),      # offered name: a built-in or a serve --ruleset folder
    Column("title", String(200), nullable=False, default=""),
    Column("variants", JSON, nullable=False),
    Column("mods", JSON, nullable=False),                # [{"name": offered name, "digest": content digest}]
                                                         # (an uploaded mod: its file name, "upload": true)
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("chance", JSON, nullable=False),
    Column("lang", String(20), nullable=True),
    Column("seating", JSON, nullable=False),             # seats.Seating.to_dict(): kinds, token hashes, creator
    Column("claimed", JSON, nullable=False),             # per seat: taken by a person (lobby)
    Column("listed", Boolean, nullable=False, default=False),   # shown in the lobby
    Column("turn", Integer, nullable=True),              # the seat deciding now (None: over)
    Column("deciding", JSON, nullable=True),             # every seat deciding now (several: simultaneous)
    Column("decided", Integer, nullable=False, default=0),      # how many decisions
    Column("finished", Boolean, nullable=False, default=False),
    Column("version", Integer, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
)

decisions = Table(
    "decisions", metadata,
    Column("game", String(64), ForeignKey("games.ident", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("actor", Text, nullable=False),
    Column("value", Text, nullable=False),               # the decision's value as JSON text (null: a pass)
)


uploads = Table(                                         # uploaded mods' texts, by content (one row each)
    "uploads", metadata,
    Column("digest", String(64), primary_key=True),      # the mod's content digest (as the game records it)
    Column("name", String(200), nullable=False),         # its file name (part of what the digest covers)
    Column("text", Text, nullable=False),
)


class Conflict(Exception):
    """The game was changed by another process since this one read it."""


@dataclass
class GameRecord:
    """One game as the database keeps it (plain data)."""

    ident: str
    ruleset: str
    players: int
    seed: int
    seating: dict
    variants: list[str] = field(default_factory=list)
    mods: list[dict] = field(default_factory=list)
    chance: list = field(default_factory=list)
    lang: str | None = None
    title: str = ""
    claimed: list[bool] = field(default_factory=list)
    listed: bool = False
    turn: int | None = None
    deciding: list[int] | None = None                      # every seat deciding (None: only ``turn``)
    finished: bool = False
    decisions: list[list] = field(default_factory=list)   # [actor, value], in order (read by load only)
    texts: dict[str, dict] = field(default_factory=dict)  # uploaded mods: digest -> {"name", "text"}
    decided: int | None = None                             # how many decisions (read without them)
    version: int = 0                                       # 0: not stored yet
    created: datetime | None = None
    updated: datetime | None = None

    @property
    def history(self) -> dict:
        """The game's history (``Game.history``'s shape), to replay it."""
        return {"seed": self.seed, "players": self.players, "chance": list(self.chance),
                "decisions": [list(d) for d in self.decisions]}


def default_data_folder() -> Path:
    """Where the table keeps its SQLite file unless ``--data`` says: ``$XDG_DATA_HOME/speciation``
    (``~/.local/share/speciation``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "speciation"


def database_url(data: str | Path | None = None, database: str | None = None) -> str:
    """The database to use: *database* (a SQLAlchemy URL, e.g. ``postgresql+psycopg://…``)
    if given, else ``games.sqlite`` in the data folder *data* (created if missing)."""
    if database:
        url = make_url(database)
        if url.drivername in ("postgresql", "postgres"):
            url = url.set(drivername="postgresql+psycopg")
        elif url.drivername == "sqlite":
            url = url.set(drivername="sqlite+aiosqlite")
        return url.render_as_string(hide_password=False)
    folder = Path(data).expanduser() if data else default_data_folder()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{(folder / 'games.sqlite').resolve()}"


def _now() -> datetime:
    return datetime.now(UTC)


def _common(a: list, b: list) -> int:
    n = 0
    for x, y in zip(a, b):
        if list(x) != list(y):
            break
        n += 1
    return n


class Store:
    """The games of a table in one database (see the module's docstring)."""

    def __init__(self, url: str):
        self.url = url
        self.postgres = make_url(url).get_backend_name() == "postgresql"
        self.process = secrets.token_hex(6)   # this process, to skip its own notifications
        self.engine: AsyncEngine = create_async_engine(url)
        if not self.postgres:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self._stored: dict[str, list[list]] = {}   # ident -> the decisions the database holds
        self._listener: asyncio.Task | None = None

    async def open(self) -> None:
        """Create the tables if missing."""
        async with self.engine.begin() as conn:
            await conn.run_sync(metadata.create_all)
            await conn.run_sync(_add_missing_columns)

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            try:
                await self._listener
            except (asyncio.CancelledError, Exception):
                pass
            self._listener = None
        await self.engine.dispose()

    # ---- writing ---------------------------------------------------------------------------

    async def save(self, record: GameRecord) -> int:
        """Commit *record* (a new game when its version is 0, else an update of the version it
        was read at): the game's row and the decisions that changed (an undo removes rows).
        Returns the new version, also set on *record*; raises :class:`Conflict` when another
        process changed the game first."""
        now = _now()
        row = {"ruleset": record.ruleset, "title": record.title, "variants": list(record.variants),
               "mods": list(record.mods), "players": record.players, "seed": record.seed,
               "chance": list(record.chance), "lang": record.lang, "seating": record.seating,
               "claimed": list(record.claimed), "listed": record.listed, "turn": record.turn,
               "deciding": record.deciding,
               "decided": len(record.decisions), "finished": record.finished, "updated": now}
        async with self.engine.begin() as conn:
            if record.version == 0:
                record.created = now
                await conn.execute(insert(games).values(ident=record.ident, version=1, created=now, **row))
                await self._keep_texts(conn, record.texts)
                have: list[list] = []
            else:
                done = await conn.execute(update(games).where(games.c.ident == record.ident,
                                                              games.c.version == record.version)
                                          .values(version=record.version + 1, **row))
                if done.rowcount != 1:
                    raise Conflict(record.ident)
                cached = self._stored.get(record.ident)
                have = cached if cached is not None else await self._decisions(conn, record.ident)
            keep = _common(have, record.decisions)
            if keep < len(have):
                await conn.execute(delete(decisions).where(decisions.c.game == record.ident,
                                                           decisions.c.number >= keep))
            new = [{"game": record.ident, "number": n, "actor": str(actor), "value": json.dumps(value)}
                   for n, (actor, value) in enumerate(record.decisions[keep:], start=keep)]
            if new:
                await conn.execute(insert(decisions), new)
            if self.postgres:
                await conn.execute(select(func.pg_notify(CHANNEL, f"{record.ident} {record.version + 1} "
                                                                  f"{self.process}")))
        record.version += 1
        record.updated = now
        self._stored[record.ident] = [list(d) for d in record.decisions]
        return record.version

    @staticmethod
    async def _keep_texts(conn, texts: dict[str, dict]) -> None:
        """Store the uploaded mods' texts the database does not hold yet (by content digest)."""
        if not texts:
            return
        held = set((await conn.execute(select(uploads.c.digest).where(uploads.c.digest.in_(list(texts))))).scalars())
        new = [{"digest": d, "name": str(t["name"]), "text": str(t["text"])} for d, t in texts.items() if d not in held]
        if new:
            await conn.execute(insert(uploads), new)

    async def delete(self, ident: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(delete(decisions).where(decisions.c.game == ident))
            await conn.execute(delete(games).where(games.c.ident == ident))
        self._stored.pop(ident, None)

    # ---- reading -----------------------------------------------------------------------------

    async def load(self, ident: str) -> GameRecord | None:
        """The record of game *ident* with its decisions (None: no such game)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(games).where(games.c.ident == ident))).mappings().first()
            if row is None:
                return None
            record = _record(row)
            record.decisions = await self._decisions(conn, ident)
            wanted = [str(m.get("digest")) for m in record.mods if m.get("upload")]
            if wanted:
                rows = await conn.execute(select(uploads).where(uploads.c.digest.in_(wanted)))
                record.texts = {row.digest: {"name": row.name, "text": row.text} for row in rows}
        self._stored[ident] = [list(d) for d in record.decisions]
        return record

    async def version(self, ident: str) -> int | None:
        async with self.engine.connect() as conn:
            return (await conn.execute(select(games.c.version).where(games.c.ident == ident))).scalar()

    async def records(self, idents: list[str] | None = None, *, listed: bool | None = None,
                      finished: bool | None = None, limit: int = 200) -> list[GameRecord]:
        """Records without their decisions: those named, or the listed / unfinished ones,
        the most recently changed first."""
        query = select(games).order_by(games.c.updated.desc()).limit(limit)
        if idents is not None:
            query = query.where(games.c.ident.in_(idents[:limit]))
        if listed is not None:
            query = query.where(games.c.listed == listed)
        if finished is not None:
            query = query.where(games.c.finished == finished)
        async with self.engine.connect() as conn:
            return [_record(row) for row in (await conn.execute(query)).mappings()]

    async def unfinished(self) -> list[str]:
        """The ids of every game not over."""
        async with self.engine.connect() as conn:
            return list((await conn.execute(select(games.c.ident).where(games.c.finished.is_(False)))).scalars())

    def forget(self, ident: str) -> None:
        """Drop what this process remembers of game *ident* (it left memory)."""
        self._stored.pop(ident, None)

    @staticmethod
    async def _decisions(conn, ident: str) -> list[list]:
        rows = await conn.execute(select(decisions.c.actor, decisions.c.value)
                                  .where(decisions.c.game == ident).order_by(decisions.c.number))
        return [[actor, json.loads(value)] for actor, value in rows]

    # ---- other processes ------------------------------------------------------------------------

    def listen(self, changed: Callable[[str, int], Awaitable[None]]) -> None:
        """With PostgreSQL: call *changed(ident, version)* for every game another process
        commits (LISTEN/NOTIFY through psycopg's async notifies; reconnects after a failure)."""
        if self.postgres and self._listener is None:
            self._listener = asyncio.get_running_loop().create_task(self._listen(changed))

    async def _listen(self, changed: Callable[[str, int], Awaitable[None]]) -> None:
        import psycopg
        from psycopg import sql

        conninfo = make_url(self.url).set(drivername="postgresql").render_as_string(hide_password=False)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
                    await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
                    async for note in conn.notifies():
                        ident, _, rest = note.payload.partition(" ")
                        version, _, process = rest.partition(" ")
                        if process != self.process and version.isdigit():
                            try:
                                await changed(ident, int(version))
                            except Exception:  # one game's failure must not stop the listener
                                pass
            except asyncio.CancelledError:
                raise
            except Exception:
                await asyncio.sleep(1.0)


def _record(row: Any) -> GameRecord:
    return GameRecord(ident=row["ident"], ruleset=row["ruleset"], players=row["players"], seed=row["seed"],
                      seating=dict(row["seating"]), variants=list(row["variants"]), mods=list(row["mods"]),
                      chance=list(row["chance"]), lang=row["lang"], title=row["title"] or "",
                      claimed=list(row["claimed"]), listed=bool(row["listed"]), turn=row["turn"],
                      deciding=row["deciding"],
                      finished=bool(row["finished"]), version=row["version"], decided=row["decided"], created=row["created"],
                      updated=row["updated"])


def _add_missing_columns(connection) -> None:
    """A database made before a column was added gets it (nullable, so old rows read as None)."""
    have = {column["name"] for column in sa_inspect(connection).get_columns("games")}
    for column in games.columns:
        if column.name not in have and column.nullable:
            kind = column.type.compile(dialect=connection.dialect)
            connection.exec_driver_sql(f'ALTER TABLE games ADD COLUMN "{column.name}" {kind}')


def _sqlite_pragmas(connection, _record) -> None:
    """SQLite: write-ahead log (readers do not wait for the writer), foreign keys on."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
