"""What rule functions read and statements write, worked out at load, for remembered values:
which functions are static (:func:`mark_static`), which remembered values a statement makes
stale (:func:`link_invalidation`), and which writes concern one entity only, so that only that
entity's remembered values are forgotten and only that item's state checks tested again
(:func:`keyed_writes`); and, as the game runs, forgetting the values a statement made stale
(:func:`forget`, :func:`forget_keyed`, called by the machine and generated code). Nothing here
knows any game.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lark import Token, Tree

from ..dsl import graph as g


def mark_static(functions: dict[str, g.Function], written: set[str], modifiers: dict) -> None:
    """Mark the functions that read no attribute any statement writes (nor call one that
    does, nor have modifiers): their value cannot change during a game."""
    for function in functions.values():
        function.modified = function.modified or function.name in modifiers
        function.static = not (function.reads & written) and not function.modified
    changed = True
    while changed:
        changed = False
        for function in functions.values():
            if function.static and any(not functions[c].static for c in function.calls):
                function.static, changed = False, True


def link_invalidation(functions: dict[str, g.Function], nodes: list[g.Stmt],
                      checks: Sequence[g.Check] = ()) -> dict[int, tuple[str, frozenset]]:
    """Tell each statement which rule functions' remembered values it can make stale: those
    that read (themselves, through functions they call, or through their modifiers) an
    attribute the statement writes; and which state checks it can make hold again (each
    check's ``settled``: it writes what the check's items or condition read, decisions.py)."""
    reads = {name: set(f.reads) for name, f in functions.items()}
    changed = True
    while changed:
        changed = False
        for name, function in functions.items():
            for callee in function.calls:
                if not reads[callee] <= reads[name]:
                    reads[name] |= reads[callee]
                    changed = True
    watched = {name: r for name, r in reads.items() if not functions[name].static}
    for check in checks:
        watched[check.settled] = set(check.reads).union(*(reads[f] for f in check.calls))
    for node in nodes:
        if isinstance(node, g.Simple) and node.writes:
            node.invalidates = frozenset(n for n, r in watched.items() if r & node.writes)
    return keyed_writes(functions, reads, nodes, checks, watched)


# ---- forgetting one entity's remembered values ---------------------------------------------

_PLACES = {"assign_stmt": 0, "aug_stmt": 0}  # statement kind -> which child is the place it writes
_BINDERS = ("comprehension", "multi_comprehension", "comp_for")


def keyed_writes(functions: dict[str, g.Function], reads: dict[str, set], nodes: list, checks: Sequence[g.Check],
                 watched: dict[str, set]) -> dict[int, tuple[str, frozenset]]:
    """For a statement that writes attributes of one entity named by a plain name (``x.items
    = []``, ``append(where.items, c)``, ``game.turn += 1``): ``{node id: (that name, the
    remembered names it makes stale only for that entity)}``. A one-parameter rule function
    whose every read of the written attributes is of its parameter (``x.items``, or a call
    ``g(s)`` of such a function) changes only its value for the written entity: the machine
    then forgets that entry alone (:func:`forget_keyed` below). So does a state check over
    items whose condition reads the attributes only of its item, and whose items read none of
    them: only that item is tested again (decisions.py). Everything else a statement makes
    stale is forgotten whole, as before."""
    local = _local_attrs(functions, reads)
    keyed_checks = {}
    for check in checks:
        items, test = getattr(check.items, "tree", None), getattr(check.test, "tree", None)
        if check.var is None or items is None or test is None:
            continue
        theirs = set(watched.get(check.settled, ()))
        item_reads = _reads_in(items, functions, reads)
        if item_reads is None:
            continue
        keyed_checks[check.settled] = (_local_in(_uses(test, check.var), theirs, functions, reads, local) - item_reads,
                                       theirs)
    out: dict[int, tuple[str, frozenset]] = {}
    for node in nodes:
        if not isinstance(node, g.Simple) or not node.writes or not node.invalidates:
            continue
        found = _place_of(node)
        if found is None:
            continue
        name, attrs = found
        if set(node.writes) != attrs:
            continue
        names = set()
        for fname in node.invalidates:
            function = functions.get(fname)
            if function is not None and reads[fname] & attrs <= local.get(fname, set()):
                names.add(fname)
            elif fname in keyed_checks and keyed_checks[fname][1] & attrs <= keyed_checks[fname][0]:
                names.add(fname)
        if names:
            out[node.id] = (name, frozenset(names))
    return out


def _place_of(node: g.Simple) -> tuple[str, set] | None:
    """(name, {attribute}) of the one place a simple statement writes, when that place is an
    attribute (or an item of one) of an entity named by a plain name; else None."""
    tree = node.tree
    if not isinstance(getattr(tree, "data", None), str):
        return None
    if tree.data in _PLACES:
        place = tree.children[_PLACES[tree.data]]
    elif tree.data == "call_stmt":
        builtin = _verbs().get(str(tree.children[0]))
        args = tree.children[1]
        if builtin is None or not builtin.target or args is None or not args.children:
            return None
        place = args.children[0]
    else:
        return None
    while isinstance(place, Tree) and place.data in ("index", "target_index"):
        place = place.children[0]
    if not (isinstance(place, Tree) and place.data in ("attr", "target_attr")):
        return None
    entity = place.children[0]
    if not (isinstance(entity, Tree) and entity.data == "name"):
        return None
    return str(entity.children[0]), {str(place.children[1])}


def _verbs() -> dict:
    from .builtins import VERBS
    return VERBS


def _reads_in(tree: Tree, functions: dict, reads: dict) -> set | None:
    """The attributes an expression reads, with the functions it calls (None: a call of an
    unknown function)."""
    out: set = set()
    for sub in tree.iter_subtrees():
        if sub.data == "attr":
            out.add(str(sub.children[1]))
        elif sub.data == "call" and str(sub.children[0]) in functions:
            out |= reads[str(sub.children[0])]
    return out


def _uses(tree: Tree, var: str) -> tuple[set, set, set] | None:
    """How an expression reads the entity named *var*: (the attributes it reads of anything
    else, the rule functions it calls with *var* alone, those it calls otherwise); None when
    a comprehension's name hides *var*. (Calls of unknown names, builtins, are left out: the
    attributes they are given are read in the expression itself.)"""
    others: set = set()
    alone: set = set()
    called: set = set()
    for sub in tree.iter_subtrees():
        if sub.data in _BINDERS and any(isinstance(c, Token) and str(c) == var for c in sub.children):
            return None
        if sub.data == "attr":
            entity = sub.children[0]
            if not (isinstance(entity, Tree) and entity.data == "name" and str(entity.children[0]) == var):
                others.add(str(sub.children[1]))
        elif sub.data == "call":
            args = sub.children[1]
            arg = args.children if isinstance(args, Tree) else []
            if len(arg) == 1 and isinstance(arg[0], Tree) and arg[0].data == "name" and str(arg[0].children[0]) == var:
                alone.add(str(sub.children[0]))
            else:
                called.add(str(sub.children[0]))
    return others, alone, called


def _local_in(uses: tuple[set, set, set] | None, candidates: set, functions: dict, reads: dict,
              local: dict) -> set:
    """Those of the attributes *candidates* that an expression (its :func:`_uses`) reads only
    of its entity: ``var.a``, or by calling a one-parameter function with ``var`` alone that
    reads them only of its parameter."""
    if uses is None:
        return set()
    others, alone, called = uses
    bad = set(others)
    for callee in called:
        if callee in functions:
            bad |= reads[callee]
    for callee in alone:
        if callee in functions:
            bad |= reads[callee] - local.get(callee, set()) if len(functions[callee].params) == 1 else reads[callee]
    return candidates - bad


def _local_attrs(functions: dict[str, g.Function], reads: dict[str, set]) -> dict[str, set]:
    """For each one-parameter rule function (no modifier, not static): the attributes it
    reads only of its argument (with the functions it calls)."""
    uses: dict[str, Any] = {}
    for name, function in functions.items():
        tree = getattr(function.expr, "tree", None)
        if len(function.params) == 1 and not function.modified and not function.static and tree is not None:
            uses[name] = _uses(tree, function.params[0])
    local = {name: set(reads[name]) for name in uses}
    changed = True
    while changed:
        changed = False
        for name in local:
            now = _local_in(uses[name], local[name], functions, reads, local)
            if now != local[name]:
                local[name], changed = now, True
    return local


# ---- as the game runs: forgetting what a statement made stale ----------------------------------

def forget(memo: dict, names: frozenset) -> None:
    """Drop the remembered values of the rule functions *names* (a statement may have made
    them stale), walking the smaller of the two."""
    if len(memo) < len(names):
        for name in [name for name in memo if name in names]:
            del memo[name]
    else:
        for name in names:
            memo.pop(name, None)


def forget_keyed(memo: dict, names: frozenset, keyed: frozenset, entity, held: bool) -> None:
    """As :func:`forget`, after a statement that wrote attributes of *entity* only: of the
    names in *keyed* (``keyed_writes`` in invalidation.py) only that entity's value is
    forgotten, from the table itself, or, while a trial *held* the tables too, from a copy
    that replaces it (as a forgotten one would be: the trial tells what an action made stale
    by the tables it finds replaced, and its own stay as they were); a state check remembered
    to hold for no item is to test that item again (decisions.py)."""
    if entity.__class__ is not str:
        forget(memo, names)
        return
    rest = _REST.get((names, keyed))
    if rest is None:
        if len(_REST) > 4096:
            _REST.clear()
        rest = _REST[names, keyed] = names - keyed
    for name in keyed:
        table = memo.get(name)
        if table is None:
            continue
        if table.__class__ is dict:
            if held:
                table = memo[name] = table.copy()
            table.pop(entity, None)
        elif table is True:
            memo[name] = frozenset((entity,))
        elif table.__class__ is frozenset:
            memo[name] = table | {entity}
        else:  # pragma: no cover - (a value of no keyed kind: forgotten whole)
            del memo[name]
    if rest:
        forget(memo, rest)


_REST: dict[tuple[frozenset, frozenset], frozenset] = {}  # (names, keyed) -> names - keyed
