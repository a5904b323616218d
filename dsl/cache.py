"""What loading produces, kept for the next load: in this process, and on disk for the next.

Five caches, each keyed by the *content* it was made from, so none can be stale:
a YAML document by (path, file text), its schema check by (path, file text, kind), an
effect's parse tree by (effect text, start rule), a generated function's code object by
(its source, file name), and the type errors of a whole ruleset by every file it read
(path and text, in order) with its variants and mods. Long texts enter a key as their
SHA-256 digest. A changed rule file has another text, hence another key. Documents are
handed out as copies (later stages may drop a broken section from the document they are
given); parse trees and code objects are never changed, so they are shared. Each cache
is emptied when it grows past ``LIMIT`` entries (a fuzz run loads thousands of different
files).

**On disk.** The engine's own code cannot change inside a running process, but it can
between two: so the caches are saved in one file per *engine*, named by a digest of the
engine's sources (every ``.py``, grammar and schema file of ``dsl/`` and ``interpreter/``,
their subfolders included: the code generator is ``interpreter/codegen/``),
the Python version and the versions of Lark, PyYAML and jsonschema. A process reads that file at its first load and, if its loads added
to it, writes it back (atomically: a new file, then a rename). A changed engine
or Python has another file name, so it never meets a stale entry. It is written once, when
the process exits, and holds what loaded without an error (errors are found anew, and
cheaply); past ``DISK_LIMIT`` entries, only what that process used. The folder is
``$SPECIATION_CACHE_DIR``, else ``$XDG_CACHE_HOME/speciation``, else
``~/.cache/speciation``; ``SPECIATION_CACHE_DIR=off`` keeps the caches in memory only.
A file that cannot be read or written is ignored: the cache never makes a load fail.
The file is trusted as Python trusts its own ``__pycache__``: it lives in the user's
own folder (docs/security.md).
"""
from __future__ import annotations

import atexit
import hashlib
import marshal
import os
import pickle
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

LIMIT = 20_000
_documents: dict[tuple, Any] = {}
_trees: dict[tuple[str, str], Any] = {}
_code: dict[tuple, Any] = {}
_checks: dict[tuple, Any] = {}
_types: dict[str, Any] = {}
_TABLES: dict[str, dict[Any, Any]] = {"documents": _documents, "trees": _trees, "code": _code, "checks": _checks,
                                      "types": _types}

_used: dict[str, set] = {name: set() for name in _TABLES}  # the keys this process asked for
made: dict[str, int] = {name: 0 for name in _TABLES}  # entries this process had to make (not found)
_disk = {"read": False, "added": False}  # the disk file was read in this process; entries added since
FORMAT = 1  # of the disk file
DISK_LIMIT = 20_000  # entries in the disk file, past which only those this process used are kept


def _remember(name: str, key: Any, make: Callable[[], Any]) -> Any:
    if not _disk["read"]:
        _read_disk()
    table = _TABLES[name]
    _used[name].add(key)
    value = table.get(key, _MISSING)
    if value.__class__ is _Saved:  # read from disk, not yet unpacked
        value = table[key] = value.unpack(name)
    if value is not _MISSING:
        return value
    made[name] += 1
    value = make()  # an error is raised every time, never remembered
    if len(table) >= LIMIT:
        table.clear()
        _used[name].clear()
        _used[name].add(key)
    table[key] = value
    _disk["added"] = True
    return value


class _Saved:
    """An entry as the disk file holds it (bytes), unpacked when first asked for."""

    __slots__ = ("blob",)

    def __init__(self, blob: bytes):
        self.blob = blob

    def unpack(self, name: str) -> Any:
        try:
            return marshal.loads(self.blob) if name == "code" else pickle.loads(self.blob)
        except Exception:  # damaged: made again
            return _MISSING


def _pack(name: str, value: Any) -> bytes | None:
    if value.__class__ is _Saved:
        return value.blob
    try:
        return marshal.dumps(value) if name == "code" else pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    except Exception:  # a tree nested too deeply to pickle, say: not saved
        return None


_MISSING = object()


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def document(text: str, path: str, load: Callable[[str, str], Any], copy: Callable[[Any], Any]) -> Any:
    """The YAML document of a file's text, loaded by *load*; each caller gets a fresh
    *copy* (the loader's, which knows its node classes: the cache imports no stage)."""
    return copy(_remember("documents", (path, _digest(text)), lambda: load(text, path)))


def tree(source: str, start: str, parse: Callable[[], Any]) -> Any:
    """The parse tree of an effect text."""
    return _remember("trees", (source, start), parse)


def code(source: str, filename: str) -> Any:
    """The code object of generated source."""
    return _remember("code", (_digest(source), filename), lambda: compile(source, filename, "exec"))


def schema_check(path: str, text: str, kind: str, check: Callable[[], tuple[list, set]]) -> tuple[list, set]:
    """The schema problems of a file's document, and the sections they make unusable."""
    problems, bad = _remember("checks", (path, _digest(text), kind), check)
    return list(problems), set(bad)


def type_errors(sources: dict[str, str], variants: list, mods: list, check: Callable[[], list]) -> list:
    """The type errors of a ruleset made of these files (path and text, in the order they
    were read), variants and mods: the same files give the same definitions, hence the
    same errors."""
    h = hashlib.sha256()
    for part in [*(x for item in sources.items() for x in item), "\0variants", *variants, "\0mods", *map(str, mods)]:
        h.update(_digest(part).encode())
    return list(_remember("types", h.hexdigest(), check))


def clear() -> None:
    """Empty the caches in memory (the disk file stays; it is read again at the next load)."""
    for name, table in _TABLES.items():
        table.clear()
        _used[name].clear()
    _disk["read"] = _disk["added"] = False


# ---- on disk ---------------------------------------------------------------------------

def folder() -> Path | None:
    """The folder of the disk cache, or None when it is off."""
    chosen = os.environ.get("SPECIATION_CACHE_DIR")
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "0", "off", "no", "false") else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "speciation"


_ENGINE: list[str] = []


def engine_digest() -> str:
    """A digest of the engine's sources, the Python version and the versions of the
    libraries that parse and check (Lark, PyYAML, jsonschema): the disk file's name."""
    if not _ENGINE:
        from importlib.metadata import version
        libraries = " ".join(f"{name} {version(name)}" for name in ("lark", "pyyaml", "jsonschema"))
        h = hashlib.sha256(f"{FORMAT} {sys.version} {libraries}".encode())
        for name, path in engine_sources():
            h.update(name.encode())
            h.update(path.read_bytes())
        _ENGINE.append(h.hexdigest()[:24])
    return _ENGINE[0]


def engine_sources() -> list[tuple[str, Path]]:
    """The files whose text shapes what is cached, named relative to the source tree: the
    front end (here) and the back end beside it (which compiles and generates the code),
    their subfolders included."""
    here = Path(__file__).resolve().parent
    found = []
    for root in (here, here.parent / "interpreter"):
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".lark", ".json") and "__pycache__" not in path.parts:
                found.append((path.relative_to(root.parent).as_posix(), path))
    return found


def disk_file() -> Path | None:
    where = folder()
    return None if where is None else where / f"load-{engine_digest()}.pickle"


def _read_disk() -> None:
    _disk["read"] = True
    path = disk_file()
    if path is None:
        return
    if not _disk.get("at_exit"):
        _disk["at_exit"] = True
        atexit.register(save)
    try:
        with open(path, "rb") as f:
            saved = pickle.load(f)
        if saved.get("format") != FORMAT:
            return
        for name, table in _TABLES.items():
            for key, blob in saved[name].items():
                table.setdefault(key, _Saved(blob))
    except Exception:  # missing, unreadable, or written by something else: start afresh
        return


def save() -> None:
    """Write the caches to the disk file if this process added to them (at its exit; a
    process that only forked from this one writes nothing: it ends without exit handlers)."""
    if not _disk["added"]:
        return
    _disk["added"] = False
    path = disk_file()
    if path is None:
        return
    keep = {name: dict(table) for name, table in _TABLES.items()}
    if sum(map(len, keep.values())) > DISK_LIMIT:  # grown (many files tried): what this process used
        keep = {name: {k: v for k, v in table.items() if k in _used[name]} for name, table in keep.items()}
    failed = {"checks": lambda v: v.__class__ is not _Saved and v[0],  # a problem found: not saved
              "types": lambda v: v.__class__ is not _Saved and v}  # a type error: not saved
    saved: dict[str, Any] = {"format": FORMAT}
    for name, table in keep.items():
        skip = failed.get(name, lambda v: False)
        packed = {k: _pack(name, v) for k, v in table.items() if v is not _MISSING and not skip(v)}
        saved[name] = {k: b for k, b in packed.items() if b is not None}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".load-")
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump(saved, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except Exception:  # a read-only or full disk, something that cannot be pickled: memory only
        return
