"""Determinization: a copy of a game in which everything hidden from one seat is resampled.

Search agents (and anything else that must not cheat) play on such copies. What is hidden
comes only from the ruleset's ``hidden`` section (``ruleset.hidden``), as ``Game.view`` uses it:

``order``
    attributes whose *order* is secret (a shuffled bag or deck whose contents are known):
    each such list is reshuffled.
``contents``
    attributes whose *contents* are secret (face-down piles): their items are dealt anew.
``private``
    attributes only the entity's controlling player sees (a hand): other players' items are
    dealt anew (the single values of an entity in no group: all together, from one other
    entity of its kind).
``groups`` (optional)
    groups of the secret and private attributes between which hidden items may trade places
    (cards dealt from a pile into hands and back); an attribute in no group keeps its own items.
``shown_heads`` (optional)
    ``{attribute: flag}``: the first item of such a secret list is face up while the entity's
    *flag* is true; it stays where it is.
``tails`` (optional)
    ``{attribute: N}``: the last N items of such a list were shuffled apart from the rest (a
    card known to lie among the last N); they are reshuffled only among themselves.
``faces`` (optional)
    ``{kind: attributes}``: the entities the seat does not see (:mod:`.visibility`) trade
    faces as whole entities with others of their kind (and deck) it does not see.

The items of the lists the seat's own pending decision offers (a subset, an offer shown to it
from another's hand) stay where they are: it knows them. The seat's view of the copy equals its view of the game. The copy also gets a fresh random
generator (future chance is unknown too), no scripted chance, no private log lines of other
players, and another player's pending options renamed like the items they came from.
Not resampled: local names of rules paused mid-way (the stack), which no view shows.
While several seats decide at once (``simultaneously``, :mod:`.fibers`), the other seats'
parts (their pending options and their local names) are renamed like the items they came
from, so a commitment the rules keep among hidden items is resampled with them; and the
copy's pending decision (``decision_id``, ``legal_actions()``) is the seat's own, if it has
one, so a search answers it first.
"""
from __future__ import annotations

import marshal
import random
from itertools import compress, repeat
from typing import Any

from . import fibers, rng as game_rng
from .views import copy_plain as _copy
from .visibility import FIELD, face_of, sees


def determinize(game, seat: int, generator: random.Random, log: bool = True, share: bool = False):
    """A copy of *game* with what *seat* cannot see resampled using *generator*; without
    its log when *log* is false (a search reads no log, and copying it costs). With *share*,
    the copy's records share with the game's the values no statement of the ruleset writes
    (and hides nothing in), where the ruleset notes every write (as trials need: see
    ``trial.py``): they never change, so only the rest is copied (a search copy, changed only
    through its rules; nothing may edit either game's state by hand while the copy is used)."""
    me = game.state["players"][seat]
    state = _shared_copy(game.state, game.ruleset) if share else None
    if state is None:
        state = _copy_state(game.state)
    state["log"] = [line if isinstance(line, str) else list(line) for line in game.state["log"]
                    if isinstance(line, str) or line[0] == me] if log else []  # others' private lines go
    copy = game.with_state(state)  # at the same decision: the game's actions are accepted there
    hidden = game.ruleset.hidden
    tails = hidden.tails
    heads = hidden.shown_heads  # a face-up first item is known: it stays
    secret = set(hidden.contents)
    private = set(hidden.private)
    order_only = frozenset(hidden.order) - secret - private
    group_of = {attr: attr for attr in secret | private}
    for group in hidden.groups:
        for attr in group:
            group_of[attr] = group[0]

    grouped = {attr for group in hidden.groups for attr in group}
    relevant = order_only | secret | private
    slots: dict[Any, list[tuple[Any, Any]]] = {}
    singles: dict[str, list[str]] = {}
    ent = state["ent"]
    kept = frozenset(secret | private)
    for ident in [ident for ident in sorted(ent) if not relevant.isdisjoint(ent[ident])]:
        record = ent[ident]
        ordered, kept_here = _hidden_attributes(record, order_only, kept)
        for attr in ordered:
            if isinstance(record[attr], list):
                for start, stop in _segments(record[attr], tails.get(attr, 0)):
                    _collect(slots, (ident, attr, start), record[attr], range(start, stop))
        if not kept_here:
            continue
        owner = record["id"] if record.get("kind") == "player" else record.get("player")
        if FIELD in record or (hidden.faces and face_of(hidden, record) is not None):
            owner = me if sees(hidden, record, me) else None  # as the view shows them
        for attr in kept_here:
            if attr not in secret and owner == me:
                continue  # the seat's own private things (or those it sees) are known to it
            value = record[attr]
            if not isinstance(value, list):
                if attr in private and attr not in secret:  # a private single value ('?' in views)
                    if attr in grouped:
                        _collect(slots, group_of[attr], record, [attr])
                    else:  # dealt with the entity's other private single values, as one
                        singles.setdefault(ident, []).append(attr)
                continue
            shown = 1 if value and attr in secret and record.get(heads.get(attr)) is True else 0
            segments = [(start + shown, stop + shown) for start, stop in _segments(value[shown:], tails.get(attr, 0))]
            for number, (start, stop) in enumerate(segments):
                key = group_of[attr] if number == 0 else (ident, attr, "tail")
                _collect(slots, key, value, range(start, stop))

    known = _own_options(copy, seat)  # what the seat's own pending decision names, it knows
    if known:
        slots = {key: [(c, place) for c, place in places if repr(c[place]) not in known] for key, places in slots.items()}
    shuffle = _shuffler(game.state["rng"], generator)
    renamed = _deal(slots, shuffle)
    if singles:
        _deal_whole(state["ent"], singles, shuffle)
    if hidden.faces:
        _deal_faces(state["ent"], hidden, me, shuffle)
    if fibers.frame_of(state) is not None:  # seats deciding at once: the others' parts renamed, this seat's first
        _rename_fibers(state, seat, renamed)
    else:
        _rename_pending(copy, seat, renamed)
    if isinstance(game.state["rng"], dict):  # per-source streams: the copy's future chance too
        state["rng"] = game_rng.per_source_state(generator.getrandbits(63))
    else:
        state["rng"] = game_rng.seed_state(generator.getrandbits(63))
    state["chance"] = []
    copy.state_edited()
    return copy


_ATTRIBUTES: dict[tuple, tuple[list, list]] = {}  # see _hidden_attributes


def _hidden_attributes(record: dict, order_only: frozenset, kept: frozenset) -> tuple[list, list]:
    """The attributes of *record* among *order_only* and among *kept* (secret or private),
    each sorted: remembered by the record's attribute names (entities of a kind share them),
    so the sets are not built again for every record of every copy."""
    key = (tuple(record), order_only, kept)
    found = _ATTRIBUTES.get(key)
    if found is None:
        if len(_ATTRIBUTES) > 4096:
            _ATTRIBUTES.clear()
        names = set(record)
        found = _ATTRIBUTES[key] = (sorted(order_only & names), sorted(kept & names))
    return found


def _copy_state(state: dict) -> dict:
    """A deep copy of the state without its log: by ``marshal`` (C speed) when it is plain
    data, as it always is in play, else the slow way."""
    rest = {key: value for key, value in state.items() if key != "log"}
    try:
        return marshal.loads(marshal.dumps(rest))
    except ValueError:
        return _copy(rest)


_PLACES: dict[int, tuple] = {}  # id(ruleset) -> (ruleset, layout, places): see _shared_copy
_CONTAINERS = (list, dict)  # what marshal copies deeply (plain data: no other container)


def _shared_copy(state: dict, ruleset) -> dict | None:
    """A copy of *state* (without its log) whose records share with *state*'s the values no
    statement writes and nothing hides; None where the ruleset does not note every write,
    creates or destroys entities, or shows and hides records (then everything is copied)."""
    from .trial import _layout, _mark_writes
    ent = state["ent"]
    marks, shows = _mark_writes(ruleset)
    layout, whole = _layout(ruleset, ent)
    if whole or shows or not marks or getattr(getattr(ruleset, "compiler", None), "written", None) is None:
        return None
    known = _PLACES.get(id(ruleset))
    if known is None or known[0] is not ruleset or known[1] is not layout:
        hidden = ruleset.hidden.attributes
        places = {(ident, attr) for attr, _getter, holders, _signs in layout for ident in holders}
        places.update((ident, attr) for ident, record in ent.items() for attr in hidden.intersection(record))
        known = _PLACES[id(ruleset)] = (ruleset, layout, sorted(places))
        if len(_PLACES) > 16:
            _PLACES.clear()
    places = known[2]
    copied = {ident: record.copy() for ident, record in ent.items()}
    values = [ent[ident][attr] for ident, attr in places]
    mutable = list(map(isinstance, values, repeat(_CONTAINERS)))  # the others are shared by record.copy()
    for (ident, attr), value in zip(compress(places, mutable), marshal.loads(marshal.dumps(list(compress(values, mutable))))):
        copied[ident][attr] = value
    rest = marshal.loads(marshal.dumps({key: value for key, value in state.items() if key != "log" and key != "ent"}))
    rest["ent"] = copied
    return rest


def _segments(items: list, tail: int) -> list[tuple[int, int]]:
    """The head and the tail of a list whose last *tail* items were shuffled apart."""
    cut = max(0, len(items) - tail) if tail else len(items)
    return [(0, cut), (cut, len(items))] if 0 < cut < len(items) else [(0, len(items))]


def _collect(slots: dict, key: Any, container: Any, places) -> None:
    slots.setdefault(key, []).extend((container, place) for place in places)


def _shuffler(streams: Any, generator: random.Random):
    """How to shuffle a group of hidden items, ``shuffle(items, group)``: with the generator, in
    turn (the default); in a game with per-source streams (``rng.py``), each group by keys
    hashed from one draw of the generator, the group and each item, so that one item more in a
    group leaves the order of the others and every other group as they were (a change to one
    deck then changes a paired game's resampling only where its own cards come)."""
    if not isinstance(streams, dict):
        if type(generator) is random.Random and _SAME_SHUFFLE:
            getrandbits = generator.getrandbits
            return lambda items, group: _shuffle(items, getrandbits)
        return lambda items, group: generator.shuffle(items)
    key = generator.getrandbits(64)
    return lambda items, group: game_rng.keyed_order(f"{key}\x00{group!r}", items)


def _shuffle(items: list, getrandbits) -> None:
    """``random.Random.shuffle`` as CPython writes it (the same draws, the same order), without
    a method call per item: a third of the time. Used only if it gives what ``shuffle`` gives
    on this Python (checked once, at import: :data:`_SAME_SHUFFLE`)."""
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def _same_shuffle() -> bool:
    ours, theirs = random.Random(7), random.Random(7)
    for size in (0, 1, 2, 3, 5, 17, 64, 100, 257):
        mine, reference = list(range(size)), list(range(size))
        _shuffle(mine, ours.getrandbits)
        theirs.shuffle(reference)
        if mine != reference:
            return False
    return ours.getstate() == theirs.getstate()


_SAME_SHUFFLE = _same_shuffle()


def _deal(slots: dict, shuffle) -> dict:
    """Deal each group's items anew over its places (in an order that does not depend on
    where they were); returns how unique items were renamed (old -> new)."""
    renamed: dict = {}
    for key in sorted(slots, key=repr):
        places = slots[key]
        old = [container[place] for container, place in places]
        new = sorted(old, key=repr)
        shuffle(new, key)
        for (container, place), item in zip(places, new):
            container[place] = item
        if len(set(map(repr, old))) == len(old):
            renamed.update((repr(a), b) for a, b in zip(old, new))
    return renamed


def _deal_whole(ent: dict, singles: dict[str, list[str]], shuffle) -> None:
    """Private single values in no group, dealt anew as whole entities: an entity takes all
    of them from one other entity of its kind with the same ones (never one value of one
    entity with another's other value)."""
    groups: dict[tuple, list[dict]] = {}
    for ident in sorted(singles):
        record = ent[ident]
        groups.setdefault((record.get("kind"), tuple(singles[ident])), []).append(record)
    for group, records in sorted(groups.items(), key=repr):
        attrs = group[1]
        values = [tuple(record[a] for a in attrs) for record in records]
        shuffle(values, group)
        for record, taken in zip(records, values):
            record.update(zip(attrs, taken))


def _deal_faces(ent: dict, hidden, me: Any, shuffle) -> None:
    """The faces of the entities *me* does not see, dealt anew as whole entities: each
    takes every face attribute of one such entity of its kind (or deck), so a copy holds
    only real ones (never one face of one card with another card's other face)."""
    groups: dict[tuple, list[dict]] = {}
    for ident in sorted(ent):
        record = ent[ident]
        face = face_of(hidden, record)
        if face is None or sees(hidden, record, me, face):
            continue
        attrs = tuple(sorted(face.attributes & record.keys()))
        groups.setdefault((record.get("kind"), record.get("deck"), attrs), []).append(record)
    for group, records in groups.items():
        attrs = group[2]
        faces = [tuple(record[a] for a in attrs) for record in records]
        shuffle(faces, group)
        for record, values in zip(records, faces):
            record.update(zip(attrs, values))


def _own_options(game, seat: int) -> set:
    """The items of the lists the seat's own pending decision offers (an offer shown to it,
    from another's hand): it knows them, they stay where they are."""
    pending = game.state["pending"]
    if pending is None or not pending["options"] or not isinstance(pending["options"][0], list) \
            or game.player_of(pending["actor"]) != seat:
        return set()
    return {repr(item) for option in pending["options"] for item in option}


def _rename_pending(game, seat: int, renamed: dict) -> None:
    """Another player's pending options name items the seat cannot see: rename them."""
    pending = game.state["pending"]
    if pending is None or not renamed or game.player_of(pending["actor"]) == seat:
        return
    pending["options"] = [renamed.get(repr(option), option) for option in pending["options"]]


def _rename_fibers(state: dict, seat: int, renamed: dict) -> None:
    """Other seats' parts of a simultaneous statement: pending options and local names
    renamed (new lists and dicts: the copy may share none of them); the pending decision
    of the copy is *seat*'s own if it has one, else the first by seat."""
    frame = state["stack"][-1]
    for fiber in frame[2]:
        if fiber["seat"] == seat or not renamed:
            continue
        for each in fiber["stack"]:
            each[2] = _renamed(each[2], renamed)
        if fiber["pending"] is not None:
            fiber["pending"] = {**fiber["pending"], "options": _renamed(fiber["pending"]["options"], renamed)}
    waiting = [f for f in frame[2] if f["pending"] is not None]
    state["pending"] = min(waiting, key=lambda f: (f["seat"] != seat, f["seat"]))["pending"]


def _renamed(value: Any, renamed: dict) -> Any:
    if isinstance(value, dict):
        return {k: _renamed(v, renamed) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, renamed) for v in value]
    return renamed.get(repr(value), value) if isinstance(value, str) else value


_PUBLIC: dict[int, tuple] = {}  # id(ruleset) -> (ruleset, the names of its public functions): see public_functions


def public_functions(ruleset) -> frozenset:
    """The rule functions whose value no seat's determinization can change: they read no
    hidden attribute (the ``hidden`` section's, faces included), have no modifiers, and call
    only such functions (transitively). Their values are the same in the game and in every
    determinized copy of it, so a copy may start from the values the game remembers and the
    game may keep those a copy found before it was changed (:func:`share_public`)."""
    known = _PUBLIC.get(id(ruleset))
    if known is not None and known[0] is ruleset:
        return known[1]
    functions = getattr(ruleset, "functions", None) or {}
    hidden = ruleset.hidden.attributes
    public = {name for name, f in functions.items()
              if not getattr(f, "modified", True) and not (set(getattr(f, "reads", None) or ()) & hidden)}
    changed = True
    while changed:
        changed = False
        for name in list(public):
            if not set(getattr(functions[name], "calls", None) or ()) <= public:
                public.discard(name)
                changed = True
    if len(_PUBLIC) > 16:
        _PUBLIC.clear()
    found = frozenset(public)
    _PUBLIC[id(ruleset)] = (ruleset, found)
    return found


def share_public(source, target) -> None:
    """Give *target* (copies of) the remembered values of the public functions
    (:func:`public_functions`) that *source* holds; the two games must be at the same
    position up to what is hidden (a game and a copy determinized from it, not yet changed).
    Only speed changes: the values are those *target* would compute."""
    public = public_functions(source.ruleset)
    for mine, theirs in ((source._machine.memo, target._machine.memo),
                         (source._machine.static_memo, target._machine.static_memo)):
        for name in public.intersection(mine):
            table = mine[name]
            theirs[name] = dict(table) if type(table) is dict else table
