"""The messages the table sends to one seat's page.

Every message to a seat is built from one ``game.view(seat)`` and one scene of it and,
when that seat must decide, its own legal actions: never from the whole state. (A test
reads every message sent to a seat and looks for the values hidden from it; another counts
the views and scenes a message builds.)
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..interpreter.game import Game
from ..interpreter.views import public_view
from ..i18n import Text
from . import present
from .deciding import decisions_of, simultaneous

LOG_LINES = 400


def seat_state(game: Game, seat: int | None, seats: list[str], lang: str | None, view: dict | None = None) -> dict:
    """What seat *seat* sees of the game: picture, players, scores, prompt, its options, log,
    and the id of the pending decision (an action names it). Seat None is a spectator: what
    every seat sees (``public_view``), no options. *lang*: the language of the rules' words
    (names, prompts, log: the game's); the table's own words are ``i18n.Text``, put in a
    page's language where it is sent (``app.Table.state_for``). *view*: the seat's view, if
    the caller has made it already (``game.view(seat)``: it is made once per message)."""
    if view is None:
        view = game.view(seat) if seat is not None else public_view(game)
    pending = view.get("pending")
    waiting = decisions_of(game)   # one per deciding seat (several at a simultaneous step)
    deciding = [d.player for d in waiting]
    own = next((d for d in waiting if d.player == seat), None) if seat is not None else None
    if pending and own is None and simultaneous(game):  # another seat's part: not what it is asked
        view = {**view, "pending": {**pending, "prompt": ""}}
    scene = present.scene_of(view, seat, game.ruleset, lang)
    players = view["players"]
    decider = own.player if own is not None else deciding[0] if deciding else None
    points = present.scores(scene)
    plays = present.roles(scene)
    named = present.names(scene)
    picture = present.picture(scene)
    log = present.log(scene, view.get("log", [])[-LOG_LINES:])
    message: dict[str, Any] = {
        "type": "state",
        "seat": seat,
        "seat_name": named[seat] if seat is not None else Text("a spectator"),
        # its own decision's id; another's only outside a simultaneous step (an id there says
        # when that seat's part asked, which may follow from what it chose)
        "decision": own.id if own is not None else pending.get("id") if pending and not simultaneous(game) else None,
        "players": [{"name": named[i], "plays": ", ".join(plays.get(p, [])), "kind": seats[i],
                     "score": points[i], "seat": i}
                    for i, p in enumerate(players)],
        "svg": picture.svg,
        # another seat's prompt only when it alone decides, outside a simultaneous step (there
        # a prompt may name what that seat chose in its own part)
        "prompt": own.prompt if own is not None else pending["prompt"] if pending and not simultaneous(game) else "",
        "decider": decider,
        "decider_name": named[decider] if decider is not None else "",
        "deciders": deciding,
        "decider_names": [named[s] for s in deciding],
        "yours": own is not None,
        "options": present.options(scene, picture, own.legal_actions()) if own is not None else [],
        "log": log,
        "over": pending is None,
        "winner": None,
    }
    if pending is None:
        best = scene.winner()
        message["winner"] = scene.label(players[best]) if best is not None else None
        message["winner_name"] = named[best] if best is not None else None
        message["end"] = present.ending(scene, log)
    return message


def screen_key(game: Game, seats: list[str], undo_marks: int) -> tuple:
    """What a seat's message depends on besides the seat: the pending decisions' ids (new
    ones after every decision, and after an undo; one per seat deciding at once), the log's length, each seat's kind (a
    person replaced by an agent), the number of undo checkpoints and whether it is over."""
    return tuple(d.id for d in decisions_of(game)), game.log_size, tuple(seats), undo_marks, game.is_over


def player_name(game: Game, seat: int) -> str:
    """A seat's public name, as the page names it (what it plays and the player)."""
    return present.scene_of(public_view(game), None, game.ruleset, game.lang).player_name(seat)


def handover(game: Game, to_seat: int) -> dict:
    """The screen between two people at one table: names who is next, shows nothing else."""
    return {"type": "handover", "seat": to_seat, "seat_name": player_name(game, to_seat)}


def patched(message: dict, base: str | None, base_log: list[str] | None = None,
            split: Callable[[str], list[str]] | None = None) -> dict:
    """*message* for a page that shows the picture *base* and the log *base_log* now (the last
    ones it was sent) and takes patches: its ``svg`` as ``svg_patch``, the lines that differ
    from *base*'s (by number) and how many lines there are, when that is less than half the
    picture (a picture changes in a few places after a move: the page is sent those, not the
    whole); its ``log`` as ``log_patch``, how many of the last lines the page shows it keeps and
    the lines after them, when it keeps any (the log grows at its end, and only its latest
    :data:`LOG_LINES` are sent: a move adds a few lines, so the page is sent those). The page
    (``static/table.js``) makes the picture and the log again; anything else, as it is.
    *split*: a picture's lines (``str.split``), if the caller keeps them (a page's sender
    splits each picture once, as the new one and then as the base)."""
    if message.get("type") != "state":
        return message
    out = message
    svg = message.get("svg")
    if base is not None and isinstance(svg, str):
        split = split or _lines
        old, new = split(base), split(svg)
        lines = {i: line for i, line in enumerate(new) if i >= len(old) or old[i] != line}
        if sum(map(len, lines.values())) <= len(svg) // 2:
            out = {k: v for k, v in message.items() if k != "svg"}
            out["svg_patch"] = {"length": len(new), "lines": lines}
    log = message.get("log")
    if base_log and isinstance(log, list) and (keep := _kept_lines(base_log, log)):
        out = {k: v for k, v in out.items() if k != "log"}
        out["log_patch"] = {"keep": keep, "add": log[keep:]}
    return out


def _lines(svg: str) -> list[str]:
    return svg.split("\n")


def _kept_lines(old: list[str], new: list[str]) -> int:
    """How many of the last lines of *old* begin *new* (the most, 0 if none): what a page
    showing *old* keeps of it to show *new*."""
    if not new:
        return 0
    first = new[0]
    for start, line in enumerate(old):
        if line == first:
            keep = len(old) - start
            if keep <= len(new) and old[start:] == new[:keep]:
                return keep
    return 0
