"""The messages the table sends to one seat's page.

Every message to a seat is built from ``game.view(seat)`` and, when that seat must
decide, its own legal actions: never from the whole state. (A test reads every message
sent to a seat and looks for the values hidden from it.)
"""
from __future__ import annotations

from typing import Any

from ..interpreter.game import Game
from . import present

LOG_LINES = 400


def _name(game: Game, player: str) -> str:
    """A player's public name, in the game's language."""
    return game.label(player)


def seat_state(game: Game, seat: int, seats: list[str], lang: str | None) -> dict:
    """What seat *seat* sees of the game: picture, players, scores, prompt, its options, log."""
    ruleset = game.ruleset
    view = game.view(seat)
    pending = view.get("pending")
    players = view["players"]
    decider = game.player_of(pending["actor"]) if pending else None
    points = present.scores(view, seat, ruleset, lang)
    plays = present.roles(view, seat, ruleset, lang)
    over = pending is None
    picture = present.picture(view, seat, ruleset, lang)
    message: dict[str, Any] = {
        "type": "state",
        "seat": seat,
        "seat_name": _name(game, players[seat]),
        "players": [{"name": _name(game, p), "plays": ", ".join(plays.get(p, [])), "kind": seats[i],
                     "score": points[i], "seat": i}
                    for i, p in enumerate(players)],
        "svg": picture,
        "prompt": pending["prompt"] if pending else "",
        "decider": decider,
        "decider_name": _name(game, players[decider]) if decider is not None else "",
        "yours": decider == seat,
        "options": [],
        "log": view.get("log", [])[-LOG_LINES:],
        "over": over,
        "winner": None,
    }
    if decider == seat:
        actions = game.legal_actions()
        labels = present.option_labels(view, seat, ruleset, lang, actions)
        shown = present.drawn(picture)
        message["options"] = [{"index": i, "label": labels[i],
                               "entities": present.option_entities(view, a.value, shown)}
                              for i, a in enumerate(actions)]
    if over:
        best = present.winner(view, ruleset, lang, points)
        message["winner"] = _name(game, players[best]) if best is not None else None
    return message


def player_name(game: Game, seat: int) -> str:
    """A seat's public name."""
    return game.label(game.state["players"][seat])


def handover(game: Game, to_seat: int) -> dict:
    """The screen between two people at one table: names who is next, shows nothing else."""
    return {"type": "handover", "seat": to_seat, "seat_name": player_name(game, to_seat)}
