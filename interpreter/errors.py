"""Runtime errors in the author's words, with the chain of calls that led to them.

Computed only when an error happens: the chain is read from the frame stack (each
macro call, ``perform`` and ``emit`` in progress, outermost first) and from the rule
functions the error passed through (each adds itself on the way out).
"""
from __future__ import annotations

import re
from typing import Any

from ..dsl import graph as g

_WORDS = {"int": "a number", "bool": "true/false", "str": "a text", "list": "a list", "dict": "a map",
          "NoneType": "none", "tuple": "a list", "float": "a number"}
_TYPE = r"'?(\w+)'?"
_PATTERNS = [
    (re.compile(rf"unsupported operand type\(s\) for ([^:]+): {_TYPE} and {_TYPE}"),
     lambda m: f"cannot use {m[1]} on {_w(m[2])} and {_w(m[3])}"),
    (re.compile(r'can only concatenate (\w+) \(not "(\w+)"\) to \w+'),
     lambda m: f"cannot use + on {_w(m[1])} and {_w(m[2])}"),
    (re.compile(rf"'([<>=!]+)' not supported between instances of {_TYPE} and {_TYPE}"),
     lambda m: f"cannot compare {_w(m[2])} with {_w(m[3])} ({m[1]})"),
    (re.compile(rf"bad operand type for unary (.): {_TYPE}"), lambda m: f"cannot use {m[1]} on {_w(m[2])}"),
    (re.compile(rf"{_TYPE} object is not subscriptable"), lambda m: f"{_w(m[1])} has no items to index"),
    (re.compile(rf"{_TYPE} object is not iterable"), lambda m: f"{_w(m[1])} is not a list"),
    (re.compile(rf"object of type {_TYPE} has no len\(\)"), lambda m: f"{_w(m[1])} has no length"),
    (re.compile(rf"unhashable type: {_TYPE}"), lambda m: f"{_w(m[1])} cannot be a map key"),
    (re.compile(rf"list indices must be integers or slices, not {_TYPE}"),
     lambda m: f"a list position must be a number, not {_w(m[1])}"),
    (re.compile(rf"{_TYPE} object cannot be interpreted as an integer"), lambda m: f"{_w(m[1])} is not a number"),
    (re.compile(r"(integer division|integer modulo|division|modulo)( or modulo)? by zero"),
     lambda m: "division by zero"),
]


def _w(name: str) -> str:
    return _WORDS.get(name, name)


def in_authors_words(exc: BaseException) -> str:
    """The message of an exception raised while running rules, in the rule author's words."""
    if isinstance(exc, KeyError):
        return f"{exc.args[0]!r} has no value here (a name used before 'let', or a missing key)"
    if isinstance(exc, RecursionError):
        return "rule functions call each other too deep (a function that calls itself without end?)"
    if isinstance(exc, MemoryError):
        return "the rules ran out of memory (a runaway computation?)"
    text = str(exc) or type(exc).__name__
    if isinstance(exc, (TypeError, ZeroDivisionError, ValueError)):
        for pattern, words in _PATTERNS:
            match = pattern.search(text)
            if match:
                return words(match)
    return text


def note_function(exc: BaseException, function: g.Function) -> None:
    """A rule function the error passed through (innermost is added first)."""
    calls = getattr(exc, "rule_calls", None)
    if calls is None:
        try:
            exc.rule_calls = calls = []  # type: ignore[attr-defined]
        except AttributeError:  # pragma: no cover - builtin exceptions take attributes
            return
    if len(calls) < 12:  # a deep recursion keeps its innermost calls
        calls.insert(0, (function.span, f"in function {function.name}({', '.join(function.params)})"))


def mark(exc: BaseException, span: Any, what: str | None) -> None:
    """Generated statement code passing an error on: the innermost statement it happened
    in, then each macro call or emit around it (the frames the machine did not push)."""
    try:
        if getattr(exc, "rule_span", None) is None:
            exc.rule_span = span  # type: ignore[attr-defined]
            exc.rule_through = []  # type: ignore[attr-defined]
        elif what:
            exc.rule_through.insert(0, (span, what))  # type: ignore[attr-defined]
    except AttributeError:  # pragma: no cover - every exception here takes attributes
        pass


def call_chain(machine: Any, exc: BaseException, span: Any) -> list[tuple[Any, str]]:
    """[(span, what)] from the outermost call in progress to where the error happened."""
    nodes, stack = machine.nodes, machine.state["stack"]
    owners = None
    chain: list[tuple[Any, str]] = []
    for index, frame in enumerate(stack[:-1]):
        node = nodes[frame[0]]
        if type(node) is not g.Block or frame[1] == 0:
            continue
        stmt = node.body[frame[1] - 1]
        if type(stmt) in (g.Call, g.CallValue):
            chain.append((stmt.span, f"calls macro {stmt.name}"))
        elif type(stmt) in (g.Perform, g.Emit):
            owners = owners if owners is not None else _owners(machine.ruleset)
            called = stack[index + 1][0] if index + 1 < len(stack) else None
            what = owners.get(called, "a trigger") if type(stmt) is g.Perform else f"emits {stmt.event}"
            chain.append((stmt.span, f"performs {what}" if type(stmt) is g.Perform else what))
    if len(chain) > 10:  # a runaway recursion: its start and its last calls tell the story
        chain = chain[:3] + [(None, f"... {len(chain) - 9} more calls ...")] + chain[-6:]
    chain.extend(getattr(exc, "rule_through", []))  # calls inside generated statement code
    chain.append((span, "here"))
    chain.extend(getattr(exc, "rule_calls", []))
    return chain


def _owners(ruleset: Any) -> dict[int | None, str]:
    """Block id → whose effect it is (for messages; looked up with None too: no block)."""
    return {body.id: f"the effect of {ident}" for ident, (body, _params) in ruleset.effects.items()}
