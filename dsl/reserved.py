"""Names the engine keeps for itself: an attribute, entity field or parameter by one of
these names would be silently overwritten (or would overwrite what the engine keeps
there), so each is refused at load with a positioned error saying why.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Iterable

from .errors import CompileError, Span, msg

# fields of every entity's record
ENTITY_FIELDS = {
    "kind": msg("the engine keeps each entity's kind there"),
    "id": msg("the engine keeps each entity's id there"),
    "seen_by": msg("the engine keeps there who sees the entity ('reveal', 'hide')"),
}
# fields of the entities of one built-in kind, on top of ENTITY_FIELDS
KIND_FIELDS = {
    "cell": {"q": msg("the engine keeps a cell's column there"), "r": msg("the engine keeps a cell's row there")},
    "corner": {},
    "card": {"deck": msg("the engine keeps a card's deck there (set 'deck:' in the card file)"),
             "copies": msg("the engine reads how many copies a card has from the card file's 'copies:'"),
             "card": msg("the engine keeps there which card each copy of a card with copies is")},
}
# local names the engine binds itself, by where a parameter is declared
PARAMETERS = {
    "deck": {"self": msg("the engine binds 'self' to the card whose effect runs")},
    "trigger": {"self": msg("the engine binds 'self' to the card that owns the trigger")},
    "function": {"self": msg("a modifier of the function sees 'self' as its card"),
                 "base": msg("a modifier of the function sees 'base' as the value so far")},
}


def reason(name: str, kind: str | None = None) -> str | None:
    """Why *name* may not be a field of an entity of *kind* (None: it may)."""
    return ENTITY_FIELDS.get(name) or KIND_FIELDS.get(kind or "", {}).get(name)


def check_fields(names: Iterable[Any], kind: str | None, where) -> list[CompileError]:
    """Errors for the reserved names among an attribute map's keys; *where(name)* places each."""
    errors = []
    for name in names:
        why = reason(str(name), kind)
        if why is not None:
            errors.append(CompileError(msg("'{name}' is reserved: {why}", name=name, why=why), where(name),
                                       msg("give the attribute another name")))
    return errors


def check_params(params: Iterable[str], place: str, span: Span) -> list[CompileError]:
    """Errors for the reserved names among the parameters declared at *place* ("deck", ...)."""
    return [CompileError(msg("parameter '{name}' is reserved: {why}", name=p, why=PARAMETERS[place][p]), span,
                         msg("give the parameter another name"))
            for p in params if p in PARAMETERS[place]]
