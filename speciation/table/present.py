"""What the table shows of a seat's view: the picture, option labels, scores, the winner.

Everything is computed from one :class:`~speciation.render.Scene` of ``game.view(seat)``
(plain data) and the seat's own legal actions, through :mod:`speciation.render` (the
ruleset's presentation declarations): nothing here reads the whole state, builds a game,
or reads a picture back.
"""
from __future__ import annotations

from typing import Any

from ..render import Picture, Scene, draw, label_of


def scene_of(view: dict, seat: int | None, ruleset, lang: str | None) -> Scene:
    """The one scene a seat's message is built from (seat None: a spectator's)."""
    return Scene.of(view, seat, lang, ruleset)


def picture(scene: Scene) -> Picture:
    """The seat's picture and what it drew (every drawn entity has ``data-entity``)."""
    return draw(scene)


def options(scene: Scene, shown: Picture, actions) -> list[dict]:
    """The seat's own options: index, a readable label (naming what an entity option is),
    and the drawn entities a click on which chooses it."""
    return [{"index": i, "label": label_of(scene, a), "entities": shown.entities_of(a.value)}
            for i, a in enumerate(actions)]


def scores(scene: Scene) -> list[Any]:
    """Each player's score as the view shows it ("?" where it cannot be computed)."""
    return [score for _, score in scene.scores()]


def roles(scene: Scene) -> dict[str, list[str]]:
    """What each player plays (the records the presentation gives a panel, by owner)."""
    out: dict[str, list[str]] = {}
    for record in scene.panels():
        owner = scene.owner_of(record)
        if owner is not None and owner != record.get("id"):
            out.setdefault(owner, []).append(scene.label(record["id"]))
    return out
