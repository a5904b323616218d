"""Stage 4b: static types. Infers, from the rule texts alone, the types of attributes (from
their defaults and entity values), tables, rule functions' results and the parameters of
functions and macros, and reports a value of the wrong type where it is certain to fail:
``gain_vp(you, "two")`` is an error at the call, with where ``gain_vp`` does arithmetic
with that parameter. It is deliberately cautious: only a *known* number, text, list or
table meeting a place that *surely* needs another is reported, so correct rules never
raise a false alarm (both built-in editions must load clean).

Entities are typed by their kind: an entity's id is of its kind, and a parameter whose
attributes are read (``f.pool``) is of the kinds that have all those attributes (the
same for every card of a deck: they get the same values). A parameter whose attribute is
read on the *straight path* of its function or macro (whenever it runs, before any branch,
loop body or early return) needs one of those kinds: ``eliminate(tile, you, 1)`` gives a
faction where a cell is read. Arithmetic on an entity or a true/false value, ``len`` of a
number and a ``log``/``format`` text whose ``{}`` do not match its values are reported too.
"""
from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from lark import Token, Tree

from .errors import CompileError, ParseError, Span, msg
from .layers import SIGNATURE
from .parser import parse_effect

INT, STR, LIST, DICT, BOOL, ENTITY = "number", "text", "list", "table", "true/false", "entity"
_BAD_FOR_INT = {STR, LIST, DICT, BOOL, ENTITY}
_TEMPLATES = {"log": 0, "format": 0, "log_to": 1}   # builtin -> the index of its text with {}
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

    def __init__(self, name: str | None, params: list[str], text: str, origin: Span, expression: bool,
                 group: str | None = None):
        self.name, self.params, self.origin = name, params, origin
        self.group = group or name           # programs whose parameters get the same values
        self.tree = _parsed(str(text), "expr_start" if expression else "start")
        self.fixed = set(params) - (_bound(self.tree) | _assigned(self.tree)) if self.tree is not None else set()


@lru_cache(maxsize=8192)
def _parsed(text: str, start: str) -> Tree | None:
    """The tree of *text* (positions relative to it), or None if it does not parse (the
    compiler reports that). Remembered: the same texts come back with every load."""
    try:
        return parse_effect(text, Span("", 1, 1), start)
    except ParseError:
        return None


class TypeChecker:
    def __init__(self, constants: dict[str, Any], attribute_values: dict[str, list], callables: dict[str, list[str]],
                 entity_kinds: dict[str, str] | None = None, attr_kinds: dict[str, frozenset] | None = None):
        self.constants = constants
        self.entity_kinds = entity_kinds or {}          # entity id -> its kind
        self.attr_kinds = attr_kinds or {}              # attribute -> the kinds that have it
        self.param_kinds: dict[tuple[str | None, str], frozenset] = {}   # (group, param) -> kinds it is
        self.needs: dict[tuple[str, int], tuple[frozenset, str, Span]] = {}   # what a parameter needs
        self.kind_names = set(self.entity_kinds.values()) | {k for ks in self.attr_kinds.values() for k in ks}
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
            if name in locals_:
                return self._param_type(name)
            if name in ("true", "false") and name not in self.constants:
                return BOOL
            if name in self.entity_kinds:
                return self.entity_kinds[name]
            if name not in self.constants:
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

    def _param_type(self, name: str) -> str | None:
        """The type of a parameter of the program being visited: the kind it surely is (or
        an entity of one of several kinds), if its attributes are read; else unknown."""
        program = self.program
        if program is None or name not in program.fixed:
            return None
        if name == "self" and program.name is None and str(program.group).startswith("deck "):
            return "card"   # a card's effect: self is the card
        kinds = self.param_kinds.get((program.group, name))
        if not kinds:
            return None
        return next(iter(kinds)) if len(kinds) == 1 else ENTITY

    def is_entity(self, found: str | None) -> bool:
        return found == ENTITY or found in self.kind_names

    # ---- what parameters are and need -----------------------------------------------------

    def learn_kinds(self, programs: list[_Program]) -> None:
        """Each parameter's kinds, from every attribute its group's programs read of it."""
        for program in programs:
            if program.tree is None:
                continue
            for param, attr, _ in _attribute_uses(program.tree, program.fixed):
                kinds = self.attr_kinds.get(attr)
                if kinds is None:
                    continue
                key = (program.group, param)
                self.param_kinds[key] = self.param_kinds.get(key, kinds) & kinds

    def learn_needs(self, program: _Program) -> None:
        """The kinds a function's or macro's parameter needs: those with every attribute read
        of it on the straight path, also through straight calls passing it on."""
        if program.tree is None or program.name is None:
            return
        for param, attr, node in _attribute_uses(program.tree, program.fixed, straight=True):
            kinds = self.attr_kinds.get(attr)
            if kinds is not None:
                self._need(program, param, kinds, f"{param}.{attr}", self._span(program, node))
        for node in _straight(program.tree):
            if node.data in ("call", "call_stmt") and str(node.children[0]) in self.callables \
                    and isinstance(node.children[1], Tree):
                for index, arg in enumerate(node.children[1].children):
                    need = self.needs.get((str(node.children[0]), index))
                    if need and isinstance(arg, Tree) and arg.data == "name" and str(arg.children[0]) in program.fixed:
                        self._need(program, str(arg.children[0]), need[0], need[1], need[2])

    def _need(self, program: _Program, param: str, kinds: frozenset, what: str, why: Span) -> None:
        if program.name is None:  # a card's or trigger's program: nothing calls it by name
            return
        key = (program.name, program.params.index(param))
        old = self.needs.get(key)
        if old is None or len(old[0] & kinds) < len(old[0]):
            merged = old[0] & kinds if old else kinds
            if merged:
                self.needs[key] = (merged, what, why)

    # ---- one pass over a program ---------------------------------------------------------

    program: _Program | None = None

    def visit(self, program: _Program, report: bool) -> None:
        if program.tree is None:
            return
        self.program = program
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
                if self._param_type(name) is None:
                    return
        found = self.type_of(tree, locals_)
        if report and (found in _BAD_FOR_INT or self.is_entity(found)):
            self.errors.append(CompileError(msg("{what} needs a number, not {found}", what=what, found=_a(found)),
                                            self._span(program, tree),
                                            msg("it is used as a number at {where}", where=why) if why else ""))

    def _node(self, node: Tree, program: _Program, locals_: set[str], report: bool) -> None:
        kind = node.data
        if kind == "sum_expr":
            operands, ops = node.children[0::2], {str(t) for t in node.children[1::2]}
            types = [self.type_of(o, locals_) for o in operands]
            if INT in types or "-" in ops:
                for operand in operands:
                    self._need_int(operand, program, locals_, None, msg("arithmetic"), report)
        elif kind == "aug_stmt":
            target, _, value = node.children
            if target.data == "target_attr" and self.attr_types.get(str(target.children[1])) == INT:
                attr = str(target.children[1])
                self._need_int(value, program, locals_, None, msg("adding to '{name}'", name=attr), report)
        elif kind == "assign_stmt":
            target, value = node.children
            if target.data == "target_attr" and self.attr_types.get(str(target.children[1])) == INT:
                attr = str(target.children[1])
                found = self.type_of(value, locals_)
                if report and found in _BAD_FOR_INT:
                    self.errors.append(CompileError(msg("'{name}' holds a number, not a {found}", name=attr, found=_TYPE_WORDS[found]),
                                                    self._span(program, value)))
        elif kind == "comparison" and len(node.children) == 3 and str(node.children[1]) in ("<", ">", "<=", ">="):
            sides = [node.children[0], node.children[2]]
            if INT in (self.type_of(sides[0], locals_), self.type_of(sides[1], locals_)):
                for side in sides:
                    self._need_int(side, program, locals_, None, msg("an order comparison with a number"), report)
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
                self._need_int(arg, program, locals_, None, msg("'{name}'", name=name), report)
        if name not in self.callables and report:
            self._builtin(name, args, program, locals_)
        if name not in self.callables or not isinstance(node.children[1], Tree):
            return
        params = self.callables[name]
        for index, arg in enumerate(node.children[1].children):
            if index >= len(params):
                continue
            kinds = self.needs.get((name, index))
            found = self.type_of(arg, locals_) if kinds else None
            if report and kinds and found in self.kind_names and found not in kinds[0]:
                ordered = sorted(kinds[0])
                wanted: str = ordered[0]
                for kind_name in ordered[1:]:
                    wanted = msg("{first} or {second}", first=wanted, second=kind_name)
                self.errors.append(CompileError(msg("'{name}' parameter '{param}' needs {wanted}, not {found}", name=name,
                                                    param=params[index], wanted=_a(wanted), found=_a(found)),
                                                self._span(program, arg),
                                                msg("it reads {what} at {where}", what=kinds[1], where=kinds[2])))
            need = self.expects.get((name, index))
            if need is None:
                continue
            self._need_int(arg, program, locals_, need[1], msg("'{name}' parameter '{param}'", name=name, param=params[index]),
                           report)

    def _builtin(self, name: str, args: list, program: _Program, locals_: set[str]) -> None:
        """A builtin given what surely fails: ``len`` of a number, a text with {} that do not
        match the values after it."""
        if name == "len" and len(args) == 1 and self.type_of(args[0], locals_) in (INT, BOOL):
            found = self.type_of(args[0], locals_)
            self.errors.append(CompileError(msg("'len' needs a list, a table or a text, not {found}", found=_a(found)),
                                            self._span(program, args[0])))
        at = _TEMPLATES.get(name)
        if at is None or len(args) <= at or not isinstance(args[at], Tree) or args[at].data != "string":
            return
        places, values = str(args[at].children[0])[1:-1].count("{}"), len(args) - at - 1
        if places != values:
            self.errors.append(CompileError(
                msg("'{name}': the text has {places} place for a value ({{}}) but {values} values follow",
                    name=name, places=places, values=values) if places == 1 else
                msg("'{name}': the text has {places} places for a value ({{}}) but {values} value follows",
                    name=name, places=places, values=values) if values == 1 else
                msg("'{name}': the text has {places} places for a value ({{}}) but {values} values follow",
                    name=name, places=places, values=values),
                self._span(program, args[at])))


def _a(word: str | None) -> str:
    if word in _A_TYPE:
        return _A_TYPE[word]
    return msg("an {word}", word=word) if word and word[0] in "aeiou" else msg("a {word}", word=word)


# A value's type with its article (the kinds of entity are the rule author's words), and the
# type's word alone.
_A_TYPE = {INT: msg("a number"), STR: msg("a text"), LIST: msg("a list"), DICT: msg("a table"),
           BOOL: msg("a true/false"), ENTITY: msg("an entity")}
_TYPE_WORDS = {INT: msg("number"), STR: msg("text"), LIST: msg("list"), DICT: msg("table"),
               BOOL: msg("true/false"), ENTITY: msg("entity")}



def _assigned(tree: Tree) -> set[str]:
    """Names a program gives another value (``x = ...``, ``x += ...``)."""
    return {str(node.children[0].children[0]) for node in tree.iter_subtrees()
            if node.data in ("assign_stmt", "aug_stmt") and node.children[0].data == "target_name"}


def _attribute_uses(tree: Tree, names: set[str], straight: bool = False) -> Iterable[tuple[str, str, Tree]]:
    """(name, attribute, node) for each ``name.attribute`` read or written, of these names
    (only on the straight path if *straight*)."""
    for node in (_straight(tree) if straight else tree.iter_subtrees()):
        if node.data in ("attr", "target_attr"):
            base = node.children[0]
            if isinstance(base, Tree) and base.data == "name" and str(base.children[0]) in names:
                yield str(base.children[0]), str(node.children[1]), node


def _straight(tree: Tree) -> Iterable[Tree]:
    """The nodes evaluated whenever the program runs to its end: not inside a branch, a loop
    body, a comprehension's element or condition, the right side of and/or, nor after an
    early return."""
    statements = tree.children if tree.data == "start" else [tree]
    for statement in statements:
        if not isinstance(statement, Tree):
            continue
        stack = [statement]
        while stack:
            node = stack.pop()
            if not isinstance(node, Tree):
                continue
            yield node
            kind = node.data
            if kind in ("if_stmt", "while_stmt", "repeat_stmt", "elif_clause"):
                stack.append(node.children[0])
            elif kind in ("for_stmt", "simultaneous_stmt"):
                stack.append(node.children[1])
            elif kind == "cond_expr":
                stack.append(node.children[1])
            elif kind in ("or_expr", "and_expr"):
                stack.append(node.children[0])
            elif kind == "comprehension":
                stack.append(node.children[2])
            elif kind not in ("suite", "else_clause"):
                stack.extend(node.children)
        if statement.data == "return_stmt" or any(n.data in ("return_stmt", "break_stmt")
                                                  for n in statement.iter_subtrees()):
            return


def _bound(tree: Tree) -> set[str]:
    """Names a program binds itself (let, for, choose, draw, comprehension)."""
    out = set()
    for node in tree.iter_subtrees():
        if node.data in ("let_stmt", "for_stmt", "draw_stmt", "comprehension", "multi_comprehension", "comp_for",
                         "simultaneous_stmt"):
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
    entity_kinds = {ident: str(record["kind"]) for ident, record in defs.entities.items()}
    entity_kinds.update({ident: "card" for ident in defs.cards})
    checker = TypeChecker(constants, values, callables, entity_kinds, _attr_kinds(defs))
    programs = [_Program(n, p, t, s, True, f"function {n}") for n, (p, t, s) in defs.functions.items()]
    programs += [_Program(n, p, t, s, False, f"macro {n}") for n, (p, t, s) in defs.macros.items()]
    for ident, (doc, _) in defs.cards.items():
        if ident in card_params and "effect" in doc:
            programs.append(_Program(None, card_params[ident], doc["effect"], doc.where("effect"), False,
                                     f"deck {doc.get('deck')}"))
    for node, _ in list(defs.triggers):
        match = SIGNATURE.match(str(node.get("on") or node.get("before") or node.get("instead") or ""))
        if "effect" in node and match:
            params = [p.strip() for p in (match.group(2) or "").split(",") if p.strip()] + ["self"]
            programs.append(_Program(None, params, node["effect"], node.where("effect"), False,
                                     f"trigger {len(programs)}"))
    checker.learn_kinds(programs)
    for _ in range(4):  # expectations and results flow through calls: a few rounds reach a fixpoint
        before = (len(checker.expects), len(checker.returns), sorted(map(str, checker.needs.values())))
        for program in programs:
            checker.visit(program, report=False)
            checker.learn_needs(program)
            if program.name is not None and program.name in defs.functions and program.tree is not None:
                found = checker.type_of(_expression(program.tree), set(program.params))
                if found:
                    checker.returns[program.name] = found
        if (len(checker.expects), len(checker.returns), sorted(map(str, checker.needs.values()))) == before:
            break
    for program in programs:
        checker.visit(program, report=True)
    return _unique(checker.errors)


def _attr_kinds(defs) -> dict[str, frozenset]:
    """Each attribute and the kinds of entity that have it (declared, or in an entity's
    record); those every entity has say nothing."""
    found: dict[str, set[str]] = {}
    for kind, attrs in defs.kinds.items():
        for attr in attrs:
            found.setdefault(attr, set()).add(kind)
    records = [(str(r["kind"]), r) for r in defs.entities.values()]
    records += [("card", doc.get("attributes", {}) or {}) for doc, _ in defs.cards.values()]
    for kind, record in records:
        for attr in record:
            found.setdefault(str(attr), set()).add(kind)
    for attr in ("kind", "id", "name", "deck", "q", "r"):
        found.pop(attr, None)
    return {attr: frozenset(kinds) for attr, kinds in found.items()}


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
