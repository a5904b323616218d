"""The signatures of the builtins: each name, how many arguments it takes, whether it is
a function (pure, it gives a value) or a verb (a statement that changes the game), and
its documentation, from which the reference in ``docs/language.md`` is generated
(:func:`reference`, ``python docs/gen_reference.py``).

This is the front end's half of the closed registry: what a rule file may call. The
implementations are the back end's (``speciation.interpreter.builtins``), each
registered against its signature here; ``tests/test_layers.py`` checks that both halves
name the same builtins and that each implementation takes the arguments its signature
allows.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Signature:
    name: str
    min_args: int
    max_args: int | None  # None: any number from min_args on
    doc: str
    target: bool = False  # a verb whose first argument is changed in place (a place, not a value)


def _table(*signatures: Signature) -> dict[str, Signature]:
    return {s.name: s for s in signatures}


FUNCTIONS: dict[str, Signature] = _table(
    Signature("len", 1, 1,
              '`len(xs)`: how many items a list (or keys a map) holds. `len([1, 2]) == 2`'),
    Signature("sum", 1, 1,
              '`sum(xs)`: the total of a list of numbers. `sum([1, 2, 3]) == 6`'),
    Signature("max", 1, None,
              '`max(xs)` or `max(a, b, ...)`: the largest; 0 for an empty list. `max([2, 5]) == 5`'),
    Signature("min", 1, None,
              '`min(xs)` or `min(a, b, ...)`: the smallest; 0 for an empty list. `min(3, 1) == 1`'),
    Signature("count", 2, 2,
              '`count(xs, v)`: how many items equal v. `count(["a", "b", "a"], "a") == 2`'),
    Signature("any", 1, 1,
              '`any(xs)`: true if some item is true. `any([false, true])`'),
    Signature("all", 1, 1,
              '`all(xs)`: true if every item is true (and for an empty list). `all([true, true])`'),
    Signature("unique", 1, 1,
              '`unique(xs)`: the items without repeats, first occurrence order. `unique([2, 1, 2]) == [2, 1]`'),
    Signature("sorted", 1, 1,
              '`sorted(xs)`: the items in ascending order. `sorted([3, 1]) == [1, 3]`'),
    Signature("reversed", 1, 1,
              '`reversed(xs)`: the items in reverse order. `reversed([1, 2]) == [2, 1]`'),
    Signature("sole_highest", 2, 2,
              ('`sole_highest(xs, keys)`: the item whose key is strictly greater than every other\n'
               "    item's key; none if the list is empty or the highest key is shared.\n"
               '    `sole_highest(["a", "b"], [3, 2]) == "a"`')),
    Signature("order_by", 2, 2,
              ('`order_by(xs, keys)`: xs sorted by the matching keys, ascending; ties keep list order.\n'
               '    `order_by(["a", "b"], [2, 1]) == ["b", "a"]`')),
    Signature("order_by_desc", 2, 2,
              ('`order_by_desc(xs, keys)`: xs sorted by the keys, largest first; ties keep list order.\n'
               '    `order_by_desc(["a", "b"], [1, 2]) == ["b", "a"]`')),
    Signature("range", 1, 2,
              '`range(n)` is 0..n-1; `range(a, b)` is a..b-1. `range(1, 4) == [1, 2, 3]`'),
    Signature("first", 1, 1,
              '`first(xs)`: the first item, or none for an empty list. `first([4, 5]) == 4`'),
    Signature("last", 1, 1,
              '`last(xs)`: the last item, or none for an empty list. `last([4, 5]) == 5`'),
    Signature("index_of", 2, 2,
              '`index_of(xs, v)`: position of the first v in xs (from 0), or -1. `index_of(["a", "b"], "b") == 1`'),
    Signature("without", 2, 2,
              '`without(xs, v)`: a copy of xs with one occurrence of v taken out. `without([1, 2, 1], 1) == [2, 1]`'),
    Signature("concat", 2, 2,
              '`concat(xs, ys)`: xs followed by ys. `concat([1], [2]) == [1, 2]`'),
    Signature("keys", 1, 1,
              '`keys(m)`: the keys of a map, in order. `keys(t.units)`'),
    Signature("abs", 1, 1,
              '`abs(n)`: the absolute value. `abs(-2) == 2`'),
    Signature("format", 1, None,
              '`format("{} has {}", a, b)`: text with each {} replaced by the next value\'s label.'),
    Signature("entities", 1, 1,
              '`entities(kind)`: every entity of a kind, in the order declared. `entities(cell)`'),
    Signature("kind_of", 1, 1,
              '`kind_of(x)`: the kind of an entity, as a word. `kind_of(game) == "game"`'),
    Signature("neighbours", 1, 1,
              '`neighbours(c)`: the grid cells sharing an edge with cell c.'),
    Signature("corners", 1, 1,
              '`corners(c)`: the six corners of cell c, clockwise.'),
    Signature("cells_at", 1, 1,
              '`cells_at(k)`: the grid cells (one to three) that meet at corner k.'),
    Signature("cell", 2, 2,
              '`cell(q, r)`: the id of the grid cell at axial coordinates (q, r). `cell(0, -1) == "0,-1"`'),
    Signature("corner_between", 3, 3,
              ('`corner_between(a, b, c)`: the corner where the three hexes a, b, c meet (cell ids,\n'
               '    or "q,r" text for a hex off the grid).')),
    Signature("on_edge", 1, 1,
              '`on_edge(c)`: true if cell c has fewer than six neighbours on the grid.'),
    Signature("reachable", 3, 3,
              ('`reachable(c, n, allowed)`: cells reachable from c in 1..n steps, moving only\n'
               '    through cells in the list allowed (the start does not count). Nearest first.')),
    Signature("player_count", 0, 0,
              '`player_count()`: how many players sit at the table.'),
    Signature("label", 1, 1,
              "`label(x)`: the display name of a value (an entity's name, else the value as text)."),
)

VERBS: dict[str, Signature] = _table(
    Signature("append", 2, 2,
              '`append(xs, v)`: put v at the end of the list xs (a place such as `game.bag`).', target=True),
    Signature("insert", 3, 3,
              '`insert(xs, i, v)`: put v into the list xs at position i (0 is the front).', target=True),
    Signature("extend", 2, 2,
              '`extend(xs, ys)`: put every item of ys at the end of the list xs.', target=True),
    Signature("remove", 2, 2,
              '`remove(xs, v)`: take one v out of the list xs; an error if there is none.', target=True),
    Signature("clear", 1, 1,
              '`clear(xs)`: empty the list (or map) xs.', target=True),
    Signature("swap", 3, 3,
              '`swap(xs, i, j)`: exchange the items at positions i and j of the list xs.', target=True),
    Signature("destroy", 1, 1,
              '`destroy(x)`: take the entity x out of the game (of a kind with a `max`: see `create`).'),
    Signature("log", 1, None,
              '`log("{} scores {}", f, n)`: add a line to the game log; {} takes the next value\'s label.'),
    Signature("log_to", 2, None,
              '`log_to(p, "you drew {}", c)`: a log line only the player p (or p\'s controller) may read.'),
)

def reference() -> str:
    """The reference of every builtin, as Markdown."""
    lines = ["### Functions (pure)", ""]
    lines += [f"- {s.doc}" for s in sorted(FUNCTIONS.values(), key=lambda s: s.name)]
    lines += ["", "### Verbs (statements that change the game)", ""]
    lines += [f"- {s.doc}" for s in sorted(VERBS.values(), key=lambda s: s.name)]
    return "\n".join(lines) + "\n"
