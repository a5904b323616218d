"""The public entry points that join the engine's parts: loading a save, which may need to
load the ruleset it names (the engine's ``interpreter/saves.py`` never loads rule files
itself: a built-in by name, a folder only when the caller names it), and the functions
that take a game.

>>> from speciation import load_ruleset, Game, load_save, save_json
>>> game = Game.new(load_ruleset("original"), players=2, seed=3)
>>> load_save(save_json(game)).digest() == game.digest()
True
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from .dsl.errors import RuleErrors, SaveFileError
from .dsl.layers import available_rulesets, builtin_root
from .interpreter.ruleset import load_ruleset
from .interpreter.determinize import determinize
from .interpreter.game import Game
from .interpreter.saves import from_json, replay, ruleset_identity, seat_record, to_data

__all__ = ["determinize", "load_save", "replay", "save_json", "seat_record"]

# How a caller of the API names a ruleset a save needs (a tool passes its own words).
HOW = "load it and pass it: load_save(text, ruleset)"


def save_json(game: Game, seats: Sequence[str] | None = None) -> str:
    """*game* as a save (``interpreter.saves.to_json``). A ruleset loaded from a folder is
    also *named* in it (``"named": {"folder": NAME}``, the folder's name, never its path), so
    a tool can say which folder to give it; *seats*, each seat's kind (``human`` or an
    agent), go into the save's ``table`` part, which the table and ``play --resume`` read."""
    data = to_data(game)
    folder = ruleset_folder(game.ruleset)
    if folder is not None:
        data["named"] = {"folder": folder}
    if seats is not None:
        data["table"] = {"seats": [str(s) for s in seats]}
    return json.dumps(data, allow_nan=False)


def ruleset_folder(ruleset) -> str | None:
    """The name of the folder *ruleset* was loaded from (None: a built-in, by name)."""
    source = getattr(ruleset, "source", None)
    if not source or source in available_rulesets():
        return None
    path = Path(source)
    if path.resolve() == (builtin_root() / path.name).resolve():  # a built-in given by its path
        return None
    return path.name


def saved_seats(text: str | bytes) -> list[str] | None:
    """The seat kinds a save records (its ``table`` part), or None."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    table = data.get("table") if isinstance(data, dict) else None
    seats = table.get("seats") if isinstance(table, dict) else None
    if isinstance(seats, list) and all(isinstance(s, str) for s in seats):
        return list(seats)
    return None


def load_save(text: str | bytes, ruleset=None, lang: str | None = None, verify: bool = True, *,
              named: str | None = None, folders: Mapping[str, str] | None = None,
              mods: Sequence[str] = (), how: str = HOW) -> Game:
    """The game a save holds (``interpreter.saves.from_json``). Pass the *ruleset* (with its
    variants and mods), or let it be loaded: *named* (a built-in's name or a folder the
    caller was given), else a folder of *folders* (name -> path: what a server was started
    with) by the name the save records, else the built-in ruleset the save names; the save's
    variants, and the *mods* given (paths). Never a path the save names. Every problem is a
    :class:`SaveFileError`; when the ruleset is not at hand it says so, ending with *how* (the
    caller's words for naming it)."""
    if ruleset is None:
        ruleset = ruleset_for_save(text, named, folders, mods, how)
    return from_json(text, ruleset, lang, verify)


def ruleset_for_save(text: str | bytes, named: str | None = None, folders: Mapping[str, str] | None = None,
                     mods: Sequence[str] = (), how: str = HOW):
    """The ruleset a save needs, loaded as :func:`load_save` says."""
    identity = ruleset_identity(text)
    name, variants = identity.get("name"), identity.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise SaveFileError("the save's variants are not a list of names")
    folder = _named_folder(text)
    source: str | None = named
    if source is None and folders:
        for key in (folder, name):
            if isinstance(key, str) and key in folders:
                source = folders[key]
                break
    if source is None and folder is None and isinstance(name, str) and name in available_rulesets():
        source = name
    if source is None:
        where = f", loaded from a folder named {folder[:80]!r}" if folder else ", which is not a built-in ruleset"
        raise SaveFileError(f"this game was saved with ruleset {str(name)[:80]!r}{where}; give that folder: {how}")
    if identity.get("mods") and not mods:
        raise SaveFileError("this game was saved with mods (content digests "
                            f"{', '.join(map(str, identity['mods']))[:200]}); give the same mods: {how}")
    try:
        return load_ruleset(source, variants, list(mods))
    except RuleErrors as errors:
        raise SaveFileError(f"cannot load the ruleset '{source}' this game was saved with:\n{errors.format()}") from None


def _named_folder(text: str | bytes) -> str | None:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    named = data.get("named") if isinstance(data, dict) else None
    folder = named.get("folder") if isinstance(named, dict) else None
    return folder if isinstance(folder, str) and folder else None
