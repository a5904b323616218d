"""Draw a tableau's ``levels``: each owner's entities of a kind stacked by a level attribute
(the lowest level at the bottom), each entity a column of its items; with ``shift: 0.5``
every level sits half a column right of the one below, so each entity stands between the
two beneath it (a pyramid).

Declared in a ruleset's ``presentation`` (docs/language.md, "How the state looks")::

    tableau:
      seats:
        levels:
          kind: stack_piece     # the entities drawn, in their owner's band
          owner: owner          # the attribute naming the owner
          level: level          # a number: 1 at the bottom
          place: pos            # a number: its place on its level, from 0
          shift: 0.5            # columns each level is shifted right of the one below
          items: cards          # its list drawn as its column of small cards
          off: turned           # its items in this list are drawn turned over (grey, tilted)
          gone: removed         # an entity for which this is true is not drawn
          flags:                # badges on an entity: an attribute or a rule function of it
            - {attribute: weak, label: weak}
            - {function: turns_left, label: "safe ({})", colour: "#2b6cb0"}

Every entity and item is a group with ``data-entity``, so a table maps an option naming it
to a click. Nothing here knows a game: what is drawn comes from the declaration and the
seat's view.
"""
from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

COL_W, GAP, HEAD, ITEM_H, LABEL_W = 144, 8, 20, 19, 58
OFF_FILL, OFF_INK, BADGE = "#d9d6cf", "#6d6a63", "#8a5a12"


def entities(scene: Any, spec: dict, owner: str) -> list[dict]:
    """The owner's entities of the declared kind that are not gone."""
    gone = spec.get("gone")
    return [r for r in scene.of_kind(spec["kind"]) if r.get(spec["owner"]) == owner and not (gone and r.get(gone))]


def _number(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _levels(scene: Any, spec: dict, owner: str) -> dict[int, list[dict]]:
    out: dict[int, list[dict]] = {}
    for record in entities(scene, spec, owner):
        out.setdefault(max(1, _number(record.get(spec["level"]))), []).append(record)
    for level in out.values():
        level.sort(key=lambda r: _number(r.get(spec.get("place", ""))))
    return out


def _items(spec: dict, record: dict) -> list:
    items = record.get(spec.get("items", "")) if spec.get("items") else None
    return items if isinstance(items, list) else []


def flags(scene: Any, spec: dict, record: dict) -> list[tuple[str, str | None]]:
    """The badges an entity shows now: (words, colour), in the declared order."""
    out = []
    for flag in spec.get("flags", []):
        value = scene.evaluate(flag["function"], record["id"]) if "function" in flag else record.get(flag.get("attribute"))
        if value in (None, False, 0, "", [], {}):
            continue
        words = scene.text(flag["label"])
        out.append((words.replace("{}", scene.label(value)) if "{}" in words else words, flag.get("colour")))
    return out


def _column(spec: dict, record: dict) -> float:
    level, place = max(1, _number(record.get(spec["level"]))), _number(record.get(spec.get("place", "")))
    return place + (level - 1) * float(spec.get("shift", 0))


def measure(scene: Any, spec: dict, owner: str) -> tuple[float, float]:
    """The width and height of the owner's levels (0, 0 when it has no entity)."""
    levels = _levels(scene, spec, owner)
    if not levels:
        return 0, 0
    columns = max(_column(spec, r) for rows in levels.values() for r in rows) + 1
    height = sum(_level_height(scene, spec, levels.get(level, [])) for level in range(1, max(levels) + 1))
    return LABEL_W + columns * (COL_W + GAP), height


def _head(scene: Any, spec: dict, record: dict) -> float:
    """The height of an entity's head: one line per badge shown."""
    return max(HEAD, 4 + 17 * len(flags(scene, spec, record)))


def _level_height(scene: Any, spec: dict, rows: list[dict]) -> float:
    deepest = max([_head(scene, spec, r) + max(len(_items(spec, r)), 1) * (ITEM_H + 2) for r in rows]
                  + [HEAD + ITEM_H + 2])
    return deepest + 10


def draw_levels(canvas: Any, spec: dict, owner: str, x0: float, y0: float, shapes: tuple) -> tuple[float, float]:
    """Draw the owner's levels with their top-left at (x0, y0); returns their size."""
    text, fit = shapes
    scene = canvas.scene
    levels = _levels(scene, spec, owner)
    if not levels:
        return 0, 0
    y = y0
    word = scene.text(spec.get("level_label", "Level"))
    for level in range(max(levels), 0, -1):
        rows = levels.get(level, [])
        height = _level_height(scene, spec, rows)
        canvas.add(f'<line x1="{x0}" y1="{y + height - 4:.1f}" x2="{x0 + measure(scene, spec, owner)[0]:.1f}" '
                   f'y2="{y + height - 4:.1f}" stroke="#d8ccb0" stroke-width="1"/>',
                   text(x0, y + 15, f"{word} {level}", 10, weight="bold", fill="#6b5a3a"))
        for record in rows:
            _entity(canvas, spec, record, x0 + LABEL_W + _column(spec, record) * (COL_W + GAP), y, (text, fit))
        y += height
    return measure(scene, spec, owner)


def _entity(canvas: Any, spec: dict, record: dict, x: float, y: float, shapes: tuple) -> None:
    """One entity: its column with its badges on top and its items beneath them; the column
    is the entity's group (a click on it names the entity), each item a group inside it."""
    text, fit = shapes
    scene = canvas.scene
    items = _items(spec, record)
    off = record.get(spec.get("off", "")) if spec.get("off") else None
    off = off if isinstance(off, list) else []
    shown = flags(scene, spec, record)
    outline = next((colour for _, colour in shown if colour), "#4a5a38")
    head = _head(scene, spec, record)
    height = head + max(len(items), 1) * (ITEM_H + 2) + 2
    body = [f'<rect x="{x:.1f}" y="{y:.1f}" width="{COL_W}" height="{height}" rx="5" fill="#e4ead9" '
            f'stroke="{outline}" stroke-width="{2.5 if shown else 1.2}"/>']
    for k, (words, colour) in enumerate(shown):
        w, by = min(COL_W - 8, 6 + 5.6 * len(words)), y + 3 + 17 * k
        body.append(f'<rect class="flag" x="{x + 4:.1f}" y="{by:.1f}" width="{w:.1f}" height="14" rx="7" '
                    f'fill="{colour or BADGE}"/>' + text(x + 4 + w / 2, by + 10.5, fit(words, 23), 9, "middle", "bold",
                                                         "#fff"))
    for j, item in enumerate(items):
        body.append(_item(canvas, item, item in off, x, y + head + j * (ITEM_H + 2), shapes))
    place = _number(record.get(spec.get("place", "")))
    level = max(1, _number(record.get(spec["level"])))
    said = [scene.label(i) + (f" ({scene.text('turned over')})" if i in off else "") for i in items]
    title = f"{scene.label(record.get(spec['owner']))}: {scene.text(spec.get('level_label', 'Level'))} {level}, " \
            f"{scene.text('place')} {place + 1}: " + (", ".join(said) or "—") + \
            "".join(f"; {words}" for words, _ in shown)
    canvas.group(record["id"], title, "".join(body), "entity")


def _item(canvas: Any, item: Any, turned: bool, x: float, iy: float, shapes: tuple) -> str:
    """An item of a column: a small card, grey and tilted when turned over."""
    text, fit = shapes
    scene = canvas.scene
    label = scene.label(item)
    cx, cy = x + COL_W / 2, iy + ITEM_H / 2
    dashes = ' stroke-dasharray="3 2"' if turned else ""
    chip = (f'<rect x="{x + 4:.1f}" y="{iy:.1f}" width="{COL_W - 8}" height="{ITEM_H}" rx="3" '
            f'fill="{OFF_FILL if turned else "#fffaf0"}" stroke="{OFF_INK if turned else "#7a5c2e"}" '
            f'stroke-width="1"{dashes}/>' + text(cx, iy + 13.5, fit(label, 23), 10, "middle", fill=OFF_INK if turned else "#222"))
    if turned:
        chip = f'<g transform="rotate(-4 {cx:.1f} {cy:.1f})">{chip}</g>'
    title = scene.card_title(item) if isinstance(item, str) and item in scene.ruleset.cards else label
    title += f" ({scene.text('turned over')})" if turned else ""
    entity = item if isinstance(item, str) and item in scene.ent else None
    return (f'<g class="{"item off" if turned else "item"}"{canvas.entity(entity, title)}>'
            f'<title>{escape(title)}</title>{chip}</g>')


def levels_text(scene: Any, spec: dict, owner: str) -> list[str]:
    """The owner's levels as text lines, the highest first: each entity's items in brackets
    (a turned-over item marked), its badges after it."""
    levels = _levels(scene, spec, owner)
    off_attr = spec.get("off")
    lines = []
    for level in range(max(levels, default=0), 0, -1):
        shown = []
        for record in levels.get(level, []):
            off = record.get(off_attr) if off_attr else None
            items = ", ".join(scene.label(i) + (f" ({scene.text('turned over')})" if isinstance(off, list) and i in off
                                                else "") for i in _items(spec, record))
            badges = "".join(f" <{words}>" for words, _ in flags(scene, spec, record))
            shown.append(f"[{items or '—'}]{badges}")
        lines.append(f"  {scene.text(spec.get('level_label', 'Level'))} {level}: " + " ".join(shown))
    return lines
