"""Draw the hex grid: each cell (its fill, label, pieces and marker) and each corner (its
token), every one a group with ``data-entity`` and its hover text.

Each cell and corner is drawn through the canvas's :meth:`part` with a key naming all it is
drawn from besides the scene's ruleset, language, presentation and names (its record, its
place, its marker; a corner's cells' names), so a table that shares its drawings
(:mod:`.shared`) draws again only the cells and corners that changed. The SVG module's
helpers are passed in (*shapes*), as to :mod:`.tableau`.
"""
from __future__ import annotations

import functools
import math
from typing import Any

from .scene import BLANK, centre

HEX = 44                      # hex radius (centre to corner)


def hexagon(cx: float, cy: float, r: float) -> str:
    """The points of a flat-topped hexagon of radius *r* centred at (cx, cy)."""
    return " ".join(f"{cx + r * math.cos(math.pi / 3 * i):.1f},{cy + r * math.sin(math.pi / 3 * i):.1f}"
                    for i in range(6))


@functools.lru_cache(maxsize=16384)
def _centre(cell: str) -> tuple[float, float]:
    return centre(cell, HEX)


@functools.lru_cache(maxsize=16384)
def _corner_centre(corner: str) -> tuple[float, float]:
    points = [centre(c, HEX) for c in corner.split("|")]
    return sum(p[0] for p in points) / 3, sum(p[1] for p in points) / 3


def draw_board(canvas: Any, x0: float, y0: float, shapes: tuple) -> tuple[float, float]:
    """Draw the grid with its top-left at (x0, y0); returns its width and height. *shapes*:
    the SVG module's text, disk, cube and ink helpers."""
    scene = canvas.scene
    cells = scene.cells
    if not cells:
        return 0, 0
    spec = scene.presentation.get("board", {})
    points = [_centre(c["id"]) for c in cells]
    min_x = min(p[0] for p in points) - HEX
    min_y = min(p[1] for p in points) - HEX * 0.87
    dx, dy = x0 - min_x, y0 - min_y
    for record, (cx, cy) in zip(cells, points):
        x, y = cx + dx, cy + dy
        canvas.part(("cell", repr(record), x, y, repr(scene.cell_marker(record["id"]))), _cell, record, x, y, spec, shapes)
    token = spec.get("corner_token") or {}
    ent = scene.ent
    named: dict[str, tuple[bool, str]] = {}   # each cell's name (and whether it is there), once
    for corner in scene.ruleset.grid.cells_at:
        record = ent.get(corner)
        if record is None:
            continue
        x, y = _corner_centre(corner)
        x, y = x + dx, y + dy
        around = []
        for c in scene.corner_cells(corner):
            name = named.get(c)
            if name is None:
                name = named[c] = (c in ent, scene.place_name(c))
            around.append(name)
        canvas.part(("corner", corner, repr(record), x, y, tuple(around)), _corner, corner, record, x, y, token, shapes)
    width = max(p[0] for p in points) + HEX - min_x
    height = max(p[1] for p in points) + HEX * 0.87 - min_y
    return width, height


def _cell(canvas: Any, record: dict, cx: float, cy: float, spec: dict, shapes: tuple) -> None:
    text, _, cube, ink = shapes
    scene = canvas.scene
    fill_spec = spec.get("cell_fill") or {}
    value = record.get(fill_spec.get("attribute", ""))
    fill = scene.colour(fill_spec.get("palette"), value) if value is not None else BLANK
    body = [f'<polygon points="{hexagon(cx, cy, HEX - 1)}" fill="{fill}" stroke="#5a4a32" stroke-width="2"/>']
    label_attr = spec.get("cell_label")
    if label_attr and record.get(label_attr) is not None:
        body.append(text(cx, cy - HEX * 0.52, scene.label(record[label_attr]), 10, "middle", "bold", ink(fill)))
    else:
        body.append(text(cx, cy - HEX * 0.52, record["id"], 9, "middle", "normal", "#8a7a5a"))
    pieces = spec.get("pieces") or {}
    units = {k: v for k, v in (record.get(pieces.get("attribute", "")) or {}).items() if v}
    for i, (owner, count) in enumerate(units.items()):
        col, row = i % 3, i // 3
        per_row = min(3, len(units) - row * 3)
        px = cx + (col - (per_row - 1) / 2) * 21
        body.append(cube(px, cy - 2 + row * 21, scene.colour(pieces.get("palette"), owner), count))
    marker = scene.cell_marker(record["id"])
    if marker is not None:  # a cone at the bottom of the hex
        fill = scene.colour(marker[2], marker[1])
        body.append(f'<polygon points="{cx - 8:.1f},{cy + HEX * 0.74:.1f} {cx + 8:.1f},{cy + HEX * 0.74:.1f} '
                    f'{cx:.1f},{cy + HEX * 0.4:.1f}" fill="{fill}" stroke="#111" stroke-width="1.2"/>')
    canvas.group(record["id"], scene.describe_cell(record), "".join(body), "cell")


def _corner(canvas: Any, corner: str, record: dict, x: float, y: float, token: dict, shapes: tuple) -> None:
    disk = shapes[1]
    scene = canvas.scene
    value = record.get(token.get("attribute", "")) if token else None
    if value is None:
        body = f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="#fff" fill-opacity="0.25" stroke="none"/>'
    else:
        fill = scene.colour(token.get("palette"), value)
        body = disk(x, y, 10, fill, scene.short(value, token.get("palette")))
    canvas.group(corner, scene.describe_corner(record), body, "corner")
