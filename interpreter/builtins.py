"""The closed registry of built-in functions (pure) and verbs (changes).

Each entry's docstring is its reference: the DSL reference in ``docs/`` is
generated from this table (``speciation.interpreter.builtins.reference()``).
A rule file may only call what is registered here, or its own functions and
macros; anything else is a compile error with a "did you mean".
"""
from __future__ import annotations

from dataclasses import dataclass
from operator import neg
from typing import Any, Callable

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


def _register(table: dict, min_args: int, max_args: int | None = -1, target: bool = False):
    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        name = fn.__name__.rstrip("_")
        top = min_args if max_args == -1 else max_args
        table[name] = Builtin(name, fn, min_args, top, (fn.__doc__ or "").strip(), target)
        return fn
    return wrap


def function(min_args: int, max_args: int | None = -1):
    return _register(FUNCTIONS, min_args, max_args)


def verb(min_args: int, max_args: int | None = -1, target: bool = False):
    return _register(VERBS, min_args, max_args, target)


# ---- collections ---------------------------------------------------------------

@function(1)
def len_(rt, items):
    """`len(xs)`: how many items a list (or keys a map) holds. `len([1, 2]) == 2`"""
    return len(items)


@function(1)
def sum_(rt, items):
    """`sum(xs)`: the total of a list of numbers. `sum([1, 2, 3]) == 6`"""
    return sum(items)


@function(1, None)
def max_(rt, *items):
    """`max(xs)` or `max(a, b, ...)`: the largest; 0 for an empty list. `max([2, 5]) == 5`"""
    values = items[0] if len(items) == 1 and isinstance(items[0], list) else items
    return max(values) if values else 0


@function(1, None)
def min_(rt, *items):
    """`min(xs)` or `min(a, b, ...)`: the smallest; 0 for an empty list. `min(3, 1) == 1`"""
    values = items[0] if len(items) == 1 and isinstance(items[0], list) else items
    return min(values) if values else 0


@function(2)
def count(rt, items, value):
    """`count(xs, v)`: how many items equal v. `count(["a", "b", "a"], "a") == 2`"""
    return items.count(value)


@function(1)
def any_(rt, items):
    """`any(xs)`: true if some item is true. `any([false, true])`"""
    return any(items)


@function(1)
def all_(rt, items):
    """`all(xs)`: true if every item is true (and for an empty list). `all([true, true])`"""
    return all(items)


@function(1)
def unique(rt, items):
    """`unique(xs)`: the items without repeats, first occurrence order. `unique([2, 1, 2]) == [2, 1]`"""
    return list(dict.fromkeys(items))


@function(1)
def sorted_(rt, items):
    """`sorted(xs)`: the items in ascending order. `sorted([3, 1]) == [1, 3]`"""
    return sorted(items)


@function(1)
def reversed_(rt, items):
    """`reversed(xs)`: the items in reverse order. `reversed([1, 2]) == [2, 1]`"""
    return list(reversed(items))


@function(2)
def sole_highest(rt, items, keys):
    """`sole_highest(xs, keys)`: the item whose key is strictly greater than every other
    item's key; none if the list is empty or the highest key is shared.
    `sole_highest(["a", "b"], [3, 2]) == "a"`"""
    if not items:
        return None
    best = max(keys)
    keys = keys if keys.__class__ is list else list(keys)
    if keys.count(best) != 1:
        return None
    return items[keys.index(best)]


@function(2)
def order_by(rt, items, keys):
    """`order_by(xs, keys)`: xs sorted by the matching keys, ascending; ties keep list order.
    `order_by(["a", "b"], [2, 1]) == ["b", "a"]`"""
    return [item for _, _, item in sorted(zip(keys, range(len(items)), items))]


@function(2)
def order_by_desc(rt, items, keys):
    """`order_by_desc(xs, keys)`: xs sorted by the keys, largest first; ties keep list order.
    `order_by_desc(["a", "b"], [1, 2]) == ["b", "a"]`"""
    negated = list(map(neg, keys))
    count = len(items)
    items = list(items)  # (what zip would walk)
    # sorting the positions by key is sorting (key, position, item) triples: no two are equal
    return list(map(items.__getitem__, sorted(range(min(count, len(negated))), key=negated.__getitem__)))


@function(1, 2)
def range_(rt, start, stop=None):
    """`range(n)` is 0..n-1; `range(a, b)` is a..b-1. `range(1, 4) == [1, 2, 3]`"""
    low, high = (0, start) if stop is None else (start, stop)
    check_sequence(rt.limits, high - low, "a range")
    if high - low > 0:
        charge_units(rt, high - low)  # one unit per item made (limits.py)
    return list(range(low, high))


@function(1)
def first(rt, items):
    """`first(xs)`: the first item, or none for an empty list. `first([4, 5]) == 4`"""
    return items[0] if items else None


@function(1)
def last(rt, items):
    """`last(xs)`: the last item, or none for an empty list. `last([4, 5]) == 5`"""
    return items[-1] if items else None


@function(2)
def index_of(rt, items, value):
    """`index_of(xs, v)`: position of the first v in xs (from 0), or -1. `index_of(["a", "b"], "b") == 1`"""
    return items.index(value) if value in items else -1


@function(2)
def without(rt, items, value):
    """`without(xs, v)`: a copy of xs with one occurrence of v taken out. `without([1, 2, 1], 1) == [2, 1]`"""
    copy = list(items)
    if value in copy:
        copy.remove(value)
    return copy


@function(2)
def concat(rt, left, right):
    """`concat(xs, ys)`: xs followed by ys. `concat([1], [2]) == [1, 2]`"""
    if left.__class__ is list and right.__class__ is list:
        return left + right  # (a new list, as below)
    return list(left) + list(right)


@function(1)
def keys(rt, mapping):
    """`keys(m)`: the keys of a map, in order. `keys(t.units)`"""
    return list(mapping)


@function(1)
def abs_(rt, value):
    """`abs(n)`: the absolute value. `abs(-2) == 2`"""
    return abs(value)


@function(1, None)
def format_(rt, template, *values):
    """`format("{} has {}", a, b)`: text with each {} replaced by the next value's label."""
    return _fill(rt, template, values)


# ---- entities and board --------------------------------------------------------

@function(1)
def entities(rt, kind):
    """`entities(kind)`: every entity of a kind, in the order declared. `entities(cell)`"""
    # Not copied: every place that binds a value (let, for, macro arguments) copies lists.
    return rt.ruleset.kind_members.get(kind, []) if kind != "player" else rt.state["players"]


@function(1)
def kind_of(rt, entity):
    """`kind_of(x)`: the kind of an entity, as a word. `kind_of(game) == "game"`"""
    return rt.ent[entity]["kind"]


@function(1)
def neighbours(rt, cell):
    """`neighbours(c)`: the grid cells sharing an edge with cell c."""
    return (rt.ruleset.grid.neighbours[cell])


@function(1)
def corners(rt, cell):
    """`corners(c)`: the six corners of cell c, clockwise."""
    return (rt.ruleset.grid.corners[cell])


@function(1)
def cells_at(rt, corner):
    """`cells_at(k)`: the grid cells (one to three) that meet at corner k."""
    return (rt.ruleset.grid.cells_at[corner])


@function(2)
def cell(rt, q, r):
    """`cell(q, r)`: the id of the grid cell at axial coordinates (q, r). `cell(0, -1) == "0,-1"`"""
    ident = f"{q},{r}"
    if ident not in rt.ruleset.grid.neighbours:
        raise ValueError(f"there is no cell ({q}, {r}) on the grid")
    return ident


@function(3)
def corner_between(rt, a, b, c):
    """`corner_between(a, b, c)`: the corner where the three hexes a, b, c meet (cell ids,
    or "q,r" text for a hex off the grid)."""
    corner = rt.ruleset.grid.corner_of([a, b, c])
    if corner is None:
        raise ValueError(f"hexes {a}, {b} and {c} do not meet at a corner of the grid")
    return corner


@function(1)
def on_edge(rt, cell):
    """`on_edge(c)`: true if cell c has fewer than six neighbours on the grid."""
    return len(rt.ruleset.grid.neighbours[cell]) < 6


@function(3)
def reachable(rt, start, steps, through):
    """`reachable(c, n, allowed)`: cells reachable from c in 1..n steps, moving only
    through cells in the list allowed (the start does not count). Nearest first."""
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


@function(0)
def player_count(rt):
    """`player_count()`: how many players sit at the table."""
    return len(rt.state["players"])


@function(1)
def label(rt, value):
    """`label(x)`: the display name of a value (an entity's name, else the value as text)."""
    return rt.label(value)


# ---- verbs ---------------------------------------------------------------------

@verb(2, target=True)
def append(rt, items, value):
    """`append(xs, v)`: put v at the end of the list xs (a place such as `game.bag`)."""
    if len(items) >= rt.limits.sequence:
        check_sequence(rt.limits, len(items) + 1, "a list")
    items.append(value)


@verb(3, target=True)
def insert(rt, items, position, value):
    """`insert(xs, i, v)`: put v into the list xs at position i (0 is the front)."""
    if len(items) >= rt.limits.sequence:
        check_sequence(rt.limits, len(items) + 1, "a list")
    items.insert(position, value)


@verb(2, target=True)
def extend(rt, items, values):
    """`extend(xs, ys)`: put every item of ys at the end of the list xs."""
    check_sequence(rt.limits, len(items) + len(values), "a list")
    charge_units(rt, len(values))  # one unit of work per item added (limits.py)
    items.extend(values)


@verb(2, target=True)
def remove(rt, items, value):
    """`remove(xs, v)`: take one v out of the list xs; an error if there is none."""
    if value not in items:
        raise ValueError(f"cannot remove {rt.label(value)}: it is not there")
    items.remove(value)


@verb(1, target=True)
def clear(rt, items):
    """`clear(xs)`: empty the list (or map) xs."""
    items.clear()


@verb(3, target=True)
def swap(rt, items, i, j):
    """`swap(xs, i, j)`: exchange the items at positions i and j of the list xs."""
    items[i], items[j] = items[j], items[i]


@verb(1, None)
def log(rt, template, *values):
    """`log("{} scores {}", f, n)`: add a line to the game log; {} takes the next value's label."""
    if rt.keep_log:
        rt.log(_fill(rt, template, values))


@verb(2, None)
def log_to(rt, who, template, *values):
    """`log_to(p, "you drew {}", c)`: a log line only the player p (or p's controller) may read."""
    if not rt.keep_log:
        return
    players = rt.state["players"]
    owner = who if who in players else rt.ent.get(who, {}).get("player")
    text = _fill(rt, template, values)
    rt.add_log_line([owner, text], text)


def _fill(rt, template: str, values: tuple) -> str:
    parts = _PARTS.get(template) if template.__class__ is str else None
    if parts is None:
        parts = template.split("{}")
        if len(_PARTS) < 4096 and template.__class__ is str:  # the templates of loaded rules: a few hundred
            _PARTS[template] = parts
    if len(parts) == 1:
        return check_text(rt.limits, template)
    out = [parts[0]]
    label = rt.label
    for i, part in enumerate(parts[1:]):
        out.append(label(values[i]) if i < len(values) else "{}")
        out.append(part)
    return check_text(rt.limits, "".join(out))


_PARTS: dict[str, list[str]] = {}  # a log template -> its pieces around the {}


def reference() -> str:
    """The reference of every builtin, as Markdown."""
    lines = ["### Functions (pure)", ""]
    lines += [f"- {b.doc}" for b in sorted(FUNCTIONS.values(), key=lambda b: b.name)]
    lines += ["", "### Verbs (statements that change the game)", ""]
    lines += [f"- {b.doc}" for b in sorted(VERBS.values(), key=lambda b: b.name)]
    return "\n".join(lines) + "\n"
