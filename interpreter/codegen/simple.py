"""Generated code for simple statements: ``let``, assignment, ``+=``/``-=``, verbs,
``draw`` and ``shuffle``.

Statement code (:mod:`.statements`, whose writer extends :class:`SimpleWriter`) writes
each simple statement straight into its generated function instead of calling the
statement's closure: the expressions are
lowered by the expression writer (:mod:`.expressions`), and the statement does what its
closure (:mod:`..compiler`) does, in the same order and with the same checks: a value
stored or bound is checked against the limits (``keep``), an attribute is set in the
entity's record (``rt.set_attr`` says what is wrong otherwise), a map entry goes through
``store_index``. The generated function expects ``rt``, ``env``, ``ent`` (``rt.ent``)
and ``lim`` (``rt.limits``) in its locals. A shape the writer does not know leaves the
statement to its closure.
"""
from __future__ import annotations

from typing import cast

from lark import Token, Tree

from ...dsl.walker import EXPRESSION_KINDS, STATEMENT_KINDS
from .. import visibility
from ..builtins import VERBS, log_known, parts_of
from ..compiler import keep, store_index, target_as_expr
from ..expressions import string_literal
from ..limits import SMALL, check_value
from .expressions import ExpressionWriter
from .writer import RELATIONS, Unsupported, ident

SIMPLE_HELPERS = {"_keep": keep, "_check": check_value, "_store_index": store_index}
_TRUTHS = {"not_op", "in_op", "not_in_op", "or_expr", "and_expr"}


class SimpleWriter(ExpressionWriter):
    """The expression writer that also writes simple statements (a handler ``s_<kind>``
    per node kind of a simple statement)."""

    families = {"x_": EXPRESSION_KINDS, "s_": STATEMENT_KINDS}

    def lower(self, stmt) -> bool:
        """Write the code of a simple statement; False (and nothing written) if not handled."""
        tree = stmt.tree
        handler = self.handler("s_", tree.data) if isinstance(tree, Tree) else None
        if handler is None:
            return False
        mark, depth, saved = len(self.lines), self.depth, self.locals
        self.locals = stmt.names
        try:
            handler(self, tree)
            return True
        except Unsupported:
            del self.lines[mark:]
            self.depth = depth
            return False
        finally:
            self.locals = saved

    def kept(self, tree: Tree) -> str:
        """The value of an expression about to be stored, as ``keep`` makes it: a true/false
        needs no check, a list the expression has just made needs no copy."""
        value = self.expr(tree, {})
        if tree.data in _TRUTHS or (tree.data == "comparison" and
                                    all(str(op) in RELATIONS for op in tree.children[1::2])):
            return value
        if value in ("None", "True", "False"):  # keep gives these back as they are
            return value
        kept = self.tmp()
        if tree.data in ("comprehension", "list_lit"):  # check_value's own test for a list, first
            self.emit(f"{kept} = {value} if len({value}) <= lim.sequence else _check(lim, {value})")
        elif value.lstrip("-").isdigit():  # a literal number: keep's own test for a small one, made here
            small = -SMALL < int(value) < SMALL
            self.emit(f"{kept} = {value} if lim.number_digits > 6 else _keep(lim, {value})" if small
                      else f"{kept} = _keep(lim, {value})")
        else:  # keep's own tests for a short text (the commonest: an entity, a word) and a small number, first
            self.emit(f"{kept} = {value} if {value}.__class__ is str and len({value}) <= lim.text or "
                      f"{value}.__class__ is int and {-SMALL} < {value} < {SMALL} and lim.number_digits > 6 "
                      f"else _keep(lim, {value})")
        return kept

    def s_let_stmt(self, tree: Tree) -> None:
        if self.compiler.is_roll(tree.children[1], "create"):  # compiler._create
            raise Unsupported("create")
        if self.compiler.is_roll(tree.children[1]):  # a chance step (compiler._roll)
            rolled = self.tmp()
            self.emit(f"{rolled} = _keep(lim, rt.roll({self.expr(tree.children[1].children[1].children[0], {})}))")
            self.bind(str(tree.children[0]), rolled)
            return
        value = self.kept(tree.children[1])
        self.bind(str(tree.children[0]), value)

    def s_assign_stmt(self, tree: Tree) -> None:
        self.store(tree.children[0], self.kept(tree.children[1]))

    def s_aug_stmt(self, tree: Tree) -> None:
        target, op, value_tree = tree.children
        old = self.expr(target_as_expr(target), {})
        value = self.expr(value_tree, {})
        out = self.tmp()
        self.emit(f"{out} = {old} {'+' if str(op) == '+=' else '-'} {value}")
        self.emit(f"if not ({out}.__class__ is int and {-SMALL} < {out} < {SMALL} and lim.number_digits > 6):")
        self.emit(f"    {out} = _check(lim, {out})  # check_value's own test for a small number, first")
        self.store(target, out)

    def store(self, target: Tree, value: str) -> None:
        """``target = value``, the target's parts evaluated after the value (as the closure)."""
        if target.data == "target_name":
            self.bind(str(target.children[0]), value)
        elif target.data == "target_attr":
            obj, attr = self.expr(target.children[0], {}), ident(str(target.children[1]))
            record = self.tmp()
            self.emit(f"{record} = ent.get({obj}) if {obj}.__class__ is str else None")  # else set_attr decides
            self.emit(f"if {record} is not None and {attr} in {record}:")
            self.emit(f"    {record}[{attr}] = {value}")
            self.emit("else:")
            self.emit(f"    rt.set_attr({obj}, {attr}, {value})")  # says what is wrong
        elif target.data == "target_index":
            box, key = self.expr(target.children[0], {}), self.expr(target.children[1], {})
            self.emit(f"_store_index(rt, {box}, {key}, {value})")
        else:  # pragma: no cover - the grammar has no other targets
            raise Unsupported(target.data)

    def s_call_stmt(self, tree: Tree) -> None:
        name, args_tree = tree.children
        builtin = VERBS.get(str(name))
        if builtin is None:  # pragma: no cover - macro calls are not simple statements
            raise Unsupported(str(name))
        trees = args_tree.children if args_tree is not None else []
        args = [self.expr(a, {}) for a in trees]
        if builtin.fn is not VERBS["log"].fn:
            self.emit(f"{self.const(builtin.fn)}(rt{''.join(', ' + a for a in args)})")
            return
        self.emit("if rt.keep_log:")  # which does nothing without the log
        fn = builtin.fn
        if trees and isinstance(trees[0], Tree) and trees[0].data == "string":  # a template known now
            template = string_literal(cast(Token, trees[0].children[0]))
            _, pattern, holes = parts_of(template)
            if holes == len(args) - 1:
                fn, args = log_known, [self.const(pattern)] + args
        self.emit(f"    {self.const(fn)}(rt{''.join(', ' + a for a in args)})")

    def s_draw_stmt(self, tree: Tree) -> None:
        source = self.expr(target_as_expr(tree.children[1]), {})
        drawn = self.tmp()
        self.emit(f"{drawn} = rt.draw({source})")
        self.bind(str(tree.children[0]), drawn)

    def s_shuffle_stmt(self, tree: Tree) -> None:
        self.emit(f"rt.shuffle({self.expr(target_as_expr(tree.children[0]), {})})")

    def s_reveal_stmt(self, tree: Tree) -> None:
        things, who_tree = self.expr(tree.children[0], {}), tree.children[1]
        if who_tree.data == "name" and str(who_tree.children[0]) == "all" and "all" not in self.locals \
                and "all" not in self.compiler.constants:
            who = self.const(visibility.EVERYONE)
        else:
            who = self.expr(who_tree, {})
        self.emit(f"{self.const(visibility.reveal)}(rt, {things}, {who})")

    def s_hide_stmt(self, tree: Tree) -> None:
        self.emit(f"{self.const(visibility.hide)}(rt, {self.expr(tree.children[0], {})})")
