"""The rulesets of the table's games, shared: the games played under the same rules (a
built-in ruleset, its variants, mods uploaded as content) use one loaded ruleset, since a
ruleset is not changed by play (a game's clones share theirs too). Loading one per game held
about 4 MB per game (its generated code); now a game holds its state.

Rules read from folders the person running the server listed (``--ruleset``, ``--mod``) are
loaded anew for each game, so an edited file is seen by the next game.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from ..dsl.layers import available_rulesets
from ..interpreter.ruleset import load_ruleset
from .uploads import is_upload

LIMIT = 16   # rulesets kept (the least recently used leaves first)
_shared: OrderedDict[tuple, Any] = OrderedDict()
_lock = threading.Lock()


def shared_ruleset(source: str, variants: Sequence[str] = (), mods: Sequence[str] = ()):
    """``load_ruleset(source, variants, mods)``, the same object for the same built-in rules."""
    if source not in available_rulesets() or not all(is_upload(m) for m in mods):
        return load_ruleset(source, list(variants), list(mods))
    key = (source, tuple(variants), tuple(mods))
    with _lock:
        if key in _shared:
            _shared.move_to_end(key)
            return _shared[key]
    ruleset = load_ruleset(source, list(variants), list(mods))
    with _lock:
        ruleset = _shared.setdefault(key, ruleset)
        while len(_shared) > LIMIT:
            _shared.popitem(last=False)
    return ruleset
