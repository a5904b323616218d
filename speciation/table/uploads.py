"""Mods a page brings as content (issue 21, deliverable 9): the text of each mod file,
size-limited, checked as untrusted rule files by the same loader and checks as
``speciation check`` (they may change part of a card of the ruleset, never name a file to
read: ``extends`` takes only a built-in ruleset's name), their errors positioned in the
uploaded file's own name and never quoting a server file, in the language of the page that
uploaded them (``rulemessages.rule_errors``: the English text, said in another language by
``i18n.translate``).

A page sends ``{"name": "fast.yaml", "text": "..."}`` per mod (``POST /api/mods`` to check,
``uploads`` in ``POST /api/games`` to play with them). The texts are written, under a name of
our own making, into a private folder of this process for the loader, and read back only
by it; the game records each mod by its content digest (the save's ``ruleset.mods``).
"""
from __future__ import annotations

import hashlib
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from ..dsl.errors import RuleErrors
from ..dsl.layers import builtin_root
from ..i18n import Text
from ..rulemessages import rule_errors
from .guard import Refused

MAX_MOD = 256 * 1024    # bytes of one uploaded mod file
MAX_MODS = 8            # uploaded mods per game
T = TypeVar("T")
_FOLDER: Path | None = None


def uploaded(body: dict, key: str = "uploads") -> list[tuple[str, str]]:
    """The uploaded mods a request's *body* holds, as (file name, text), checked for shape
    and size (not yet as rules)."""
    value = body.get(key) or []
    if not isinstance(value, list) or len(value) > MAX_MODS:
        raise Refused(Text("'{key}' must be a list of at most {most} mods, each {example}", key=key, most=MAX_MODS,
                           example='{"name": ..., "text": ...}'))
    mods = []
    for item in value:
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            raise Refused(Text("each of '{key}' must be {example}", key=key, example='{"name": "mod.yaml", "text": "..."}'))
        text, name = item["text"], item.get("name")
        if len(text.encode("utf-8", "replace")) > MAX_MOD:
            raise Refused(Text("an uploaded mod may not be larger than {size} KiB", size=MAX_MOD // 1024), 413)
        mods.append((file_name(name if isinstance(name, str) else ""), text))
    return mods


def file_name(name: str) -> str:
    """A plain file name for an uploaded mod: its base name's letters, digits, ``-``, ``_``
    and ``.`` (never a path), ending in ``.yaml``."""
    base = re.split(r"[\\/]", name)[-1]
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", base.rsplit(".", 1)[0] if base.endswith((".yaml", ".yml")) else base)
    stem = stem.strip("._")[:60] or "mod"
    return f"{stem}.yaml"


def with_uploads(mods: list[tuple[str, str]], make: Callable[[list[str]], T]) -> T:
    """``make(paths)`` with *mods* written where the loader reads them; its rule errors are
    a :class:`Refused` positioned in the uploaded files' names (never a server path), which
    ``i18n.translate`` says in the page's language."""
    paths = [str(_write(name, text)) for name, text in mods]
    try:
        return make(paths)
    except RuleErrors as errors:
        raise Refused(rule_errors(errors, lambda text: scrub(text, paths))) from None


def check(source: str, variants: list[str], mods: list[tuple[str, str]], load: Callable[..., Any]) -> dict:
    """Check uploaded *mods* against ruleset *source* (``load(source, variants, paths)``):
    each mod's name, content digest, title and what it brings; a :class:`Refused` with
    every error, positioned in the uploaded names, if they do not load."""
    ruleset = with_uploads(mods, lambda paths: load(source, variants, paths))
    infos = list(ruleset.mod_infos)[-len(mods):] if mods else []
    digests = list(ruleset.mod_digests)[-len(mods):] if mods else []
    return {"mods": [{"name": name, "digest": digest, "title": info.get("title"), "brings": list(info.get("brings", []))}
                     for (name, _), info, digest in zip(mods, infos, digests)]}


def scrub(text: str, paths: list[str]) -> str:
    """*text* with the private folder and the server's ruleset folder taken out of its paths."""
    for path in paths:
        text = text.replace(str(Path(path).parent) + os.sep, "")
    return text.replace(str(builtin_root()) + os.sep, "")


def upload_path(name: str, text: str) -> str:
    """Where the loader reads an uploaded mod *name* with *text* (written there if missing):
    a game rebuilt from its record loads its uploaded mods from here."""
    return str(_write(file_name(name), text))


def is_upload(path: str) -> bool:
    """Is *path* an uploaded mod's file (named by its content: it never changes)?"""
    return _FOLDER is not None and Path(path).parent.parent == _FOLDER


def _write(name: str, text: str) -> Path:
    """The uploaded text in a file of our private folder, named by its content (so the same
    mod is the same file, and the loader's caches know it)."""
    global _FOLDER
    if _FOLDER is None or not _FOLDER.is_dir():
        _FOLDER = Path(tempfile.mkdtemp(prefix="speciation-uploads-"))
    digest = hashlib.sha256(f"{name}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()[:24]
    folder = _FOLDER / digest
    path = folder / name
    if not path.is_file():
        folder.mkdir(mode=0o700, exist_ok=True)
        path.write_text(text, encoding="utf-8", errors="replace")
    return path
