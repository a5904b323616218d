"""Pictures and summaries of a position, from a seat's view and the ruleset's
``presentation`` declarations: SVG (and PNG), a text summary for the terminal, and labels
that name what an option is. Nothing here knows any game.

>>> from speciation import Game, load_ruleset
>>> game = Game.new(load_ruleset("original"), players=3, seed=1)   # doctest: +SKIP
>>> svg = render_svg(game, seat=0)                                  # doctest: +SKIP
"""
from __future__ import annotations

from typing import Any

from .scene import Scene
from .svg import Picture, draw, render_scene
from .text import render_text

__all__ = ["Picture", "Scene", "describe", "describe_options", "draw", "render_png", "render_svg", "render_text"]


def render_svg(source: Any, seat: int | None = None, lang: str | None = None, ruleset: Any = None,
               omniscient: bool = False) -> str:
    """An SVG picture of a game (or of a view, given its ruleset) as seat *seat* sees it;
    the whole state only when *seat* is None and *omniscient* is asked for."""
    return render_scene(Scene.of(source, seat, lang, ruleset, omniscient))


def render_png(svg: str) -> bytes:
    """The SVG as a PNG (needs the ``table`` extra: cairosvg)."""
    try:
        import cairosvg
    except ImportError as exc:  # pragma: no cover - the table extra is not installed
        raise RuntimeError("PNG output needs cairosvg: pip install 'speciation[table]'") from exc
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"))


def describe(source: Any, value: Any, seat: int | None = None, lang: str | None = None,
             ruleset: Any = None) -> str:
    """A label naming what *value* is (a cell with its terrain, a corner by its cells, a
    display space with its parameter, ...) as seat *seat* sees the game."""
    return Scene.of(source, seat, lang, ruleset, omniscient=seat is None).describe(value)


def describe_options(game: Any, lang: str | None = None) -> list[str]:
    """Labels of the pending decision's options, as the deciding seat sees them: entity
    options named by :meth:`Scene.describe`, others by the rules' own option labels."""
    scene = Scene.of(game, game.current_player, lang)
    return [label_of(scene, action) for action in game.legal_actions()]


def label_of(scene: Scene, action: Any) -> str:
    """One option's label: what it names if it is (or lists) entities of the board or the
    display, else the label the rules give it."""
    value = action.value
    values = value if isinstance(value, list) else [value]
    display_kind = (scene.presentation.get("display") or {}).get("kind")
    drawn = {"cell", "corner"} | ({display_kind} if display_kind else set())  # a word is no kind's
    if any(isinstance(v, str) and scene.ent.get(v, {}).get("kind") in drawn for v in values):
        return scene.describe(value)
    return scene.text(action.label) if value is None else action.label  # "pass (decline)" in the scene's language
