"""What the table shows of a seat's view: the picture, option labels, scores, the winner.

Everything is computed from ``game.view(seat)`` (plain data) and the seat's own legal
actions, through :mod:`speciation.render` (the ruleset's presentation declarations):
nothing here reads the whole state.
"""
from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

from ..interpreter.game import Game
from ..render import Scene, label_of, render_svg


def picture(view: dict, seat: int, ruleset, lang: str | None) -> str:
    """The SVG of *view* as seat *seat* sees it (every drawn entity has ``data-entity``)."""
    return render_svg(view, seat, lang, ruleset=ruleset)


def option_labels(view: dict, seat: int, ruleset, lang: str | None, actions: list) -> list[str]:
    """Readable labels of the seat's own options (naming what an entity option is)."""
    scene = Scene.of(view, seat, lang, ruleset)
    return [label_of(scene, a) for a in actions]


def drawn(svg: str) -> set[str]:
    """The entities a picture draws (its ``data-entity`` groups)."""
    return {unescape(m.group(2)) for m in re.finditer(r'data-entity=(["\'])(.*?)\1', svg)}


def option_entities(view: dict, value: Any, shown: set[str]) -> list[str]:
    """The entities an option names that the picture draws (*shown*): clicking any of
    them chooses it (an option ``[pawn, space]`` is on the pawn and on the space)."""
    values = value if isinstance(value, list) else [value]
    return list(dict.fromkeys(v for v in values if isinstance(v, str) and v in view["ent"] and v in shown))


def scores(view: dict, seat: int, ruleset, lang: str | None) -> list[Any]:
    """Each player's score as the view shows it ("?" where it cannot be computed)."""
    return [score for _, score in Scene.of(view, seat, lang, ruleset).scores()]


def roles(view: dict, seat: int, ruleset, lang: str | None) -> dict[str, list[str]]:
    """What each player plays (the records the presentation gives a panel, by owner)."""
    scene = Scene.of(view, seat, lang, ruleset)
    out: dict[str, list[str]] = {}
    for record in scene.panels():
        owner = scene.owner_of(record)
        if owner is not None and owner != record.get("id"):
            out.setdefault(owner, []).append(scene.label(record["id"]))
    return out


def winner(view: dict, ruleset, lang: str | None, points: list[Any]) -> int | None:
    """The winning player's index once the game is over, from the view alone."""
    state = json.loads(json.dumps(view))
    state.update(stack=[], pending=None, rng=[0, 0, 0, 0], chance=[])
    try:
        return Game(ruleset, state, lang).winner
    except Exception:  # noqa: BLE001 - a view that cannot be evaluated: the best score
        numbers = [p for p in points if isinstance(p, (int, float))]
        return points.index(max(numbers)) if numbers else None
