"""Generated Python code for statement runs that can never stop for a choice.

A statement is *pure* here when nothing it may run can ask a player: no ``choose``, no
``perform`` (whose target is only known at run time), and every macro it calls and every
trigger of every event it emits is pure too (a recursive macro or a self-emitting trigger
is not: the frame machine keeps bounding those). Each pure ``if``/``for``/``while``/
``repeat`` statement and each pure macro or trigger body gets one generated function
``run(rt, env)`` that runs it to the end with Python's own loops and branches; the frame
machine calls it instead of pushing frames (``Stmt.fast``). Nothing is saved in between,
since nothing can stop there, so the stack format and saves are unchanged.

The generated code runs the same statement closures and expressions in the same order,
forgets the same remembered values, and charges the work budget once per loop round. On
an error it records the innermost statement's position (and each macro call or emit it
passed through), which the machine reports exactly as if it had walked the frames.
"""
from __future__ import annotations

from typing import Any

from . import cache
from . import graph as g
from . import codegen
from .codegen import _HELPERS, _ident
from .codegen import _Writer as _ExprWriter
from .codegen_simple import HELPERS, lower
from ..interpreter.errors import mark as _mark
from ..interpreter.limits import check_sequence

_COMPOUND = (g.If, g.For, g.While, g.Repeat, g.Emit)  # standalone units (calls use the body)


def _own(value: Any) -> Any:
    return list(value) if isinstance(value, list) else dict(value) if isinstance(value, dict) else value


def _call(rt, env: dict, stmt: g.Call) -> None:
    macro = rt.ruleset.macros[stmt.name]
    macro.body.fast(rt, dict(zip(macro.params, [_own(a(rt, env)) for a in stmt.args])))


def _emit(rt, env: dict, stmt: g.Emit) -> None:
    args = [a(rt, env) for a in stmt.args]
    chosen = []
    for trigger in reversed(rt.ruleset.triggers.get(stmt.event, [])):  # tested in the machine's order
        new_env = dict(zip(trigger.params, [_own(a) for a in args]))
        new_env["self"] = trigger.owner
        if trigger.active is not None and not trigger.active(rt, new_env):
            continue
        if trigger.test is not None and not trigger.test(rt, new_env):
            continue
        chosen.append((trigger, new_env))
    for trigger, new_env in reversed(chosen):  # and run first to last, as the stack would
        trigger.body.fast(rt, new_env)


class _Purity:
    """Which blocks can never stop for a choice (and have no stray break)."""

    def __init__(self, ruleset):
        self.ruleset = ruleset
        self.known: dict[int, bool] = {}
        self.visiting: set[int] = set()

    def block(self, block: g.Block) -> bool:
        if block.id in self.known:
            return self.known[block.id]
        if block.id in self.visiting:
            return False  # recursion: left to the machine, which bounds it
        self.visiting.add(block.id)
        try:
            result = all(self.stmt(s, 0) for s in block.body)
        finally:
            self.visiting.discard(block.id)
        self.known[block.id] = result
        return result

    def stmt(self, stmt: g.Stmt, loops: int) -> bool:
        kind = type(stmt)
        if kind is g.Simple or kind is g.Return:
            return True
        if kind is g.Break:
            return loops > 0
        if kind is g.If:
            return all(self.suite(s, loops) for s in stmt.suites) and (
                stmt.orelse is None or self.suite(stmt.orelse, loops))
        if kind in (g.For, g.While, g.Repeat):
            return self.suite(stmt.body, loops + 1)
        if kind is g.Call:
            macro = self.ruleset.macros.get(stmt.name)
            return macro is not None and self.block(macro.body)
        if kind is g.Emit:
            return all(self.block(t.body) for t in self.ruleset.triggers.get(stmt.event, []))
        return False  # choose, perform

    def suite(self, block: g.Block, loops: int) -> bool:
        return all(self.stmt(s, loops) for s in block.body)


def _returns(stmt: g.Stmt) -> bool:
    """Does a return appear in it (outside the macros it calls)?"""
    if type(stmt) is g.Return:
        return True
    if type(stmt) is g.If:
        return any(_returns(s) for b in stmt.suites for s in b.body) or (
            stmt.orelse is not None and any(_returns(s) for s in stmt.orelse.body))
    if type(stmt) in (g.For, g.While, g.Repeat):
        return any(_returns(s) for s in stmt.body.body)
    return False


class _Writer(_ExprWriter):
    """Lowers statements (and, through the expression writer, their expressions)."""

    def __init__(self, compiler):
        super().__init__(compiler, set())
        self.stmts: list[g.Stmt] = []
        self.pausing: set[int] = set()  # statements left to the machine (no 'what' to mark)
        self.depth = 2

    def block(self, block: g.Block) -> None:
        if not block.body:
            self.emit("pass")
        for stmt in block.body:
            self.stmt(stmt)

    def stmt(self, stmt: g.Stmt) -> None:
        k = len(self.stmts)
        self.stmts.append(stmt)
        kind = type(stmt)
        if kind is g.Break:
            self.emit("break")
            return
        if kind is g.Return:
            self.emit("return")
            return
        self.emit(f"pos = {k}")
        if kind is g.Simple:
            if not lower(self, stmt):
                self.emit(f"S[{k}].run(rt, env)")
            if stmt.writes:  # what it makes stale is read when it runs (a later program may add some)
                self.emit(f"for name in S[{k}].invalidates:")
                self.emit("    memo.pop(name, None)")
        elif kind is g.If:
            self.branches(stmt, self.nested)
        elif kind is g.For:
            item = f"i{k}"
            self.emit(f"for {item} in list({self.value(stmt.items)}):")
            self.depth += 1
            self.charge()
            self.emit(f"env[{_ident(stmt.var)}] = {item}")
            self.depth -= 1
            self.nested(stmt.body)
        elif kind is g.While:
            self.emit("while True:")
            self.depth += 1
            self.charge()
            self.emit(f"pos = {k}")
            self.emit(f"if not {self.value(stmt.test)}:")
            self.emit("    break")
            self.depth -= 1
            self.nested(stmt.body)
        elif kind is g.Repeat:
            count = f"n{k}"
            self.emit(f"{count} = int({self.value(stmt.count)})")
            self.emit(f"_check_sequence(lim, {count}, 'a repeat')")
            self.emit(f"for _ in range({count}):")
            self.depth += 1
            self.charge()
            self.depth -= 1
            self.nested(stmt.body)
        elif kind is g.Call:
            self.emit(f"_call(rt, env, S[{k}])")
        elif kind is g.Emit:
            self.emit(f"_emit(rt, env, S[{k}])")
        else:  # pragma: no cover - purity rules these out
            raise ValueError(f"cannot generate {kind.__name__}")

    def branches(self, stmt: g.If, suite) -> None:
        """if/elif/else, each test computed only when the ones before it were false."""
        opened = 0
        for n, (test, block) in enumerate(zip(stmt.tests, stmt.suites)):
            if n:
                self.emit("else:")
                self.depth += 1
                opened += 1
            self.emit(f"if {self.value(test)}:")
            suite(block)
        if stmt.orelse is not None:
            self.emit("else:")
            suite(stmt.orelse)
        self.depth -= opened

    def nested(self, block: g.Block) -> None:
        self.depth += 1
        self.block(block)
        self.depth -= 1

    def charge(self) -> None:
        self.emit("meter.left -= 1")
        self.emit("if meter.left < meter.next_check:")
        self.emit("    meter.check()")

    # ---- a block's runner for the frame machine ------------------------------------

    def runner(self, block: g.Block, inline) -> None:
        """Each statement of the block from ``frame[1]`` on: those that cannot pause as
        code, the others through the machine (``frame[1]`` set past them first, as the
        machine does); an ``if`` that can pause picks its suite here and runs it in a
        frame of its own. Returns True when the machine must go on from the stack's top."""
        for index, stmt in enumerate(block.body):
            self.emit(f"if i <= {index}:")
            self.depth += 1
            if inline(stmt):
                self.stmt(stmt)
            else:
                k = len(self.stmts)
                self.stmts.append(stmt)
                self.pausing.add(k)
                self.emit(f"pos = {k}")
                self.emit(f"frame[1] = {index + 1}")
                if type(stmt) is g.If:
                    self.branches(stmt, self.enter)
                else:
                    self.emit(f"if rt._enter(S[{k}], frame, env):")
                    self.emit("    return True")
            self.depth -= 1

    def enter(self, suite: g.Block) -> None:
        """Run a suite in its own frame; its runner pausing pauses this one."""
        self.depth += 1
        frame = self.tmp()
        self.emit(f"{frame} = [{suite.id}, 0, None, frame[3]]")
        self.emit(f"stack.append({frame})")
        if suite.runner:
            self.emit(f"if {self.const(suite)}.runner(rt, {frame}, env):")
            self.emit("    return True")
            self.emit("stack.pop()")
        else:  # pragma: no cover - suites are generated before the blocks holding them
            self.emit("return True")
        self.depth -= 1


_TEMPLATE = """\
def _run(rt, env):
    meter, memo, lim, ent, pos = rt.meter, rt.memo, rt.limits, rt.ent, 0
    try:
{body}
    except Exception as exc:
        _mark(exc, SPANS[pos], WHAT[pos])
        raise
"""

_RUNNER = """\
def _run(rt, frame, env):
    meter, memo, lim, ent, stack = rt.meter, rt.memo, rt.limits, rt.ent, rt.state["stack"]
    i, pos = frame[1], 0
    try:
{body}
        return False
    except Exception as exc:
        _mark(exc, SPANS[pos], WHAT[pos])
        raise
"""


def _compile(writer: _Writer, template: str, name: str):
    source = template.format(body="\n".join(writer.lines) or "        pass")
    what = [None if k in writer.pausing else f"calls macro {s.name}" if type(s) is g.Call
            else f"emits {s.event}" if type(s) is g.Emit else None for k, s in enumerate(writer.stmts)]
    namespace = dict(_HELPERS, **HELPERS, C=tuple(writer.constants), S=tuple(writer.stmts),
                     SPANS=tuple(s.span for s in writer.stmts), WHAT=tuple(what), _mark=_mark, _call=_call,
                     _emit=_emit, _check_sequence=check_sequence, list=list, int=int, range=range,
                     str=str, Exception=Exception)
    exec(cache.code(source, name), namespace)
    run = namespace["_run"]
    run.source = source
    return run


def _pure(compiler, stmts: list[g.Stmt], name: str):
    writer = _Writer(compiler)
    for stmt in stmts:
        writer.stmt(stmt)
    return _compile(writer, _TEMPLATE, name)


def _runner(compiler, block: g.Block, inline):
    writer = _Writer(compiler)
    writer.runner(block, inline)
    return _compile(writer, _RUNNER, f"<runner {block.id}>")


def _inner_blocks(stmt: g.Stmt, out: set[int]) -> None:
    """The blocks inside a statement (its suites, bodies, and theirs)."""
    blocks = stmt.suites + ([stmt.orelse] if stmt.orelse is not None else []) if type(stmt) is g.If else \
        [stmt.body] if type(stmt) in (g.For, g.While, g.Repeat) else []
    for block in blocks:
        out.add(block.id)
        for inner in block.body:
            _inner_blocks(inner, out)


def generate_statements(ruleset) -> None:
    """Give every pure compound statement and every pure macro or trigger body a generated
    ``fast(rt, env)``, and every block the machine may run in a frame (all but those inside
    pure statements) a ``runner``; what was already considered is left as it is."""
    compiler = getattr(ruleset, "compiler", None)
    if not codegen.ENABLED or compiler is None:
        return
    purity = _Purity(ruleset)
    bodies = [m.body for m in ruleset.macros.values()]
    bodies += [t.body for ts in ruleset.triggers.values() for t in ts]
    for body in bodies:
        if body.fast is None:
            body.fast = _pure(compiler, body.body, f"<block {body.id}>") if purity.block(body) else False
    for node in ruleset.nodes:
        if type(node) in _COMPOUND and node.fast is None:
            generatable = purity.stmt(node, 0) and not _returns(node)
            node.fast = _pure(compiler, [node], f"<statement {node.id}>") if generatable else False
    inner: set[int] = set()
    for node in ruleset.nodes:
        if type(node) in _COMPOUND and node.fast:
            _inner_blocks(node, inner)
    macros = ruleset.macros

    def inline(stmt: g.Stmt) -> bool:
        kind = type(stmt)
        if kind is g.Call:
            return bool(macros[stmt.name].body.fast)
        return kind is g.Simple or (kind in _COMPOUND and bool(stmt.fast))
    for node in ruleset.nodes:  # in order: a suite comes before the block holding it
        if type(node) is g.Block and node.runner is None:
            node.runner = False if node.id in inner else _runner(compiler, node, inline)
