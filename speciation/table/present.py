"""What the table shows of a seat's view: the picture, option labels, scores, the winner.

Everything is computed from one :class:`~speciation.render.Scene` of ``game.view(seat)``
(plain data) and the seat's own legal actions, through :mod:`speciation.render` (the
ruleset's presentation declarations): nothing here reads the whole state, builds a game,
or reads a picture back.
"""
from __future__ import annotations

from typing import Any

from ..render import Picture, Scene, draw, label_of
from ..render.shared import active


def scene_of(view: dict, seat: int | None, ruleset, lang: str | None) -> Scene:
    """The one scene a seat's message is built from (seat None: a spectator's)."""
    return Scene.of(view, seat, lang, ruleset)


def picture(scene: Scene) -> Picture:
    """The seat's picture and what it drew (every drawn entity has ``data-entity``); the
    log is beside it on the page, not in it."""
    return draw(scene, log=False)


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
    return scene.roles()


def names(scene: Scene) -> list[str]:
    """Each seat's one name, the same everywhere on the page: what it plays (as the log names
    it) and the player, ``Mammals (Player 2)``."""
    return [scene.player_name(seat) for seat in range(len(scene.state["players"]))]


def log(scene: Scene, lines: list) -> list[str]:
    """The log lines a page shows, the grid's places named as a reader knows them (a cell by
    its terrain and place, a corner by its cells), never by their ids; each line made once
    while the places keep their names, when the table shares its drawings (:mod:`..render.shared`)."""
    drawings = active()
    return drawings.readable(scene, lines) if drawings is not None else [scene.readable(line) for line in lines]


def ending(scene: Scene, lines: list[str]) -> dict:
    """What the end screen shows, from the seat's scene of the finished game: the ranking
    (the winner first, then by score), each seat's score and the cards it took (the ruleset's
    ``cards_taken`` convention), how the game ended (``end_reason``), and the lines the rules
    logged after the last decision (their final scoring)."""
    scores_of = [score for _, score in scene.scores()]
    best = scene.winner()
    order = sorted(range(len(scores_of)), key=lambda s: (s != best, -_number(scores_of[s]), s))
    cards: dict[int, list[str]] = {}
    taken = scene.reader.convention("cards_taken")
    for pair in taken if isinstance(taken, list) else []:
        if isinstance(pair, list) and len(pair) == 2:
            seat = scene.reader.player_of(pair[0])
            if seat is not None:
                cards.setdefault(seat, []).append(scene.label(pair[1]))
    reason = scene.reader.convention("end_reason")
    last = max((i for i, line in enumerate(lines) if line.startswith(" ")), default=-1)
    return {"ranking": [{"seat": s, "place": place, "name": scene.player_name(s), "score": scores_of[s],
                         "cards": cards.get(s, [])} for place, s in enumerate(order, 1)],
            "reason": _phrase(scene, reason) if isinstance(reason, str) else "",
            "closing": [line.strip() for line in lines[last + 1:]]}


def _phrase(scene: Scene, text: str) -> str:
    """A text the rules give (``end_reason``) in the scene's language: a phrase of the rule
    files' if it is one, else its label."""
    phrases = scene.ruleset.phrases.get(scene.lang, {}) if scene.lang else {}
    return phrases.get(text) or scene.label(text)


def _number(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else float("-inf")
