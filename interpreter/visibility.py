"""Who sees an entity: its visibility, state of its own, apart from who controls it.

The ruleset declares which attributes are an entity's *face* (``hidden: {faces: {kind:
[attr, ...]}}``, see :class:`~speciation.dsl.declarations.Face`) and who sees an entity of
that kind that nothing has revealed: its controller (the default), nobody, or everyone.
The rules change it with two statements, kept in the entity's record as the engine field
``seen_by`` (plain data: saved, replayed, in the digest; absent until a statement sets it,
so a ruleset that never reveals anything keeps the state it always had):

``reveal X to P``
    the seats of *P* (a player, an entity a player controls, a list of them, or ``all``)
    see *X* (an entity or a list of entities) from now on: ``seen_by`` gains them (``all``:
    ``"all"``, face up).
``hide X``
    *X* is face down again: seen as a face-down entity of its kind is (by its controller
    when the kind's default is ``controller``; else by nobody); every reveal is forgotten.

``seen_by`` is absent (the kind's default), ``"all"``, or a list of player ids: exactly
those seats, and the entity's controller too when the kind's default is ``controller``.

A seat that does not see an entity sees ``"?"`` for each of its face attributes and its
``private`` attributes (``interpreter/views.py``); determinisation deals the faces of the
entities a seat does not see as whole entities (``interpreter/determinize.py``).
"""
from __future__ import annotations

from typing import Any

FIELD = "seen_by"
ALL = "all"


class _Everyone:
    """The seats of ``reveal X to all``."""

    def __repr__(self) -> str:
        return "all"


EVERYONE = _Everyone()


def face_of(hidden, record: dict):
    """The :class:`Face` declared for *record*'s deck or kind (None: it has none)."""
    faces = hidden.faces
    if not faces:
        return None
    deck = record.get("deck")
    return (faces.get(deck) if isinstance(deck, str) else None) or faces.get(record.get("kind"))


def owner_of(record: dict) -> Any:
    """The player who controls the entity of *record* (a player controls itself)."""
    return record["id"] if record.get("kind") == "player" else record.get("player")


def sees(hidden, record: dict, me: Any, face=None) -> bool:
    """Whether player *me* (any other value: a spectator, who owns nothing) sees the entity
    of *record*: its face attributes and its private attributes."""
    face = face or face_of(hidden, record)
    default = face.seen_by if face is not None else "controller"
    seen = record.get(FIELD)
    if seen is None:
        return default == ALL or (default == "controller" and owner_of(record) == me)
    if seen == ALL:
        return True
    return me in seen or (default == "controller" and owner_of(record) == me)


def hidden_face(hidden, record: dict, me: Any) -> frozenset:
    """The face attributes of *record* that player *me* may not see (empty: none)."""
    face = face_of(hidden, record)
    if face is None or sees(hidden, record, me, face):
        return frozenset()
    return face.attributes & record.keys()


def _entities(rt, things: Any, verb: str) -> list[dict]:
    items = things if isinstance(things, list) else [things]
    out = []
    for item in items:
        record = rt.ent.get(item) if isinstance(item, str) else None
        if record is None:
            raise ValueError(f"cannot {verb} {rt.label(item)}: it is not an entity")
        out.append(record)
    return out


def _seats(rt, who: Any) -> list:
    players = rt.state["players"]
    out = []
    for item in who if isinstance(who, list) else [who]:
        owner = item if item in players else (rt.ent.get(item, {}).get("player") if isinstance(item, str) else None)
        if owner not in players:
            raise ValueError(f"cannot reveal to {rt.label(item)}: it is neither a player nor controlled by one")
        out.append(owner)
    return out


def reveal(rt, things: Any, who: Any) -> None:
    """``reveal THINGS to WHO``: the seats of *who* (or :data:`EVERYONE`) see *things*."""
    records = _entities(rt, things, "reveal")
    seats = None if who is EVERYONE else _seats(rt, who)
    hidden = rt.ruleset.hidden
    for record in records:
        seen = record.get(FIELD)
        if seen == ALL:
            continue
        if seats is None:
            record[FIELD] = ALL
            continue
        face = face_of(hidden, record)
        if seen is None and face is not None and face.seen_by == ALL:
            continue  # face up already
        now = set(seen or ()) | set(seats)
        record[FIELD] = [p for p in rt.state["players"] if p in now]


def hide(rt, things: Any) -> None:
    """``hide THINGS``: *things* are face down again, every reveal forgotten."""
    hidden = rt.ruleset.hidden
    for record in _entities(rt, things, "hide"):
        face = face_of(hidden, record)
        if face is not None and face.seen_by == ALL:
            record[FIELD] = []  # face down, for a kind whose entities are face up unless hidden
        else:
            record.pop(FIELD, None)


# ---- the log ---------------------------------------------------------------------------------

def masked(rt, hidden, value: Any, me: Any) -> str:
    """*value* labelled as player *me* may read it: an entity it does not see is ``?``."""
    if isinstance(value, list):
        return "[" + ", ".join(masked(rt, hidden, v, me) for v in value) + "]"
    record = rt.ent.get(value) if isinstance(value, str) else None
    if record is not None and face_of(hidden, record) is not None and not sees(hidden, record, me):
        return "?"
    return rt.label(value)


def _mentions_unseen(rt, hidden, values) -> bool:
    ent, faces = rt.ent, hidden.faces
    for value in values:
        if isinstance(value, str):
            record = ent.get(value)
            if record is None:
                continue
        elif isinstance(value, list):
            if _mentions_unseen(rt, hidden, value):
                return True
            continue
        else:
            continue
        seen = record.get(FIELD)
        if seen != ALL:
            deck = record.get("deck")  # (face_of, inline)
            face = (faces.get(deck) if isinstance(deck, str) else None) or faces.get(record.get("kind"))
            if face is not None and (seen is not None or face.seen_by != ALL):
                return True
    return False


def seen_label(rt, value: Any) -> str | None:
    """The label of *value* (a text, an int or a list of them) as every seat reads it, when
    it names no entity of a kind or deck with a face (see :func:`face_of`) and no language
    is chosen; else None (:func:`mentions_unseen` and :func:`log_lines` decide)."""
    kind = value.__class__
    if kind is str:
        record = rt.ent.get(value)
        if record is None:
            return value
        faces = rt.ruleset.hidden.faces
        if faces:
            deck = record.get("deck")
            if record.get("kind") in faces or deck is not None and (deck.__class__ is not str or deck in faces):
                return None
        name = record.get("name", value)
        return name if name.__class__ is str else str(name)
    if kind is int:
        return str(value)
    if kind is list:
        labels = [seen_label(rt, item) for item in value]
        return None if None in labels else "[" + ", ".join(labels) + "]"  # type: ignore[arg-type]
    return None


def mentions_unseen(rt, values: tuple) -> bool:
    """Do *values* name an entity some seat may not see (so that a log line naming them is
    written by :func:`log_lines`)? False when the ruleset hides nothing."""
    hidden = rt.ruleset.hidden
    return bool(hidden.faces) and _mentions_unseen(rt, hidden, values)


def log_lines(rt, values: tuple, render) -> list | None:
    """The log lines of one line whose *values* name an entity some seat does not see:
    one private line per seat (``[player, text]``, the entities it does not see as ``?``)
    and one for spectators (``[None, text]``); None when every seat sees them all (the
    line is written as it always was). *render(label)* makes the text with a labeller."""
    hidden = rt.ruleset.hidden
    if not hidden.faces or not _mentions_unseen(rt, hidden, values):
        return None
    lines: list = [[p, render(lambda v, p=p: masked(rt, hidden, v, p))] for p in rt.state["players"]]
    public = render(lambda v: masked(rt, hidden, v, None))
    if all(text == public for _, text in lines):
        return [public]
    return lines + [[None, public]]


def labeller(rt, actor: Any):
    """The labels of a choice's options as *actor*'s player may read them (an entity it
    does not see: ``?``)."""
    players = rt.state["players"]
    me = actor if actor in players else rt.ent.get(actor, {}).get("player") if isinstance(actor, str) else None
    hidden = rt.ruleset.hidden
    return lambda value: masked(rt, hidden, value, me)
