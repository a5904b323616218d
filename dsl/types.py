"""Stage 4b: static types. Infers, from the rule texts alone, the types of attributes (from
their defaults and entity values), tables, rule functions' results and the parameters of
functions and macros, and reports a value of the wrong type where it is certain to fail:
``gain_vp(you, "two")`` is an error at the call, with where ``gain_vp`` does arithmetic
with that parameter. It is deliberately cautious: only a *known* number, text, list or
table meeting a place that *surely* needs another is reported, so correct rules never
raise a false alarm (both built-in editions must load clean).
"""
from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from lark import Token, Tree

from .errors import CompileError, ParseError, Span
from .layers import SIGNATURE
from .parser import parse_effect

INT, STR, LIST, DICT, BOOL = "number", "text", "list", "table", "true/false"
_BAD_FOR_INT = {STR, LIST, DICT}
_INT_BUILTINS = {"len", "count", "sum", "abs", "player_count", "index_of"}
_LIST_BUILTINS = {"range", "keys", "unique", "sorted", "reversed", "concat", "without", "entities",
                  "neighbours", "cells_at", "corners", "order_by", "order_by_desc", "reachable"}


def type_of_value(value: Any) -> str | None:
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, str):
        return STR
    if isinstance(value, list):
        return LIST
    if isinstance(value, dict):
        return DICT
    return None


class _Program:
    """One rule text to check: its parameters, its tree and where it starts."""

    def __init__(self, name: str | None, params: list[str], text: str, origin: Span, expression: bool):
        self.name, self.params, self.origin = name, params, origin
        self.tree = _parsed(str(text), "expr_start" if expression else "start")


@lru_cache(maxsize=8192)
def _parsed(text: str, start: str) -> Tree | None:
    """The tree of *text* (positions relative to it), or None if it does not parse (the
    compiler reports that). Remembered: the same texts come back with every load."""
    try:
        return parse_effect(text, Span("", 1, 1), start)
    except ParseError:
        return None


class TypeChecker:
    def __init__(self, constants: dict[str, Any], attribute_values: dict[str, list], callables: dict[str, list[str]]):
        self.constants = constants
        self.attr_types = {}
        for attr, values in attribute_values.items():
            kinds = {type_of_value(v) for v in values}
            if len(kinds) == 1 and None not in kinds:
                self.attr_types[attr] = kinds.pop()
        self.callables = callables                      # function/macro name -> params
        self.expects: dict[tuple[str, int], tuple[str, Span]] = {}   # (callable, index) -> (type, why)
        self.returns: dict[str, str] = {}
        self.errors: list[CompileError] = []

    # ---- types of expressions ----------------------------------------------------------

    def type_of(self, tree, locals_: set[str]) -> str | None:
        if isinstance(tree, Token):
            return None
        kind = tree.data
        if kind == "number" or kind == "neg":
            return INT
        if kind == "string":
            return STR
        if kind in ("list_lit", "comprehension", "multi_comprehension"):
            return LIST
        if kind in ("comparison", "in_op", "not_in_op", "not_op"):
            return BOOL if kind != "comparison" or len(tree.children) > 1 else None
        if kind == "name":
            name = str(tree.children[0])
            if name in locals_ or name not in self.constants:
                return None
            return type_of_value(self.constants[name])
        if kind == "attr":
            return self.attr_types.get(str(tree.children[1]))
        if kind in ("sum_expr", "product"):
            operands = tree.children[0::2]
            ops = {str(t) for t in tree.children[1::2]}
            types = [self.type_of(o, locals_) for o in operands]
            if all(t == INT for t in types):
                return INT
            return LIST if kind == "sum_expr" and ops == {"+"} and all(t == LIST for t in types) else None
        if kind == "call":
            name = str(tree.children[0])
            if name in self.callables:
                return self.returns.get(name)
            return INT if name in _INT_BUILTINS else LIST if name in _LIST_BUILTINS else None
        if kind == "cond_expr":
            a, b = self.type_of(tree.children[0], locals_), self.type_of(tree.children[2], locals_)
            return a if a == b else None
        return None

    # ---- one pass over a program ---------------------------------------------------------

    def visit(self, program: _Program, report: bool) -> None:
        if program.tree is None:
            return
        locals_ = set(program.params) | _bound(program.tree)
        for node in program.tree.iter_subtrees_topdown():
            self._node(node, program, locals_, report)

    def _span(self, program: _Program, tree) -> Span:
        meta = tree if isinstance(tree, Token) else tree.meta
        return program.origin.shifted(getattr(meta, "line", 1) or 1, getattr(meta, "column", 1) or 1)

    def _need_int(self, tree, program: _Program, locals_: set[str], why: Span | None, what: str,
                  report: bool) -> None:
        """*tree* must be a number: note it for a parameter, report it for a known other type."""
        if isinstance(tree, Tree) and tree.data == "name" and program.name is not None:
            name = str(tree.children[0])
            if name in program.params:
                key = (program.name, program.params.index(name))
                self.expects.setdefault(key, (INT, why or self._span(program, tree)))
                return
        found = self.type_of(tree, locals_)
        if report and found in _BAD_FOR_INT:
            self.errors.append(CompileError(f"{what} needs a number, not a {found}", self._span(program, tree),
                                            f"it is used as a number at {why}" if why else ""))

    def _node(self, node: Tree, program: _Program, locals_: set[str], report: bool) -> None:
        kind = node.data
        if kind == "sum_expr":
            operands, ops = node.children[0::2], {str(t) for t in node.children[1::2]}
            types = [self.type_of(o, locals_) for o in operands]
            if INT in types or "-" in ops:
                for operand in operands:
                    self._need_int(operand, program, locals_, None, "arithmetic", report)
        elif kind == "aug_stmt":
            target, _, value = node.children
            if target.data == "target_attr" and self.attr_types.get(str(target.children[1])) == INT:
                attr = str(target.children[1])
                self._need_int(value, program, locals_, None, f"adding to '{attr}'", report)
        elif kind == "assign_stmt":
            target, value = node.children
            if target.data == "target_attr" and self.attr_types.get(str(target.children[1])) == INT:
                attr = str(target.children[1])
                found = self.type_of(value, locals_)
                if report and found in _BAD_FOR_INT:
                    self.errors.append(CompileError(f"'{attr}' holds a number, not a {found}",
                                                    self._span(program, value)))
        elif kind == "comparison" and len(node.children) == 3 and str(node.children[1]) in ("<", ">", "<=", ">="):
            sides = [node.children[0], node.children[2]]
            if INT in (self.type_of(sides[0], locals_), self.type_of(sides[1], locals_)):
                for side in sides:
                    self._need_int(side, program, locals_, None, "an order comparison with a number", report)
        elif kind == "repeat_stmt":
            self._need_int(node.children[0], program, locals_, None, "'repeat'", report)
        elif kind in ("call", "call_stmt"):
            self._call(node, program, locals_, report)

    def _call(self, node: Tree, program: _Program, locals_: set[str], report: bool) -> None:
        name = str(node.children[0])
        args = node.children[1].children if isinstance(node.children[1], Tree) else []
        numeric = name == "range" or (name in ("min", "max") and len(args) > 1
                                      and INT in [self.type_of(a, locals_) for a in args])
        if numeric and name not in self.callables:
            for arg in args:
                self._need_int(arg, program, locals_, None, f"'{name}'", report)
        if name not in self.callables or not isinstance(node.children[1], Tree):
            return
        params = self.callables[name]
        for index, arg in enumerate(node.children[1].children):
            need = self.expects.get((name, index))
            if need is None or index >= len(params):
                continue
            self._need_int(arg, program, locals_, need[1], f"'{name}' parameter '{params[index]}'", report)


def _bound(tree: Tree) -> set[str]:
    """Names a program binds itself (let, for, choose, draw, comprehension)."""
    out = set()
    for node in tree.iter_subtrees():
        if node.data in ("let_stmt", "for_stmt", "draw_stmt", "comprehension", "multi_comprehension", "comp_for"):
            token = node.children[1] if node.data in ("comprehension", "multi_comprehension") else node.children[0]
            out.add(str(token))
        elif node.data == "choose_stmt":
            out.update(str(c) for c in node.children if isinstance(c, Token) and c.type == "NAME")
    return out


def check_types(defs, constants: dict[str, Any], card_params: dict[str, list[str]]) -> list[CompileError]:
    """The type errors of everything *defs* (a :class:`~.layers.Definitions`) collected.
    *card_params* gives each compiled card's effect parameters."""
    values: dict[str, list] = {}
    for attrs in defs.kinds.values():
        for attr, default in attrs.items():
            values.setdefault(attr, []).append(default)
    records = list(defs.entities.values()) + [doc.get("attributes", {}) for doc, _ in defs.cards.values()]
    for record in records:
        for attr, value in record.items():
            values.setdefault(attr, []).append(value)
    callables = {n: list(p) for n, (p, _, _) in defs.functions.items()}
    callables.update({n: list(p) for n, (p, _, _) in defs.macros.items()})
    checker = TypeChecker(constants, values, callables)
    programs = [_Program(n, p, t, s, True) for n, (p, t, s) in defs.functions.items()]
    programs += [_Program(n, p, t, s, False) for n, (p, t, s) in defs.macros.items()]
    for ident, (doc, _) in defs.cards.items():
        if ident in card_params and "effect" in doc:
            programs.append(_Program(None, card_params[ident], doc["effect"], doc.where("effect"), False))
    for node, _ in list(defs.triggers):
        match = SIGNATURE.match(str(node.get("on", "")))
        if "effect" in node and match:
            params = [p.strip() for p in (match.group(2) or "").split(",") if p.strip()] + ["self"]
            programs.append(_Program(None, params, node["effect"], node.where("effect"), False))
    for _ in range(4):  # expectations and results flow through calls: a few rounds reach a fixpoint
        before = (len(checker.expects), len(checker.returns))
        for program in programs:
            checker.visit(program, report=False)
            if program.name is not None and program.name in defs.functions and program.tree is not None:
                found = checker.type_of(_expression(program.tree), set(program.params))
                if found:
                    checker.returns[program.name] = found
        if (len(checker.expects), len(checker.returns)) == before:
            break
    for program in programs:
        checker.visit(program, report=True)
    return _unique(checker.errors)


def _expression(tree: Tree):
    children = [c for c in tree.children if isinstance(c, Tree)]
    return children[0] if children else tree


def _unique(errors: Iterable[CompileError]) -> list[CompileError]:
    seen, out = set(), []
    for error in errors:
        key = (error.span, error.message)
        if key not in seen:
            seen.add(key)
            out.append(error)
    return out
