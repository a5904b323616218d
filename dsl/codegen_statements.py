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

from . import cache
from . import graph as g
from . import codegen
from .codegen import _HELPERS, Unsupported, _ident
from .codegen import _Writer as _ExprWriter
from .codegen_simple import HELPERS, lower
from .expressions import _own
from ..interpreter.errors import mark as _mark
from ..interpreter.limits import check_sequence
from ..interpreter.machine import forget

_COMPOUND = (g.If, g.For, g.While, g.Repeat, g.Emit)  # standalone units (calls use the body)


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

    def __init__(self, ruleset):
        super().__init__(ruleset.compiler, set())
        self.macros, self.triggers = ruleset.macros, ruleset.triggers
        self.inlining = []
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
                self.emit(f"if memo and S[{k}].invalidates:")
                self.emit(f"    _forget(memo, S[{k}].invalidates)")
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
            self.emit(f"if not {self.value(stmt.test, truth=True)}:")
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
            self.call(stmt)
        elif kind is g.Emit:
            chosen = self.triggered(stmt)
            if chosen:
                self.emit(f"for body, local in reversed({chosen}):")
                self.emit("    body.fast(rt, local)")
        else:  # pragma: no cover - purity rules these out
            raise ValueError(f"cannot generate {kind.__name__}")

    @staticmethod
    def own(value: str) -> str:
        """A copy of a value bound to a name (words, entities, numbers need none)."""
        if value in ("None", "True", "False") or value.lstrip("-").isdigit():  # a literal
            return value
        return f"({value} if {value}.__class__ in _SCALARS else _own({value}))"

    def call(self, stmt: g.Call) -> None:
        """A macro that cannot pause, run as code with its arguments (copies) as names."""
        macro = self.macros[stmt.name]
        args = [self.value(a) for a in stmt.args]
        names = ", ".join(f"{_ident(p)}: {self.own(a)}" for p, a in zip(macro.params, args))
        self.emit(f"{self.const(macro.body)}.fast(rt, {{{names}}})")

    def triggered(self, stmt: g.Emit) -> str:
        """The triggers an event starts, each with its names (copies of the arguments and
        its owner as self), tested in the machine's order (last trigger first): the name of
        a list of (body, names) to run from its end ("" if the event has no trigger)."""
        args = [self.value(a) for a in stmt.args]
        if not self.triggers.get(stmt.event):
            return ""
        chosen = self.tmp()
        self.emit(f"{chosen} = []")
        for trigger in reversed(self.triggers.get(stmt.event, [])):
            local = self.tmp()
            names = [f"{_ident(p)}: {self.own(a)}" for p, a in zip(trigger.params, args)]
            self.emit(f"{local} = {{{', '.join(names + [repr('self') + ': ' + self.const(trigger.owner)])}}}")
            tests = [f"{self.const(t)}(rt, {local})" for t in (trigger.active, trigger.test) if t is not None]
            self.emit(f"if {' and '.join(tests)}:" if tests else "if True:")
            self.emit(f"    {chosen}.append(({self.const(trigger.body)}, {local}))")
        return chosen

    def branches(self, stmt: g.If, suite) -> None:
        """if/elif/else, each test computed only when the ones before it were false."""
        opened = 0
        for n, (test, block) in enumerate(zip(stmt.tests, stmt.suites)):
            if n:
                self.emit("else:")
                self.depth += 1
                opened += 1
            self.emit(f"if {self.value(test, truth=True)}:")
            suite(block)
        if stmt.orelse is not None:
            self.emit("else:")
            suite(stmt.orelse)
        self.depth -= opened

    def nested(self, block: g.Block) -> None:
        self.depth += 1
        self.block(block)
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

def _compile(writer: _Writer, template: str, name: str, **extra):
    source = template.format(body="\n".join(writer.lines) or "        pass")
    what = [None if k in writer.pausing else f"calls macro {s.name}" if type(s) is g.Call
            else f"emits {s.event}" if type(s) is g.Emit else None for k, s in enumerate(writer.stmts)]
    namespace = dict(_HELPERS, **HELPERS, C=tuple(writer.constants), S=tuple(writer.stmts),
                     SPANS=tuple(s.span for s in writer.stmts), WHAT=tuple(what), _mark=_mark, _own=_own,
                     _SCALARS=frozenset({str, int, bool, type(None)}), reversed=reversed,
                     _forget=forget, _check_sequence=check_sequence, list=list, int=int, range=range,
                     str=str, len=len, Exception=Exception, **extra)
    exec(cache.code(source, name), namespace)
    run = namespace["_run"]
    run.source = source
    return run


def _pure(ruleset, stmts: list[g.Stmt], name: str):
    writer = _Writer(ruleset)
    try:
        for stmt in stmts:
            writer.stmt(stmt)
    except Unsupported:  # pragma: no cover - a name the grammar would not allow
        return False
    return _compile(writer, _TEMPLATE, name)


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
            body.fast = _pure(ruleset, body.body, f"<block {body.id}>") if purity.block(body) else False
    for node in ruleset.nodes:
        if type(node) in _COMPOUND and node.fast is None:
            generatable = purity.stmt(node, 0) and not _returns(node)
            node.fast = _pure(ruleset, [node], f"<statement {node.id}>") if generatable else False
    from .codegen_runner import generate_runners  # it builds on this module
    generate_runners(ruleset)
