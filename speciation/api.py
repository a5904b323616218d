"""The public entry points that join the engine's parts: loading a save, which may need to
load the built-in ruleset it names (the engine's ``interpreter/saves.py`` never loads rule
files itself), and the functions that take a game.

>>> from speciation import load_ruleset, Game, load_save, save_json
>>> game = Game.new(load_ruleset("original"), players=2, seed=3)
>>> load_save(save_json(game)).digest() == game.digest()
True
"""
from __future__ import annotations

from typing import Any

from .dsl.errors import RuleErrors, SaveFileError
from .dsl.layers import available_rulesets
from .interpreter.ruleset import load_ruleset
from .interpreter.determinize import determinize
from .interpreter.game import Game
from .interpreter.saves import from_json, replay, ruleset_identity, seat_record, to_json

save_json = to_json

__all__ = ["determinize", "load_save", "replay", "save_json", "seat_record"]


def load_save(text: str | bytes, ruleset=None, lang: str | None = None, verify: bool = True) -> Game:
    """The game a save holds (``interpreter.saves.from_json``). Pass the *ruleset* (with its
    variants and mods); without one, the built-in ruleset the save names is loaded, with its
    variants (never a path, never a mod). Every problem is a :class:`SaveFileError`."""
    if ruleset is None:
        ruleset = builtin_ruleset(ruleset_identity(text))
    return from_json(text, ruleset, lang, verify)


def builtin_ruleset(identity: dict[str, Any]):
    """The built-in ruleset a save's identity names, loaded; never a path, never a mod."""
    name, variants = identity.get("name"), identity.get("variants", [])
    if not isinstance(name, str) or name not in available_rulesets():
        raise SaveFileError(f"this game was saved with ruleset {str(name)[:80]!r}, which is not a built-in "
                            f"ruleset; load it and pass it: load_save(text, ruleset)")
    if identity.get("mods"):
        raise SaveFileError("this game was saved with mods (content digests "
                            f"{', '.join(map(str, identity['mods']))[:200]}); load the ruleset with those mods "
                            "and pass it: load_save(text, ruleset)")
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise SaveFileError("the save's variants are not a list of names")
    try:
        return load_ruleset(name, variants)
    except RuleErrors as errors:
        raise SaveFileError(f"cannot load the ruleset '{name}' this game was saved with:\n{errors.format()}") from None
