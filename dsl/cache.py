"""What loading produces, kept for the next load in the same process.

Five caches, each keyed by the *content* it was made from, so none can be stale:
a YAML document by (path, file text), its schema check by (path, file text, kind), an
effect's parse tree by (effect text, start rule), a generated function's code object by
(its source, file name), and the type errors of a whole ruleset by every file it read
(path and text, in order) with its variants and mods. A changed rule
file has another text, hence another key; the engine's own code cannot change inside a
running process. Documents are handed out as copies (later stages may drop a broken
section from the document they are given); parse trees and code objects are never
changed, so they are shared. Each cache is emptied when it grows past ``LIMIT``
entries (a fuzz run loads thousands of different files).
"""
from __future__ import annotations

from typing import Any, Callable

from .loader import Node, NodeList

LIMIT = 20_000
_documents: dict[tuple[str, str], Any] = {}
_trees: dict[tuple[str, str], Any] = {}
_code: dict[tuple[str, str], Any] = {}
_checks: dict[tuple[str, str, str], Any] = {}
_types: dict[tuple, Any] = {}


def _remember(table: dict, key: tuple, make: Callable[[], Any]) -> Any:
    try:
        return table[key]
    except KeyError:
        pass
    value = make()  # an error is raised every time, never remembered
    if len(table) >= LIMIT:
        table.clear()
    table[key] = value
    return value


def document(text: str, path: str, load: Callable[[str, str], Any]) -> Any:
    """The YAML document of a file's text (a fresh copy each time)."""
    return _copy(_remember(_documents, (path, text), lambda: load(text, path)))


def tree(source: str, start: str, parse: Callable[[], Any]) -> Any:
    """The parse tree of an effect text."""
    return _remember(_trees, (source, start), parse)


def code(source: str, filename: str) -> Any:
    """The code object of generated source."""
    return _remember(_code, (source, filename), lambda: compile(source, filename, "exec"))


def schema_check(path: str, text: str, kind: str, check: Callable[[], tuple[list, set]]) -> tuple[list, set]:
    """The schema problems of a file's document, and the sections they make unusable."""
    problems, bad = _remember(_checks, (path, text, kind), check)
    return list(problems), set(bad)


def type_errors(sources: dict[str, str], variants: list, mods: list, check: Callable[[], list]) -> list:
    """The type errors of a ruleset made of these files (path and text, in the order they
    were read), variants and mods: the same files give the same definitions, hence the
    same errors."""
    key = (tuple(sources.items()), tuple(variants), tuple(str(m) for m in mods))
    return list(_remember(_types, key, check))


def clear() -> None:
    for table in (_documents, _checks, _trees, _code, _types):
        table.clear()


def _copy(value: Any) -> Any:
    if isinstance(value, Node):
        copy = Node((k, _copy(v)) for k, v in value.items())
        copy.__dict__.update(value.__dict__)
        copy.key_spans, copy.value_spans = dict(value.key_spans), dict(value.value_spans)
        return copy
    if isinstance(value, NodeList):
        copy = NodeList(_copy(v) for v in value)
        copy.__dict__.update(value.__dict__)
        copy.item_spans = list(value.item_spans)
        return copy
    return value  # texts (immutable, with their span), numbers, booleans, none
