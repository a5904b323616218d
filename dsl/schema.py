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

from .errors import SchemaError, Span, did_you_mean
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
        return [SchemaError("a rule file must be a mapping of keys to values", origin)], {None}
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
            words.append(f"'{step}'")
        elif isinstance(node, NodeList) and isinstance(step, int) and step < len(node):
            span = node.item_spans[step]
            item = node[step]
            label = item.get("id") if isinstance(item, dict) else None
            words.append(f"item {step + 1}" + (f" ({label})" if label else ""))
        else:
            break
        node = node[step]
    return span, " → ".join(words)


def _translate(error: ValidationError, document: Any, origin: Span, kind: str) -> SchemaError:
    path = list(error.absolute_path)
    span, where = _locate(document, path, origin)
    container = document
    for step in path:
        container = container[step]
    prefix = f"in {where}: " if where else ""
    if error.validator == "additionalProperties" and isinstance(container, Node):
        allowed = list(cast(dict, error.schema).get("properties", {}))  # the object schema that failed
        extra = [k for k in container if k not in allowed]
        key = extra[0] if extra else "?"
        hint = did_you_mean(str(key), allowed)
        if key == "targets" and not path and kind != "mod":   # not "did you mean 'triggers'"
            hint = f"a {kind} cannot name the rulesets it targets; 'targets' belongs in a mod's manifest: make it a mod, 'mod: NAME'"
        return SchemaError(f"{prefix}unknown key '{key}'", container.where_key(key), hint)
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return SchemaError(f"{prefix}missing key '{missing}' in {kind} file", span)
    if error.validator == "type":
        expected: Any = error.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        return SchemaError(f"{prefix}expected {_article(expected)}, got {_describe(error.instance)}", span)
    if error.validator == "enum":
        values = cast(list, error.validator_value)  # the enum's values
        options = ", ".join(map(str, values))
        return SchemaError(f"{prefix}{error.instance!r} is not one of: {options}", span,
                           did_you_mean(str(error.instance), map(str, values)))
    if error.validator == "pattern" and "propertyNames" in error.absolute_schema_path:
        # a key (not a value) breaks the pattern: point at that key
        bad = str(error.instance)
        span = container.where_key(bad) if isinstance(container, Node) else span
        return SchemaError(f"{prefix}{bad!r} is not a valid name or signature like name(a, b)", span)
    if error.validator == "pattern":
        return SchemaError(f"{prefix}{error.instance!r} is not a valid name (letters, digits and _)", span)
    if error.validator == "propertyNames":
        bad = next((k for k in container if not _valid_signature(k)), "?") if isinstance(container, Node) else "?"
        span = container.where_key(bad) if isinstance(container, Node) else span
        return SchemaError(f"{prefix}{bad!r} is not a valid name or signature like name(a, b)", span)
    return SchemaError(f"{prefix}{error.message}", span)


def _valid_signature(key: str) -> bool:
    import re
    return bool(re.fullmatch(r"[A-Za-z_]\w*(\(\s*(\w+\s*(,\s*\w+\s*)*)?\))?", str(key)))


def _article(word: str) -> str:
    names = {"object": "a mapping", "array": "a list", "string": "a string", "integer": "a whole number",
             "boolean": "true or false", "number": "a number"}
    return names.get(word, word)


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "nothing" if value is None else type(value).__name__
