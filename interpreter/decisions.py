"""What a decision needs besides listing its options: the sub-lists of a subset choice,
and the state checks made before every decision (a rule file's ``checks``).

State checks work as Magic engines' state-based actions: before a choice is asked (and
when the program ends) the machine makes each check in order; the first that holds, for
its first item that makes it hold, has its effect run, with a :class:`~..dsl.graph.Settle`
frame under it. While that effect runs no check is made (an effect may ask decisions, e.g.
which of its items an entity gives up). When the Settle frame is reached the checks are made again, until
none holds, and then the interrupted choice is asked, its options listed anew (the checks
may have changed them; if they can no longer be listed at all, e.g. they were the items of an
entity a check removed, there is nothing to choose and the name is set to none). Everything lives in the stack (a Settle frame on it: a check's
effect is running), so a game saved inside a check's effect resumes there. A check whose effect never makes it false is
stopped by the work budget.

When a check holds for no item, the machine remembers it (the check's ``settled`` name,
:data:`SETTLED` and its number, in its memo of rule-function values) until a statement writes an
attribute the check reads (in its items, its condition, or the rule functions they call, as the
compiler notes for remembered values: ``link_invalidation`` in invalidation.py) or creates or destroys
an entity: until then that check is not made again, since it cannot hold (the others are made in
their order). A statement that writes attributes of one entity only, which the check reads only
of its item (``keyed_writes`` in invalidation.py), leaves instead the set of the entities written
since (``invalidation.forget_keyed``): only those items are tested again, in the items' order, the
others being known to hold for none. Whatever forgets remembered values (``Game.state_edited``,
a restore, a trial's rollback) forgets this too.
"""
from __future__ import annotations

from itertools import combinations
from math import comb
from operator import itemgetter
from typing import Any

from ..dsl import graph as g
from ..dsl.errors import msg
from .compiler import compile_expression_text
from .limits import check_sequence

Machine = Any  # the machine (interpreter/machine.py imports this module, so it is not imported here)

_NODE = itemgetter(0)  # a frame's node id
SETTLED = "#check"  # + a check's number: in the machine's memo while it cannot hold (no function's name)


def subsets(rt: Machine, stmt: g.Choose, env: dict, items: list) -> list:
    """The options of ``choose NAME from ITEMS count LO [to HI]``: every sub-list of *items*
    (in their order) of LO to HI of them, smallest first; equal sub-lists once. None when
    there are fewer than LO items."""
    assert stmt.count is not None
    low = stmt.count(rt, env)
    high = stmt.count_max(rt, env) if stmt.count_max is not None else low
    for bound in (low, high):
        if bound.__class__ is not int or bound < 0:
            raise ValueError(f"a choice's count must be a whole number, 0 or more, not {rt.label(bound)}")
    if high < low:
        raise ValueError(f"a choice of {low} to {high} items: the count's upper bound is below its lower")
    high = min(high, len(items))
    check_sequence(rt.limits, sum(comb(len(items), k) for k in range(low, high + 1)), "a choice of a subset")
    out: list = []
    seen: set = set()
    for k in range(low, high + 1):
        for chosen in combinations(items, k):
            try:
                if chosen in seen:
                    continue
                seen.add(chosen)
            except TypeError:  # unhashable items (lists): every combination is listed
                pass
            out.append(list(chosen))
    return out



def fire_checks(rt: Machine, choose: int | None, env: dict | None) -> bool:
    """Make the state checks; run the effect of the first that holds (True), with a Settle
    frame under it that asks the choice *choose* (a node id; None at the end of the
    program) in the names *env* once no check holds. A check the machine remembers to hold
    for no item, nothing it reads written since, is not made."""
    memo = rt.memo
    for check in rt.ruleset.checks:
        known = memo.get(check.settled)
        if known is True:
            continue
        items = check.items(rt, {}) if check.items is not None else (None,)
        if known is not None:  # it held for no item; only the items in known were written since
            items = filter(known.__contains__, items)
        for item in items:
            names = {check.var: item} if check.var is not None else {}
            if check.test(rt, names):
                stack = rt.state["stack"]
                owner = _owner(stack, env) if env is not None else 0
                stack.append([rt.ruleset.settle_id, 0, choose, owner])
                stack.append([check.body.id, 0, names, len(stack)])
                rt.meter.left -= 1
                return True
        memo[check.settled] = True
    return False


def unsettled(rt: Machine) -> bool:
    """Might a state check hold (one not remembered to hold for no item)? When none might,
    making the checks does nothing, so the machine need not look for a running check's
    effect (:func:`checking`, a walk down the stack) before a choice."""
    memo = rt.memo
    for check in rt.ruleset.checks:
        if memo.get(check.settled) is not True:
            return True
    return False


def checking(rt: Machine) -> bool:
    """Is a state check's effect running (a Settle frame on the stack)?"""
    return rt.ruleset.settle_id in map(_NODE, rt.state["stack"])  # (each frame's node id, at C speed)


def _owner(stack: list, env: dict) -> int:
    """The index of the frame that owns the names *env* (the choice's block's)."""
    for i in range(len(stack) - 1, -1, -1):
        if stack[i][2] is env:
            return i
    raise ValueError("a state check before a choice whose names no frame holds")  # pragma: no cover


def settle(rt: Machine, frame: list) -> None:
    """The Settle frame is reached: make the checks again, else ask the choice."""
    stack = rt.state["stack"]
    stack.pop()
    choose, owner = frame[2], frame[3]
    if choose is None:
        fire_checks(rt, None, None)
        return
    env = stack[owner][2]
    if fire_checks(rt, choose, env):
        return
    stmt = rt.nodes[choose]
    try:
        options = list(stmt.options(rt, env))
    except (ValueError, KeyError, TypeError, IndexError):
        # Listed before the checks, the options cannot be listed after them: a check took away
        # what the choice was about (an entity the check removed). Nothing is left to choose.
        options = []
    rt.ask(stmt, env, options)


def compile_checks(compiler, nodes: list) -> tuple[list[g.Check], int | None]:
    """The rule files' checks, compiled, and the id of the one Settle node (None: no check).
    Each notes what its items and condition read (attributes, rule functions called)."""
    out: list[g.Check] = []
    for node in nodes:
        var, items, expr = None, None, ""
        if "each" in node:
            text = str(node["each"])
            name, sep, expr = text.partition(" in ")
            if not sep or not name.strip().isidentifier():
                compiler.error(msg("a check's 'each' must look like 'NAME in EXPRESSION'"), node.where("each"))
                continue
            var = name.strip()
        reads: set = set()
        calls: set = set()
        params = [var] if var else []
        compiler.reads, compiler.calls = reads, calls
        try:
            if var is not None:
                items = compile_expression_text(compiler, expr.strip(), node.where("each"), [])
            test = compile_expression_text(compiler, str(node["if"]), node.where("if"), params)
        finally:
            compiler.reads = compiler.calls = None
        body = compiler.program(str(node["effect"]), node.where("effect"), params)
        out.append(g.Check(var, items, test, body, node.span, reads, calls, f"{SETTLED}{len(out)}"))
    if not out:
        return [], None
    settle_node = g.Settle(out[0].span)
    compiler._add(settle_node)
    return out, settle_node.id
