"""Generated runners: one function per block, for the frame machine.

A block the machine runs in a frame (a macro, trigger or effect body, the suite of an
``if`` or the body of a loop that can pause) gets ``runner(rt, frame, env)``: it runs
the block's statements from ``frame[1]`` on. Statements that cannot pause (simple ones,
pure compound statements, calls of pure macros) are code (:mod:`.statements`).
A statement that can pause sets ``frame[1]`` past itself first, as the machine does,
then: an ``if`` picks its suite here; a loop pushes its frame and steps it here; a macro
call pushes the macro's frame; each block entered so runs in its own frame through its
own runner, and is popped when it ends. A ``choose`` asks the machine. Whenever a
runner returns True (a choice is pending, or a break or return unwound frames, or the
stack is deep), every runner returns at once and the machine goes on from the top of
the stack, which holds exactly the frames the machine itself would have pushed: saves,
clones and resumes are unchanged. False means the block ended (the caller pops it).
"""
from __future__ import annotations

from ...dsl import graph as g
from ..machine import too_deep
from .statements import COMPOUND, StatementWriter, compile_code
from .writer import Unsupported, ident

DIRECT = 48  # frames on the stack up to which a runner runs a called macro itself

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


class RunnerWriter(StatementWriter):
    def runner(self, block: g.Block, inline) -> None:
        for index, stmt in enumerate(block.body):
            self.emit(f"if i <= {index}:")
            self.depth += 1
            if inline(stmt):
                self.stmt(stmt)
            else:
                self.pausing_stmt(stmt, index)
            self.depth -= 1

    def pausing_stmt(self, stmt: g.Stmt, index: int) -> None:
        k = len(self.stmts)
        self.stmts.append(stmt)
        self.pausing.add(k)
        self.emit(f"pos = {k}")
        self.emit(f"frame[1] = {index + 1}")
        if type(stmt) is g.If:
            self.branches(stmt, self.suite)
        elif type(stmt) is g.For:
            items, loop = self.tmp(), self.tmp()
            self.emit(f"{items} = {self.listed(stmt.items)}")
            self.push(loop, f"[{stmt.id}, 0, {items}, frame[3]]")
            self.emit(f"while {loop}[1] < len({items}):")
            self.depth += 1
            self.charge()
            self.emit(f"env[{ident(stmt.var)}] = {items}[{loop}[1]]")
            self.emit(f"{loop}[1] += 1")
            self.in_frame(stmt.body, "None", "frame[3]", "env")
            self.depth -= 1
            self.emit("stack.pop()")
        elif type(stmt) is g.While:
            loop = self.tmp()
            self.push(loop, f"[{stmt.id}, 0, None, frame[3]]")
            self.emit("while True:")
            self.depth += 1
            self.charge()
            self.emit(f"if not {self.value(stmt.test, truth=True)}:")
            self.emit("    break")
            self.in_frame(stmt.body, "None", "frame[3]", "env")
            self.depth -= 1
            self.emit("stack.pop()")
        elif type(stmt) is g.Repeat:
            count, loop = self.tmp(), self.tmp()
            self.emit(f"{count} = int({self.value(stmt.count)})")
            self.emit(f"_check_sequence(lim, {count}, 'a repeat')")
            self.push(loop, f"[{stmt.id}, {count}, None, frame[3]]")
            self.emit(f"while {loop}[1] > 0:")
            self.depth += 1
            self.charge()
            self.emit(f"{loop}[1] -= 1")
            self.in_frame(stmt.body, "None", "frame[3]", "env")
            self.depth -= 1
            self.emit("stack.pop()")
        elif type(stmt) is g.Call and not stmt.hooked:
            macro = self.macros[stmt.name]
            self.emit("if len(stack) >= lim.stack_depth:")
            self.emit("    _too_deep(lim)")
            args = [self.value(a) for a in stmt.args]
            names, local = ", ".join(f"{ident(p)}: {self.own(a)}" for p, a in zip(macro.params, args)), self.tmp()
            self.emit(f"{local} = {{{names}}}")
            self.in_frame(macro.body, local, "len(stack)", local, direct=True)
        elif type(stmt) is g.Emit and not stmt.dispatch:
            self.emit("if len(stack) >= lim.stack_depth:")
            self.emit("    _too_deep(lim)")
            chosen = self.triggered(stmt) or "()"
            self.emit(f"for body, local in {chosen}:")  # the machine's order: the first trigger on top
            self.emit("    stack.append([body.id, 0, local, len(stack)])")
            self.emit(f"for body, local in reversed({chosen}):")
            self.emit("    run = body.runner")
            self.emit("    if len(stack) > DIRECT or not run or run(rt, stack[-1], local):")
            self.emit("        return True")
            self.emit("    stack.pop()")
        elif type(stmt) is g.Choose:
            self.emit(f"if rt.ask(S[{k}], env, {self.listed(stmt.options)}):")
            self.emit("    return True")
        else:  # perform, break, return, dispatched events: the machine's own steps
            self.emit(f"if rt._enter(S[{k}], frame, env):")
            self.emit("    return True")

    def push(self, name: str, frame: str) -> None:
        self.emit(f"{name} = {frame}")
        self.emit(f"stack.append({name})")

    def suite(self, block: g.Block) -> None:
        self.depth += 1
        self.in_frame(block, "None", "frame[3]", "env")
        self.depth -= 1

    def in_frame(self, block: g.Block, extra: str, owner: str, env: str, direct: bool = False) -> None:
        """Push the block's frame and run it by its runner (or leave it to the machine: no
        runner, or, for a call, a stack already deep); pop it when it ends."""
        frame, run = self.tmp(), self.tmp()
        self.push(frame, f"[{block.id}, 0, {extra}, {owner}]")
        self.emit(f"{run} = {self.const(block)}.runner")
        guard = "len(stack) > DIRECT or " if direct else ""
        self.emit(f"if {guard}not {run} or {run}(rt, {frame}, {env}):")
        self.emit("    return True")
        self.emit("stack.pop()")


def _runner(ruleset, block: g.Block, inline):
    writer = RunnerWriter(ruleset)
    try:
        writer.runner(block, inline)
    except Unsupported:  # pragma: no cover - a name the grammar would not allow
        return False
    return compile_code(writer, _RUNNER, f"<runner {block.id}>", DIRECT=DIRECT, _too_deep=too_deep)


def _inner_blocks(stmt: g.Stmt, out: set[int]) -> None:
    """The blocks inside a statement (its suites, bodies, and theirs)."""
    blocks = stmt.suites + ([stmt.orelse] if stmt.orelse is not None else []) if type(stmt) is g.If else \
        [stmt.body] if isinstance(stmt, (g.For, g.While, g.Repeat)) else []
    for block in blocks:
        out.add(block.id)
        for inner in block.body:
            _inner_blocks(inner, out)


def generate_runners(ruleset) -> None:
    """A runner for every block the machine may run in a frame: all but those inside pure
    statements (which run as code); blocks already considered are left as they are."""
    inner: set[int] = set()
    for node in ruleset.nodes:
        if type(node) in COMPOUND and node.fast:
            _inner_blocks(node, inner)
    macros = ruleset.macros

    def inline(stmt: g.Stmt) -> bool:
        kind = type(stmt)
        if type(stmt) is g.Call:
            return bool(macros[stmt.name].body.fast) and not stmt.hooked
        return kind is g.Simple or (kind in COMPOUND and bool(stmt.fast))
    for node in ruleset.nodes:
        if type(node) is g.Block and node.runner is None:
            node.runner = False if node.id in inner else _runner(ruleset, node, inline)
