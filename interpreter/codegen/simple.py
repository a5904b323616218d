"""Generated code for simple statements: ``let``, assignment, ``+=``/``-=``, verbs,
``draw`` and ``shuffle``.

Statement code (:mod:`.statements`) writes each simple statement straight into
its generated function instead of calling the statement's closure: the expressions are
lowered by the expression writer (:mod:`.expressions`), and the statement does what its
closure (:mod:`..compiler`) does, in the same order and with the same checks: a value
stored or bound is checked against the limits (``keep``), an attribute is set in the
entity's record (``rt.set_attr`` says what is wrong otherwise), a map entry goes through
``store_index``. The generated function expects ``rt``, ``env``, ``ent`` (``rt.ent``)
and ``lim`` (``rt.limits``) in its locals. A shape the writer does not know leaves the
statement to its closure.
"""
from __future__ import annotations

from lark import Tree

from ..builtins import VERBS
from ..compiler import keep, store_index, target_as_expr
from ..limits import SMALL, check_value
from .writer import RELATIONS, Unsupported, ident

SIMPLE_HELPERS = {"_keep": keep, "_check": check_value, "_store_index": store_index}


def lower(writer, stmt) -> bool:
    """Write the code of a simple statement; False (and nothing written) if not handled."""
    tree = stmt.tree
    handler = _HANDLERS.get(tree.data) if isinstance(tree, Tree) else None
    if handler is None:
        return False
    mark, depth, saved = len(writer.lines), writer.depth, writer.locals
    writer.locals = stmt.names
    try:
        handler(writer, tree)
        return True
    except Unsupported:
        del writer.lines[mark:]
        writer.depth = depth
        return False
    finally:
        writer.locals = saved


_TRUTHS = {"not_op", "in_op", "not_in_op", "or_expr", "and_expr"}


def _kept(w, tree: Tree) -> str:
    """The value of an expression about to be stored, as ``keep`` makes it: a true/false
    needs no check, a list the expression has just made needs no copy."""
    value = w.expr(tree, {})
    if tree.data in _TRUTHS or (tree.data == "comparison" and
                                all(str(op) in RELATIONS for op in tree.children[1::2])):
        return value
    if value in ("None", "True", "False"):  # keep gives these back as they are
        return value
    kept = w.tmp()
    if tree.data in ("comprehension", "list_lit"):  # check_value's own test for a list, first
        w.emit(f"{kept} = {value} if len({value}) <= lim.sequence else _check(lim, {value})")
    elif value.lstrip("-").isdigit():  # a literal number
        w.emit(f"{kept} = _keep(lim, {value})")
    else:  # keep's own tests for a short text (the commonest: an entity, a word) and a small number, first
        w.emit(f"{kept} = {value} if {value}.__class__ is str and len({value}) <= lim.text or "
               f"{value}.__class__ is int and {-SMALL} < {value} < {SMALL} and lim.number_digits > 6 "
               f"else _keep(lim, {value})")
    return kept


def _let(w, tree: Tree) -> None:
    value = _kept(w, tree.children[1])
    w.bind(str(tree.children[0]), value)


def _assign(w, tree: Tree) -> None:
    _store(w, tree.children[0], _kept(w, tree.children[1]))


def _aug(w, tree: Tree) -> None:
    target, op, value_tree = tree.children
    old = w.expr(target_as_expr(target), {})
    value = w.expr(value_tree, {})
    out = w.tmp()
    w.emit(f"{out} = {old} {'+' if str(op) == '+=' else '-'} {value}")
    w.emit(f"if not ({out}.__class__ is int and {-SMALL} < {out} < {SMALL} and lim.number_digits > 6):")
    w.emit(f"    {out} = _check(lim, {out})  # check_value's own test for a small number, first")
    _store(w, target, out)


def _store(w, target: Tree, value: str) -> None:
    """``target = value``, the target's parts evaluated after the value (as the closure)."""
    if target.data == "target_name":
        w.bind(str(target.children[0]), value)
    elif target.data == "target_attr":
        obj, attr = w.expr(target.children[0], {}), ident(str(target.children[1]))
        record = w.tmp()
        w.emit(f"{record} = ent.get({obj}) if {obj}.__class__ is str else None")  # else set_attr decides
        w.emit(f"if {record} is not None and {attr} in {record}:")
        w.emit(f"    {record}[{attr}] = {value}")
        w.emit("else:")
        w.emit(f"    rt.set_attr({obj}, {attr}, {value})")  # says what is wrong
    elif target.data == "target_index":
        box, key = w.expr(target.children[0], {}), w.expr(target.children[1], {})
        w.emit(f"_store_index(rt, {box}, {key}, {value})")
    else:  # pragma: no cover - the grammar has no other targets
        raise Unsupported(target.data)


def _verb(w, tree: Tree) -> None:
    name, args_tree = tree.children
    builtin = VERBS.get(str(name))
    if builtin is None:  # pragma: no cover - macro calls are not simple statements
        raise Unsupported(str(name))
    args = [w.expr(a, {}) for a in (args_tree.children if args_tree is not None else [])]
    if builtin.fn is VERBS["log"].fn:  # which does nothing without the log
        w.emit("if rt.keep_log:")
        w.depth += 1
    w.emit(f"{w.const(builtin.fn)}(rt{''.join(', ' + a for a in args)})")
    w.depth -= builtin.fn is VERBS["log"].fn


def _draw(w, tree: Tree) -> None:
    source = w.expr(target_as_expr(tree.children[1]), {})
    drawn = w.tmp()
    w.emit(f"{drawn} = rt.draw({source})")
    w.bind(str(tree.children[0]), drawn)


def _shuffle(w, tree: Tree) -> None:
    w.emit(f"rt.shuffle({w.expr(target_as_expr(tree.children[0]), {})})")


_HANDLERS = {"let_stmt": _let, "assign_stmt": _assign, "aug_stmt": _aug, "call_stmt": _verb,
             "draw_stmt": _draw, "shuffle_stmt": _shuffle}
