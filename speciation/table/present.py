"""What the table shows of a seat's view: the picture, option labels, scores.

Everything is computed from ``game.view(seat)`` (plain data) and the seat's own legal
actions: nothing here reads the whole state. The picture comes from
:mod:`speciation.render` (the ruleset's presentation declarations); when that package is
missing a plain hex-grid picture is drawn instead.
"""
from __future__ import annotations

import html
import json
import math
from typing import Any

from ..interpreter.game import Game


def picture(view: dict, seat: int, ruleset, lang: str | None) -> str:
    """The SVG of *view* as seat *seat* sees it."""
    try:
        from ..render import render_svg
    except ImportError:
        return _plain_svg(view)
    return render_svg(view, seat, lang, ruleset=ruleset)


def option_labels(view: dict, seat: int, ruleset, lang: str | None, actions: list) -> list[str]:
    """Readable labels of the seat's own options (naming what an entity option is)."""
    try:
        from ..render import Scene, label_of
    except ImportError:
        return [a.label for a in actions]
    scene = Scene.of(view, seat, lang, ruleset)
    return [label_of(scene, a) for a in actions]


def option_entity(view: dict, value: Any) -> str | None:
    """The entity an option names (clicked on its picture), if it names exactly one."""
    ents = view["ent"]
    values = value if isinstance(value, list) else [value]
    named = [v for v in values if isinstance(v, str) and v in ents]
    return named[0] if len(named) == 1 else None


def view_game(view: dict, ruleset, lang: str | None) -> Game | None:
    """A game made of the view alone (to evaluate public functions such as the score)."""
    state = json.loads(json.dumps(view))
    state.update(stack=[], rng=[0, 0, 0, 0], chance=[])
    if state.get("pending") is not None:
        state["pending"] = dict(state["pending"], options=[])
    try:
        return Game(ruleset, state, lang)
    except Exception:  # noqa: BLE001 - a view that cannot be a game: no scores
        return None


def scores(view: dict, ruleset, lang: str | None) -> list[Any]:
    """Each player's score as the view shows it ("?" where it cannot be computed)."""
    game = view_game(view, ruleset, lang)
    out: list[Any] = []
    for player in view["players"]:
        try:
            out.append(game.evaluate("score", player) if game else "?")
        except Exception:  # noqa: BLE001 - a score that needs what the seat cannot see
            out.append("?")
    return out


def winner(view: dict, ruleset, lang: str | None, points: list[Any]) -> int | None:
    """The winning player's index once the game is over, from the view."""
    game = view_game(view, ruleset, lang)
    if game is None:
        return None
    game.state["pending"] = None
    try:
        return game.winner
    except Exception:  # noqa: BLE001 - fall back to the best score
        numbers = [p for p in points if isinstance(p, (int, float))]
        return points.index(max(numbers)) if numbers else None


# ---- a plain picture when the renderer is not installed -------------------------------------

def _plain_svg(view: dict) -> str:
    size = 34.0
    cells = [e for e in view["ent"].values() if e.get("kind") == "cell" and "q" in e]
    parts = []
    for cell in cells:
        x, y = _centre(cell["q"], cell["r"], size)
        points = " ".join(f"{x + size * math.cos(math.radians(60 * i + 30)):.1f},"
                          f"{y + size * math.sin(math.radians(60 * i + 30)):.1f}" for i in range(6))
        parts.append(f'<g data-entity="{html.escape(cell["id"])}"><title>{html.escape(cell["id"])}</title>'
                     f'<polygon points="{points}" fill="#e8dcc0" stroke="#555"/></g>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-300 -300 600 600" width="600" '
            f'height="600">{"".join(parts)}</svg>')


def _centre(q: int, r: int, size: float) -> tuple[float, float]:
    return size * math.sqrt(3) * (q + r / 2), size * 1.5 * r
