"""The frame machine: runs the effect graph until a player must choose.

The machine's whole memory lives in the game state as plain data: a stack of
frames ``[node id, counter, extra, env frame]``. A frame that owns local names
keeps them (a dict) in ``extra`` and points ``env frame`` at itself; nested
blocks and loops point at the frame that owns their names. A ``let x = macro(...)``
keeps a frame of its own under the macro's; the macro's ``return VALUE`` puts
``[value]`` in that frame's extra, and the frame binds it when the macro has ended. So
a game can be saved, cloned and resumed at any choice, even inside a card's effect or a
macro whose value is awaited.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..dsl import graph as g
from ..dsl.errors import RuleRuntimeError
from . import fibers, triggers, visibility
from .compiler import keep
from .decisions import checking, fire_checks, settle, subsets, unsettled
from .errors import call_chain, in_authors_words, mark
from .invalidation import forget
from .limits import DEFAULT, BudgetError, Limits, Meter, check_sequence, check_text
from .steps import Steps

_LOOPS = (g.For, g.While, g.Repeat)
_NESTING = (g.Call, g.CallValue, g.Perform, g.Emit)


def _own(value: Any) -> Any:
    """Arguments are copied, so a macro's (or a trigger's, or a card effect's) names never
    share a list with the state; a saved game could not restore such sharing."""
    return list(value) if isinstance(value, list) else dict(value) if isinstance(value, dict) else value


def deal_copies(machine) -> None:
    """At a new game, deal each deck's copy ids (deck#1, deck#2, ...) out to its copies in an
    order drawn by chance steps (a Fisher-Yates shuffle: n, n - 1, ..., 2 outcomes, from the
    machine's chance source or else the game's generator), so that an id never tells which
    card a copy is. A copy's triggers and modifiers find it by its record (triggers.holders)."""
    ent = machine.ent
    copies = machine.ruleset.copies
    for deck in sorted(copies):
        ids = copies[deck]
        records = [ent[ident] for ident in ids]
        for i in range(len(records) - 1, 0, -1):
            j = machine.random_below(i + 1)
            records[i], records[j] = records[j], records[i]
        for ident, record in zip(ids, records):
            record["id"] = ident
            ent[ident] = record
    machine.static_memo.pop(triggers.INDEX, None)


def too_deep(limits: Limits) -> None:
    raise BudgetError(f"calls nested more than {limits.stack_depth} deep (a macro, "
                      "effect or trigger that calls or emits itself without end?)")


class Machine(Steps):
    """Runs rules against one game state; also the ``rt`` every closure receives."""

    __slots__ = ("ruleset", "state", "ent", "nodes", "memo", "static_memo", "names", "phrases", "keep_log",
                 "limits", "meter", "log_chars", "chance_source", "on_settled", "held")

    def __init__(self, ruleset, state: dict):
        self.ruleset = ruleset
        self.state = state
        self.ent = state["ent"]
        self.nodes = ruleset.nodes
        self.memo: dict = {}  # rule-function results by name, until a statement makes them stale
        self.held = False  # True once a trial holds the memo's tables too (forget_keyed replaces them)
        self.static_memo: dict = {}  # results of static functions, valid all game
        self.names: dict[str, str] = {}  # display names in the chosen language
        self.phrases: dict[str, str] = {}  # the rule files' sentences in the chosen language
        self.keep_log = True  # False: log lines are not even formatted (agents, batch runs)
        self.limits: Limits = DEFAULT  # budgets at run time (see limits.py)
        self.meter = Meter(self.limits)
        self.log_chars = 0  # characters logged by this machine (bounded by limits.log_chars)
        self.chance_source = None  # None: the generator; else chance outcomes from outside (chance.py)
        # None, or called as on_settled(stmt, value) when the rules settle a choice
        self.on_settled: Callable[[Any, Any], Any] | None = None

    # ---- services for compiled expressions ------------------------------------------

    def get_attr(self, entity: Any, attr: str) -> Any:
        try:
            return self.ent[entity][attr]
        except KeyError:
            if entity not in self.ent:
                raise ValueError(f"{self.label(entity)} is not an entity, so it has no '{attr}'") from None
            raise ValueError(f"{self.label(entity)} has no attribute '{attr}'") from None
        except TypeError:
            raise ValueError(f"{self.label(entity)} is not an entity, so it has no '{attr}'") from None

    def set_attr(self, entity: Any, attr: str, value: Any) -> None:
        record = self.ent.get(entity) if isinstance(entity, str) else None
        if record is None or attr not in record:
            self.get_attr(entity, attr)  # raises the right message
        assert record is not None
        record[attr] = value

    def label(self, value: Any) -> str:
        if value.__class__ is str and not self.names:  # (the commonest: an entity or a word, no language)
            record = self.ent.get(value)
            if record is None:
                return value
            name = record.get("name", value)
            return name if name.__class__ is str else str(name)
        if isinstance(value, str):
            names = self.names
            if names and value in names:
                return names[value]
            record = self.ent.get(value)
            return value if record is None else str(record.get("name", value))
        if value is None:
            return self.names.get("none", "none")
        if isinstance(value, bool):
            word = "true" if value else "false"
            return self.names.get(word, word)
        if isinstance(value, list):
            return "[" + ", ".join(self.label(v) for v in value) + "]"
        return str(value)

    def log(self, text: str) -> None:
        if self.keep_log:
            self.add_log_line(text, text)

    def add_log_line(self, line, text: str) -> None:
        size = len(text)
        if size > self.limits.text:
            check_text(self.limits, text)  # raises
        self.log_chars += size
        if self.log_chars > self.limits.log_chars:
            raise BudgetError(f"the game log grew past {self.limits.log_chars} characters")
        self.state["log"].append(line)

    def set_limits(self, limits: Limits) -> None:
        self.limits = limits
        self.meter = Meter(limits)

    # ---- running ------------------------------------------------------------------

    def start(self, macro: str, args: list | None = None) -> None:
        body = self.ruleset.macros[macro]
        env = dict(zip(body.params, [_own(a) for a in args or []]))
        stack = self.state["stack"]
        stack.append([body.body.id, 0, env, len(stack)])

    def run(self) -> None:
        """Run until a choice is pending or the program ends (and no state check holds)."""
        self._run()
        if self.ruleset.checks:
            state = self.state
            while not state["stack"] and state["pending"] is None and fire_checks(self, None, None):
                self._run()

    def _run(self) -> None:
        state, stack, nodes = self.state, self.state["stack"], self.nodes
        stmt: g.Stmt | None = None
        meter = self.meter
        meter.refill()
        block = g.Block
        try:
            while stack and state["pending"] is None:
                meter.left -= 1
                if meter.left < meter.next_check:
                    meter.check()
                frame = stack[-1]
                node = nodes[frame[0]]
                kind = type(node)
                if kind is block:
                    run = node.runner
                    if run:  # generated code: runs on until a statement needs the machine
                        stmt = node
                        # A block that ended (False, or paused at its last statement) waits for
                        # nothing: the block below it, if it has a runner, goes on at once.
                        while frame[1] >= len(node.body) or not run(self, frame, stack[frame[3]][2]):
                            stack.pop()
                            if not stack:
                                break
                            frame = stack[-1]
                            node = nodes[frame[0]]
                            if node.__class__ is not block or not node.runner:
                                break
                            run, stmt = node.runner, node
                            meter.left -= 1
                            if meter.left < meter.next_check:
                                meter.check()
                        continue
                    body, env = node.body, stack[frame[3]][2]
                    while frame[1] < len(body):
                        stmt = body[frame[1]]
                        frame[1] += 1
                        if type(stmt) is g.Simple:
                            stmt.run(self, env)
                            if stmt.invalidates and self.memo:
                                forget(self.memo, stmt.invalidates)
                        elif self._enter(stmt, frame, env):
                            break
                    else:
                        stack.pop()
                    continue
                stmt = node
                env = stack[frame[3]][2]
                if kind is g.For:  # its rounds: a body with a runner is run here, round after round
                    items, body = frame[2], node.body
                    while frame[1] < len(items):
                        env[node.var] = items[frame[1]]
                        frame[1] += 1
                        child = [body.id, 0, None, frame[3]]
                        stack.append(child)
                        stmt = body
                        if not body.runner or body.runner(self, child, env):
                            break  # the machine steps the body, or it paused (or unwound)
                        stack.pop()
                        meter.left -= 1
                        if meter.left < meter.next_check:
                            meter.check()
                    else:
                        stack.pop()
                elif kind is g.While:  # as For: a body with a runner is run here, round after round
                    body = node.body
                    while node.test(self, env):
                        child = [body.id, 0, None, frame[3]]
                        stack.append(child)
                        if not body.runner:
                            break  # the machine steps the body
                        stmt = body
                        meter.left -= 1  # (the work of stepping the body's frame, and then this one's)
                        if meter.left < meter.next_check:
                            meter.check()
                        if body.runner(self, child, env):
                            break  # it paused (or unwound)
                        stack.pop()
                        stmt = node
                        meter.left -= 1
                        if meter.left < meter.next_check:
                            meter.check()
                    else:
                        stack.pop()
                elif kind is g.Repeat:
                    if frame[1] > 0:
                        frame[1] -= 1
                        stack.append([node.body.id, 0, None, frame[3]])
                    else:
                        stack.pop()
                elif kind is g.Settle:  # the state checks' effects have ended
                    settle(self, frame)
                elif kind is g.CallValue:  # the macro it called has ended
                    self._receive(node, frame, env)
                elif kind is g.Simultaneously:  # its fibers run, or wait (interpreter/fibers.py)
                    fibers.step(self, node, frame)
                else:  # a dispatched event (interpreter/triggers.py)
                    triggers.step(self, node, frame)
        except RuleRuntimeError:
            raise
        except Exception as exc:  # a bug in the rules: say where, and through which calls
            span = getattr(exc, "rule_span", None) or (stmt.span if stmt is not None else None)
            raise RuleRuntimeError(in_authors_words(exc), span, call_chain(self, exc, span)) from exc

    def _enter(self, stmt: g.Stmt, frame: list, env: dict) -> bool:
        """Start a compound statement; True if the current block must pause."""
        if stmt.fast:  # generated code: runs to the end, no frames
            stmt.fast(self, env)
            return False
        stack, owner = self.state["stack"], frame[3]
        kind = type(stmt)
        if type(stmt) is g.If:
            for test, suite in zip(stmt.tests, stmt.suites):
                if test(self, env):
                    stack.append([suite.id, 0, None, owner])
                    return True
            if stmt.orelse is not None:
                stack.append([stmt.orelse.id, 0, None, owner])
                return True
            return False
        if type(stmt) is g.For:
            stack.append([stmt.id, 0, list(stmt.items(self, env)), owner])
            return True
        if type(stmt) is g.While:
            stack.append([stmt.id, 0, None, owner])
            return True
        if type(stmt) is g.Repeat:
            count = int(stmt.count(self, env))
            check_sequence(self.limits, count, "a repeat")
            stack.append([stmt.id, count, None, owner])
            return True
        if type(stmt) is g.Choose:
            return self._choose(stmt, env)
        if len(stack) >= self.limits.stack_depth and kind in _NESTING:
            too_deep(self.limits)
        if type(stmt) is g.Call:
            if stmt.hooked:  # triggers listen for this macro's calls
                return triggers.enter(self, stmt, frame, env)
            macro = self.ruleset.macros[stmt.name]
            if macro.body.fast:
                new_env = dict(zip(macro.params, [_own(a(self, env)) for a in stmt.args]))
                try:
                    macro.body.fast(self, new_env)
                except Exception as exc:
                    mark(exc, stmt.span, f"calls macro {stmt.name}")
                    raise
                return False
            new_env = dict(zip(macro.params, [_own(a(self, env)) for a in stmt.args]))
            stack.append([macro.body.id, 0, new_env, len(stack)])
            return True
        if type(stmt) is g.CallValue:  # its frame waits under the macro's for the value
            macro = self.ruleset.macros[stmt.name]
            new_env = dict(zip(macro.params, [_own(a(self, env)) for a in stmt.args]))
            stack.append([stmt.id, 0, None, owner])
            stack.append([macro.body.id, 0, new_env, len(stack)])
            return True
        if type(stmt) is g.Perform:
            target = stmt.target(self, env)
            effect = self.ruleset.effects.get(target) if stmt.ability is None else \
                triggers.ability(self, target, stmt.ability)
            if effect is None and isinstance(target, str) and target in self.ent:  # a copy: its card's
                effect = self.ruleset.effects.get(self.ent[target].get("card"))
            if effect is None:
                raise ValueError(f"{self.label(target)} has no effect to perform")
            body, params = effect
            new_env = {"self": target}
            new_env.update({n: _own(v(self, env)) for n, v in zip(stmt.names, stmt.values)})
            stack.append([body.id, 0, new_env, len(stack)])
            return True
        if type(stmt) is g.Emit:
            return triggers.enter(self, stmt, frame, env) if stmt.dispatch else self._emit(stmt, env)
        if type(stmt) is g.SettleNow:  # the checks' effects run above this block, which waits
            return bool(self.ruleset.checks) and not checking(self) and fire_checks(self, None, None)
        if type(stmt) is g.Break:
            self._unwind(loop=True)
            return True
        if type(stmt) is g.Return:
            value = keep(self.limits, stmt.value(self, env)) if stmt.value is not None else None
            self._unwind(loop=False)
            if stmt.value is not None and stack and type(self.nodes[stack[-1][0]]) is g.CallValue:
                stack[-1][2] = [value]  # the macro's value, for the let waiting under it
            return True
        if type(stmt) is g.Simultaneously:
            return fibers.enter(self, stmt, frame, env)
        raise ValueError(f"cannot run {kind.__name__}")  # pragma: no cover

    def _receive(self, node: g.CallValue, frame: list, env: dict) -> None:
        """The macro called by ``let x = macro(...)`` ended: bind the value it returned."""
        self.state["stack"].pop()
        if frame[2] is None:
            raise ValueError(f"macro '{node.name}' ended without 'return VALUE', so it gives no value "
                             f"for '{node.var}'")
        env[node.var] = frame[2][0]

    def _unwind(self, loop: bool) -> None:
        """Pop frames up to the innermost loop (break) or macro body (return)."""
        stack = self.state["stack"]
        while stack:
            frame = stack.pop()
            if loop and type(self.nodes[frame[0]]) in _LOOPS:
                return
            if frame[3] == len(stack):
                if loop:
                    raise ValueError("'break' outside a loop")
                return

    def _emit(self, stmt: g.Emit, env: dict) -> bool:
        args = [a(self, env) for a in stmt.args]
        pushed = False
        stack = self.state["stack"]
        for trigger in reversed(self.ruleset.triggers.get(stmt.event, [])):
            for who in reversed(triggers.holders(self, trigger)) if trigger.copies else (trigger.owner,):
                new_env = dict(zip(trigger.params, [_own(a) for a in args]))  # each its own copy
                new_env["self"] = who
                if trigger.active is not None and not trigger.active(self, new_env):
                    continue
                if trigger.test is not None and not trigger.test(self, new_env):
                    continue
                stack.append([trigger.body.id, 0, new_env, len(stack)])
                pushed = True
        return pushed

    def _choose(self, stmt: g.Choose, env: dict) -> bool:
        return self.ask(stmt, env, list(stmt.options(self, env)))

    def ask(self, stmt: g.Choose, env: dict, options: list) -> bool:
        """A choice among *options*: pending (True), unless there is nothing to choose."""
        if self.ruleset.checks and unsettled(self) and not checking(self) and fire_checks(self, stmt.id, env):
            return True  # the checks' effects run first; the choice is asked again after them
        if stmt.count is not None:
            options = subsets(self, stmt, env, options)
        if (not options and not stmt.always) or (len(options) == 1 and not stmt.optional):
            env[stmt.var] = value = options[0] if options else None
            if self.on_settled is not None:
                self.on_settled(stmt, value)
            return False
        actor = stmt.actor(self, env)
        prompt = self._plain_prompt(stmt, env) if stmt.prompt is not None else ""
        self.state["pending"] = {"actor": actor, "prompt": prompt, "options": options,
                                 "optional": stmt.optional, "var": stmt.var, "node": stmt.id,
                                 "private": stmt.private}
        return True

    def _plain_prompt(self, stmt: g.Choose, env: dict) -> str:
        """The prompt as the state keeps it: in the rule files' own words, whatever the
        language (so the language never changes the state or its digest)."""
        expr, names, phrases = stmt.prompt, self.names, self.phrases
        assert expr is not None
        if not names and not phrases:
            return str(expr(self, env))
        self.names, self.phrases = {}, {}
        try:
            return str(expr(self, env))
        finally:
            self.names, self.phrases = names, phrases

    def shown_prompt(self) -> str:
        """The pending prompt in the chosen language: computed again when asked (as option
        labels are), then looked up in the phrases."""
        pending = self.state["pending"]
        expr = self.nodes[pending["node"]].prompt if pending is not None else None
        if expr is None or (not self.names and not self.phrases):
            return pending["prompt"] if pending is not None else ""
        stack = self.state["stack"]
        text = str(expr(self, dict(stack[stack[-1][3]][2])))
        return self.phrases.get(text, text)

    def option_describer(self, pending: dict | None = None, env: dict | None = None):
        """A function giving the display label of one option of a choice (the pending one,
        unless given with the names of the block that asks): its `showing` expression if it
        has one (computed when asked, so labels follow the language and are never part of
        the state), else the option's own label."""
        if pending is None:
            pending = self.state["pending"]
            stack = self.state["stack"]
            env = stack[stack[-1][3]][2]
        node = self.nodes[pending["node"]]
        if node.label is None:
            if self.ruleset.hidden.faces:  # an entity the chooser does not see is '?' (visibility.py)
                return visibility.labeller(self, pending["actor"])
            return self.label
        assert env is not None, "a pending choice given without the names of its block"
        env = dict(env)
        var, expr = pending["var"], node.label

        phrases = self.phrases

        def describe(option: Any) -> str:
            env[var] = option
            text = str(expr(self, env))
            return phrases.get(text, text) if phrases else text  # a text of the rules: in the game's language
        return describe

    def resolve(self, value: Any) -> None:
        """Bind the pending choice and go on."""
        pending = self.state["pending"]
        stack = self.state["stack"]
        env = stack[stack[-1][3]][2]
        env[pending["var"]] = value
        self.state["pending"] = None
        self.state["steps"] += 1
        self.run()
