"""The node kinds of an effect's parse tree, and the base of every walker over them.

``grammar/effects.lark`` makes a tree whose nodes are named by the kinds below
(``tests/test_compiler.py`` checks that the grammar makes no other). A walker (the
closure compiler, the statement compiler, the code writer) names its handler of a
kind ``<family prefix><kind>`` (``e_name``, ``s_let_stmt``, ``x_call``) and finds it
through one table, built once per class: a handler named after no kind is an error
when the class is made, not a method that is silently never called.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

EXPRESSION_KINDS = frozenset({
    "number", "string", "name", "list_lit", "comprehension", "multi_comprehension", "attr", "index", "call", "neg",
    "not_op", "in_op", "not_in_op", "cond_expr", "or_expr", "and_expr", "comparison", "sum_expr",
    "product"})
STATEMENT_KINDS = frozenset({
    "let_stmt", "assign_stmt", "aug_stmt", "choose_stmt", "draw_stmt", "shuffle_stmt", "call_stmt",
    "emit_stmt", "perform_stmt", "break_stmt", "return_stmt", "pass_stmt", "if_stmt", "for_stmt",
    "while_stmt", "repeat_stmt", "settle_stmt", "reveal_stmt", "hide_stmt", "emit_block", "prevention_stmt",
    "stop_stmt", "simultaneous_stmt"})
NODE_KINDS = EXPRESSION_KINDS | STATEMENT_KINDS


class TreeWalker:
    """A walker over parse trees: ``families`` maps each handler prefix to the node kinds
    it handles (``{"e_": EXPRESSION_KINDS}``); :meth:`handler` looks a node's handler up."""

    families: dict[str, frozenset[str]] = {}
    tables: dict[str, dict[str, Callable[..., Any]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        tables: dict[str, dict[str, Callable[..., Any]]] = {}
        for prefix, kinds in cls.families.items():
            stray = [n for n in dir(cls) if n.startswith(prefix) and n[len(prefix):] not in kinds]
            if stray:
                raise TypeError(f"{cls.__name__}: {', '.join(stray)} name no node kind")
            tables[prefix] = {kind: getattr(cls, prefix + kind) for kind in kinds if hasattr(cls, prefix + kind)}
        cls.tables = tables

    def handler(self, prefix: str, kind: str) -> Callable[..., Any] | None:
        """The (unbound) handler of a node kind in a family, or None: call it with self."""
        return self.tables[prefix].get(kind)
