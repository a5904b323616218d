"""Stage 1: read YAML safely, keeping the line and column of everything.

Mappings load as :class:`Node` dicts, lists as :class:`NodeList`, strings as
:class:`Text`; each knows its :class:`Span`, and a mapping knows the span of
each of its keys and values, so later stages can point at the exact place.
"""
from __future__ import annotations

from typing import Any

import yaml

from .errors import LoadError, Span


class Node(dict):
    """A YAML mapping that remembers where it and each of its entries stand."""

    span: Span
    key_spans: dict[str, Span]
    value_spans: dict[str, Span]

    def where(self, key: str) -> Span:
        return self.value_spans.get(key, self.span)

    def where_key(self, key: str) -> Span:
        return self.key_spans.get(key, self.span)


class NodeList(list):
    """A YAML sequence that remembers where it and each item stand."""

    span: Span
    item_spans: list[Span]


class Text(str):
    """A YAML string with the position of its first character."""

    span: Span


def span_of(value: Any, default: Span) -> Span:
    return getattr(value, "span", default)


def load_text(text: str, path: str) -> Any:
    """Parse one YAML document, keeping positions. Raises :class:`LoadError`."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        span = Span(path, mark.line + 1, mark.column + 1) if mark else Span(path, 1, 1)
        raise LoadError(f"malformed YAML: {exc.problem or exc.context}", span) from None
    except yaml.YAMLError as exc:  # pragma: no cover - non-marked errors are rare
        raise LoadError(f"malformed YAML: {exc}", Span(path, 1, 1)) from None
    if root is None:
        return None
    try:
        return _convert(root, path, text.splitlines())
    except yaml.MarkedYAMLError as exc:  # an unknown tag, say: still the author's YAML
        mark = exc.problem_mark or exc.context_mark
        span = Span(path, mark.line + 1, mark.column + 1) if mark else Span(path, 1, 1)
        raise LoadError(f"unsupported YAML: {exc.problem or exc.context}", span) from None


def load_file(path: str) -> tuple[Any, str]:
    """Load a file; returns (document, source text)."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        raise LoadError(f"cannot read file: {exc.strerror}", Span(path, 1, 1)) from None
    from . import cache  # documents of unchanged files are not parsed again
    return cache.document(text, path, load_text), text


_constructor = yaml.SafeLoader("")


def _start(node: yaml.Node, path: str) -> Span:
    return Span(path, node.start_mark.line + 1, node.start_mark.column + 1)


def _scalar_span(node: yaml.ScalarNode, path: str, lines: list[str]) -> Span:
    span = _start(node, path)
    if node.style in ("|", ">"):
        # Block scalar: the content starts on the next non-blank line, at its indentation.
        index = node.start_mark.line + 1
        while index < len(lines) and not lines[index].strip():
            index += 1
        if index < len(lines):
            indent = len(lines[index]) - len(lines[index].lstrip(" "))
            return Span(path, index + 1, indent + 1)
    if node.style in ("'", '"'):
        return Span(path, span.line, span.col + 1)
    return span


def _convert(node: yaml.Node, path: str, lines: list[str]) -> Any:
    if isinstance(node, yaml.MappingNode):
        result = Node()
        result.span = _start(node, path)
        result.key_spans, result.value_spans = {}, {}
        for key_node, value_node in node.value:
            key_span = _start(key_node, path)
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise LoadError("YAML merge keys ('<<') are not supported; write the entries out",
                                key_span)
            key = _convert(key_node, path, lines)
            if isinstance(key_node, yaml.ScalarNode) and (isinstance(key, bool) or key is None):
                # YAML 1.1 reads the keys on/off/yes/no/null as true/false/none; a rule
                # file means the word (a trigger's 'on:' above all).
                key = Text(key_node.value)
                key.span = key_span
            if not isinstance(key, (str, int, bool)) or isinstance(key, list):
                raise LoadError("a mapping key must be a plain word or number", key_span)
            if key in result:
                raise LoadError(f"duplicate key '{key}'", key_span)
            result[key] = _convert(value_node, path, lines)
            result.key_spans[key] = key_span
            result.value_spans[key] = (
                _scalar_span(value_node, path, lines)
                if isinstance(value_node, yaml.ScalarNode)
                else _start(value_node, path)
            )
        return result
    if isinstance(node, yaml.SequenceNode):
        items = NodeList(_convert(child, path, lines) for child in node.value)
        items.span = _start(node, path)
        items.item_spans = [
            _scalar_span(c, path, lines) if isinstance(c, yaml.ScalarNode) else _start(c, path)
            for c in node.value
        ]
        return items
    if node.tag == "tag:yaml.org,2002:timestamp":
        value = node.value  # a date stays the text it was written as (JSON has no dates)
    else:
        value = _constructor.construct_object(node, deep=True)
    if isinstance(value, str):
        text = Text(value)
        text.span = _scalar_span(node, path, lines)
        return text
    return value
