"""Stage 2: check each rule file's structure against its JSON Schema.

Which schema applies is told by the file's leading key (``ruleset``, ``card``,
``variant``, ``mod``; anything else is a plain rule file). Errors name the
place in the author's words and point at the offending key or value.
"""
from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, cast

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource

from .errors import Message, SchemaError, Span, did_you_mean, msg
from .loader import Node, NodeList


def _schema(name: str) -> dict:
    return json.loads(resources.files(__package__).joinpath(f"schemas/{name}.json").read_text())


@cache
def validator(kind: str) -> Draft202012Validator:
    """The validator of one kind of file; schemas may refer to shared ones by file name
    (``presentation.json``)."""
    shared = Resource.from_contents(_schema("presentation"))
    return Draft202012Validator(_schema(kind), registry=Registry().with_resource("presentation.json", shared))


def kind_of(document: Any) -> str:
    if isinstance(document, dict):
        for key, kind in (("scenario", "scenario"), ("ruleset", "manifest"), ("card", "card"),
                          ("variant", "variant"), ("mod", "mod")):  # a scenario names its ruleset
            if key in document:
                return kind
    return "rules"


def check(document: Any, kind: str, origin: Span) -> tuple[list[SchemaError], set]:
    """All schema errors of one document, each placed where it happens, and the
    top-level keys they concern (``None`` among them when the whole file is unusable)."""
    if not isinstance(document, dict):
        return [SchemaError(msg("a rule file must be a mapping of keys to values"), origin)], {None}
    found, bad = [], set()
    for error in sorted(validator(kind).iter_errors(document), key=lambda e: list(map(str, e.path))):
        found.append(_translate(error, document, origin, kind))
        path = list(error.absolute_path)
        if path:
            bad.add(path[0])
        elif error.validator == "additionalProperties":
            bad |= {k for k in document if k not in error.schema.get("properties", {})}
        else:
            bad.add(None)
    return found, bad


def _locate(document: Any, path: list, origin: Span) -> tuple[Span, str]:
    """The span of the value at *path*, and a readable description of the path."""
    span, node, words = getattr(document, "span", origin), document, []
    for step in path:
        if isinstance(node, Node) and step in node:
            span = node.where(step)
            words.append(msg("'{key}'", key=step))
        elif isinstance(node, NodeList) and isinstance(step, int) and step < len(node):
            span = node.item_spans[step]
            item = node[step]
            label = item.get("id") if isinstance(item, dict) else None
            words.append(msg("item {number} ({label})", number=step + 1, label=label) if label
                         else msg("item {number}", number=step + 1))
        else:
            break
        node = node[step]
    where = words[0] if words else ""
    for word in words[1:]:
        where = msg("{path} → {step}", path=where, step=word)
    return span, where


def _translate(error: ValidationError, document: Any, origin: Span, kind: str) -> SchemaError:
    path = list(error.absolute_path)
    span, where = _locate(document, path, origin)
    container = document
    for step in path:
        container = container[step]

    def within(message: Message) -> Message:   # 'in WHERE: ' before the message
        return msg("in {where}: {message}", where=where, message=message) if where else message

    if error.validator == "additionalProperties" and isinstance(container, Node):
        allowed = list(cast(dict, error.schema).get("properties", {}))  # the object schema that failed
        extra = [k for k in container if k not in allowed]
        key = extra[0] if extra else "?"
        hint = did_you_mean(str(key), allowed)
        if key == "targets" and not path and kind != "mod":   # not "did you mean 'triggers'"
            hint = msg("a {kind} cannot name the rulesets it targets; 'targets' belongs in a mod's manifest: make it "
                       "a mod, 'mod: NAME'", kind=_kind_word(kind))
        return SchemaError(within(msg("unknown key '{key}'", key=key)), container.where_key(key), hint)
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return SchemaError(within(msg("missing key '{key}' in {kind} file", key=missing, kind=_kind_word(kind))), span)
    if error.validator == "type":
        expected: Any = error.validator_value
        if isinstance(expected, list) and len(expected) > 1:
            wanted: str = _TYPES.get(str(expected[0]), str(expected[0]))
            for other in expected[1:]:
                wanted = msg("{first} or {second}", first=wanted, second=_TYPES.get(other, other))
        else:
            wanted = _article(expected[0] if isinstance(expected, list) else expected)
        return SchemaError(within(msg("expected {wanted}, got {found}", wanted=wanted,
                                      found=_describe(error.instance))), span)
    if error.validator == "enum":
        values = cast(list, error.validator_value)  # the enum's values
        options = ", ".join(map(str, values))
        return SchemaError(within(msg("{value!r} is not one of: {options}", value=error.instance, options=options)),
                           span, did_you_mean(str(error.instance), map(str, values)))
    if error.validator == "pattern" and "propertyNames" in error.absolute_schema_path:
        # a key (not a value) breaks the pattern: point at that key
        bad = str(error.instance)
        span = container.where_key(bad) if isinstance(container, Node) else span
        return SchemaError(within(msg("{name!r} is not a valid name or signature like name(a, b)", name=bad)), span)
    if error.validator == "pattern":
        return SchemaError(within(msg("{name!r} is not a valid name (letters, digits and _)", name=error.instance)),
                           span)
    if error.validator == "propertyNames":
        bad = next((k for k in container if not _valid_signature(k)), "?") if isinstance(container, Node) else "?"
        span = container.where_key(bad) if isinstance(container, Node) else span
        return SchemaError(within(msg("{name!r} is not a valid name or signature like name(a, b)", name=bad)), span)
    return SchemaError(within(_library_message(error)), span)


def _library_message(error: ValidationError) -> Message:
    """jsonschema's message for a validator not worded above: a catalogue message when it
    is one of these (and says exactly what jsonschema says), else jsonschema's English."""
    value, limit = error.instance, error.validator_value
    said: Message | None = None
    if error.validator == "minimum":
        said = msg("{value!r} is less than the minimum of {limit!r}", value=value, limit=limit)
    elif error.validator == "maximum":
        said = msg("{value!r} is greater than the maximum of {limit!r}", value=value, limit=limit)
    elif error.validator in ("minItems", "minLength"):
        said = msg("{value!r} should be non-empty", value=value) if limit == 1 \
            else msg("{value!r} is too short", value=value)
    elif error.validator in ("maxItems", "maxLength"):
        said = msg("{value!r} is too long", value=value)
    elif error.validator == "uniqueItems":
        said = msg("{value!r} has non-unique elements", value=value)
    elif error.validator in ("anyOf", "oneOf"):
        said = msg("{value!r} is not valid under any of the given schemas", value=value)
    if said is not None and str(said) == error.message:
        return said
    return msg("{detail}", detail=error.message)


# The words for a file's kind and for the values a schema expects.
_KINDS: dict[str, str] = {"rules": msg("rules"), "card": msg("card"), "variant": msg("variant"), "mod": msg("mod"),
          "scenario": msg("scenario"), "manifest": msg("manifest"), "presentation": msg("presentation")}
_TYPES: dict[str, str] = {"object": msg("object"), "array": msg("array"), "string": msg("string"), "integer": msg("integer"),
          "boolean": msg("boolean"), "number": msg("number"), "null": msg("null")}


def _kind_word(kind: str) -> str:
    return _KINDS.get(kind, kind)


def _valid_signature(key: str) -> bool:
    import re
    return bool(re.fullmatch(r"[A-Za-z_]\w*(\(\s*(\w+\s*(,\s*\w+\s*)*)?\))?", str(key)))


def _article(word: str) -> str:
    names = {"object": msg("a mapping"), "array": msg("a list"), "string": msg("a string"),
             "integer": msg("a whole number"), "boolean": msg("true or false"), "number": msg("a number")}
    return names.get(word, word)


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return msg("true/false")
    if isinstance(value, int):
        return msg("the number {value}", value=value)
    if isinstance(value, str):
        return msg("the text {value!r}", value=value)
    if isinstance(value, list):
        return msg("a list")
    if isinstance(value, dict):
        return msg("a mapping")
    return msg("nothing") if value is None else type(value).__name__
