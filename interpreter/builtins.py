"""The builtins' implementations, each registered against its signature.

What a rule file may call, with how many arguments and the documentation of each, is the
front end's (:mod:`speciation.dsl.signatures`); here each builtin gets the Python function
that does it (``@function`` / ``@verb``: the function's name, less a trailing ``_``, is the
builtin's). A rule file may only call what is registered here, or its own functions and
macros; anything else is a compile error with a "did you mean".
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from operator import neg
from typing import Any

from ..dsl import signatures
from . import visibility
from .limits import charge_units, check_sequence, check_text


@dataclass(frozen=True)
class Builtin:
    name: str
    fn: Callable[..., Any]
    min_args: int
    max_args: int | None
    doc: str
    target: bool = False  # a verb whose first argument is changed in place


FUNCTIONS: dict[str, Builtin] = {}
VERBS: dict[str, Builtin] = {}


def _register(table: dict, known: dict[str, signatures.Signature]) -> Callable:
    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        name = fn.__name__.rstrip("_")
        signature = known[name]  # a builtin without a signature is not one (the registry is closed)
        table[name] = Builtin(name, fn, signature.min_args, signature.max_args, signature.doc, signature.target)
        return fn
    return wrap


function = _register(FUNCTIONS, signatures.FUNCTIONS)
verb = _register(VERBS, signatures.VERBS)


# ---- collections ---------------------------------------------------------------

@function
def len_(rt, items):
    return len(items)


@function
def sum_(rt, items):
    return sum(items)


@function
def max_(rt, *items):
    values = items[0] if len(items) == 1 and isinstance(items[0], list) else items
    return max(values) if values else 0


@function
def min_(rt, *items):
    values = items[0] if len(items) == 1 and isinstance(items[0], list) else items
    return min(values) if values else 0


@function
def count(rt, items, value):
    return items.count(value)


@function
def any_(rt, items):
    return any(items)


@function
def all_(rt, items):
    return all(items)


@function
def unique(rt, items):
    return list(dict.fromkeys(items))


@function
def sorted_(rt, items):
    return sorted(items)


@function
def reversed_(rt, items):
    return list(reversed(items))


@function
def sole_highest(rt, items, keys):
    if not items:
        return None
    best = max(keys)
    keys = keys if keys.__class__ is list else list(keys)
    if keys.count(best) != 1:
        return None
    return items[keys.index(best)]


@function
def order_by(rt, items, keys):
    return [item for _, _, item in sorted(zip(keys, range(len(items)), items))]


@function
def order_by_desc(rt, items, keys):
    negated = list(map(neg, keys))
    count = len(items)
    items = list(items)  # (what zip would walk)
    # sorting the positions by key is sorting (key, position, item) triples: no two are equal
    return list(map(items.__getitem__, sorted(range(min(count, len(negated))), key=negated.__getitem__)))


@function
def range_(rt, start, stop=None):
    low, high = (0, start) if stop is None else (start, stop)
    check_sequence(rt.limits, high - low, "a range")
    if high - low > 0:
        charge_units(rt, high - low)  # one unit per item made (limits.py)
    return list(range(low, high))


@function
def first(rt, items):
    return items[0] if items else None


@function
def last(rt, items):
    return items[-1] if items else None


@function
def index_of(rt, items, value):
    return items.index(value) if value in items else -1


@function
def without(rt, items, value):
    copy = list(items)
    if value in copy:
        copy.remove(value)
    return copy


@function
def concat(rt, left, right):
    if left.__class__ is list and right.__class__ is list:
        return left + right  # (a new list, as below)
    return list(left) + list(right)


@function
def keys(rt, mapping):
    return list(mapping)


@function
def abs_(rt, value):
    return abs(value)


@function
def format_(rt, template, *values):
    return _fill(rt, template, values)


# ---- entities and board --------------------------------------------------------

@function
def entities(rt, kind):
    # Not copied: every place that binds a value (let, for, macro arguments) copies lists.
    if kind == "player":
        return rt.state["players"]
    members = rt.ruleset.kind_members.get(kind)
    return members if members is not None else rt.created(kind)


@function
def kind_of(rt, entity):
    return rt.ent[entity]["kind"]


@function
def neighbours(rt, cell):
    return (rt.ruleset.grid.neighbours[cell])


@function
def corners(rt, cell):
    return (rt.ruleset.grid.corners[cell])


@function
def cells_at(rt, corner):
    return (rt.ruleset.grid.cells_at[corner])


@function
def cell(rt, q, r):
    ident = f"{q},{r}"
    if ident not in rt.ruleset.grid.neighbours:
        raise ValueError(f"there is no cell ({q}, {r}) on the grid")
    return ident


@function
def corner_between(rt, a, b, c):
    corner = rt.ruleset.grid.corner_of([a, b, c])
    if corner is None:
        raise ValueError(f"hexes {a}, {b} and {c} do not meet at a corner of the grid")
    return corner


@function
def on_edge(rt, cell):
    return len(rt.ruleset.grid.neighbours[cell]) < 6


@function
def reachable(rt, start, steps, through):
    allowed, seen, frontier, found = set(through), {start}, [start], []
    for _ in range(steps):
        if not frontier:
            break
        nxt = []
        for here in frontier:
            for there in rt.ruleset.grid.neighbours[here]:
                if there in allowed and there not in seen:
                    seen.add(there)
                    nxt.append(there)
        found.extend(nxt)
        frontier = nxt
    return found


@function
def player_count(rt):
    return len(rt.state["players"])


@function
def label(rt, value):
    return rt.label(value)


# ---- verbs ---------------------------------------------------------------------

@verb
def append(rt, items, value):
    if len(items) >= rt.limits.sequence:
        check_sequence(rt.limits, len(items) + 1, "a list")
    items.append(value)


@verb
def insert(rt, items, position, value):
    if len(items) >= rt.limits.sequence:
        check_sequence(rt.limits, len(items) + 1, "a list")
    items.insert(position, value)


@verb
def extend(rt, items, values):
    check_sequence(rt.limits, len(items) + len(values), "a list")
    charge_units(rt, len(values))  # one unit of work per item added (limits.py)
    items.extend(values)


@verb
def remove(rt, items, value):
    if value not in items:
        raise ValueError(f"cannot remove {rt.label(value)}: it is not there")
    items.remove(value)


@verb
def clear(rt, items):
    items.clear()


@verb
def swap(rt, items, i, j):
    items[i], items[j] = items[j], items[i]


@verb
def destroy(rt, entity):
    rt.destroy(entity)


@verb
def log(rt, template, *values):
    if rt.keep_log:
        if not rt.names and not rt.phrases and template.__class__ is str:  # the quick way, when it serves
            known = _PARTS.get(template)
            if known is not None and known[2] == len(values):
                labels = _labels(rt.ent, rt.ruleset.hidden.faces, values)
                if labels is not None:
                    text = known[1] % labels
                    rt.add_log_line(text, text)
                    return
        if values and visibility.mentions_unseen(rt, values):  # a line naming what some seat does not see: one per seat
            lines = visibility.log_lines(rt, values, lambda label: _fill(rt, template, values, label))
            if lines is not None:
                for line in lines:
                    rt.add_log_line(line, line if isinstance(line, str) else line[1])
                return
        text = _fill(rt, template, values)
        rt.add_log_line(text, text)


def log_known(rt, pattern: str, template: str, *values) -> None:
    """``log(template, values...)`` as generated code writes it, the game's log kept: *pattern*
    is the template's %-pattern (:func:`parts_of`), with as many holes as *values*. The line
    is :func:`log`'s, made here at once when :func:`_labels` serves."""
    if not rt.names and not rt.phrases:
        labels = _labels(rt.ent, rt.ruleset.hidden.faces, values)
        if labels is not None:
            text = pattern % labels
            rt.add_log_line(text, text)
            return
    log(rt, template, *values)


@verb
def log_to(rt, who, template, *values):
    if not rt.keep_log:
        return
    players = rt.state["players"]
    owner = who if who in players else rt.ent.get(who, {}).get("player")
    if rt.ruleset.hidden.faces:  # what the reader does not see is '?'
        text = _fill(rt, template, values, lambda v: visibility.masked(rt, rt.ruleset.hidden, v, owner))
    else:
        text = _fill(rt, template, values)
    rt.add_log_line([owner, text], text)


def _labels(ent: dict, faces: dict, values: tuple) -> tuple | None:
    """The labels of *values* as :meth:`Machine.label` gives them when no language is chosen
    (a text: its entity's name, or itself; an int, which %-formatting writes as ``str``
    does, as it is); None (for the general way) when a value is none of these, or is an
    entity of a kind or deck with a face in *faces* (some seat may not see it: that is for
    :mod:`.visibility` to say)."""
    labels = []
    for value in values:
        kind = value.__class__
        if kind is str:
            record = ent.get(value)
            if record is None:
                labels.append(value)
                continue
            if faces:  # (visibility.face_of: the record's deck's face, or its kind's)
                deck = record.get("deck")
                if record.get("kind") in faces or deck is not None and (deck.__class__ is not str or deck in faces):
                    return None
            name = record.get("name", value)
            labels.append(name if name.__class__ is str else str(name))
        elif kind is int:
            labels.append(value)
        else:
            return None
    return tuple(labels)


def parts_of(template: str) -> tuple[list[str], str, int]:
    """A template's pieces around its ``{}``, its %-pattern (the same text by %-formatting,
    given as many values as ``{}``) and how many ``{}`` it has; kept for the templates of
    loaded rules (a few hundred)."""
    known = _PARTS.get(template)
    if known is None:
        parts = template.split("{}")
        known = (parts, "%s".join(part.replace("%", "%%") for part in parts), len(parts) - 1)
        if len(_PARTS) < 4096:
            _PARTS[template] = known
    return known


def _fill(rt, template: str, values: tuple, label=None) -> str:
    if label is None and template.__class__ is str and not rt.names and not rt.phrases:
        known = _PARTS.get(template)
        if known is not None and known[2] == len(values):
            labels = _labels(rt.ent, _NO_FACES, values)
            if labels is not None:
                text = known[1] % labels
                return text if len(text) <= rt.limits.text else check_text(rt.limits, text)
    if rt.phrases and template.__class__ is str:  # the sentence in the game's language
        translated = rt.phrases.get(template)
        if translated is not None:
            if _NUMBERED.search(translated):
                return _fill_numbered(rt, translated, values, label)
            template = translated
    known = parts_of(template) if template.__class__ is str else None
    if known is None:
        parts = template.split("{}")
        known = (parts, "%s".join(part.replace("%", "%%") for part in parts), len(parts) - 1)
    parts, pattern, holes = known
    if not holes:
        return check_text(rt.limits, template)
    if len(values) == holes:
        text = pattern % tuple(map(label or rt.label, values))
        return text if len(text) <= rt.limits.text else check_text(rt.limits, text)
    label = label or rt.label
    out = [parts[0]]
    for i, part in enumerate(parts[1:]):
        out.append(label(values[i]) if i < len(values) else "{}")
        out.append(part)
    return check_text(rt.limits, "".join(out))


_PARTS: dict[str, tuple[list[str], str, int]] = {}  # a log template -> its pieces around the {}, its %-pattern, how many {}
_NUMBERED = re.compile(r"\{(\d+)\}")
_NO_FACES: dict = {}  # (format labels every entity, seen or not)


def _fill_numbered(rt, template: str, values: tuple, label=None) -> str:
    """A translated sentence whose placeholders are numbered ({1}: the first value), so a
    language may put the values in its own order."""
    label = label or rt.label

    def value(match: re.Match) -> str:
        i = int(match.group(1)) - 1
        return label(values[i]) if 0 <= i < len(values) else match.group(0)
    return check_text(rt.limits, _NUMBERED.sub(value, template))
