"""Generated Python code for rule functions: ``fast(rt, *args)`` per function.

The body is the function's expression written by the expression generator (:mod:`.expressions`)
with its parameters as Python locals; around it, the remembered values (looked up with the
arguments as the key, kept only while measurement says they are asked again), the work
budget, the call depth of functions that can call themselves, and the function's modifiers
(inlined as code where they can be). As in :mod:`.expressions`, rule-file text enters the
source only as data in the constants (``C_i`` globals).
"""
from __future__ import annotations

from collections.abc import Sequence

from lark import Tree

from ..errors import note_function
from ..limits import BudgetError
from ..triggers import holders
from . import writer as settings
from .expressions import ExpressionWriter, attribute_reads
from .writer import HELPERS, Unsupported, constants, load_function

MEASURE = 2_000  # calls of a rule function measured before deciding whether to remember its values
EARLY = 250  # calls after which a clear case is decided already (see _decide)
MIN_HIT_RATE = 0.1  # a function whose values are asked again less often is not remembered
CLEAR = (0.05, 0.2)  # hit rates outside these are decided after EARLY calls


def _decide(function, namespace: dict) -> None:
    """After EARLY calls, if the hit rate is clearly below or above MIN_HIT_RATE, else after
    MEASURE calls: keep remembering the function's values, or (if they were seldom asked
    again, and they can change) compute them every time. Only speed depends on it: rule
    functions are pure. The generated function reads the decision from its globals
    (REMEMBER, MEASURING), and its calls and hits so far from STATS (misses, hits)."""
    misses, hits = namespace["STATS"]
    rate = hits / (misses + hits)
    if misses + hits < MEASURE and CLEAR[0] <= rate <= CLEAR[1]:  # not clear yet: measured on
        namespace["UNTIL"] = MEASURE
        return
    keep = function.static or rate >= MIN_HIT_RATE
    namespace["REMEMBER"] = keep
    namespace["MEASURING"] = False
    function.remembered = keep


def _too_deep(rt, function) -> None:
    raise BudgetError(f"rule functions nested more than {rt.limits.call_depth} deep "
                      f"(in {function.name}: a function that calls itself without end?)")


# One function per rule function, one Python frame per call: the remembered value looked up
# (while REMEMBER), hits and misses counted while MEASURING (until _decide settles it), and on
# a miss the body computed, charged one unit of work, and remembered.
_FUNCTION = """\
def fast(rt{params}):
    if REMEMBER:
{table}
        try:
            value = table.get({key}, _MISS)  # (a miss raises nothing: cheaper than KeyError)
        except TypeError:  # an argument that cannot be a key (a list): not remembered
            value, table = _MISS, None
        if value is not _MISS:
            if MEASURING:
                STATS[1] += 1
            return value
        if MEASURING:
            STATS[0] += 1
            if STATS[0] + STATS[1] >= UNTIL:
                _decide(F, G)
    else:
        table = None
    meter = rt.meter
    meter.left -= 1
    if meter.left < meter.next_check:
        meter.check()
{enter}    try:
        ent = rt.ent
{body}
        value = {result}
{modify}    except Exception as exc:
        _note(exc, F)
        raise
{leave}    if table is not None:
        table[{key}] = value
    return value
"""

# Only a function that can call itself (through others too) counts its nesting: the others
# nest no deeper than the chain of functions calling each other, which the ruleset fixes.
_DEPTH = {"enter": "    if meter.calls >= rt.limits.call_depth:\n        _too_deep(rt, F)\n    meter.calls += 1\n",
          "leave": "    finally:\n        meter.calls -= 1\n"}


_MODIFY = """\
        env = dict(zip(PARAMS, ({args})))
        for modifier in MODS:
            for who in _holders(rt, modifier) if modifier.copies else (modifier.owner,):
                env["self"] = who
                if modifier.active is None or modifier.active(rt, env):
                    env["base"] = value
                    value = modifier.value(rt, env)
"""


def _inlinable(modifier) -> bool:
    """A modifier of one owner, whose expressions have code (a card with copies: each copy
    that is the card now, found as the function runs, in the loop of _MODIFY)."""
    return (not modifier.copies and (modifier.active is None or hasattr(modifier.active, "tree"))
            and hasattr(modifier.value, "tree"))


def _inline_modifiers(writer: ExpressionWriter, names: dict, result: str, modifiers) -> str:
    """Each modifier in turn, as code: if it is active, its value replaces the value so far
    (its `self` is its owner, its `base` the value so far)."""
    value = writer.tmp()
    writer.emit(f"{value} = {result}")
    for modifier in modifiers:
        scope = dict(names, self=writer.const(modifier.owner), base=value)
        if modifier.active is not None:
            writer.emit(f"if {_activity(writer, modifier.active.tree, scope, names)}:")
            writer.depth += 1
        writer.emit(f"{value} = {writer.expr(modifier.value.tree, scope)}")
        if modifier.active is not None:
            writer.depth -= 1
    return value


def _activity(writer: ExpressionWriter, tree: Tree, scope: dict, params: dict) -> str:
    """Whether a modifier is active. Unless it reads the function's arguments (or base),
    it is the same for every call until a statement changes what it reads, which makes
    the function's remembered values stale too: so it is remembered in the function's
    table, under a key no argument can equal, and computed once per statement."""
    used = {str(t.children[0]) for t in tree.iter_subtrees() if t.data == "name"}
    if not params or used & (set(params) | {"base"}):  # no table of its own without parameters
        return writer.test(tree, scope)
    table, active = writer.tmp(), writer.tmp()
    key = writer.const(object())
    writer.emit(f"{table} = rt.memo.get(NAME)")
    writer.emit(f"if {table} is None:")
    writer.emit(f"    {table} = rt.memo[NAME] = {{}}")
    writer.emit(f"{active} = {table}.get({key}, {key})")
    writer.emit(f"if {active} is {key}:")
    writer.depth += 1
    writer.emit(f"{active} = {table}[{key}] = bool({writer.test(tree, scope)})")
    writer.depth -= 1
    return active


def _recursive(functions: dict, name: str) -> bool:
    """Can the function call itself, directly or through others (or their modifiers)?"""
    seen, todo = set(), list(functions[name].calls)
    while todo:
        callee = todo.pop()
        if callee == name:
            return True
        if callee not in seen and callee in functions:
            seen.add(callee)
            todo.extend(functions[callee].calls)
    return False


def _memo_code(params: list[str]) -> dict:
    """Where a function's values are remembered: in the memo itself under its name when it
    has no parameters, else in its own table, keyed by its argument or their tuple."""
    if not params:
        return {"table": "        table = rt.static_memo if F.static else rt.memo", "key": "NAME"}
    table = ("        memo = rt.static_memo if F.static else rt.memo\n        table = memo.get(NAME)\n"
             "        if table is None:\n            table = memo[NAME] = {}")
    return {"table": table, "key": params[0] if len(params) == 1 else f"({', '.join(params)}, )"}


def generate_function(compiler, function, tree: Tree | None, modifiers: Sequence = ()):
    """``fast(rt, *args)`` for a rule function: its remembered value looked up with the
    arguments as the key, else its body run with its parameters as Python locals (then its
    modifiers), all in one function. None when codegen is off or the body has a shape not
    handled."""
    if not settings.ENABLED or tree is None:
        return None
    names = {param: f"a{i}" for i, param in enumerate(function.params)}
    writer = ExpressionWriter(compiler, set())
    writer.inlining = [function.name]
    writer.depth = writer.share_depth = 2
    for param, local in names.items():
        if attribute_reads([tree], param) >= 2:
            writer.fetch(local)
    try:
        result = writer.expr(tree, names)
        if modifiers and all(_inlinable(m) for m in modifiers):
            result = _inline_modifiers(writer, names, result, modifiers)
            modifiers = ()
    except Unsupported:
        return None
    params = "".join(f", {v}" for v in names.values())
    args = "".join(f"{v}, " for v in names.values())
    modify = _MODIFY.format(args=args) if modifiers else ""
    depth = _DEPTH if _recursive(compiler.functions, function.name) else {"enter": "", "leave": ""}
    source = _FUNCTION.format(params=params, args=args, body="\n".join(writer.lines) or "        pass",
                              result=result, modify=modify, **_memo_code(list(names.values())), **depth)
    namespace = dict(HELPERS, **constants(writer), F=function, NAME=function.name,
                     PARAMS=tuple(function.params), MODS=tuple(modifiers), zip=zip,
                     STATS=[0, 0], UNTIL=EARLY, _decide=_decide, REMEMBER=True, MEASURING=True,
                     _note=note_function, _too_deep=_too_deep, Exception=Exception, _holders=holders)
    namespace["G"] = namespace  # (where _decide writes its decision)
    return load_function(source, f"<rule function {function.name}>", namespace, "fast")
