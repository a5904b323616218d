"""A game's state as plain data: its digest (what "the same game" means) and a cheap copy."""
from __future__ import annotations

import hashlib
import json
import marshal
from typing import Any

from .views import copy_plain as _copy


def state_digest(state: dict) -> str:
    """SHA-256 of a state as canonical JSON, leaving out the log."""
    data = {k: v for k, v in state.items() if k != "log"}
    try:
        text = json.dumps(data, sort_keys=True)
    except TypeError:  # a map with keys of several types: order them by type, then value
        text = json.dumps(_canonical(data))
    return hashlib.sha256(text.encode()).hexdigest()


def _canonical(value: Any) -> Any:
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda kv: (type(kv[0]).__name__, repr(kv[0])))
        return [["map"], *([repr(k), _canonical(v)] for k, v in items)]
    if isinstance(value, list):
        return [_canonical(v) for v in value]
    return value


def clone_state(state: dict) -> dict:
    """An independent copy of a state, cheap: the log's lines are never changed once written,
    so the copy shares them (only the list is new); the rest is copied by ``marshal`` (C
    speed, plain data only), falling back to :func:`_copy`."""
    rest = {key: value for key, value in state.items() if key != "log"}
    try:
        copied = marshal.loads(marshal.dumps(rest))
    except ValueError:  # something that is not plain data: copied the slow way
        copied = _copy(rest)
    return {key: list(value) if key == "log" else copied[key] for key, value in state.items()}
