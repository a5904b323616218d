"""A table game read in another language than it was started in: each page sees the rules'
texts (names, prompts, option labels, log lines, card texts) in its own language.

The game's texts are made as the game runs, in the game's language (``Game.lang``; the log
is kept as finished lines, and none of it is part of the digest). For a page of another
language the table keeps, beside the game, the same game in that language: the game's own
history (``game.history``: its start and every decision, agents' included) replayed with
that language (``saves.replay``), brought up to date with the decisions taken since it was
last read, and replayed again after an undo. It is only ever read, never played: the page's
choices go to the game itself (the state message carries the game's decision id).
"""
from __future__ import annotations

from typing import Any

from ..api import replay
from ..dsl.errors import SpeciationError
from ..interpreter.game import Game
from .deciding import apply_recorded

_MIRRORS = "_language_mirrors"  # the session's attribute holding {language: game}


def game_in(session: Any, lang: str | None) -> Game:
    """*session*'s game with its texts in *lang*: the game itself when it is in that
    language, has no history, or the ruleset has no such language; else its mirror."""
    game: Game = session.game
    wanted = None if lang in (None, "en") else lang  # English: the rule files' own words
    if wanted == game.lang or (wanted is not None and wanted not in game.ruleset.labels):
        return game   # (before reading the history: ``game.history`` is a copy of it)
    history = game.history
    if history is None:
        return game
    key = wanted or "en"
    try:
        mirrors: dict[str, Game] = vars(session).setdefault(_MIRRORS, {})
    except TypeError:  # a session without a __dict__ keeps no mirrors
        return game
    done = history["decisions"]
    mirror = mirrors.get(key)
    try:
        if mirror is None or not _follows(mirror, done):
            mirror = mirrors[key] = replay(game.ruleset, history, lang=wanted)
        for actor, value in done[mirror.decision_number:]:
            apply_recorded(mirror, actor, value)   # to that actor's pending decision (deciding.py)
    except SpeciationError:  # rules whose course depends on a text: show the game's own language
        mirrors.pop(key, None)
        return game
    return mirror


def _follows(mirror: Game, done: list) -> bool:
    """Whether *mirror* took the first of the decisions *done* and no other (not after an undo)."""
    taken = mirror.history["decisions"] if mirror.history is not None else None
    return taken is not None and len(taken) <= len(done) and taken == done[:len(taken)]


def replay_in(replay: Any, lang: str | None) -> Any:
    """*replay* (:class:`.session.Replay`) with its texts in *lang*: itself when it is in that
    language or its ruleset has no such language, else a replay of the same history in that
    language, kept beside it (one per language, made when a page of that language opens it)."""
    wanted = None if lang in (None, "en") else lang
    own = None if replay.lang in (None, "en") else replay.lang
    if wanted == own or (wanted is not None and wanted not in replay.ruleset.labels):
        return replay
    mirrors: dict[str, Any] = vars(replay).setdefault(_MIRRORS, {})
    key = wanted or "en"
    if key not in mirrors:
        mirrors[key] = type(replay)(replay.ident, replay.ruleset, replay.history, replay.seats, wanted, replay.only)
    return mirrors[key]
