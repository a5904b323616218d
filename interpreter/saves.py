"""Saved games: the format (docs/saves.md), a save checked as untrusted input, and replay.

A save names its rules by identity only (a built-in ruleset's name, variant names, and each
mod's content digest); it never names a file to read. It keeps how the game began (seed,
player count, scripted chance) and every decision taken, so a game can be replayed from its
start: that proves the saved state is the one the decisions lead to (anything edited or
damaged is refused), and lets a game saved under older rules go on under new ones up to the
first decision that is no longer legal.

These are functions that take a game (``to_json(game)``) or give one (``from_json(text,
ruleset)``, ``replay(ruleset, history)``); the caller passes the ruleset: nothing here loads
rule files (``speciation.api.load_save`` loads a built-in ruleset a save names).
"""
from __future__ import annotations

import json
from typing import Any

from ..dsl.errors import ArgumentError, IllegalActionError, ReplayError, SaveFileError, SpeciationError
from ..dsl import graph as g
from . import rng
from .game import Game, state_digest
from .views import public_view
from .visibility import FIELD as SEEN_BY

SAVE_FORMAT = "speciation-save"
SAVE_VERSION = 2
MAX_SAVE_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 100
STATE_KEYS = {"ent", "players", "rng", "seed", "stack", "pending", "log", "chance", "steps"}
PENDING_KEYS = {"actor", "prompt", "options", "optional", "var", "node", "private"}


# ---- writing -----------------------------------------------------------------------------

def to_data(game) -> dict:
    """The save of *game* as plain data (checked: every part can be written as JSON)."""
    ruleset = game.ruleset
    check_plain(game.state, "state")
    return {"format": SAVE_FORMAT, "format_version": SAVE_VERSION,
            "ruleset": {"name": ruleset.name, "version": ruleset.version, "digest": ruleset.digest,
                        "variants": list(ruleset.variants), "mods": list(ruleset.mod_digests)},
            "history": game.history, "decisions": game.decision_number, "state": game.state}


def seat_record(game, seat: int | None) -> dict:
    """What seat *seat* has seen of *game* (None: a spectator, what every seat sees): its
    view now, which holds the log lines it reads and shows only the faces it sees (docs/
    saves.md). Never the seed, the hidden state or the history (others' secret choices,
    the chance to come): not a save, it cannot be resumed."""
    view = game.view(seat) if seat is not None else public_view(game)
    name = game.label(game.state["players"][seat]) if seat is not None else None
    return {"speciation_seat_record": 1, "ruleset": game.ruleset.name, "seat": seat, "seat_name": name,
            "log": view["log"], "view": view}


def to_json(game) -> str:
    """*game* as a save (docs/saves.md): the ruleset's identity, the history and the state.
    Raises :class:`SaveFileError` if the state holds what JSON cannot keep."""
    return json.dumps(to_data(game), allow_nan=False)


def check_plain(value: Any, where: str, depth: int = 0) -> None:
    """Refuse (SaveFileError, naming the place) what JSON cannot hold faithfully: maps with
    keys that are not text (they would come back as text), bytes, sets, non-finite numbers,
    nesting deeper than MAX_DEPTH."""
    if depth > MAX_DEPTH:
        raise SaveFileError(f"cannot save: {where} is nested more than {MAX_DEPTH} levels deep")
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise SaveFileError(f"cannot save: the map at {where} has a key that is not text "
                                    f"({key!r}); a save would change it")
            check_plain(item, f"{where}.{key}", depth + 1)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            check_plain(item, f"{where}[{index}]", depth + 1)
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise SaveFileError(f"cannot save: {where} is {value}, which JSON cannot hold")
    elif isinstance(value, int) and not isinstance(value, bool):
        if value.bit_length() > 8192:
            raise SaveFileError(f"cannot save: {where} is an integer of more than 8192 bits")
    elif value is not None and not isinstance(value, (str, bool)):
        raise SaveFileError(f"cannot save: {where} holds a {type(value).__name__}, not plain data")


# ---- reading -----------------------------------------------------------------------------

def ruleset_identity(text: Any) -> dict:
    """The identity of the rules a save was made with (``name``, ``version``, ``digest``,
    ``variants``, ``mods``), read from the save without loading anything."""
    return _section(_parse(text), "ruleset", dict)


def from_json(text: Any, ruleset, lang: str | None = None, verify: bool = True) -> Game:
    """Load a save made under *ruleset* (with its variants and mods), treated as untrusted
    input (docs/saves.md). A save is checked and its decisions replayed from the start: a
    state they do not lead to is refused. A save made under other rules (another digest) is
    replayed under *ruleset*, and :class:`ReplayError` names the first decision that is no
    longer legal. Every problem is a :class:`SaveFileError`. ``verify=False`` skips the
    replay of a save made with the same rules (for saves this program made itself, such as
    an undo buffer): only the state's shape is checked."""
    data = _parse(text)
    identity = _section(data, "ruleset", dict)
    _check_identity(identity, ruleset)
    history = data.get("history")
    if history is not None:
        _check_history(history, ruleset)
        if _count(data.get("decisions")) != len(history["decisions"]):
            raise SaveFileError("the save's decision count does not match its history")
    state = _section(data, "state", dict)
    if identity.get("digest") != ruleset.digest:
        if history is None:
            raise SaveFileError(
                f"this game was saved with another version of ruleset '{ruleset.name}' (saved: "
                f"{identity.get('version')} / {identity.get('digest')}, loaded: {ruleset.version} / "
                f"{ruleset.digest}) and has no recorded decisions to replay; it cannot be resumed safely")
        return replay(ruleset, history, lang=lang)
    check_state(state, ruleset)
    if history is None or not verify:
        return Game(ruleset, state, lang, history=history, decisions=_count(data.get("decisions", 0)))
    game = replay(ruleset, history, lang=lang)
    if game.digest() != state_digest(state):
        raise SaveFileError("the saved state is not the one its recorded decisions lead to: the save "
                            "was edited or damaged")
    return game


def _parse(text: Any) -> dict:
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SaveFileError(f"not a saved game: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if not isinstance(text, str):
        raise SaveFileError(f"not a saved game: expected JSON text, got a {type(text).__name__}")
    if len(text) > MAX_SAVE_BYTES:
        raise SaveFileError(f"not a saved game: larger than {MAX_SAVE_BYTES // 2**20} MB")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveFileError(f"not a saved game: {exc}") from None
    except (ValueError, RecursionError) as exc:
        raise SaveFileError(f"not a saved game: {type(exc).__name__}: {str(exc)[:200]}") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveFileError("not a Speciation saved game (no 'format: speciation-save')")
    if data.get("format_version") != SAVE_VERSION:
        raise SaveFileError(f"saved with format version {str(data.get('format_version'))[:20]}; "
                            f"this Speciation reads version {SAVE_VERSION}")
    return data


def _section(data: dict, key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        raise SaveFileError(f"the save has no usable '{key}' ({kind.__name__} expected)")
    return value


def _check_identity(identity: dict, ruleset) -> None:
    if identity.get("name") != ruleset.name:
        raise SaveFileError(f"this game was saved with ruleset {str(identity.get('name'))[:80]!r}, "
                            f"not '{ruleset.name}'")
    if identity.get("variants", []) != list(ruleset.variants):
        raise SaveFileError(f"this game was saved with variants {identity.get('variants')!s:.200}, "
                            f"the ruleset given has {list(ruleset.variants)}")
    if identity.get("mods", []) != list(ruleset.mod_digests):
        raise SaveFileError(f"this game was saved with mods of digests {identity.get('mods')!s:.200}, "
                            f"the ruleset given has {list(ruleset.mod_digests)}")


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SaveFileError("the save's decision count is not a whole number")
    return value


# ---- history and replay ------------------------------------------------------------------

def _check_history(history: Any, ruleset) -> None:
    if not isinstance(history, dict) or set(history) - {"streams"} != {"seed", "players", "chance", "decisions"}:
        raise SaveFileError("the save's history is damaged (expected seed, players, chance, decisions)")
    seed, players = history["seed"], history["players"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SaveFileError("the save's history has no usable seed")
    if isinstance(players, bool) or not isinstance(players, int):
        raise SaveFileError("the save's history has no usable player count")
    if not isinstance(history["chance"], list) or not isinstance(history["decisions"], list):
        raise SaveFileError("the save's history is damaged (chance and decisions must be lists)")
    for number, entry in enumerate(history["decisions"]):
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)):
            raise SaveFileError(f"the save's history is damaged at decision {number + 1} "
                                f"(expected [actor, value])")
    check_plain(history, "history")


def replay(ruleset, history: dict, lang: str | None = None, stop: int | None = None) -> Game:
    """The game *history* records (``game.history``, or a save's), replayed under *ruleset*
    (possibly changed since): a new game from the same start with the recorded decisions
    taken in order (only the first *stop*, if given: for undo or step-by-step replay). The
    first decision that is no longer legal raises :class:`ReplayError`, which names it and
    holds the game replayed up to just before it."""
    _check_history(history, ruleset)
    try:
        game = Game.new(ruleset, history["players"], history["seed"], chance=list(history["chance"]), lang=lang,
                        streams=history.get("streams", "single"))
    except (ArgumentError, SpeciationError) as exc:
        raise SaveFileError(f"the saved game cannot be started again under ruleset '{ruleset.name}' "
                            f"{ruleset.version}: {exc}") from None
    return replay_on(game, history, stop)


def replay_on(game: Game, history: dict, stop: int | None = None) -> Game:
    """*game*, which is *history*'s game at its decision ``game.decision_number`` (a copy of
    its state kept then, say), taken on through the decisions recorded from there (up to the
    first *stop*, if given), as :func:`replay` takes them."""
    decisions = history["decisions"][:stop] if stop is not None else history["decisions"]
    for number in range(game.decision_number, len(decisions)):
        actor, value = decisions[number]
        _replay_one(game, history, number, actor, value, len(decisions))
    return game


def _replay_one(game, history: dict, number: int, actor: str, value: Any, total: int) -> None:
    prompt = game.prompt
    where = f"decision {number + 1} of {total}"
    if game.is_over:
        raise ReplayError(f"{where} ({actor}: {value!r}) is no longer legal: the game is over before it",
                          number, "", value, game)
    decision = game.decision_id
    if game.current_actor != actor:  # one of several deciding at once, or no longer legal
        decision = next((d.id for d in game.decisions() if d.actor == actor), None)
        if decision is None:
            raise ReplayError(f"{where} ({game.label(actor)}: {value!r}) is no longer legal: "
                              f"'{prompt}' is now for {game.label(game.current_actor)}", number, prompt, value, game)
    try:
        game.apply(value, decision=decision)
    except IllegalActionError as exc:
        raise ReplayError(f"{where} ({game.label(actor)}: '{prompt}' → {game.label(value)}) is no longer "
                          f"legal: {exc}", number, prompt, value, game) from None
    except SpeciationError as exc:  # the rules failed while running on from it
        before = replay(game.ruleset, history, lang=game.lang, stop=number)
        raise ReplayError(f"{where} ({game.label(actor)}: '{prompt}' → {game.label(value)}) fails under "
                          f"the new rules: {exc}", number, prompt, value, before) from None


# ---- the state's shape -------------------------------------------------------------------

def check_state(state: dict, ruleset) -> None:
    """Refuse a state that is not shaped like one of *ruleset*'s (SaveFileError)."""
    def bad(what: str) -> SaveFileError:
        return SaveFileError(f"the saved state is damaged: {what}")

    if set(state) != STATE_KEYS:
        raise bad(f"its parts are {sorted(map(str, state))[:12]}, not {sorted(STATE_KEYS)}")
    check_plain(state, "state")
    players, ent = state["players"], state["ent"]
    if not isinstance(players, list) or not ruleset.min_players <= len(players) <= ruleset.max_players \
            or players != [f"p{i + 1}" for i in range(len(players))]:
        raise bad("the list of players")
    created = {i: kind for kind, (_, ids) in ruleset.creatable.items() for i in ids}
    if isinstance(ent, dict) and created:  # entities created in play; a declared one may be destroyed
        ent = {i: r for i, r in ent.items() if i not in created}
        destroyed = {i for kind, (declared, _) in ruleset.creatable.items() for i in declared} - set(ent)
        ent.update({i: ruleset.entities[i] for i in destroyed})
    if not isinstance(ent, dict) or set(ent) != set(ruleset.entities) | set(players):
        missing = sorted(set(ruleset.entities) | set(players) - set(ent if isinstance(ent, dict) else {}))
        raise bad(f"the entities (missing: {missing[:5]}; unknown: "
                  f"{sorted(set(ent if isinstance(ent, dict) else {}) - set(ruleset.entities) - set(players))[:5]})")
    for ident, record in state["ent"].items():
        expected = ruleset.entities.get(ident) or {"kind": created.get(ident, "player"), "id": ident}
        if not isinstance(record, dict) or record.get("kind") != expected["kind"] or record.get("id") != ident:
            raise bad(f"entity {ident!r}")
        if ident in ruleset.entities and set(record) - {SEEN_BY} != set(expected) and record.get("card") is None \
                and record.get("kind") not in ruleset.creatable:
            raise bad(f"the attributes of entity {ident!r}")
        seen = record.get(SEEN_BY, "all")
        if not (seen == "all" or isinstance(seen, list) and all(p in players for p in seen)):
            raise bad(f"who sees entity {ident!r}")
    for key in ("seed", "steps"):
        if isinstance(state[key], bool) or not isinstance(state[key], int):
            raise bad(f"'{key}' is not an integer")
    if not rng.valid_streams(state["rng"]) or state["steps"] < 0:
        raise bad("the random generator or the step count")
    if not isinstance(state["log"], list) or not all(
            isinstance(line, str) or (isinstance(line, list) and len(line) == 2
                                      and (line[0] in players or line[0] is None)
                                      and isinstance(line[1], str)) for line in state["log"]):
        raise bad("the log")
    if not isinstance(state["chance"], list):
        raise bad("the scripted chance")
    _check_stack(state, ruleset, bad)


def _check_stack(state: dict, ruleset, bad, stack=None, pending=None, inner: bool = False) -> None:
    """The machine's stack and pending decision (or, *inner*, a fiber's: interpreter/fibers.py)."""
    if not inner:
        stack, pending = state["stack"], state["pending"]
    nodes = ruleset.nodes
    if not isinstance(stack, list):
        raise bad("the machine's stack")
    for index, frame in enumerate(stack):
        if not (isinstance(frame, list) and len(frame) == 4 and all(
                isinstance(x, int) and not isinstance(x, bool) for x in (frame[0], frame[1], frame[3]))
                and 0 <= frame[0] < len(nodes) and 0 <= frame[3] <= index
                and isinstance(stack[frame[3]][2], dict)):
            raise bad(f"frame {index} of the machine's stack")
        if isinstance(nodes[frame[0]], g.Simultaneously):
            _check_fibers(state, ruleset, bad, frame[2], inner or index != len(stack) - 1)
    if pending is None:
        return
    if not isinstance(pending, dict) or set(pending) - {"fiber"} != PENDING_KEYS or not stack:
        raise bad("the pending decision")
    node = pending["node"]
    if not (isinstance(node, int) and 0 <= node < len(nodes) and isinstance(nodes[node], g.Choose)
            and nodes[node].var == pending["var"] and isinstance(pending["options"], list)
            and isinstance(pending["actor"], str) and pending["actor"] in state["ent"]
            and isinstance(pending["prompt"], str) and isinstance(pending["optional"], bool)):
        raise bad("the pending decision")
    fiber = pending.get("fiber")
    if fiber is not None or inner:  # a fiber's: its place, and the same as its fiber holds
        top = stack[-1] if not inner else None
        if not (isinstance(fiber, list) and len(fiber) == 2 and all(type(x) is int and x >= 0 for x in fiber)) or (
                top is not None and not (isinstance(nodes[top[0]], g.Simultaneously) and fiber[0] < len(top[2])
                                         and top[2][fiber[0]]["pending"] == pending)):
            raise bad("the pending decision of a seat deciding at the same time as others")


def _check_fibers(state: dict, ruleset, bad, fibers_: Any, nested: bool) -> None:
    """The fibers of a simultaneous statement's frame: each with its stack and pending."""
    players = state["players"]
    if nested or not isinstance(fibers_, list) or not fibers_:
        raise bad("a simultaneous statement's frame")
    for fiber in fibers_:
        if not (isinstance(fiber, dict) and set(fiber) == {"actor", "seat", "stack", "pending"}
                and type(fiber["seat"]) is int and 0 <= fiber["seat"] < len(players)):
            raise bad("a seat's part of a simultaneous statement")
        _check_stack(state, ruleset, bad, fiber["stack"], fiber["pending"], inner=True)
        if fiber["stack"] and isinstance(fiber["stack"][0], list) and fiber["stack"][0][3] != 0:
            raise bad("a seat's part of a simultaneous statement")
