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

from typing import cast

from lark import Token, Tree

from ...dsl import graph as g
from ..errors import mark as mark_error
from ..expressions import own
from ..invalidation import forget, forget_keyed
from ..limits import check_sequence
from ..triggers import holders
from . import writer as settings
from .simple import SIMPLE_HELPERS, SimpleWriter
from .writer import HELPERS, Unsupported, constants, ident, load_function

COMPOUND = (g.If, g.For, g.While, g.Repeat, g.Emit)  # standalone units (calls use the body)
INLINE_STATEMENTS = 12  # a pure macro body this small (statements, nested ones too) is inlined
_UNSET = object()  # a Python local standing for a rule-local name that has no value yet


class Space:
    """The rule-local names of a pure body as Python locals (``prefix + name``) instead of
    entries of env, for a body that owns its names (a macro's or a trigger's, or a macro
    inlined). A name read where it may have no value yet is checked, raising the KeyError
    that reading env would: *assigned* holds the names surely bound at the point written."""

    def __init__(self, prefix: str, assigned=()):
        self.prefix = prefix
        self.assigned = set(assigned)
        self.checked: set[str] = set()  # names read with a check: they start as _UNSET

    def read(self, writer, name: str) -> str:
        local = self.prefix + name  # a validated identifier (the grammar's NAME)
        if name not in self.assigned:
            self.checked.add(name)
            writer.emit(f"if {local} is _UNSET:")
            writer.emit(f"    raise KeyError({ident(name)})")
        return local

    def bind(self, writer, name: str, value: str) -> None:
        ident(name)
        writer.emit(f"{self.prefix}{name} = {value}")
        self.assigned.add(name)

    def unset(self, params=()) -> list[str]:
        """The lines starting the names read with a check (bar *params*) as unset."""
        names = sorted(self.checked - set(params))
        return [" = ".join([self.prefix + n for n in names] + ["_UNSET"])] if names else []


class Purity:
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
        if type(stmt) is g.Simple:
            return True
        if type(stmt) is g.Return:  # a value returned goes to a frame of the machine's
            return stmt.value is None
        if type(stmt) is g.Break:
            return loops > 0
        if type(stmt) is g.If:
            return all(self.suite(s, loops) for s in stmt.suites) and (
                stmt.orelse is None or self.suite(stmt.orelse, loops))
        if isinstance(stmt, (g.For, g.While, g.Repeat)):
            return self.suite(stmt.body, loops + 1)
        if type(stmt) is g.Call:
            macro = self.ruleset.macros.get(stmt.name)
            return macro is not None and not stmt.hooked and self.block(macro.body)
        if type(stmt) is g.Emit:
            return not stmt.dispatch and all(self.block(t.body) for t in self.ruleset.triggers.get(stmt.event, []))
        return False  # choose, perform

    def suite(self, block: g.Block, loops: int) -> bool:
        return all(self.stmt(s, loops) for s in block.body)


def _fresh(expr, functions: dict) -> bool:
    """Is the value a list just made (no copy needed to walk it)?"""
    tree = getattr(expr, "tree", None)
    return tree is not None and (tree.data in ("comprehension", "list_lit") or tree.data == "call" and str(
        tree.children[0]) == "range" and "range" not in functions)


def _size(body: list) -> int:
    """Statements in a body, nested ones included."""
    inner = lambda s: (s.suites + ([s.orelse] if s.orelse else []) if type(s) is g.If else  # noqa: E731
                       [s.body] if type(s) in (g.For, g.While, g.Repeat) else [])
    return sum(1 + sum(_size(b.body) for b in inner(s)) for s in body)


def _returns(stmt: g.Stmt) -> bool:
    """Does a return appear in it (outside the macros it calls)?"""
    if type(stmt) is g.Return:
        return True
    if type(stmt) is g.If:
        return any(_returns(s) for b in stmt.suites for s in b.body) or (
            stmt.orelse is not None and any(_returns(s) for s in stmt.orelse.body))
    if isinstance(stmt, (g.For, g.While, g.Repeat)):
        return any(_returns(s) for s in stmt.body.body)
    return False


class StatementWriter(SimpleWriter):
    """Lowers statements (and, through the expression writer, their expressions)."""

    def __init__(self, ruleset):
        super().__init__(ruleset.compiler, set())
        self.macros, self.triggers = ruleset.macros, ruleset.triggers
        self.inlining = []
        self.stmts: list[g.Stmt] = []
        self.pausing: set[int] = set()  # statements left to the machine (no 'what' to mark)
        self.depth = 2
        self.inlined = 0  # macros being inlined around the point written

    def block(self, block: g.Block) -> None:
        if not block.body:
            self.emit("pass")
        for stmt in block.body:
            self.stmt(stmt)

    def stmt(self, stmt: g.Stmt) -> None:
        k = len(self.stmts)
        self.stmts.append(stmt)
        if type(stmt) is g.Break:
            self.emit("break")
            return
        if type(stmt) is g.Return:
            self.emit("return")
            return
        self.emit(f"pos = {k}")
        if type(stmt) is g.Simple:
            if not self.lower(stmt):
                if self.space is not None:  # the closure reads and binds names in env
                    raise Unsupported("env")
                self.emit(f"S[{k}].run(rt, env)")
            if stmt.writes:  # what it makes stale is read when it runs (a later program may add some)
                entity, keyed = self.written_entity(stmt)
                self.emit(f"if memo and not S[{k}].invalidates.isdisjoint(memo):")
                if entity is None:
                    self.emit(f"    _forget(memo, S[{k}].invalidates)")
                else:  # only that entity's values, for what reads only the written entity's attributes
                    self.emit(f"    _forget_keyed(memo, S[{k}].invalidates, {keyed}, {entity}, rt.held)")
        elif type(stmt) is g.If:
            self.branches(stmt, self.nested)
        elif type(stmt) is g.For:
            item = f"i{k}"
            self.emit(f"for {item} in {self.listed(stmt.items)}:")
            self.depth += 1
            self.charge()
            before = self.surely()
            self.bind(stmt.var, item)
            self.depth -= 1
            self.nested(stmt.body)
            self.surely(before)
        elif type(stmt) is g.While:
            self.emit("while True:")
            self.depth += 1
            self.charge()
            self.emit(f"pos = {k}")
            self.emit(f"if not {self.value(stmt.test, truth=True)}:")
            self.emit("    break")
            self.depth -= 1
            before = self.surely()
            self.nested(stmt.body)
            self.surely(before)
        elif type(stmt) is g.Repeat:
            count = f"n{k}"
            self.emit(f"{count} = int({self.value(stmt.count)})")
            self.emit(f"_check_sequence(lim, {count}, 'a repeat')")
            self.emit(f"for _ in range({count}):")
            self.depth += 1
            self.charge()
            self.depth -= 1
            before = self.surely()
            self.nested(stmt.body)
            self.surely(before)
        elif type(stmt) is g.Call:
            self.call(stmt)
        elif type(stmt) is g.Emit:
            chosen = self.triggered(stmt)
            if chosen:
                self.emit(f"for body, local in reversed({chosen}):")
                self.emit("    body.fast(rt, local)")
        else:  # pragma: no cover - purity rules these out
            raise ValueError(f"cannot generate {type(stmt).__name__}")

    @staticmethod
    def own(value: str) -> str:
        """A copy of a value bound to a name (words, entities, numbers need none)."""
        if value in ("None", "True", "False") or value.lstrip("-").isdigit():  # a literal
            return value
        return f"({value} if {value}.__class__ in _SCALARS else _own({value}))"

    def listed(self, expr) -> str:
        """The value as a list of its own (a list just made needs no copy)."""
        value = self.value(expr)
        return value if _fresh(expr, self.compiler.functions) else f"list({value})"

    def written_entity(self, stmt: g.Simple) -> tuple[str | None, str]:
        """(the code of the entity the statement wrote, the constant of what is forgotten for
        it alone: ``keyed_writes`` in invalidation.py), or (None, ""): everything is forgotten. The
        entity's name is read after the statement ran (which binds no name)."""
        known = getattr(self.compiler, "keyed_writes", None) or {}
        if stmt.id not in known:
            return None, ""
        name, keyed = known[stmt.id]
        mark, depth, saved = len(self.lines), self.depth, self.locals
        self.locals = stmt.names
        try:
            return self.expr(Tree("name", [Token("NAME", name)]), {}), self.const(keyed)
        except Unsupported:
            del self.lines[mark:]
            self.depth = depth
            return None, ""
        finally:
            self.locals = saved

    def surely(self, names: set | None = None) -> set | None:
        """The names surely bound here (None outside a space); with *names*: set them."""
        if self.space is None:
            return None
        if names is not None:
            self.space.assigned = set(names)
        return set(self.space.assigned)

    def call(self, stmt: g.Call) -> None:
        """A macro that cannot pause, run as code with its arguments (copies) as names: a
        small one inlined (its names Python locals of its own), else a call of its code."""
        macro = self.macros[stmt.name]
        args = [self.value(a) for a in stmt.args]
        if self.inline_macro(macro, [self.own(a) for a in args]):
            return
        names = ", ".join(f"{ident(p)}: {self.own(a)}" for p, a in zip(macro.params, args))
        self.emit(f"{self.const(macro.body)}.fast(rt, {{{names}}})")

    def inline_macro(self, macro, args: list[str]) -> bool:
        """The macro's body written here, in a try that marks an error as the machine would
        (its statement, then this call); False (nothing written) if it is not small, has a
        return, or is nested in two inlined macros already."""
        body = macro.body.body
        if self.inlined >= 2 or _size(body) > INLINE_STATEMENTS or any(_returns(s) for s in body):
            return False
        call = len(self.stmts) - 1  # this call's own position
        mark, depth, stmts, saved = len(self.lines), self.depth, len(self.stmts), self.space
        self.space = space = Space(f"m{call}_")
        self.inlined += 1
        try:
            for param, arg in zip(macro.params, args):
                space.bind(self, param, arg)
            start = len(self.lines)
            self.emit("try:")
            self.nested(macro.body)
            self.emit("except Exception as exc:")
            self.emit("    _mark(exc, SPANS[pos], WHAT[pos])")
            self.emit(f"    pos = {call}")
            self.emit("    raise")
            self.lines[start:start] = ["    " * depth + line for line in space.unset()]
            return True
        except Unsupported:
            del self.lines[mark:], self.stmts[stmts:]
            self.depth = depth
            return False
        finally:
            self.space, self.inlined = saved, self.inlined - 1

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
            local, who = self.tmp(), self.const(trigger.owner)
            if trigger.copies:  # each copy that is the card in this game (triggers.holders)
                who = self.tmp()
                self.emit(f"for {who} in reversed({self.const(holders)}(rt, {self.const(trigger)})):")
                self.depth += 1
            names = [f"{ident(p)}: {self.own(a)}" for p, a in zip(trigger.params, args)]
            self.emit(f"{local} = {{{', '.join(names + [repr('self') + ': ' + who])}}}")
            tests = [f"{self.const(t)}(rt, {local})" for t in (trigger.active, trigger.test) if t is not None]
            self.emit(f"if {' and '.join(tests)}:" if tests else "if True:")
            self.emit(f"    {chosen}.append(({self.const(trigger.body)}, {local}))")
            if trigger.copies:
                self.depth -= 1
        return chosen

    def branches(self, stmt: g.If, suite) -> None:
        """if/elif/else, each test computed only when the ones before it were false."""
        opened, before, ends = 0, self.surely(), []
        for n, (test, block) in enumerate(zip(stmt.tests, stmt.suites)):
            self.surely(before)
            if n:
                self.emit("else:")
                self.depth += 1
                opened += 1
            self.emit(f"if {self.value(test, truth=True)}:")
            suite(block)
            ends.append(self.surely())
        if stmt.orelse is not None:
            self.surely(before)
            self.emit("else:")
            suite(stmt.orelse)
            ends.append(self.surely())
        self.depth -= opened
        self.surely(set.intersection(*cast("list[set]", ends))  # each a set when before is one
                    if before is not None and stmt.orelse is not None else before)

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

def compile_code(writer: StatementWriter, template: str, name: str, **extra):
    source = template.format(body="\n".join(writer.lines) or "        pass")
    what = [None if k in writer.pausing else f"calls macro {s.name}" if type(s) is g.Call
            else f"emits {s.event}" if type(s) is g.Emit else None for k, s in enumerate(writer.stmts)]
    namespace = dict(HELPERS, **SIMPLE_HELPERS, **constants(writer), S=tuple(writer.stmts),
                     SPANS=tuple(s.span for s in writer.stmts), WHAT=tuple(what), _mark=mark_error, _own=own,
                     _SCALARS=frozenset({str, int, bool, type(None)}), reversed=reversed, _UNSET=_UNSET,
                     _forget=forget, _forget_keyed=forget_keyed, _check_sequence=check_sequence, list=list, int=int, range=range,
                     str=str, len=len, Exception=Exception, **extra)
    return load_function(source, name, namespace, "_run") or False  # refused: the machine runs it


def _pure(ruleset, stmts: list[g.Stmt], name: str, params: list | None = None, sure=()):
    """Code for pure statements; with *params*, a body that owns its names (they come in
    env, and only *sure* surely do): its names are then Python locals if every statement
    can be written so (else they stay in env)."""
    for space in ([Space("v_", sure)] if params is not None else []) + [None]:
        writer = StatementWriter(ruleset)
        writer.space = space
        try:
            for stmt in stmts:
                writer.stmt(stmt)
            if space is not None and params is not None:  # (there is a space only with params)
                writer.lines[0:0] = ["        " + line for line in space.unset(params)] + [
                    f"        v_{param} = env[{ident(param)}]" if param in sure else  # (always given)
                    f"        v_{param} = env.get({ident(param)}, _UNSET)" for param in params]
        except Unsupported:  # a name kept in env by some statement (or, in env, one the grammar forbids)
            continue
        return compile_code(writer, _TEMPLATE, name)
    return False  # pragma: no cover


def generate_statements(ruleset) -> None:
    """Give every pure compound statement and every pure macro or trigger body a generated
    ``fast(rt, env)``; what was already considered is left as it is. (The runners come
    after: :func:`.runner.generate_runners`; :func:`speciation.interpreter.codegen.generate_code`
    does both.)"""
    compiler = getattr(ruleset, "compiler", None)
    if not settings.ENABLED or compiler is None:
        return
    purity = Purity(ruleset)
    bodies = [(m.body, m.params, m.params) for m in ruleset.macros.values()]  # (arguments checked)
    bodies += [(t.body, t.params, ()) for ts in ruleset.triggers.values() for t in ts]
    for body, params, sure in bodies:
        if body.fast is None:
            body.fast = _pure(ruleset, body.body, f"<block {body.id}>", params, sure) \
                if purity.block(body) else False
    for node in ruleset.nodes:
        if type(node) in COMPOUND and node.fast is None:
            generatable = purity.stmt(node, 0) and not _returns(node)
            node.fast = _pure(ruleset, [node], f"<statement {node.id}>") if generatable else False
