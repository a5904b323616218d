"""Stage 1: read YAML safely, keeping the line and column of everything.

Mappings load as :class:`Node` dicts, lists as :class:`NodeList`, strings as
:class:`Text`; each knows its :class:`Span`, and a mapping knows the span of
each of its keys and values, so later stages can point at the exact place.
"""
from __future__ import annotations

from typing import Any

import yaml

import re

from .errors import LoadError, Message, N_, Span, msg

MAX_FILE_BYTES = 2 * 1024 * 1024   # a rule file larger than this is refused
MAX_DEPTH = 64                     # lists and maps nested deeper than this are refused
MAX_DIGITS = 100                   # a number written with more digits is refused
_PLAIN_TAGS = {"tag:yaml.org,2002:" + t for t in ("str", "int", "float", "bool", "null", "timestamp")}


class Node(dict):
    """A YAML mapping that remembers where it and each of its entries stand."""

    span: Span
    key_spans: dict[str | int, Span]
    value_spans: dict[str | int, Span]

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
    if len(text) > MAX_FILE_BYTES:
        raise LoadError(msg("file too large ({size} characters; at most {most})", size=len(text), most=MAX_FILE_BYTES),
                        Span(path, 1, 1))
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except RecursionError:
        raise LoadError(msg("YAML nested too deeply (at most {most} levels)", most=MAX_DEPTH), Span(path, 1, 1)) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        span = Span(path, mark.line + 1, mark.column + 1) if mark else Span(path, 1, 1)
        raise LoadError(msg("malformed YAML: {problem}", problem=yaml_problem(exc.problem or exc.context)), span) from None
    except yaml.YAMLError as exc:  # pragma: no cover - non-marked errors are rare
        raise LoadError(msg("malformed YAML: {problem}", problem=str(exc)), Span(path, 1, 1)) from None
    if root is None:
        return None
    try:
        return _Converter(path, text.splitlines()).convert(root, 0)
    except yaml.MarkedYAMLError as exc:  # an unknown tag, say: still the author's YAML
        mark = exc.problem_mark or exc.context_mark
        span = Span(path, mark.line + 1, mark.column + 1) if mark else Span(path, 1, 1)
        raise LoadError(msg("unsupported YAML: {problem}", problem=yaml_problem(exc.problem or exc.context)), span) from None


def load_file(path: str) -> tuple[Any, str]:
    """Load a file; returns (document, source text)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise LoadError(msg("cannot read file: {reason}", reason=exc.strerror), Span(path, 1, 1)) from None
    if len(data) > MAX_FILE_BYTES:
        raise LoadError(msg("file too large (more than {most} bytes)", most=MAX_FILE_BYTES), Span(path, 1, 1))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise LoadError(msg("not UTF-8 text: byte 0x{byte:02x} cannot be decoded (save the file as UTF-8)",
                            byte=data[exc.start]), Span(path, line, col)) from None
    from . import cache  # documents of unchanged files are not parsed again
    return cache.document(text, path, load_text, copy_document), text


def copy_document(value: Any) -> Any:
    """A copy of a loaded document, positions included, that shares no map or list with it."""
    if isinstance(value, Node):
        copy = Node((k, copy_document(v)) for k, v in value.items())
        copy.__dict__.update(value.__dict__)
        copy.key_spans, copy.value_spans = dict(value.key_spans), dict(value.value_spans)
        return copy
    if isinstance(value, NodeList):
        items = NodeList(copy_document(v) for v in value)
        items.__dict__.update(value.__dict__)
        items.item_spans = list(value.item_spans)
        return items
    return value  # texts (immutable, with their span), numbers, booleans, none


# PyYAML's commonest problems as catalogue messages (the quoted character is a value); any
# other stays PyYAML's English.
_YAML_PROBLEMS = [(re.compile(pattern), template) for pattern, template in (
    (r"mapping values are not allowed here$", N_("mapping values are not allowed here")),
    (r"could not find expected ':'$", N_("could not find expected ':'")),
    (r"found character ('.*') that cannot start any token$", N_("found character {found} that cannot start any token")),
    (r"expected <block end>, but found ('.*')$", N_("expected <block end>, but found {found}")),
    (r"expected ',' or '\]', but got ('.*')$", N_("expected ',' or ']', but got {found}")),
    (r"expected ',' or '}', but got ('.*')$", N_("expected ',' or '}}', but got {found}")),
    (r"expected the node content, but found ('.*')$", N_("expected the node content, but found {found}")),
    (r"expected a comment or a line break, but found ('.*')$",
     N_("expected a comment or a line break, but found {found}")),
    (r"found unknown escape character ('.*')$", N_("found unknown escape character {found}")),
    (r"found unexpected end of stream$", N_("found unexpected end of stream")),
    (r"sequence entries are not allowed here$", N_("sequence entries are not allowed here")),
    (r"found undefined alias ('.*')$", N_("found undefined alias {found}")),
    (r"while scanning a quoted scalar$", N_("while scanning a quoted scalar")),
    (r"while scanning a simple key$", N_("while scanning a simple key")),
    (r"while parsing a block mapping$", N_("while parsing a block mapping")),
    (r"while parsing a flow sequence$", N_("while parsing a flow sequence")),
    (r"while parsing a flow mapping$", N_("while parsing a flow mapping")),
)]


# PyYAML's names of the tokens it found, as it quotes them.
_YAML_TOKENS = {"'<stream end>'": msg("'<stream end>'"), "'<block end>'": msg("'<block end>'"),
                "'<document start>'": msg("'<document start>'"), "'<document end>'": msg("'<document end>'"),
                "'<block mapping start>'": msg("'<block mapping start>'"),
                "'<block sequence start>'": msg("'<block sequence start>'"), "'<scalar>'": msg("'<scalar>'"),
                "'<key>'": msg("'<key>'"), "'<value>'": msg("'<value>'"), "'<block entry>'": msg("'<block entry>'")}


def yaml_problem(problem: str | None) -> str:
    """PyYAML's *problem* as a catalogue message when it is a common one (else as it is)."""
    text = str(problem)
    for pattern, template in _YAML_PROBLEMS:
        match = pattern.match(text)
        if match:
            found = {"found": _YAML_TOKENS.get(match.group(1), match.group(1))} if match.groups() else {}
            return Message(template, **found)
    return text


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


class _Converter:
    """Turns composed YAML nodes into Node / NodeList / Text, within the limits above."""

    def __init__(self, path: str, lines: list[str]):
        self.path, self.lines = path, lines
        self.seen: set[int] = set()

    def convert(self, node: yaml.Node, depth: int) -> Any:
        if id(node) in self.seen:  # the composer shares one node among its aliases
            raise LoadError(msg("YAML aliases ('*name') are not supported; write the value out"),
                            _start(node, self.path))
        self.seen.add(id(node))
        if depth > MAX_DEPTH:
            raise LoadError(msg("YAML nested too deeply (at most {most} levels)", most=MAX_DEPTH), _start(node, self.path))
        if isinstance(node, yaml.MappingNode):
            self.plain_tag(node, "tag:yaml.org,2002:map")
            return self.mapping(node, depth)
        if isinstance(node, yaml.SequenceNode):
            self.plain_tag(node, "tag:yaml.org,2002:seq")
            items = NodeList(self.convert(child, depth + 1) for child in node.value)
            items.span = _start(node, self.path)
            items.item_spans = [self.value_span(c) for c in node.value]
            return items
        assert isinstance(node, yaml.ScalarNode)  # the composer makes no other kind
        return self.scalar(node)

    def plain_tag(self, node: yaml.Node, tag: str) -> None:
        if node.tag != tag:
            raise LoadError(msg("YAML tag {tag!r} is not supported on a list or map; remove it", tag=node.tag),
                            _start(node, self.path))

    def value_span(self, node: yaml.Node) -> Span:
        return _scalar_span(node, self.path, self.lines) if isinstance(node, yaml.ScalarNode) \
            else _start(node, self.path)

    def mapping(self, node: yaml.MappingNode, depth: int) -> Node:
        result = Node()
        result.span = _start(node, self.path)
        result.key_spans, result.value_spans = {}, {}
        for key_node, value_node in node.value:
            key_span = _start(key_node, self.path)
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise LoadError(msg("YAML merge keys ('<<') are not supported; write the entries out"),
                                key_span)
            if not isinstance(key_node, yaml.ScalarNode):
                raise LoadError(msg("a mapping key must be a plain word or number"), key_span)
            key = self.scalar(key_node)
            if isinstance(key, bool) or key is None:
                # YAML 1.1 reads the keys on/off/yes/no/null as true/false/none; a rule
                # file means the word (a trigger's 'on:' above all).
                key = Text(key_node.value)
                key.span = key_span
            if not isinstance(key, (str, int)):
                raise LoadError(msg("a mapping key must be a plain word or number"), key_span)
            if key in result:
                raise LoadError(msg("duplicate key '{key}'", key=key), key_span)
            result[key] = self.convert(value_node, depth + 1)
            result.key_spans[key] = key_span
            result.value_spans[key] = self.value_span(value_node)
        return result

    def scalar(self, node: yaml.ScalarNode) -> Any:
        span = _scalar_span(node, self.path, self.lines)
        if node.tag not in _PLAIN_TAGS:
            raise LoadError(msg("YAML tag {tag!r} is not supported (rule files hold text, numbers, true/false and null)",
                                tag=node.tag), _start(node, self.path))
        if node.tag == "tag:yaml.org,2002:timestamp":
            value: Any = node.value  # a date stays the text it was written as (JSON has no dates)
        else:
            if node.tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float") \
                    and sum(c.isdigit() for c in node.value) > MAX_DIGITS:
                raise LoadError(msg("number with more than {most} digits", most=MAX_DIGITS), span)
            try:
                value = _constructor.construct_object(node, deep=True)
            except (ValueError, TypeError, OverflowError, IndexError, KeyError):
                raise LoadError(msg("{value!r} is not a valid {tag}", value=node.value[:40], tag=node.tag.rsplit(':', 1)[-1]),
                                _start(node, self.path)) from None
        if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
            raise LoadError(msg("{value!r} is not a finite number", value=node.value), span)
        if isinstance(value, str):
            text = Text(value)
            text.span = span
            return text
        if value is not None and not isinstance(value, (bool, int, float)):
            raise LoadError(msg("unsupported YAML value ({type})", type=type(value).__name__), _start(node, self.path))
        return value
