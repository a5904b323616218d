"""Simple comprehensions as Python comprehensions (see ``ExpressionWriter.x_comprehension``),
and comprehensions with several ``for``s as nested loops (:func:`nested_loops`).

A comprehension whose element and test are simple is first run as a Python list
comprehension that reads attributes straight from the entity records; the writer's
careful loop, which raises the machine's own error, runs only when that fails.
"""
from __future__ import annotations

from typing import cast

from lark import Tree

from ..expressions import comprehension_clauses
from .writer import RELATIONS, ident


def quick(writer, tree, names: dict[str, str], var: str, truth: bool = False) -> str | None:
    """A comprehension's element or test as one Python expression, when it is simple:
    literals and list literals, names (a rule-local one read before the loop), attributes
    of the loop's item (read directly: a missing one raises KeyError or TypeError), one
    comparison, membership, not (and, or where only tested). None when it is not so simple."""
    if not isinstance(tree, Tree):
        return None
    kind, parts = tree.data, tree.children
    if kind == "number":
        return writer.x_number(tree, names)
    if kind == "string":
        return writer.x_string(tree, names)
    if kind == "name":
        name = str(parts[0])
        if name in names:
            return names[name]
        if name in writer.locals:  # read before the comprehension, in its try (an unset one
            return writer.x_name(tree, names)  # raises KeyError: the loop then says so, if it reads it)
        return writer.x_name(tree, names) if name in writer.compiler.constants else None
    if kind == "list_lit":
        items = [quick(writer, item, names, var) for item in (parts[0].children if parts[0] is not None else [])]
        return None if None in items else "[" + ", ".join(cast("list[str]", items)) + "]"
    if kind == "attr":
        item = parts[0]
        if isinstance(item, Tree) and item.data == "name" and names.get(str(item.children[0])) == var:
            return f"ent[{var}][{ident(str(parts[1]))}]"
        return None
    if kind == "comparison" and len(parts) == 3 and str(parts[1]) in RELATIONS:
        left, right = quick(writer, parts[0], names, var), quick(writer, parts[2], names, var)
        op = str(parts[1])
        if left is None or right is None:
            return None
        if op in ("==", "!=") and "None" in (left, right):
            op = "is" if op == "==" else "is not"
        return f"({left} {op} {right})"
    if kind in ("in_op", "not_in_op"):
        # searching a list costs work per item (see _Writer._membership): a list literal is
        # short, a name's list is the same for each item (paid before the loop), others
        # (an attribute of the item) take the writer's loop
        box_tree = parts[-1]
        invariant = isinstance(box_tree, Tree) and box_tree.data == "name" \
            and names.get(str(box_tree.children[0])) != var
        if not (isinstance(box_tree, Tree) and box_tree.data == "list_lit" or invariant):
            return None
        item, box = quick(writer, parts[0], names, var), quick(writer, parts[-1], names, var)
        if invariant and box is not None:
            writer.searched.append(box)
        op = "in" if kind == "in_op" else "not in"
        return None if item is None or box is None else f"({item} {op} {box})"
    if kind == "not_op":
        inner = quick(writer, parts[0], names, var, truth=True)
        return None if inner is None else f"(not {inner})"
    if truth and kind in ("and_expr", "or_expr"):
        tests = [quick(writer, part, names, var, truth=True) for part in parts]
        joiner = " and " if kind == "and_expr" else " or "
        return None if None in tests else "(" + joiner.join(cast("list[str]", tests)) + ")"
    return None


def nested_loops(self, tree, names):
    """Nested loops, one per 'for' (and an 'if' inside each), as the closure runs them."""
    clauses, elt_tree = comprehension_clauses(tree)
    out, append = self.tmp(), self.tmp()
    self.emit(f"{out} = []")
    self.emit(f"{append} = {out}.append")
    depth, opened, inner = self.depth, 0, dict(names)
    try:
        for name, source_tree, cond_tree in clauses:
            source = self.expr(source_tree, inner)
            self.charge(f"len({source})")  # one unit of work per item, as limits.charge
            var = self.tmp()
            self.loops.append([len(self.lines), self.depth, var, self.count, {}])
            opened += 1
            self.emit(f"for {var} in {source}:")
            self.depth += 1
            inner = dict(inner, **{name: var})
            if cond_tree is not None:
                self.emit(f"if {self.test(cond_tree, inner)}:")
                self.depth += 1
        self.emit(f"{append}({self.expr(elt_tree, inner)})")
    finally:
        del self.loops[len(self.loops) - opened:]
        self.depth = depth
    return out
