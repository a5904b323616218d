"""Stage 4: compile parse trees into closures (expressions) and graph nodes (statements).

Names are resolved here: locals (parameters, ``let``, loop and choice names),
constants (symbols, tables, entity ids, kinds), the rule file's own functions
and macros, and the closed builtin registry. Every unknown name, wrong arity
or undeclared attribute becomes a :class:`CompileError` with a position and a
"did you mean"; compilation goes on so all of them are reported at once.
"""
from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from typing import Any

from lark import Token, Tree

from ..dsl import graph as g
from ..dsl.errors import ParseError, Span, did_you_mean, msg
from ..dsl.parser import parse_effect
from ..dsl.walker import EXPRESSION_KINDS, STATEMENT_KINDS
from . import visibility
from .builtins import FUNCTIONS, VERBS
from .expressions import ENTITIES, ExpressionCompiler, Scope, own
from .limits import SMALL, check_value
from .triggers import signal


class Compiler(ExpressionCompiler):
    """Compiles programs (statements) into effect-graph nodes (a handler ``s_<kind>`` per
    node kind of a statement)."""

    families = {"e_": EXPRESSION_KINDS, "s_": STATEMENT_KINDS}
    timing: str | None = None  # the timing of the trigger whose effect is compiled (on, before, instead)
    # statement id -> (the name of the one entity it writes, what is forgotten for that entity
    # alone): invalidation.keyed_writes, made again with the rest of the invalidation
    keyed_writes: dict[int, tuple[str, frozenset]] = {}
    abilities: frozenset = frozenset()  # the names of cards' activated abilities (perform c.name)

    # ---- entry points -----------------------------------------------------------

    def program(self, text: str, origin: Span, params: Iterable[str]) -> g.Block:
        try:
            tree = parse_effect(str(text), origin)
        except ParseError as error:
            self.errors.append(error)
            return self._add(g.Block(origin))
        scope = Scope(list(params) + sorted(_bound_names(tree.children)), origin)
        return self.block(tree.children, scope, origin)

    # ---- statements -------------------------------------------------------------

    def _add(self, node: g.Stmt) -> Any:
        node.id = len(self.nodes)
        self.nodes.append(node)
        return node

    def block(self, stmts: list, scope: Scope, span: Span) -> g.Block:
        body = [self.stmt(s, scope) for s in stmts if isinstance(s, Tree)]
        return self._add(g.Block(span, [b for b in body if b is not None]))

    def suite(self, tree: Tree, scope: Scope) -> g.Block:
        return self.block(tree.children, scope, scope.span(tree))

    def stmt(self, tree: Tree, scope: Scope) -> g.Stmt | None:
        self.statement_writes = set()
        handler = self.handler("s_", tree.data)
        if handler is None:  # pragma: no cover - grammar and compiler out of step
            self.error(msg("unsupported statement '{kind}'", kind=tree.data), scope.span(tree))
            return None
        return handler(self, tree, scope)

    def _simple(self, tree: Tree, scope: Scope, run: Callable[[Any, dict], None],
                changes: bool = True) -> g.Simple:
        writes = frozenset(self.statement_writes) if changes else frozenset()
        node = g.Simple(scope.span(tree), run, tree.data, changes, writes)
        node.tree, node.names = tree, scope.names
        return self._add(node)

    def s_let_stmt(self, tree: Tree, scope: Scope) -> g.Stmt:
        name, value_tree = str(tree.children[0]), tree.children[1]
        if value_tree.data == "call" and str(value_tree.children[0]) in self.macro_params \
                and str(value_tree.children[0]) not in self.functions:
            return self._macro_value(name, value_tree, scope)
        if self.is_roll(value_tree):
            return self._roll(name, tree, value_tree, scope)
        if self.is_roll(value_tree, "create"):
            return self._create(name, tree, value_tree, scope)
        value = self.expr(value_tree, scope)

        def run(rt, env):
            env[name] = keep(rt.limits, value(rt, env))
        return self._simple(tree, scope, run, changes=False)

    def s_assign_stmt(self, tree: Tree, scope: Scope) -> g.Stmt:
        setter = self.target(tree.children[0], scope)
        value = self.expr(tree.children[1], scope)

        def run(rt, env):
            setter(rt, env, keep(rt.limits, value(rt, env)))
        return self._simple(tree, scope, run, changes=not _local_place(tree.children[0]))

    def s_aug_stmt(self, tree: Tree, scope: Scope) -> g.Stmt:
        target, op, value = tree.children
        setter = self.target(target, scope)
        before = len(self.errors)
        getter = self.expr(target_as_expr(target), scope)
        del self.errors[before:]  # the target's mistakes are already reported once, by the setter
        value = self.expr(value, scope)
        fn = operator.add if str(op) == "+=" else operator.sub

        def run(rt, env):
            setter(rt, env, check_value(rt.limits, fn(getter(rt, env), value(rt, env))))
        return self._simple(tree, scope, run, changes=not _local_place(target))

    def s_choose_stmt(self, tree: Tree, scope: Scope) -> g.Stmt:
        children = list(tree.children)
        optional = isinstance(children[0], Token) and children[0].type == "MAY"
        if optional:
            children = children[1:]
        name, options = str(children[0]), self.expr(children[1], scope)
        node = g.Choose(scope.span(tree), var=name, options=options, optional=optional)
        for opt in children[2:]:
            kind, value = opt.data, opt.children[-1]
            if kind == "choose_private":
                node.private = True
            elif kind == "choose_always":
                node.always = True
                if not optional:
                    self.error(msg("'always' goes with 'may choose' (with no option, only the pass is offered)"),
                               scope.span(opt))
            elif kind == "choose_by":
                node.actor = self.expr(value, scope)
            elif kind == "choose_prompt":
                node.prompt = self.expr(value, scope)
            elif kind == "choose_count":
                bounds = [c for c in opt.children if isinstance(c, Tree)]
                node.count = self.expr(bounds[0], scope)
                node.count_max = self.expr(bounds[1], scope) if len(bounds) > 1 else None
            else:
                node.label = self.expr(value, scope)
        if node.actor is None:
            if "you" not in scope.names:
                self.error(msg("a choice needs 'by PLAYER' here (no 'you' is known)"), scope.span(tree))
            node.actor = lambda rt, env: env["you"]
        return self._add(node)

    def s_draw_stmt(self, tree: Tree, scope: Scope) -> g.Stmt:
        self._note_write(tree.children[1])
        self._not_a_constant(tree.children[1], scope, msg("draw from"))
        name = str(tree.children[0])
        source = self.expr(target_as_expr(tree.children[1]), scope)

        def run(rt, env):
            env[name] = rt.draw(source(rt, env))
        return self._simple(tree, scope, run, changes=not _local_place(tree.children[1]))

    def s_shuffle_stmt(self, tree: Tree, scope: Scope) -> g.Stmt:
        self._note_write(tree.children[0])
        self._not_a_constant(tree.children[0], scope, msg("shuffle"))
        source = self.expr(target_as_expr(tree.children[0]), scope)
        return self._simple(tree, scope, lambda rt, env: rt.shuffle(source(rt, env)),
                            changes=not _local_place(tree.children[0]))

    def s_call_stmt(self, tree: Tree, scope: Scope) -> g.Stmt | None:
        name, args_tree = tree.children
        assert isinstance(name, Token)  # call_stmt: NAME args?
        args = list(args_tree.children) if args_tree is not None else []
        span = scope.span(tree)
        if name in self.macro_params:
            self._arity(name, len(args), len(self.macro_params[name]), len(self.macro_params[name]), span)
            return self._add(g.Call(span, str(name), [self.expr(a, scope) for a in args]))
        builtin = VERBS.get(str(name))
        if builtin is None:
            if name in self.functions or name in FUNCTIONS:
                self.error(msg("'{name}' is a function and changes nothing; use its value", name=name), span)
            else:
                self.error(msg("unknown verb or macro '{name}'", name=name), span,
                           did_you_mean(name, list(VERBS) + list(self.macro_params)))
            return None
        self._arity(name, len(args), builtin.min_args, builtin.max_args, span)
        if builtin.target and args and not _is_place(args[0]):
            self.error(msg("the first argument of '{name}' must be a place such as game.bag or x.items", name=name),
                       scope.span(args[0]))
        elif name == "destroy":
            self.statement_writes.add(ENTITIES)
            self.written.add(ENTITIES)
        elif builtin.target and args:
            self._note_write(args[0])
            self._not_a_constant(args[0], scope, msg("change with '{name}'", name=name))
        compiled = [self.expr(a, scope) for a in args]
        fn = builtin.fn

        def run(rt, env):
            fn(rt, *[a(rt, env) for a in compiled])
        local_only = (builtin.target and args and _local_place(args[0])) or name in ("log", "log_to")
        return self._simple(tree, scope, run, changes=not local_only)

    def s_emit_stmt(self, tree: Tree, scope: Scope) -> g.Stmt:
        name, args_tree = tree.children
        args = [self.expr(a, scope) for a in (args_tree.children if args_tree is not None else [])]
        return self._add(g.Emit(scope.span(tree), str(name), args))

    def s_emit_block(self, tree: Tree, scope: Scope) -> g.Stmt:
        name, args_tree, suite = tree.children
        args = [self.expr(a, scope) for a in (args_tree.children if args_tree is not None else [])]
        for stmt in _escapes(suite):
            self.error(msg("'{statement}' cannot leave the body of an emit (the event would be left half done)",
                           statement=stmt.data[:-5]),
                       scope.span(stmt), msg("end the event's body normally; a trigger can 'prevent' it instead"))
        node = g.Emit(scope.span(tree), str(name), args, body=self.suite(suite, scope))
        node.dispatch = True
        return self._add(node)

    def s_prevention_stmt(self, tree: Tree, scope: Scope) -> g.Stmt:
        if self.timing not in ("before", "instead"):
            self.error(msg("'prevent' belongs in the effect of a trigger that listens 'before:' an event"),
                       scope.span(tree), msg("write the trigger with 'before: event(...)' instead of 'on:'"))
        return self._simple(tree, scope, lambda rt, env: signal(rt, "prevented"))

    def s_stop_stmt(self, tree: Tree, scope: Scope) -> g.Stmt:
        if self.timing is None:
            self.error(msg("'stop' belongs in the effect of a trigger (it skips the event's remaining handlers)"),
                       scope.span(tree))
        return self._simple(tree, scope, lambda rt, env: signal(rt, "stopped"))

    def s_perform_stmt(self, tree: Tree, scope: Scope) -> g.Stmt:
        target, *rest = tree.children
        rest = [r for r in rest if r is not None]
        names = [str(r) for r in rest[0::2]]
        values = [self.expr(r, scope) for r in rest[1::2]]
        ability = None
        if target.data == "attr" and str(target.children[1]) in self.abilities:  # perform c.name: an ability
            target, ability = target.children[0], str(target.children[1])
        node = g.Perform(scope.span(tree), self.expr(target, scope), names, values)
        node.ability = ability
        return self._add(node)

    def s_break_stmt(self, tree: Tree, scope: Scope) -> g.Stmt:
        return self._add(g.Break(scope.span(tree)))

    def s_return_stmt(self, tree: Tree, scope: Scope) -> g.Stmt:
        value = tree.children[0] if tree.children else None
        return self._add(g.Return(scope.span(tree), self.expr(value, scope) if value is not None else None))

    def s_reveal_stmt(self, tree: Tree, scope: Scope) -> g.Stmt:
        things, who_tree = self.expr(tree.children[0], scope), tree.children[1]
        if who_tree.data == "name" and str(who_tree.children[0]) == "all" and "all" not in scope.names \
                and "all" not in self.constants:
            return self._simple(tree, scope, lambda rt, env: visibility.reveal(rt, things(rt, env), visibility.EVERYONE))
        who = self.expr(who_tree, scope)
        return self._simple(tree, scope, lambda rt, env: visibility.reveal(rt, things(rt, env), who(rt, env)))

    def s_hide_stmt(self, tree: Tree, scope: Scope) -> g.Stmt:
        things = self.expr(tree.children[0], scope)
        return self._simple(tree, scope, lambda rt, env: visibility.hide(rt, things(rt, env)))

    def _roll(self, name: str, tree: Tree, value_tree: Tree, scope: Scope) -> g.Stmt:
        """let name = roll(faces): a chance step (a die of n sides, or a list of faces)."""
        args = value_tree.children[1].children if value_tree.children[1] is not None else []
        self._arity("roll", len(args), 1, 1, scope.span(value_tree))
        faces = self.expr(args[0], scope) if args else (lambda rt, env: 0)

        def run(rt, env):
            env[name] = keep(rt.limits, rt.roll(faces(rt, env)))
        return self._simple(tree, scope, run)

    def _create(self, name: str, tree: Tree, value_tree: Tree, scope: Scope) -> g.Stmt:
        """let name = create(kind): a new entity of a kind declared with a 'max'."""
        args = value_tree.children[1].children if value_tree.children[1] is not None else []
        self._arity("create", len(args), 1, 1, scope.span(value_tree))
        if args and args[0].data == "name" and str(args[0].children[0]) not in scope.names:
            kind = str(args[0].children[0])
            if self.constants.get(kind) == kind and kind not in self.creatable:
                self.error(msg("kind '{kind}' has no 'max', so its entities cannot be created in play", kind=kind),
                           scope.span(args[0]), msg("declare it: kinds: {{{kind}: {{max: 10, attributes: ...}}}}", kind=kind))
        kind_of = self.expr(args[0], scope) if args else (lambda rt, env: None)
        self.statement_writes.add(ENTITIES)
        self.written.add(ENTITIES)

        def run(rt, env):
            env[name] = rt.create(kind_of(rt, env))
        return self._simple(tree, scope, run)

    def _macro_value(self, name: str, tree: Tree, scope: Scope) -> g.Stmt:
        """let name = macro(args): the macro runs (it may pause), then its returned value is bound."""
        macro, args_tree = str(tree.children[0]), tree.children[1]
        args = list(args_tree.children) if args_tree is not None else []
        span = scope.span(tree)
        self._arity(macro, len(args), len(self.macro_params[macro]), len(self.macro_params[macro]), span)
        if macro not in self.macro_returns:
            self.error(msg("'{name}' changes the game and has no value; call it as a statement", name=macro), span,
                       msg("'return VALUE' appears nowhere in macro '{name}', so a let cannot take its value", name=macro))
        return self._add(g.CallValue(scope.span(tree), macro, [self.expr(a, scope) for a in args], var=name))

    def s_pass_stmt(self, tree: Tree, scope: Scope) -> None:
        return None

    def s_settle_stmt(self, tree: Tree, scope: Scope) -> g.Stmt:
        return self._add(g.SettleNow(scope.span(tree)))

    def s_if_stmt(self, tree: Tree, scope: Scope) -> g.Stmt:
        test, suite, *rest = tree.children
        node = g.If(scope.span(tree), [self.expr(test, scope)], [self.suite(suite, scope)])
        for clause in rest:
            if clause is None:
                continue
            if clause.data == "elif_clause":
                node.tests.append(self.expr(clause.children[0], scope))
                node.suites.append(self.suite(clause.children[1], scope))
            else:
                node.orelse = self.suite(clause.children[0], scope)
        return self._add(node)

    def s_for_stmt(self, tree: Tree, scope: Scope) -> g.Stmt:
        name, items, suite = tree.children
        return self._add(g.For(scope.span(tree), str(name), self.expr(items, scope), self.suite(suite, scope)))

    def s_simultaneous_stmt(self, tree: Tree, scope: Scope) -> g.Stmt:
        name, items, suite = tree.children
        for choose in suite.find_data("choose_stmt"):  # a decision visibly not by the seat's own
            by = [o for o in choose.children if isinstance(o, Tree) and o.data == "choose_by"]
            if not by or not any(isinstance(t, Token) and str(t) == str(name) for t in by[0].scan_values(bool)):
                self.error(msg("every decision inside 'simultaneously for {name}' is made by {name}'s seat: "
                               "write 'by {name}' (or by an entity {name} controls)", name=name), scope.span(choose))
        for inner in suite.find_data("simultaneous_stmt"):
            self.error(msg("'simultaneously' inside a seat's part of another 'simultaneously'"), scope.span(inner))
        return self._add(g.Simultaneously(scope.span(tree), str(name), self.expr(items, scope),
                                          self.suite(suite, scope)))

    def s_while_stmt(self, tree: Tree, scope: Scope) -> g.Stmt:
        test, suite = tree.children
        return self._add(g.While(scope.span(tree), self.expr(test, scope), self.suite(suite, scope)))

    def s_repeat_stmt(self, tree: Tree, scope: Scope) -> g.Stmt:
        count, suite = tree.children
        return self._add(g.Repeat(scope.span(tree), self.expr(count, scope), self.suite(suite, scope)))

    # ---- targets (places a value can be stored) -------------------------------------

    def _not_a_constant(self, tree: Tree, scope, doing: str) -> None:
        """A ruleset constant (a table, a symbol list) is not a place: changing it would change
        the loaded ruleset itself, outside the game's state, and every later game with it."""
        root = tree
        while isinstance(root, Tree) and root.data in ("index", "target_index"):
            root = root.children[0]
        if isinstance(root, Tree) and root.data in ("name", "target_name"):
            name = str(root.children[0])
            if name not in scope.names and isinstance(self.constants.get(name), (list, dict)):
                self.error(msg("cannot {doing} '{name}': it is a constant of the ruleset, not a place "
                               "(copy it into a local name or an attribute first)", doing=doing, name=name),
                           scope.span(tree))

    def target(self, tree: Tree, scope: Scope) -> Callable[[Any, dict, Any], None]:
        if tree.data == "target_name":
            name = str(tree.children[0])
            if name not in scope.names:
                self.error(msg("cannot assign to '{name}': it is not a local name (use 'let')", name=name),
                           scope.span(tree))

            def set_local(rt, env, value):
                env[name] = value
            return set_local
        self._note_write(tree)
        if tree.data == "target_attr":
            obj, attr = self.expr(tree.children[0], scope), str(tree.children[1])
            self._check_attr(attr, scope.span(tree.children[1]))

            def set_attr(rt, env, value):
                rt.set_attr(obj(rt, env), attr, value)
            return set_attr
        self._not_a_constant(tree, scope, msg("assign into"))
        container, key = self.expr(tree.children[0], scope), self.expr(tree.children[1], scope)

        def set_index(rt, env, value):
            store_index(rt, container(rt, env), key(rt, env), value)
        return set_index


def keep(limits, value: Any) -> Any:
    """A value about to be bound to a name or stored: checked against the limits, and a
    list or map copied (a saved game never shares them)."""
    kind = value.__class__
    if kind is str:  # the commonest: an entity or a word
        if len(value) <= limits.text:
            return value
    elif kind is int:
        if -SMALL < value < SMALL and limits.number_digits > 6:
            return value
    elif value is None or kind is bool:
        return value
    elif kind is list and len(value) <= limits.sequence:
        return list(value)
    return own(check_value(limits, value))


def store_index(rt, box: Any, key: Any, value: Any) -> None:
    """``box[key] = value``; in a map, keys are words or entities and a 0 is no entry."""
    if isinstance(box, dict):
        if not isinstance(key, str):
            raise ValueError(f"a map key must be a word or an entity, not {rt.label(key)}")
        if value == 0 and isinstance(value, int) and not isinstance(value, bool):
            box.pop(key, None)
            return
    box[key] = value



def compile_expression_text(compiler: Compiler, text: str, origin: Span, params: Iterable[str]) -> g.Expr:
    """Compile text that must be a single expression (a function body, a condition)."""
    try:
        tree = parse_effect(str(text), origin, start="expr_start")
    except ParseError as error:
        compiler.errors.append(error)
        return lambda rt, env: None
    return compiler.expr(tree.children[0], Scope(params, origin))


def returns_value(text: str, origin: Span) -> bool:
    """Does a 'return VALUE' appear in the program (False if it does not parse: the parse
    error is reported where the program is compiled)?"""
    try:
        tree = parse_effect(str(text), origin)
    except ParseError:
        return False
    return any(node.children and node.children[0] is not None for node in tree.find_data("return_stmt"))


def _bound_names(stmts: list) -> set[str]:
    names: set[str] = set()
    for tree in stmts:
        if not isinstance(tree, Tree):
            continue
        if tree.data in ("let_stmt", "for_stmt", "draw_stmt", "simultaneous_stmt"):
            names.add(str(tree.children[0]))
        elif tree.data == "choose_stmt":
            kids = [k for k in tree.children if isinstance(k, Token) and k.type == "NAME"]
            names.add(str(kids[0]))
        if tree.data in ("if_stmt", "for_stmt", "while_stmt", "repeat_stmt", "suite", "simultaneous_stmt",
                         "elif_clause", "else_clause", "emit_block"):
            names |= _bound_names(tree.children)
    return names


def _escapes(tree: Tree, in_loop: bool = False) -> list:
    """The returns, and the breaks outside a loop of its own, in an emit's body."""
    found = []
    for child in tree.children:
        if isinstance(child, Tree):
            if child.data == "return_stmt" or (child.data == "break_stmt" and not in_loop):
                found.append(child)
            else:
                found += _escapes(child, in_loop or child.data in ("for_stmt", "while_stmt", "repeat_stmt"))
    return found


def _local_place(tree: Tree) -> bool:
    """A place inside a local name (x, x[i]): changing it changes no game state."""
    while isinstance(tree, Tree) and tree.data in ("index", "target_index"):
        tree = tree.children[0]
    return isinstance(tree, Tree) and tree.data in ("name", "target_name")


def target_as_expr(tree: Tree) -> Tree:
    mapping = {"target_name": "name", "target_attr": "attr", "target_index": "index"}
    return Tree(mapping[tree.data], tree.children, tree.meta)


def _is_place(tree: Tree) -> bool:
    return isinstance(tree, Tree) and tree.data in ("name", "attr", "index")
