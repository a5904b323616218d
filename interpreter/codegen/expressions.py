"""Generated Python code for compiled expressions (one function per expression).

The closure compiler (:mod:`..expressions`) checks an expression and builds closures;
when it found no mistake, this module turns the same parse tree into the source of
one Python function ``fn(rt, env)`` that computes the same value with the same
exceptions, and compiles it once with ``compile()``. Sub-expressions become local
temporaries (no call per node), comprehensions become loops, attribute reads become
dictionary lookups with the machine's own message on failure.

No text of a rule file ever becomes code: every value (numbers, texts, symbols,
tables, functions, builtins) is passed in the generated function's globals as
``C_i`` (one name per constant: a global read, not a subscript); the only names
written into the source are validated identifiers (local names and attribute names,
which the grammar restricts to ``[A-Za-z_][A-Za-z0-9_]*``) through ``repr`` and the
generator's own temporaries. Set ``SPECIATION_CODEGEN=0``
to run the closures instead (the tests compare both).
"""
from __future__ import annotations

import re
from typing import Any

from lark import Token, Tree

from ...dsl.walker import EXPRESSION_KINDS, TreeWalker
from .. import builtins
from ..builtins import FUNCTIONS
from ..expressions import string_literal
from ..limits import SEARCHED
from . import writer
from .quick import nested_loops, quick
from .writer import HELPERS, RELATIONS, Unsupported, constants, ident

_TEMPORARY = re.compile(r"t(\d+)\Z")  # the writer's temporaries (see tmp)
_OPS = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">=", "+": "+", "-": "-",
        "//": "//", "%": "%"}
# builtins that, given at least so many arguments, do no more than Python's own function (the
# same value, the same exceptions): called directly
_DIRECT = {builtins.len_: (1, "len({})"), builtins.max_: (2, "max({})"), builtins.min_: (2, "min({})"),
           builtins.sum_: (1, "sum({})"), builtins.any_: (1, "any({})"), builtins.all_: (1, "all({})"),
           builtins.abs_: (1, "abs({})"), builtins.count: (2, "{0}.count({1})"),
           builtins.first: (1, "{0}[0] if {0} else None"), builtins.last: (1, "{0}[-1] if {0} else None")}
# builtins whose value keeps nothing of their arguments (see consumed)
_LOOKS = {builtins.len_, builtins.count, builtins.sum_, builtins.any_, builtins.all_, builtins.index_of}
INLINE_NODES = 16  # a rule function this small (parse-tree nodes, no comprehension) is inlined


class ExpressionWriter(TreeWalker):
    """Lowers one expression tree into statements on temporaries (a handler ``x_<kind>`` per
    node kind of an expression)."""

    families = {"x_": EXPRESSION_KINDS}

    def __init__(self, compiler, locals_: set[str]):
        self.compiler = compiler
        self.constants: list[Any] = []
        self.lines: list[str] = []
        self.depth = 1
        self.count = 0
        self.locals = locals_
        # rule functions being inlined (None: no inlining, as when expressions are compiled,
        # before the ruleset knows which functions are modified or static)
        self.inlining: list[str] | None = None
        self.records: dict[str, str] = {}  # a local's code -> its entity record's (see fetch)
        # rule-local names as Python locals (a statements.Space, not imported here: statements
        # imports this module); None: in env
        self.space: Any = None
        # comprehensions around: [line of the loop, depth, its variable, temporaries made before it,
        # reads done once]
        self.loops: list[list] = []
        self.dict_flags: dict[str, str] = {}  # a value read once -> whether it is a map (see x_index)
        # In one expression's code nothing changes the state: a rule function without arguments
        # called where every later line runs after it (at share_depth, outside loops) has a
        # value that later calls of it share, as a remembered value is shared. (Not in
        # statement code, whose statements change the state: share_depth None there.)
        self.shared: dict[str, str] = {}
        self.share_depth: int | None = None

    def const(self, value: Any) -> str:
        for i, known in enumerate(self.constants):
            if known is value:
                return f"C_{i}"
        self.constants.append(value)
        return f"C_{len(self.constants) - 1}"

    def tmp(self) -> str:
        self.count += 1
        return f"t{self.count}"

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def value(self, fn, truth: bool = False) -> str:
        """The value of a compiled expression in code: its own code inlined when it was
        generated (it has its tree and local names), else a call of it. *truth*: only
        tested for truth."""
        tree = getattr(fn, "tree", None)
        if tree is not None:
            saved, mark, depth = self.locals, len(self.lines), self.depth
            self.locals = fn.names
            try:
                return self.test(tree, {}) if truth else self.expr(tree, {})
            except Unsupported:  # pragma: no cover - it was generated once already
                del self.lines[mark:]
                self.depth = depth
            finally:
                self.locals = saved
        if self.space is not None:  # the closure reads its names from env
            raise Unsupported("env")
        out = self.tmp()
        self.emit(f"{out} = {self.const(fn)}(rt, env)")
        return out

    def bind(self, name: str, value: str) -> None:
        """A rule-local name gets a value (in env, or as a Python local)."""
        if self.space is not None:
            self.space.bind(self, name, value)
        else:
            self.emit(f"env[{ident(name)}] = {value}")

    # ---- expressions: each returns a Python expression that is cheap to repeat --------

    def expr(self, tree: Tree, names: dict[str, str]) -> str:
        handler = self.handler("x_", tree.data)
        if handler is None:
            raise Unsupported(tree.data)
        return handler(self, tree, names)

    def x_number(self, tree, names):
        return repr(int(tree.children[0]))

    def x_string(self, tree, names):
        return self.const(string_literal(tree.children[0]))

    def x_name(self, tree, names):
        name = str(tree.children[0])
        if name in names:
            return names[name]
        if name in self.locals:
            if self.space is not None:
                return self.space.read(self, name)
            out = self.tmp()
            self.emit(f"{out} = env[{ident(name)}]")
            return out
        if name in self.compiler.constants:
            value = self.compiler.constants[name]
            return repr(value) if value is None or type(value) in (bool, int) else self.const(value)
        raise Unsupported(name)

    def x_list_lit(self, tree, names):
        args = tree.children[0]
        items = [self.expr(a, names) for a in (args.children if args is not None else [])]
        out = self.tmp()
        self.emit(f"{out} = [{', '.join(items)}]")
        return out

    def x_comprehension(self, tree, names):
        elt_tree, name, source_tree, cond_tree = tree.children
        source = self.expr(source_tree, names)
        out, var, append = self.tmp(), self.tmp(), self.tmp()
        inner = dict(names, **{str(name): var})
        self.charge(f"len({source})")  # one unit of work per item, as limits.charge
        mark = len(self.lines)
        self.depth += 1  # (the reads of rule-local names it needs: in the try below)
        self.searched = []  # lists the same for every item that quick's code searches with `in`
        elt = quick(self, elt_tree, inner, var)
        keep = quick(self, cond_tree, inner, var, truth=True) if cond_tree is not None else ""
        for box in self.searched:  # at most one search of each per item: paid before
            self.charge(f"len({box}) * len({source})", f"{box}.__class__ is list and len({box}) > {SEARCHED}")
        self.depth -= 1
        reads = self.lines[mark:]
        del self.lines[mark:]
        fast = elt is not None and keep is not None
        if fast:  # a Python comprehension, and the loop below (it raises the right error) if it fails
            self.emit("try:")
            self.lines += reads
            self.emit(f"    {out} = [{elt} for {var} in {source}{' if ' + keep if keep else ''}]")
            self.emit("except (KeyError, TypeError):")
            self.depth += 1
        self.emit(f"{out} = []")
        self.emit(f"{append} = {out}.append")
        self.loops.append([len(self.lines), self.depth, var, self.count, {}])
        self.emit(f"for {var} in {source}:")
        self.depth += 1
        try:
            if attribute_reads([elt_tree, cond_tree], str(name)) >= 2:
                self.fetch(var)
            if cond_tree is not None:
                test = self.test(cond_tree, inner)
                self.emit(f"if {test}:")
                self.depth += 1
            self.emit(f"{append}({self.expr(elt_tree, inner)})")
        finally:
            self.loops.pop()
        self.depth -= 2 if cond_tree is not None else 1
        if fast:
            self.depth -= 1
        return out

    x_multi_comprehension = nested_loops  # [e for a in xs if c for b in ys ...] (quick.py)

    def charge(self, units: str = "1", when: str = "") -> None:
        """Pay *units* of work (only *when* it holds, if given)."""
        if when:
            self.emit(f"if {when}:")
        prefix = "    " if when else ""
        self.emit(f"{prefix}meter.left -= {units}")
        self.emit(f"{prefix}if meter.left < meter.next_check:")
        self.emit(f"{prefix}    meter.check()")

    def fetch(self, local: str) -> None:
        """Look up once the record of the entity a local names (None if it names none):
        its attributes are then read from it (see x_attr)."""
        record = self.records[local] = self.tmp()
        self.emit("try:")
        self.emit(f"    {record} = ent.get({local})")
        self.emit("except TypeError:  # not an entity (a list): reading an attribute says so")
        self.emit(f"    {record} = None")

    def x_attr(self, tree, names):
        obj, attr = self.expr(tree.children[0], names), ident(str(tree.children[1]))
        record = self.records.get(obj, f"ent[{obj}]")

        def read(out):
            self.emit("try:")
            self.emit(f"    {out} = {record}[{attr}]")
            self.emit("except (KeyError, TypeError):")
            self.emit(f"    {out} = rt.get_attr({obj}, {attr})")
        if self.invariant(tree.children[0], obj):
            return self.once(("attr", obj, attr), read, is_map=True)
        out = self.tmp()
        read(out)
        return out

    def invariant(self, tree, code: str) -> bool:
        """Inside a comprehension: is this name or literal the same for every item (neither
        the comprehension's variable nor computed inside it)?"""
        if not self.loops or not isinstance(tree, Tree) or tree.data not in ("name", "number", "string"):
            return False
        _, _, var, made, _ = self.loops[-1]
        temporary = _TEMPORARY.match(code)
        return not (code == var or (temporary and int(temporary[1]) > made))

    def once(self, key: tuple, write, is_map: bool = False) -> str:
        """A value the same for every item of the innermost comprehension: computed by
        *write* at its first use in the loop (so an error is raised where it was), then kept
        (with whether it is a map, for x_index)."""
        line, depth, _, _, table = self.loops[-1]
        if key not in table:
            out = table[key] = self.tmp()
            self.lines.insert(line, "    " * depth + f"{out} = _MISS")
            if is_map:
                self.dict_flags[out] = self.tmp()
        out = table[key]
        self.emit(f"if {out} is _MISS:")
        self.depth += 1
        write(out)
        if out in self.dict_flags:
            self.emit(f"{self.dict_flags[out]} = isinstance({out}, dict)")
        self.depth -= 1
        return out

    def consumed(self, tree, names) -> str:
        """An argument whose value is only looked at (never kept in a result): a rule
        function's value, when its arguments are the same for every item of the innermost
        comprehension, is computed once there (rule functions are pure)."""
        if not (self.loops and isinstance(tree, Tree) and tree.data == "call"
                and str(tree.children[0]) in self.compiler.functions):
            return self.expr(tree, names)
        arg_trees = tree.children[1].children if tree.children[1] is not None else []
        args = [self.expr(a, names) for a in arg_trees]
        if not all(self.invariant(a, code) for a, code in zip(arg_trees, args)):
            return self.call_code(str(tree.children[0]), args)
        return self.once(("call", str(tree.children[0]), *args),
                         lambda out: self.emit(f"{out} = {self.call_code(str(tree.children[0]), args)}"))

    def x_index(self, tree, names):
        box, key = self.expr(tree.children[0], names), self.expr(tree.children[1], names)
        out = self.tmp()
        is_map = self.dict_flags.get(box, f"isinstance({box}, dict)")
        self.emit(f"{out} = {box}.get({key}, 0) if {is_map} else {box}[{key}]")
        return out

    def x_call(self, tree, names):
        name, args_tree = str(tree.children[0]), tree.children[1]
        arg_trees = args_tree.children if args_tree is not None else []
        looks = name in FUNCTIONS and FUNCTIONS[name].fn in _LOOKS and name not in self.compiler.functions
        return self.call_code(name, [self.consumed(a, names) if looks else self.expr(a, names) for a in arg_trees])

    def call_code(self, name: str, args: list[str]) -> str:
        out = self.tmp()
        if name in self.compiler.functions:
            function = self.compiler.functions[name]
            if self.inlining is not None and name not in self.inlining and len(self.inlining) < 3 \
                    and _small(function):
                return self._inline(function, args)
            if not args and name in self.shared:
                return self.shared[name]
            call = self.const(function)
            self.emit(f"{out} = {call}.fast(rt{''.join(', ' + a for a in args)})")
            if not args and self.share_depth == self.depth and not self.loops:
                self.shared[name] = out
        elif name in FUNCTIONS:
            if FUNCTIONS[name].fn is builtins.range_:
                return self._range(out, ["0", *args] if len(args) == 1 else args)
            least, code = _DIRECT.get(FUNCTIONS[name].fn, (None, ""))
            if least is not None and len(args) >= least:  # the builtin's own code, no call
                self.emit(f"{out} = {code.format(*args) if '{0}' in code else code.format(', '.join(args))}")
            else:
                self.emit(f"{out} = {self.const(FUNCTIONS[name].fn)}(rt{''.join(', ' + a for a in args)})")
        else:
            raise Unsupported(name)
        return out

    def _range(self, out: str, bounds: list[str]) -> str:
        """``range``'s own code (builtins.range_): the size checked, then the list."""
        size = self.tmp()
        self.emit(f"{size} = {bounds[1]} - {bounds[0]}")
        self.emit(f"if {size} > rt.limits.sequence:")
        self.emit(f"    _check_sequence(rt.limits, {size}, 'a range')")
        self.charge(size, f"{size} > 0")  # one unit of work per item made, as builtins.range_
        self.emit(f"{out} = list(range({bounds[0]}, {bounds[1]}))")
        return out

    def _inline(self, function, args: list[str]) -> str:
        """A small rule function's body as code, its parameters bound to the arguments
        (no memo: computing it costs less than looking it up); an error passing through
        names the function, as a call would."""
        assert self.inlining is not None  # the caller inlines only where inlining is on
        out = self.tmp()
        self.emit("try:")
        self.depth += 1
        self.inlining.append(function.name)
        saved, self.locals = self.locals, set()  # the body sees its parameters only
        try:
            value = self.expr(function.expr.tree, dict(zip(function.params, args)))
        finally:
            self.inlining.pop()
            self.locals = saved
        self.emit(f"{out} = {value}")
        self.depth -= 1
        self.emit("except Exception as exc:")
        self.emit(f"    _note(exc, {self.const(function)})")
        self.emit("    raise")
        return out

    def _unary(self, tree, names, op):
        inner = self.expr(tree.children[0], names)
        out = self.tmp()
        self.emit(f"{out} = {op}{inner}")
        return out

    def x_neg(self, tree, names):
        return self._unary(tree, names, "-")

    def x_not_op(self, tree, names):
        inner = self.test(tree.children[0], names)
        out = self.tmp()
        self.emit(f"{out} = not {inner}")
        return out

    def _membership(self, item_tree, box_tree, names, op):
        item = self.expr(item_tree, names)
        box = self.consumed(box_tree, names)
        out = self.tmp()
        if self.loops:  # in a comprehension, a long list searched pays per item (limits.SEARCHED)
            self.charge(f"len({box})", f"{box}.__class__ is list and len({box}) > {SEARCHED}")
        self.emit(f"{out} = {item} {op} {box}")
        return out

    def x_in_op(self, tree, names):
        return self._membership(tree.children[0], tree.children[1], names, "in")

    def x_not_in_op(self, tree, names):
        return self._membership(tree.children[0], tree.children[2], names, "not in")

    def x_cond_expr(self, tree, names):
        then, test, other = tree.children
        out = self.tmp()
        self.emit(f"if {self.test(test, names)}:")
        self._branch(out, then, names)
        self.emit("else:")
        self._branch(out, other, names)
        return out

    def _branch(self, out, tree, names):
        self.depth += 1
        self.emit(f"{out} = {self.expr(tree, names)}")
        self.depth -= 1

    def test(self, tree: Tree | Token, names: dict[str, str]) -> str:
        """An expression whose value is only tested for truth (no bool() needed)."""
        if isinstance(tree, Tree) and tree.data in ("or_expr", "and_expr"):
            return self._connective(tree, names, tree.data == "or_expr", truth=True)
        return self.consumed(tree, names)  # (a value only tested is kept nowhere)

    def _connective(self, tree, names, negate, truth=False):
        out = self.tmp()
        parts = list(tree.children)  # each only tested, or made true/false at the end
        self.emit(f"{out} = {self.test(parts[0], names)}")
        for part in parts[1:]:  # one flat `if` per term (once decided, every later test fails)
            self.emit(f"if {'not ' if negate else ''}{out}:")
            self.depth += 1
            self.emit(f"{out} = {self.test(part, names)}")
            self.depth -= 1
        if not truth:
            self.emit(f"{out} = bool({out})")
        return out

    def x_or_expr(self, tree, names):
        return self._connective(tree, names, negate=True)

    def x_and_expr(self, tree, names):
        return self._connective(tree, names, negate=False)

    def x_comparison(self, tree, names):
        ops = [str(op) for op in tree.children[1::2]]
        operand = self.consumed if all(op in RELATIONS for op in ops) else self.expr  # compared only
        value = operand(tree.children[0], names)
        for op, operand_tree in zip(tree.children[1::2], tree.children[2::2]):
            right = operand(operand_tree, names)
            out = self.tmp()
            if str(op) == "*":
                self.emit(f"{out} = _mul(rt.limits, {value}, {right})")
            elif str(op) in ("==", "!=") and "None" in (value, right):  # no value equals none but none
                self.emit(f"{out} = {value} {'is' if str(op) == '==' else 'is not'} {right}")
            else:
                self.emit(f"{out} = {value} {_OPS[str(op)]} {right}")
            value = out
        return value

    x_sum_expr = x_product = x_comparison


def attribute_reads(trees: list, name: str, weight: int = 1) -> int:
    """How many attribute reads on the name the trees hold (a cost estimate: a read inside
    a comprehension counts twice, as it is done for each item)."""
    count = 0
    for tree in trees:
        if not isinstance(tree, Tree):
            continue
        if tree.data == "attr" and isinstance(tree.children[0], Tree) and tree.children[0].data == "name" \
                and str(tree.children[0].children[0]) == name:
            count += weight
        inner = 2 if tree.data == "comprehension" else weight
        count += attribute_reads(tree.children, name, inner)
    return count


def _small(function) -> bool:
    """Inlined where it is called: a small body without comprehensions, neither static
    (remembered all game) nor modified (its modifiers run at each call)."""
    tree = getattr(function.expr, "tree", None)
    if tree is None or function.static or function.modified:
        return False
    nodes = list(tree.iter_subtrees())
    return len(nodes) <= INLINE_NODES and not any(t.data == "comprehension" for t in nodes)


def generate(compiler, tree: Tree, scope_names: set[str]):
    """A compiled function ``fn(rt, env)`` for *tree*, or None for a shape not handled."""
    if not writer.ENABLED:
        return None
    lowering = ExpressionWriter(compiler, set(scope_names))
    lowering.share_depth = lowering.depth
    try:
        result = lowering.expr(tree, {})
    except Unsupported:
        return None
    body = "\n".join(lowering.lines)
    source = f"def _expr(rt, env):\n    ent, meter = rt.ent, rt.meter\n{body}\n    return {result}\n"
    namespace = dict(HELPERS, **constants(lowering))
    fn = writer.load_function(source, "<speciation expression>", namespace, "_expr")
    if fn is None:  # nested past Python's limits: the closure is kept
        return None
    fn.tree = tree  # a rule function's body is generated again with its parameters as locals
    fn.names = frozenset(scope_names)  # and statement code inlines it (statements.py)
    return fn

