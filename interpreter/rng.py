"""A small deterministic random generator whose whole state is one integer.

SplitMix64: fast, well mixed, and trivially saved in a game's JSON. Opt-in, a game may keep
one stream per chance source instead (:func:`per_source_state`, below).
"""
from __future__ import annotations

from hashlib import blake2b

_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


def next_value(state: int) -> tuple[int, int]:
    """Return (new state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


# ---- per-source streams (opt-in: ``Game.new(..., streams="per_source")``) ------------------
#
# With the default scheme every chance step takes the next number of the one generator above,
# so a change anywhere (one more card in a deck) shifts every later draw of every deck, bag and
# die. A game made with ``streams="per_source"`` keeps instead, in ``state["rng"]``,
# ``{"scheme": "per_source", "seed": S, "steps": {source: count}}``: each chance source (the
# list drawn from or shuffled, named by the entity and attribute that hold it, or a die by its
# faces) has its own count of steps, and each step gives every item a key hashed from (seed,
# source, step, item, which copy of an equal item it is): a draw takes the item of the lowest
# key, a shuffle orders the items by key. So a step's outcome depends only on its own source
# and what is in it, and one item added to a source changes an outcome only where that item
# itself comes first. Balance studies use it to pair games with and without a change.

SCHEMES = ("single", "per_source")


def per_source_state(seed: int) -> dict:
    """The generator of a new game with one stream per chance source."""
    return {"scheme": "per_source", "seed": seed, "steps": {}}


def valid_streams(value) -> bool:
    """Is *value* a generator state a saved game may hold (either scheme)?"""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return 0 <= value < 2 ** 64
    return (isinstance(value, dict) and set(value) == {"scheme", "seed", "steps"} and value["scheme"] == "per_source"
            and isinstance(value["seed"], int) and not isinstance(value["seed"], bool)
            and isinstance(value["steps"], dict)
            and all(isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v >= 0
                    for k, v in value["steps"].items()))


def _keys(streams: dict, source: str, items: list) -> list[bytes]:
    steps = streams["steps"]
    step = steps.get(source, 0)
    steps[source] = step + 1
    return _hashed(f"{streams['seed']}\x00{source}\x00{step}\x00", items)


def keyed_order(key: str, items: list) -> None:
    """Shuffle *items* in place by a key hashed from (*key*, item, which copy of an equal item
    it is), as a per-source chance step does: one item more or less leaves the others in the
    same order. For searches that resample what a seat cannot see (``determinize.py``) in a
    game with per-source streams, so that a change to one deck moves only its own cards."""
    keys = _hashed(f"{key}\x00", items)
    items[:] = [item for _, item in sorted(zip(keys, items), key=lambda pair: pair[0])]


def _hashed(prefix: str, items: list) -> list[bytes]:
    seen: dict[str, int] = {}
    keys = []
    for item in items:
        text = repr(item)
        copy = seen[text] = seen.get(text, -1) + 1  # equal items are told apart by their copy number
        keys.append(blake2b(f"{prefix}{text}\x00{copy}".encode(), digest_size=8).digest())
    return keys


def pick(streams: dict, source: str, items: list) -> int:
    """The index of the item a chance step of *source* takes from *items* (not empty)."""
    keys = _keys(streams, source, items)
    return keys.index(min(keys))


def order(streams: dict, source: str, items: list) -> None:
    """Shuffle *items* in place, as a chance step of *source*."""
    keys = _keys(streams, source, items)
    items[:] = [item for _, item in sorted(zip(keys, items), key=lambda pair: pair[0])]


def source_of(entities: dict, items: list) -> str:
    """The name of the chance source *items* is: ``entity.attribute`` of the entity attribute
    that holds this very list, else ``"list"`` (a list made by the rules on the way)."""
    for ident, record in entities.items():
        for attr, value in record.items():
            if value is items:
                return f"{ident}.{attr}"
    return "list"
