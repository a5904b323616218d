"""Compiling expressions: each parse tree becomes a Python closure ``fn(rt, env)``.

Names are resolved here: locals (parameters, ``let``, loop and choice names),
constants (symbols, tables, entity ids, kinds, ``game``), the rule files' own
functions and the closed builtin registry. Statements are compiled by
:mod:`.compiler`, which builds on this; the code generator (:mod:`.codegen`) lowers
what they checked to Python code, and these closures stay the reference semantics.
"""
from __future__ import annotations

import operator
import itertools
from collections.abc import Iterable
from typing import Any, cast

from lark import Token, Tree

from ..dsl import graph as g
from ..dsl.errors import CompileError, Span, did_you_mean, msg
from ..dsl.walker import EXPRESSION_KINDS, TreeWalker
from .builtins import FUNCTIONS, VERBS
from .limits import SEARCHED, charge, multiply

_BINARY = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
           ">": operator.gt, ">=": operator.ge, "+": operator.add, "-": operator.sub,
           "*": operator.mul, "//": operator.floordiv, "%": operator.mod}
LITERALS = {"none": None, "true": True, "false": False}


class Scope:
    """The local names visible in one program, and where its text starts."""

    def __init__(self, names: Iterable[str], origin: Span):
        self.names = set(names)
        self.origin = origin

    def span(self, tree: Tree | Token) -> Span:
        meta = tree if isinstance(tree, Token) else tree.meta
        line = getattr(meta, "line", 1) or 1
        col = getattr(meta, "column", 1) or 1
        return self.origin.shifted(line, col)


class ExpressionCompiler(TreeWalker):
    """Compiles expressions and keeps the errors found, to report them all at once (a
    handler ``e_<kind>`` per node kind of an expression)."""

    families = {"e_": EXPRESSION_KINDS}

    def __init__(self, constants: dict[str, Any], attributes: set[str]):
        self.constants = dict(LITERALS, **constants)
        self.attributes = attributes
        self.written: set[str] = set()       # attributes some statement changes
        self.reads: set[str] | None = None   # attributes read by the function being compiled
        self.calls: set[str] | None = None   # rule functions it calls
        self.statement_writes: set[str] = set()  # attributes the statement being compiled changes
        self.functions: dict[str, g.Function] = {}
        self.macro_params: dict[str, list[str]] = {}
        self.macro_returns: set[str] = set()  # macros with a 'return VALUE' somewhere
        self.creatable: set[str] = set()  # kinds whose entities can be created in play
        self.errors: list[Any] = []
        self.nodes: list[g.Stmt] = []
        self.nesting = 0  # > 0 while compiling the parts of an expression
        # the code generator (the ruleset gives codegen.generate): fn(compiler, tree, names) or None
        self.generate: Any = lambda compiler, tree, names: None

    # ---- expressions --------------------------------------------------------------

    def expr(self, tree: Tree, scope: Scope) -> g.Expr:
        handler = self.handler("e_", tree.data)
        if handler is None:  # pragma: no cover
            self.error(msg("unsupported expression '{kind}'", kind=tree.data), scope.span(tree))
            return lambda rt, env: None
        if self.nesting:
            return handler(self, tree, scope)
        # an outermost expression: checked (and built as closures) first, then generated
        before = len(self.errors)
        self.nesting += 1
        try:
            closure = handler(self, tree, scope)
        finally:
            self.nesting -= 1
        if len(self.errors) != before:
            return closure
        return self.generate(self, tree, scope.names) or closure

    def e_number(self, tree: Tree, scope: Scope) -> g.Expr:
        value = int(cast(Token, tree.children[0]))
        return lambda rt, env: value

    def e_string(self, tree: Tree, scope: Scope) -> g.Expr:
        value = string_literal(cast(Token, tree.children[0]))
        return lambda rt, env: value

    def e_name(self, tree: Tree, scope: Scope) -> g.Expr:
        name = str(tree.children[0])
        if name in scope.names:
            return lambda rt, env: env[name]  # a KeyError here is reported by the machine
        if name in self.constants:
            value = self.constants[name]
            return lambda rt, env: value
        hint = did_you_mean(name, itertools.chain(scope.names, self.constants))  # (a list only if it is used)
        self.error(msg("unknown name '{name}'", name=name), scope.span(tree), hint)
        return lambda rt, env: None

    def e_list_lit(self, tree: Tree, scope: Scope) -> g.Expr:
        args = tree.children[0]
        items = [self.expr(a, scope) for a in (args.children if args is not None else [])]
        return lambda rt, env: [i(rt, env) for i in items]

    def e_comprehension(self, tree: Tree, scope: Scope) -> g.Expr:
        elt_tree, name, source_tree, cond_tree = tree.children
        name = str(name)
        inner = Scope(scope.names | {name}, scope.origin)
        source, elt = self.expr(source_tree, scope), self.expr(elt_tree, inner)
        cond = self.expr(cond_tree, inner) if cond_tree is not None else None

        identity = isinstance(elt_tree, Tree) and elt_tree.data == "name" and str(elt_tree.children[0]) == name
        if identity and cond is not None:
            def selection(rt, env):
                saved, had = env.get(name), name in env
                out = []
                items = source(rt, env)
                charge(rt, items)
                for item in items:
                    env[name] = item
                    if cond(rt, env):
                        out.append(item)
                if had:
                    env[name] = saved
                else:
                    env.pop(name, None)
                return out
            return selection

        def comprehension(rt, env):
            saved, had = env.get(name), name in env
            out = []
            items = source(rt, env)
            charge(rt, items)
            for item in items:
                env[name] = item
                if cond is None or cond(rt, env):
                    out.append(elt(rt, env))
            if had:
                env[name] = saved
            else:
                env.pop(name, None)
            return out
        return comprehension

    def e_multi_comprehension(self, tree: Tree, scope: Scope) -> g.Expr:
        """[elt for a in xs if c for b in ys if d ...]: each source sees the names before it;
        each source walked pays one unit of work per item."""
        clauses, elt_tree = comprehension_clauses(tree)
        names, levels = set(scope.names), []
        for name, source_tree, cond_tree in clauses:
            source = self.expr(source_tree, Scope(names, scope.origin))
            names = names | {name}
            cond = self.expr(cond_tree, Scope(names, scope.origin)) if cond_tree is not None else None
            levels.append((name, source, cond))
        elt = self.expr(elt_tree, Scope(names, scope.origin))
        bound = list(dict.fromkeys(name for name, _, _ in levels))
        last = len(levels)

        def walk(rt, env, out, depth):
            name, source, cond = levels[depth]
            items = source(rt, env)
            charge(rt, items)
            for item in items:
                env[name] = item
                if cond is None or cond(rt, env):
                    if depth + 1 == last:
                        out.append(elt(rt, env))
                    else:
                        walk(rt, env, out, depth + 1)

        def comprehension(rt, env):
            saved = {name: env[name] for name in bound if name in env}
            out: list = []
            walk(rt, env, out, 0)
            for name in bound:
                if name in saved:
                    env[name] = saved[name]
                else:
                    env.pop(name, None)
            return out
        return comprehension

    def is_roll(self, tree: Any, word: str = "roll") -> bool:
        """Is the expression a die roll, ``roll(faces)`` (or, with *word*, ``create(kind)``),
        unless the ruleset has its own function or macro of that name?"""
        return (isinstance(tree, Tree) and tree.data == "call" and str(tree.children[0]) == word
                and word not in self.functions and word not in self.macro_params)

    def e_attr(self, tree: Tree, scope: Scope) -> g.Expr:
        obj, attr = self.expr(tree.children[0], scope), str(tree.children[1])
        self._check_attr(attr, scope.span(tree.children[1]))
        if self.reads is not None:
            self.reads.add(attr)
        inner = tree.children[0]
        if isinstance(inner, Tree) and inner.data == "name" and str(inner.children[0]) in scope.names:
            local = str(inner.children[0])

            def local_attribute(rt, env):
                entity = env[local]
                try:
                    return rt.ent[entity][attr]
                except (KeyError, TypeError):
                    return rt.get_attr(entity, attr)  # says what is wrong
            return local_attribute

        def attribute(rt, env):
            entity = obj(rt, env)
            try:
                return rt.ent[entity][attr]
            except (KeyError, TypeError):
                return rt.get_attr(entity, attr)  # says what is wrong
        return attribute

    def e_index(self, tree: Tree, scope: Scope) -> g.Expr:
        container, key = self.expr(tree.children[0], scope), self.expr(tree.children[1], scope)

        def index(rt, env):
            box, k = container(rt, env), key(rt, env)
            if isinstance(box, dict):
                return box.get(k, 0)
            return box[k]
        return index

    def e_call(self, tree: Tree, scope: Scope) -> g.Expr:
        name, args_tree = str(tree.children[0]), tree.children[1]
        args = [self.expr(a, scope) for a in (args_tree.children if args_tree is not None else [])]
        span = scope.span(tree)
        if name in self.functions:
            function = self.functions[name]
            if self.calls is not None:
                self.calls.add(name)
            self._arity(name, len(args), len(function.params), len(function.params), span)

            def call_rule(rt, env):
                return function.call(rt, [a(rt, env) for a in args])
            return call_rule
        builtin = FUNCTIONS.get(name)
        if name == "entities" and self.reads is not None:
            self.reads.add(ENTITIES)  # (stale once an entity is created or destroyed)
        if builtin is None:
            if self.is_roll(tree) or self.is_roll(tree, "create"):
                what = msg("a chance step") if name == "roll" else msg("a change of the game")
                self.error(msg("'{name}' is {what}, not a value to compute: take it with a let of its own", name=name,
                               what=what), span, msg("let x = {name}(...)", name=name))
            elif name in self.macro_returns:
                self.error(msg("'{name}' changes the game and has no value; call it as a statement", name=name), span,
                           msg("its returned value is taken by a let of its own: let x = {name}(...)", name=name))
            elif name in VERBS or name in self.macro_params:
                self.error(msg("'{name}' changes the game and has no value; call it as a statement", name=name), span)
            else:
                self.error(msg("unknown function '{name}'", name=name), span,
                           did_you_mean(name, list(FUNCTIONS) + list(self.functions)))
            return lambda rt, env: None
        self._arity(name, len(args), builtin.min_args, builtin.max_args, span)
        fn = builtin.fn
        if len(args) == 1:
            only = args[0]
            return lambda rt, env: fn(rt, only(rt, env))
        return lambda rt, env: fn(rt, *[a(rt, env) for a in args])

    def e_neg(self, tree: Tree, scope: Scope) -> g.Expr:
        inner = self.expr(tree.children[0], scope)
        return lambda rt, env: -inner(rt, env)

    def e_not_op(self, tree: Tree, scope: Scope) -> g.Expr:
        inner = self.expr(tree.children[0], scope)
        return lambda rt, env: not inner(rt, env)

    def e_in_op(self, tree: Tree, scope: Scope) -> g.Expr:
        item, box = self.expr(tree.children[0], scope), self.expr(tree.children[1], scope)
        return lambda rt, env: _search(rt, item(rt, env), box(rt, env))

    def e_not_in_op(self, tree: Tree, scope: Scope) -> g.Expr:
        item, box = self.expr(tree.children[0], scope), self.expr(tree.children[2], scope)
        return lambda rt, env: not _search(rt, item(rt, env), box(rt, env))

    def e_cond_expr(self, tree: Tree, scope: Scope) -> g.Expr:
        then, test, other = (self.expr(c, scope) for c in tree.children)
        return lambda rt, env: then(rt, env) if test(rt, env) else other(rt, env)

    def e_or_expr(self, tree: Tree, scope: Scope) -> g.Expr:
        return self._connective(tree, scope, lambda a, b: lambda rt, env: a(rt, env) or b(rt, env))

    def e_and_expr(self, tree: Tree, scope: Scope) -> g.Expr:
        return self._connective(tree, scope, lambda a, b: lambda rt, env: a(rt, env) and b(rt, env))

    def _connective(self, tree: Tree, scope: Scope, join: Any) -> g.Expr:
        """a or b or c / a and b and c, short-circuiting, as nested closures."""
        parts = [self.expr(c, scope) for c in tree.children]
        if len(parts) > _NESTED_TERMS:  # a long chain as a loop (nested closures would recurse)
            stop = tree.data == "or_expr"  # the truth that decides an or (an and: falsity)

            def chain(rt, env):
                for part in parts:
                    if bool(part(rt, env)) is stop:
                        return stop
                return not stop
            return chain
        result = parts[-1]
        for part in reversed(parts[:-1]):
            result = join(part, result)
        return lambda rt, env: bool(result(rt, env))

    def e_comparison(self, tree: Tree, scope: Scope) -> g.Expr:
        return self._chain(tree, scope)

    e_sum_expr = e_product = e_comparison

    def _chain(self, tree: Tree, scope: Scope) -> g.Expr:
        first = self.expr(tree.children[0], scope)
        rest = [(_BINARY[str(op)], self.expr(operand, scope))
                for op, operand in zip(tree.children[1::2], tree.children[2::2])]
        if any(str(op) == "*" for op in tree.children[1::2]):
            return self._product(first, [str(op) for op in tree.children[1::2]], [r[1] for r in rest])
        if len(rest) == 1:
            fn, second = rest[0]
            constant = self._constant_of(tree.children[2], scope)
            if constant is not _NO:
                fused = self._fused_comparison(tree.children[0], fn, constant, scope)
                return fused or (lambda rt, env: fn(first(rt, env), constant))
            return lambda rt, env: fn(first(rt, env), second(rt, env))

        def chain(rt, env):
            value = first(rt, env)
            for fn, operand in rest:
                value = fn(value, operand(rt, env))
            return value
        return chain

    def _product(self, first: g.Expr, ops: list[str], operands: list[g.Expr]) -> g.Expr:
        """A chain with `*`: each product is bounded (limits.py), so no loop can square a
        number or repeat a text past what a game may hold."""
        steps = [(_BINARY[op], op == "*", operand) for op, operand in zip(ops, operands)]

        def product(rt, env):
            value = first(rt, env)
            for fn, bounded, operand in steps:
                value = multiply(rt.limits, value, operand(rt, env)) if bounded else fn(value, operand(rt, env))
            return value
        return product

    def _constant_of(self, tree: Any, scope: Scope) -> Any:
        """The value of a literal or of a constant name (not shadowed by a local), else _NO."""
        if isinstance(tree, Tree) and tree.data == "name":
            name = str(tree.children[0])
            if name not in scope.names and name in self.constants:
                value = self.constants[name]
                return value if value is None or isinstance(value, (str, int, bool)) else _NO
            return _NO
        return _constant(tree)

    def _fused_comparison(self, left: Any, fn: Any, constant: Any, scope: Scope) -> g.Expr | None:
        """`x.attr OP constant` with x a local name, as one closure (the hottest shape)."""
        if not (isinstance(left, Tree) and left.data == "attr" and isinstance(left.children[0], Tree)
                and left.children[0].data == "name" and str(left.children[0].children[0]) in scope.names):
            return None
        local, attr = str(left.children[0].children[0]), str(left.children[1])

        def compare(rt, env):
            entity = env[local]
            try:
                value = rt.ent[entity][attr]
            except (KeyError, TypeError):
                value = rt.get_attr(entity, attr)  # says what is wrong
            return fn(value, constant)
        return compare

    # ---- checks ---------------------------------------------------------------------

    def _note_write(self, tree: Tree) -> None:
        """Remember which attribute a place (x.a, x.a[k], target forms too) belongs to."""
        while isinstance(tree, Tree) and tree.data in ("index", "target_index"):
            tree = tree.children[0]
        if isinstance(tree, Tree) and tree.data in ("attr", "target_attr"):
            self.written.add(str(tree.children[1]))
            self.statement_writes.add(str(tree.children[1]))

    def _check_attr(self, attr: str, span: Span) -> None:
        if attr not in self.attributes:
            self.error(msg("no kind of entity has an attribute '{name}'", name=attr), span,
                       did_you_mean(attr, self.attributes))

    def _arity(self, name: str, given: int, low: int, high: int | None, span: Span) -> None:
        if given < low or (high is not None and given > high):
            if low == high:
                said = msg("'{name}' takes {count} argument, not {given}", name=name, count=low, given=given) \
                    if low == 1 else msg("'{name}' takes {count} arguments, not {given}", name=name, count=low, given=given)
            elif high is None:
                said = msg("'{name}' takes {low} or more arguments, not {given}", name=name, low=low, given=given)
            else:
                said = msg("'{name}' takes {low} to {high} arguments, not {given}", name=name, low=low, high=high,
                           given=given)
            self.error(said, span)

    def error(self, message: str, span: Span, hint: str = "") -> None:
        self.errors.append(CompileError(message, span, hint))


ENTITIES = "#entities"  # what create and destroy change, and entities(kind) reads (no attribute's name)
_NO = object()
_NESTED_TERMS = 16  # an and/or chain of more terms is run as a loop


def _constant(tree: Any) -> Any:
    """The value of a number or string literal, else _NO."""
    if isinstance(tree, Tree) and tree.data == "number":
        return int(cast(Token, tree.children[0]))
    if isinstance(tree, Tree) and tree.data == "string":
        return string_literal(cast(Token, tree.children[0]))
    return _NO


def comprehension_clauses(tree: Tree) -> tuple[list[tuple[str, Any, Any]], Any]:
    """A multi_comprehension's clauses, [(name, source, condition or None)], and its element."""
    elt, name, source, cond, *more = tree.children
    return [(str(name), source, cond)] + [(str(c.children[0]), c.children[1], c.children[2]) for c in more], elt


def string_literal(token: Token) -> str:
    body = str(token)[1:-1]
    if "\\" not in body:
        return body
    # latin-1 + backslashreplace keeps non-ASCII letters intact through unicode_escape
    return body.encode("latin-1", "backslashreplace").decode("unicode_escape")


def _search(rt: Any, item: Any, box: Any) -> bool:
    """``item in box``; searching a long list costs one unit of work per item (limits.SEARCHED)."""
    if box.__class__ is list and len(box) > SEARCHED:
        charge(rt, box)
    return item in box


def own(value: Any) -> Any:
    """Values bound to names are copies, so a saved game never shares lists."""
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    return value
