"""Trials: take actions on a game and put it back exactly as it was, without a copy per action.

An agent that looks ahead (take an action, let the rules run to the next decision, value the
position) would otherwise copy the whole state once per action it tries. A :class:`Trial`
remembers the game once; after each action tried, :meth:`Trial.rollback` finds what the
rules changed and puts back only that:

>>> from speciation import load_ruleset, Game
>>> game = Game.new(load_ruleset("original"), players=4, seed=1)
>>> before = game.digest()
>>> trial = game.trial()
>>> for action in game.legal_actions():
...     game.apply(action)          # the rules run to the next decision
...     trial.rollback()            # and the game is back at this one
>>> game.digest() == before
True

What is put back: each attribute the rules can change (one that a statement of the ruleset
writes, as the compiler notes for remembered values; every attribute for a ruleset without
that note) whose value differs from the one remembered (compared with ``==``), a record shown
or hidden on the way (the visibility field; only in a ruleset with ``reveal`` or ``hide``), the
entities created or destroyed (every record put back then; one destroyed and created again
under its id is told by its record, not its id), every other part of the state (the stack, the pending decision, the generator, the scripted chance, the
step count), the log's length, the decision number and history, and the rule-function values
the game remembers (the tables an action's statements made stale are replaced by copies of
the remembered ones; the others, never made stale, keep what they learnt, which holds in the
remembered state too). An attribute is compared only if a statement that writes it ran: each
such statement also forgets the attribute's *mark*, a name the trial puts among the remembered
values (see ``_mark_writes``), so an action that wrote two attributes has those two compared, not
all of them. Actions listed before the trial are accepted again after each
rollback (checked by value and decision id, as a bare value is). A trial is for one game at
one decision: restoring the game by hand (``restore``) or editing its state ends its use.
"""
from __future__ import annotations

import marshal
from itertools import compress, repeat
from operator import is_not, itemgetter, ne, not_
from typing import Any

from .expressions import ENTITIES
from .visibility import FIELD

_IMMUTABLE = (int, float, str, bool, type(None))
_MISSING = object()
_LAYOUTS: dict[int, tuple] = {}  # id(ruleset) -> (ruleset, key, layout, whole): see _layout
_SORTED: dict[tuple, tuple] = {}  # (id(layout), tables) -> (layout, its groups sorted): see _sorted
_MARKS: dict[int, tuple] = {}  # id(ruleset) -> (ruleset, node count, marks): see _mark_writes
_SHOWING = ("reveal_stmt", "hide_stmt")  # the statements that show or hide a record (its visibility field)
_MARKED: set = set()  # every mark handed out (names of the remembered values that are marks)
_FIELD = itemgetter(FIELD)


class Trial:
    """The game as it is now, to come back to after each action tried (see the module)."""

    __slots__ = ("game", "_pristine", "_frozen", "_groups", "_whole", "_live", "_log_size", "_decisions",
                 "_history_size", "_start", "_fresh", "_log_chars", "_always", "_by_mark", "_conditional", "_shows", "_visibility", "_rest", "_parts")

    def __init__(self, game, origin=None):
        self.game = game
        state = game.state
        pristine = None if origin is None else _snapshot_from(state, origin.state, game.ruleset)
        self._pristine = _snapshot(state, game.ruleset) if pristine is None else pristine
        self._frozen: dict[Any, bytes] = {}  # a part (or an entity's record) frozen, made when first put back
        self._log_size = len(state["log"])
        self._decisions = game.decision_number
        history = game._history
        self._history_size = None if history is None else len(history["decisions"])
        machine = game._machine
        machine.held = True  # this trial holds the memo's tables: a keyed forget replaces them (invalidation.forget_keyed)
        self._log_chars = machine.log_chars
        marks = _mark_writes(game.ruleset)[0]
        if marks:
            machine.memo.update(dict.fromkeys(marks, True))  # forgotten by a statement writing its attribute
        self._start = dict(machine.memo)  # the remembered values each action starts from: name -> table
        self._rest = [(key, value) for key, value in self._pristine.items() if key != "ent"]
        self._parts = len(state)
        # untouched copies of the tables (a function without arguments keeps its value itself: shared)
        self._fresh = {name: dict(table) if type(table) is dict else table for name, table in self._start.items()}
        self._watch(state["ent"], game.ruleset)

    def _watch(self, ent: dict, ruleset) -> None:
        """What is compared after each action: for each attribute watched, the ids of the
        records that have it and the remembered tables whose loss a write of it always causes
        (none: compared every time). Groups are kept by what tells that a statement may have
        written them: nothing (compared after every action), the mark of their attribute
        (compared when it is gone), or other tables (compared when all of them are gone). A
        group's records and values before are gathered the first time it is compared (from the
        remembered state, which no action changes)."""
        layout, whole = _layout(ruleset, ent)
        tables = frozenset(name for name, table in self._start.items() if type(table) is dict or name in _MARKED)
        self._always, self._by_mark, self._conditional = _sorted(layout, tables)
        self._groups: dict[str, tuple] = {}  # attribute -> (attribute, getter, records, values before, signs), as gathered
        self._shows = _mark_writes(ruleset)[1]  # some statement can show or hide a record
        self._visibility: tuple | None = None  # see _seen
        self._whole = whole  # entities may be created or destroyed: their ids are compared too
        # ... and their records: one destroyed and created again under its id is a new record
        self._live = list(ent.values()) if whole else []

    def _gathered(self, spec: tuple) -> tuple:
        """The group of *spec* (attribute, getter, ids, signs): its live records and values before."""
        group = self._groups.get(spec[0])
        if group is None:
            attr, getter, holders, signs = spec
            before = self._pristine["ent"]
            group = self._groups[attr] = (attr, getter, list(map(self.game.state["ent"].__getitem__, holders)),
                                          list(map(getter, map(before.__getitem__, holders))), signs)
        return group

    def _seen(self) -> tuple[list, tuple]:
        """The records without the visibility field before, and the group of those with it."""
        if self._visibility is not None:
            return self._visibility
        ent, before = self.game.state["ent"], self._pristine["ent"]
        shown = list(map(dict.__contains__, map(before.__getitem__, ent), repeat(FIELD)))
        records = list(ent.values())
        seen: tuple = (FIELD, _FIELD, list(compress(records, shown)),
                list(map(_FIELD, map(before.__getitem__, compress(ent, shown)))), frozenset())
        self._visibility = list(compress(records, map(not_, shown))), seen
        return self._visibility

    def rollback(self, everything: bool = False) -> None:
        """Put the game back as it was when the trial began (see the module). After an action
        that raised, pass ``everything=True``: every watched attribute is compared then (the
        statement that raised may have written without the rules noting it)."""
        game = self.game
        state = game.state
        machine = game._machine
        memo, start = machine.memo, self._start
        stale = frozenset(compress(start, map(is_not, map(memo.get, start), start.values())))
        pristine = self._pristine
        ent, before = state["ent"], pristine["ent"]
        if (self._whole or len(ent) != len(before)) and (ent.keys() != before.keys() or len(ent) != len(self._live)
                                                          or any(map(is_not, ent.values(), self._live))):
            ent.clear()  # entities created or destroyed: all of them put back
            ent.update(self._thawed("ent"))
            self._watch(ent, game.ruleset)
        else:
            groups = []
            if self._shows or everything:
                bare, seen = self._seen()
                if any(map(dict.__contains__, bare, repeat(FIELD))):
                    for ident, record in ent.items():  # a record shown or hidden: put back whole
                        if record != before[ident]:
                            record.clear()
                            record.update(self._thawed("ent", ident))
                groups.append(seen)
            gathered = self._gathered
            if everything:
                specs = self._always + [spec for specs in self._by_mark.values() for spec in specs] + self._conditional
            else:  # the others: a statement writing them would have made these stale, and none ran
                by_mark = self._by_mark
                specs = self._always + [spec for name in stale if name in by_mark for spec in by_mark[name]]
                specs += [spec for spec in self._conditional if spec[3] <= stale]
            groups += map(gathered, specs)
            for attr, getter, records, values, _signs in groups:
                now = list(map(getter, records))
                if now != values:
                    for number in compress(range(len(now)), map(ne, now, values)):
                        value = values[number]
                        records[number][attr] = value if isinstance(value, _IMMUTABLE) else _copied(value)
        if len(state) != self._parts:
            for key in [key for key in state if key not in pristine and key != "log"]:
                del state[key]
        for key, value in self._rest:
            now = state.get(key, _MISSING)
            if now is not value and now != value:
                state[key] = value if isinstance(value, _IMMUTABLE) else self._thawed(key)
        del state["log"][self._log_size:]
        game.decision_number = self._decisions
        game._offer = None  # actions listed before are checked as any other (by value and decision id)
        if self._history_size is not None and game._history is not None:
            del game._history["decisions"][self._history_size:]
        machine.log_chars = self._log_chars
        renew = [name for name in stale if name not in _MARKED]  # a mark is the same value again
        if renew:
            fresh = self._fresh
            for name in renew:
                start[name] = dict(fresh[name]) if type(start[name]) is dict else fresh[name]
        machine.memo = dict(start)

    def _thawed(self, key: str, ident: Any = None) -> Any:
        """A fresh copy of a part of the remembered state (of one entity's record with *ident*)."""
        frozen = self._frozen.get((key, ident))
        if frozen is None:
            part = self._pristine[key] if ident is None else self._pristine[key][ident]
            frozen = self._frozen[key, ident] = marshal.dumps(part)
        return marshal.loads(frozen)


def _snapshot(state: dict, ruleset) -> dict:
    """The state (without its log) as it is now, to compare with and put back from; never
    changed. In a ruleset whose statements all note what they write, create or destroy no entity
    and show or hide nothing, a value no statement writes never changes (the trial compares
    only written attributes anyway): the snapshot's records then share those values with the
    game's and copy only the written ones that are lists or maps (about half the work of a
    whole copy). Otherwise everything is copied."""
    rest = marshal.loads(marshal.dumps({k: v for k, v in state.items() if k != "log" and k != "ent"}))
    ent = state["ent"]
    marks, shows = _mark_writes(ruleset)  # (first: the layout's signs include the marks)
    layout, whole = _layout(ruleset, ent)
    if whole or shows or not marks or getattr(getattr(ruleset, "compiler", None), "written", None) is None:
        rest["ent"] = marshal.loads(marshal.dumps(ent))
        return rest
    before = {ident: record.copy() for ident, record in ent.items()}
    places = []  # (record, attribute) of the written values that can change in place
    for attr, _getter, holders, _signs in layout:
        for ident in holders:
            record = before[ident]
            if not isinstance(record[attr], _IMMUTABLE):
                places.append((record, attr))
    for (record, attr), value in zip(places, marshal.loads(marshal.dumps([r[a] for r, a in places]))):
        record[attr] = value
    rest["ent"] = before
    return rest


def _snapshot_from(state: dict, origin: dict, ruleset) -> dict | None:
    """The snapshot of a determinized copy's *state* (as :func:`_snapshot`), made from the
    state of the game it was copied from (*origin*), which must not change while the trial
    is used: the records that hold no hidden attribute (``ruleset.hidden``) and no
    visibility field are the same in both (determinizing changes only hidden attributes), so
    the snapshot takes the origin's, which no one changes meanwhile; the others are copied
    from the copy. None where :func:`_snapshot` would copy everything (see there), or the two
    hold different entities."""
    ent, theirs = state["ent"], origin["ent"]
    marks, shows = _mark_writes(ruleset)
    layout, whole = _layout(ruleset, ent)
    if whole or shows or not marks or getattr(getattr(ruleset, "compiler", None), "written", None) is None \
            or ent.keys() != theirs.keys():
        return None
    hidden = ruleset.hidden.attributes
    before = dict(theirs)
    own = [ident for ident, record in ent.items() if FIELD in record or not hidden.isdisjoint(record)]
    before.update(zip(own, marshal.loads(marshal.dumps([ent[ident] for ident in own]))))
    rest = marshal.loads(marshal.dumps({k: v for k, v in state.items() if k != "log" and k != "ent"}))
    rest["ent"] = before
    return rest


def _mark_writes(ruleset) -> tuple[frozenset, bool]:
    """Make every statement that writes an attribute also forget that attribute's *mark* (a
    name no rule function has) from the remembered values, as it forgets the functions that
    read the attribute; returns the marks, and whether some statement can show or hide a
    record (``reveal``, ``hide``). A trial puts the marks among the remembered values, so
    after an action the marks gone name the attributes some statement wrote: only those are
    compared. Only the ruleset's compiled statements change (once per program); a game
    without a trial never holds a mark, and forgetting a name it does not hold does nothing.
    A ruleset with a statement that changes the state without noting what (other than
    showing or hiding) gets no marks: every attribute is then compared as before."""
    nodes = getattr(ruleset, "nodes", None) or []
    known = _MARKS.get(id(ruleset))
    if known is not None and known[0] is ruleset and known[1] == len(nodes):
        return known[2], known[3]
    shows = any(getattr(node, "text", None) in _SHOWING for node in nodes)
    unknown = any(getattr(node, "changes", False) and not getattr(node, "writes", None)
                  and getattr(node, "text", None) not in _SHOWING for node in nodes)
    marks: set = set()
    for node in [] if unknown else nodes:
        writes = getattr(node, "writes", None)
        if writes and hasattr(node, "invalidates"):
            own = frozenset(_mark(attr) for attr in writes)
            marks |= own
            if not own <= node.invalidates:
                node.invalidates = node.invalidates | own
    if len(_MARKS) > 16:
        _MARKS.clear()
    _MARKS[id(ruleset)] = (ruleset, len(nodes), frozenset(marks), shows)
    _MARKED.update(marks)
    return frozenset(marks), shows


def _sorted(layout: list, tables: frozenset) -> tuple[list, dict, list]:
    """The groups of *layout* as (attribute, getter, ids, signs): compared always, by mark,
    and when all their signs are stale; made once per layout and set of remembered tables."""
    key = (id(layout), tables)
    known = _SORTED.get(key)
    if known is not None and known[0] is layout:
        return known[1]
    always: list = []
    by_mark: dict = {}
    conditional: list = []
    for attr, getter, holders, signs in layout:
        spec = (attr, getter, holders, signs & tables)
        mark = _mark(attr)
        if mark in spec[3]:
            by_mark.setdefault(mark, []).append(spec)
        else:
            (conditional if spec[3] else always).append(spec)
    if len(_SORTED) > 64:
        _SORTED.clear()
    _SORTED[key] = (layout, (always, by_mark, conditional))
    return always, by_mark, conditional


def _mark(attr: str) -> str:
    """The mark of an attribute: a name no rule function can have (it is no identifier)."""
    return "#" + attr


def _layout(ruleset, ent: dict) -> tuple:
    """([(attribute, its getter, ids of the entities that have it, the rule functions every
    statement that writes it makes stale)], whether entities may be created or destroyed) for
    the attributes a statement of *ruleset* can write (every attribute when the ruleset does
    not say; the visibility field apart), made once per ruleset, set of entities and program."""
    _mark_writes(ruleset)  # the statements' marks first: they are among the signs
    nodes = getattr(ruleset, "nodes", None) or []
    key = (list(ent), len(nodes))
    known = _LAYOUTS.get(id(ruleset))
    if known is not None and known[0] is ruleset and known[1] == key:
        return known[2], known[3]
    written = getattr(getattr(ruleset, "compiler", None), "written", None)
    signs: dict[str, frozenset] = {}
    for node in nodes:
        for attr in getattr(node, "writes", None) or ():
            made_stale: frozenset = getattr(node, "invalidates", frozenset())
            signs[attr] = signs[attr] & made_stale if attr in signs else frozenset(made_stale)
    holders: dict[str, list] = {}
    for ident, record in ent.items():
        for attr in record:
            if attr != FIELD and (written is None or attr in written):
                holders.setdefault(attr, []).append(ident)
    layout = [(attr, itemgetter(attr), found, signs.get(attr, frozenset()) if written is not None else frozenset())
              for attr, found in holders.items()]
    whole = written is None or ENTITIES in written
    if len(_LAYOUTS) > 16:
        _LAYOUTS.clear()
    _LAYOUTS[id(ruleset)] = (ruleset, key, layout, whole)
    return layout, whole


def _copied(value: Any) -> Any:
    return marshal.loads(marshal.dumps(value))
