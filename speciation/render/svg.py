"""Draw a scene as SVG: the hex grid, the action display, rows of cards and tokens,
counters, one panel per player (or per what the ruleset says), and the log.

Every drawn entity is a group ``<g data-entity="id">`` with a ``<title>`` (hover text);
:func:`draw` returns the SVG together with the list of what it drew (a :class:`Picture`),
so a table maps an option's value to what it can click without reading the SVG back. What
is drawn comes only from the scene (a seat's view) and the ruleset's presentation
declarations.
"""
from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from .layout import card_lines, card_height
from .board import draw_board, hexagon
from .scene import Scene
from .shared import Body, active
from .tableau import draw_tableau

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
PANEL_W, CARD_W, CARD_H = 262, 168, 118


def _t(text: Any) -> str:
    return escape(str(text))


def _title(text: str) -> str:
    return f"<title>{_t(text)}</title>"


def _text(x: float, y: float, text: Any, size: float = 12, anchor: str = "start", weight: str = "normal",
          fill: str = "#222") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}">{_t(text)}</text>')


def _ink(colour: str) -> str:
    """Black or white, whichever reads better on *colour* (``#rrggbb``)."""
    if not colour.startswith("#") or len(colour) != 7:
        return "#111"
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#111" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def _fit(text: str, width: int) -> str:
    """*text* cut to *width* characters (with an ellipsis); the full text is in the title."""
    return text if len(text) <= width else text[:width - 1] + "…"


def _disk(x: float, y: float, r: float, fill: str, label: str = "") -> str:
    shape = f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{fill}" stroke="#333" stroke-width="1"/>'
    if label:
        shape += _text(x, y + 4, label, 10, "middle", "bold", _ink(fill))
    return shape


def _cube(x: float, y: float, fill: str, count: Any) -> str:
    return (f'<rect x="{x - 9:.1f}" y="{y - 9:.1f}" width="18" height="18" rx="2" fill="{fill}" '
            f'stroke="#222" stroke-width="1"/>' + _text(x, y + 4, count, 11, "middle", "bold", _ink(fill)))


@dataclass
class Picture:
    """A drawn scene: the SVG, and every entity it drew (a ``data-entity`` group) with its
    hover text, in drawing order."""

    svg: str
    drawn: dict[str, str] = field(default_factory=dict)

    def entities_of(self, value: Any) -> list[str]:
        """The drawn entities an option's *value* names: clicking any of them chooses it
        (an option ``[pawn, space]`` is on the pawn and on the space)."""
        values = value if isinstance(value, list) else [value]
        return list(dict.fromkeys(v for v in values if isinstance(v, str) and v in self.drawn))


class _Canvas:
    def __init__(self, scene: Scene, elements: dict | None = None):
        self.scene = scene
        self.parts: list[str] = []
        self.drawn: dict[str, str] = {}
        self.elements = elements   # elements drawn before, by key (part)
        self.used: dict[tuple, Any] = {}   # ... and those of this picture (kept for the next)

    def add(self, *parts: str) -> None:
        self.parts.extend(parts)

    def entity(self, entity: str | None, title: str) -> str:
        """The attribute that makes a group the drawing of *entity* (noted as drawn)."""
        if entity is None:
            return ""
        self.drawn.setdefault(entity, title)
        return f" data-entity={quoteattr(entity)}"

    def group(self, entity: str | None, title: str, body: str, cls: str) -> None:
        self.add(f'<g class="{cls}"{self.entity(entity, title)}>{_title(title)}{body}</g>')

    def part(self, key: tuple, draw: Callable[..., Any], *args: Any) -> Any:
        """Draw one element (``draw(canvas, *args)``), or add again what it drew for an equal
        *key* in the drawings a table shares (:mod:`.shared`; *key* names all the element is
        drawn from besides the scene's ruleset, language, presentation and names); what
        *draw* returned (its size, say), kept with it."""
        known = self.elements.get(key) if self.elements is not None else None
        if known is None:
            part = _Canvas(self.scene)
            made = draw(part, *args)
            known = (part.parts, part.drawn, made)
        if self.elements is not None:
            self.used[key] = known
        self.parts.extend(known[0])
        for entity, title in known[1].items():
            self.drawn.setdefault(entity, title)
        return known[2]


# ---- the action display --------------------------------------------------------------------

def _display(canvas: _Canvas, x0: float, y0: float) -> tuple[float, float]:
    scene = canvas.scene
    sections = scene.display_sections()
    if not sections:
        return 0, 0
    spec = scene.presentation["display"]
    canvas.add(_text(x0, y0 + 14, scene.text(spec.get("title", "Display")), 15, weight="bold"))
    y = y0 + 24
    width = 0.0
    for section, spaces in sections:
        canvas.add(f'<rect x="{x0}" y="{y}" width="118" height="30" rx="4" fill="#3d3d3d"/>',
                   _text(x0 + 6, y + 19, scene.label(section), 12, weight="bold", fill="#fff"))
        x = x0 + 136
        for space in spaces:   # each drawn again only when it changed (_Canvas.part)
            canvas.part(("space", repr(space), x, y + 15, repr(scene.beside(space["id"]))), _space, space, spec, x, y + 15)
            x += 30
        box = (spec.get("boxes") or {}).get(section)
        if box and not box.get("per_space"):
            x = _tokens(canvas, box, x + 10, y + 15)
        width = max(width, x - x0)
        y += 34
    return width, y - y0


def _space(canvas: _Canvas, space: dict, spec: dict, x: float, cy: float) -> None:
    scene = canvas.scene
    pawn = spec.get("pawn") or {}
    owner = space.get(pawn.get("attribute", ""))
    ring = "#f4f1e8"
    body = [f'<circle cx="{x + 13:.1f}" cy="{cy:.1f}" r="13" fill="{ring}" stroke="#555" stroke-width="1.5"/>']
    param = spec.get("param") or {}
    value = space.get(param.get("attribute", ""))
    if value is not None:
        values = value if isinstance(value, list) else [value]
        for i, v in enumerate(values):
            colour = scene.colour_known(param.get("palette"), v)
            if colour:
                body.append(f'<circle cx="{x + 13 + (i - (len(values) - 1) / 2) * 8:.1f}" cy="{cy + 13:.1f}" '
                            f'r="4.5" fill="{colour}" stroke="#333" stroke-width="0.7"/>')
            else:
                body.append(_text(x + 13, cy + 22, _fit(scene.label(v), 6), 8, "middle"))
    beside = scene.beside(space["id"])
    if beside is not None:
        fill = scene.colour(beside[1], beside[0])
        body.append(_disk(x + 24, cy - 10, 6.5, fill))
    if owner is not None:
        fill = scene.colour(pawn.get("palette"), owner)
        body.append(f'<rect x="{x + 6:.1f}" y="{cy - 9:.1f}" width="14" height="18" rx="6" fill="{fill}" '
                    f'stroke="#111" stroke-width="1.2"/>')
    title = scene.describe_space(space, spec) + (f" — {scene.label(owner)}" if owner is not None else "")
    canvas.group(space["id"], title, "".join(body), "space")


def _tokens(canvas: _Canvas, source: dict, x: float, cy: float) -> float:
    scene = canvas.scene
    values = scene.read(source["from"]) or []
    palette = source.get("palette")
    for value in values if isinstance(values, list) else [values]:   # each drawn again only when it changed
        canvas.part(("token", repr(value), palette, x, cy), _token, value, palette, x, cy)
        x += 21
    return x


def _token(canvas: _Canvas, value: Any, palette: str | None, x: float, cy: float) -> None:
    scene = canvas.scene
    fill = scene.colour(palette, value)
    canvas.add(f'<g class="token" data-value={quoteattr(str(value))}>{_title(scene.label(value))}'
               f'{_disk(x + 9, cy, 9, fill, scene.short(value, palette))}</g>')


# ---- rows: cards, tracks, tokens -------------------------------------------------------------

def _rows(canvas: _Canvas, x0: float, y0: float) -> tuple[float, float]:
    """The declared rows, top to bottom; consecutive piles share one row."""
    scene = canvas.scene
    y, width = y0, 0.0
    rows = scene.presentation.get("rows", [])
    i = 0
    while i < len(rows):
        if rows[i].get("as") == "pile":
            j = i
            while j < len(rows) and rows[j].get("as") == "pile":
                source = rows[j]   # drawn again only when its list changed
                ident = source["from"].rpartition(".")[0]
                canvas.part(("pile", j, repr(scene.read(source["from"])), ident in scene.ent, x0 + (j - i) * 150, y),
                            _pile, source, x0 + (j - i) * 150, y)
                j += 1
            width, y, i = max(width, (j - i) * 150), y + 78, j
            continue
        w, h = _row_part(canvas, i, rows[i], x0, y)
        width, y, i = max(width, w), y + h, i + 1
    return width, y - y0


def _row_part(canvas: _Canvas, index: int, source: dict, x0: float, y: float) -> tuple[float, float]:
    """The row drawn again only when it changed: its key names what it shows (the declared
    row, its items and their records, its label with its tally) and where."""
    scene = canvas.scene
    values = scene.row_values(source)
    label = scene.source_label(source) + (f": {scene.tally(source)}" if "of" in source else "")
    records = [scene.ent.get(v) if isinstance(v, str) else None for v in values]
    key = ("row", index, label, repr(values), repr(records), x0, y)
    return canvas.part(key, _row, source, x0, y)


def _row(canvas: _Canvas, source: dict, x0: float, y: float) -> tuple[float, float]:
    scene = canvas.scene
    values = scene.row_values(source)
    label = scene.source_label(source) + (f": {scene.tally(source)}" if "of" in source else "")
    canvas.add(_text(x0, y + 14, label, 14, weight="bold"))
    kind = source.get("as", "cards" if all(v in scene.ruleset.cards for v in values) and values else "tokens")
    if kind == "cards":
        fitted = [card_lines(scene.card_text(ident)) for ident in values]
        height = max([CARD_H] + [card_height(size, lines) for size, lines in fitted])
        for i, ident in enumerate(values):
            _card(canvas, ident, x0 + i * (CARD_W + 8), y + 22, i + 1, fitted[i], height)
        return len(values) * (CARD_W + 8), 22 + height + 12
    for i, value in enumerate(values):
        detail = scene.row_detail(source, value)  # colours the item when it has one
        fill = scene.colour(source.get("palette"), value if detail is None else detail)
        shown = scene.label(value) if "kind" in source else f"{i + 1}. {scene.label(value)}"
        body = (f'<rect x="{x0 + i * 112}" y="{y + 22}" width="104" height="24" rx="4" fill="{fill}" '
                f'stroke="#222"/>' + _label_in_box(shown, x0 + i * 112 + 52, y + 38, _ink(fill)))
        entity = value if isinstance(value, str) and value in scene.ent else None
        canvas.group(entity, scene.row_item(source, value), body, "track")
    return len(values) * 112, 56


def _label_in_box(text: str, x: float, y: float, ink: str) -> str:
    """*text* centred in a row's box: one line, or two smaller ones when it is long."""
    if len(text) <= 15:
        return _text(x, y, text, 11, "middle", "bold", ink)
    first, *rest = textwrap.wrap(text, 18)
    lines = [first, " ".join(rest)] if rest else [first]
    return "".join(_text(x, y - 5 * (len(lines) - 1) + k * 10, _fit(line, 20), 9, "middle", "bold", ink)
                   for k, line in enumerate(lines))


def _pile(canvas: _Canvas, source: dict, x: float, y: float) -> None:
    """A list drawn as a pile: its first item on top (a "?" if this seat cannot see it)
    and how many there are; the entity holding the list is what a click names."""
    scene = canvas.scene
    values = scene.read(source["from"]) or []
    values = values if isinstance(values, list) else [values]
    top = values[0] if values else None
    label = scene.source_label(source)
    fill = scene.colour_known(source.get("palette"), top) or ("#9a9a9a" if values else "#e8e2d2")
    body = [f'<rect x="{x}" y="{y}" width="140" height="74" fill="#fff" fill-opacity="0" stroke="none"/>',  # a click anywhere
            _text(x, y + 14, _fit(label, 22), 12, weight="bold")]
    for k in range(min(len(values), 3) - 1, -1, -1):  # the pile's depth
        body.append(f'<polygon points="{hexagon(x + 26 + k * 3, y + 48 - k * 3, 22)}" fill="{fill if k == 0 else "#bdb6a4"}" '
                    f'stroke="#5a4a32" stroke-width="1.5"/>')
    shown = "" if top is None else ("?" if top == "?" else scene.label(top))
    body.append(_text(x + 26, y + 52, _fit(shown, 8), 9, "middle", "bold", _ink(fill)))
    body.append(_text(x + 56, y + 52, f"× {len(values)}", 12))
    ident, _, _ = source["from"].rpartition(".")
    entity = ident if ident and ident in scene.ent else None
    canvas.group(entity, f"{label}: {shown or '—'} ({len(values)})", "".join(body), "pile")


def _card(canvas: _Canvas, ident: str, x: float, y: float, slot: int, fitted: tuple[float, list[str]],
          height: float) -> None:
    """A card with its whole text (see :func:`.layout.card_lines`); a card whose effect is not
    confirmed is marked in its corner, its provenance in the hover text."""
    scene = canvas.scene
    name = scene.label(ident)
    size, lines = fitted
    known = scene.provenance(ident)
    body = [f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{height:.0f}" rx="7" fill="#fffaf0" stroke="#7a5c2e" '
            f'stroke-width="2"/>', f'<rect x="{x}" y="{y}" width="{CARD_W}" height="22" rx="7" fill="#7a5c2e"/>',
            _card_name(f"{slot}. {name}", x + 8, y + 15, 21 if known else 24)]
    if known is not None:
        body.append(_mark(x + CARD_W - 12, y + 11, known[0]))
    for i, line in enumerate(lines):
        body.append(_text(x + 6, y + 36 + i * (size + 2.5), line, size))
    canvas.group(ident, scene.card_title(ident), "".join(body), "card")


def _card_name(name: str, x: float, y: float, room: int) -> str:
    """A card's name in its title bar: 11 px, smaller for a long name (cut only past that)."""
    if len(name) <= room:
        return _text(x, y, name, 11, weight="bold", fill="#fff")
    return _text(x, y - 0.5, _fit(name, room * 11 // 8), 8, weight="bold", fill="#fff")


def _mark(x: float, y: float, confidence: str) -> str:
    """The mark of a card whose effect is not confirmed (its provenance in the hover text)."""
    return (f'<g class="provenance" data-confidence={quoteattr(confidence)}>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="7.5" fill="#f2b705" stroke="#fff" stroke-width="1"/>'
            + _text(x, y + 4, "?", 11, "middle", "bold", "#111") + "</g>")


# ---- panels, counters, log ---------------------------------------------------------------------

def _panels(canvas: _Canvas, x0: float, y0: float, columns: int) -> tuple[float, float]:
    scene = canvas.scene
    spec = scene.presentation["panels"]
    records = scene.panels()
    fields = spec.get("fields", [])
    height = 34 + 22 * len(fields)
    for i, record in enumerate(records):   # each drawn again only when it changed
        x, y = x0 + (i % columns) * (PANEL_W + 10), y0 + (i // columns) * (height + 10)
        canvas.part(("panel", repr(record), x, y, height), _panel, record, x, y, height)
    rows = (len(records) + columns - 1) // columns
    return min(len(records), columns) * (PANEL_W + 10), rows * (height + 10)


def _panel(canvas: _Canvas, record: dict, x: float, y: float, height: float) -> None:
    """One record's panel (its heading, then each declared field)."""
    scene = canvas.scene
    spec = scene.presentation["panels"]
    fields = spec.get("fields", [])
    colour = scene.colour(spec.get("palette"), record["id"]) if spec.get("palette") else "#555"
    owner = scene.owner_of(record)
    heading = scene.label(record["id"]) + (f" — {scene.label(owner)}" if owner else "")
    body = [f'<rect x="{x}" y="{y}" width="{PANEL_W}" height="{height}" rx="6" fill="#fbfbf8" stroke="{colour}" '
            f'stroke-width="3"/>', f'<rect x="{x}" y="{y}" width="{PANEL_W}" height="26" rx="6" fill="{colour}"/>',
            _text(x + 8, y + 18, heading, 13, weight="bold", fill=_ink(colour))]
    lines = []
    for j, shown in enumerate(fields):
        fy = y + 46 + j * 22
        label = scene.text(shown.get("label", shown["attribute"]))
        value = record.get(shown["attribute"])
        said = scene.flag(shown, value)
        if said is not None:  # a flag: its words while set, nothing while not
            body.append(_text(x + 8, fy, said, 11, weight="bold") if said else "")
            lines += [said] if said else []
            continue
        body.append(_text(x + 8, fy, label, 11, fill="#555"))
        body.append(_field_value(canvas, shown, value, x + 134, fy))
        lines.append(f"{label}: {scene.items(value)}")
    canvas.group(record["id"], heading + "\n" + "\n".join(lines), "".join(body), "panel")


def _field_value(canvas: _Canvas, field: dict, value: Any, x: float, y: float) -> str:
    scene = canvas.scene
    if isinstance(value, list) and value and field.get("as") == "cards":
        return _chips(canvas, value, x, y)
    if isinstance(value, list) and field.get("palette"):
        return "".join(_disk(x + 8 + i * 19, y - 4, 8, scene.colour(field["palette"], v), scene.short(v, field["palette"]))
                       for i, v in enumerate(value[:6])) + (_text(x + 124, y, f"+{len(value) - 6}", 10)
                                                            if len(value) > 6 else "")
    shown = scene.label(value) if not isinstance(value, list) else (scene.items(value) or "—")
    return _text(x, y, _fit(shown, 17), 12, weight="bold")


def _chips(canvas: _Canvas, cards: list, x: float, y: float) -> str:
    """Cards in a panel's field, small (three fit; the name and text in the hover text);
    each one the card entity a click names."""
    scene = canvas.scene
    out = []
    for i, ident in enumerate(cards[:3]):
        name = scene.label(ident)
        body = (f'<rect x="{x + i * 42:.1f}" y="{y - 13:.1f}" width="40" height="17" rx="3" fill="#fffaf0" '
                f'stroke="#7a5c2e" stroke-width="1.2"/>' + _text(x + i * 42 + 20, y - 1, _fit(name, 8), 8, "middle"))
        known = scene.provenance(ident)
        if known is not None:
            body += _mark(x + i * 42 + 38, y - 13, known[0])
        entity = ident if isinstance(ident, str) and ident in scene.ent else None
        title = scene.card_title(ident) if isinstance(ident, str) else name
        out.append(f'<g class="card"{canvas.entity(entity, title)}>{_title(title)}{body}</g>')
    return "".join(out) + (_text(x + 126, y, f"+{len(cards) - 3}", 10) if len(cards) > 3 else "")


def _counter_text(scene: Scene, source: dict) -> str:
    return f"{scene.source_label(source)}: {scene.tally(source)}"


def _header(canvas: _Canvas, width: float) -> None:
    scene = canvas.scene
    title = scene.ruleset.title or scene.ruleset.name
    who = scene.player_name(scene.seat) if scene.seat is not None else None
    # no seat: the whole state (it keeps the generator), or a spectator's view (it does not)
    whose = scene.text("all seats (omniscient)") if "rng" in scene.state else scene.text("what every seat sees")
    canvas.add(f'<rect x="0" y="0" width="{width}" height="54" fill="#2b2118"/>',
               _text(16, 24, title, 19, weight="bold", fill="#f3e3c0"),
               _text(width - 16, 24, f"{scene.text('view of')} {who}" if who else whose,
                     12, "end", fill="#f3e3c0"))
    counters = "   ".join(_counter_text(scene, c) for c in scene.presentation.get("counters", []))
    canvas.add(_text(16, 44, counters[:220], 11, fill="#e0d2b0"))
    pending = scene.state.get("pending")
    if pending:
        canvas.add(_text(width - 16, 44, f"{scene.label(pending['actor'])}: {pending.get('prompt') or 'to choose'}"[:110],
                         11, "end", fill="#ffd27a"))


def _log(canvas: _Canvas, x0: float, y0: float, width: float) -> float:
    scene = canvas.scene
    count = scene.presentation.get("log", {}).get("lines", 10)
    lines = [scene.readable(line if isinstance(line, str) else f"[to {scene.label(line[0])}] {line[1]}")
             for line in scene.state.get("log", [])[-count:]] if count else []
    if not lines:
        return 0
    canvas.add(_text(x0, y0 + 14, scene.text("Log"), 14, weight="bold"))
    per_line = max(20, int(width / 6.3))
    y = y0 + 32
    for line in lines:
        for part in textwrap.wrap(line, per_line)[:2]:
            canvas.add(_text(x0, y, part, 10, fill="#333"))
            y += 13
    return y - y0


def _scores(canvas: _Canvas, x0: float, y0: float) -> float:
    scene = canvas.scene
    canvas.add(_text(x0, y0 + 14, scene.text("Scores"), 14, weight="bold"))
    x = x0
    for i, (_, score) in enumerate(scene.scores()):
        shown = f"{scene.player_name(i)}: {score}"
        canvas.add(_text(x, y0 + 34, shown, 12))
        x += max(130, 7.2 * len(shown) + 20)
    return 44


def render_scene(scene: Scene) -> str:
    """The SVG of *scene* (:func:`draw` gives what it drew too)."""
    return draw(scene).svg


def draw(scene: Scene, log: bool = True) -> Picture:
    """Draw *scene*: the SVG and the entities it drew (without the log when *log* is false: a
    table shows the log beside it); the body (all but the heading) from a table's shared
    drawings (:mod:`.shared`) when one was drawn from an equal basis."""
    drawings = active()
    body = drawings.body(scene, log, _body) if drawings is not None else _body(scene, log)
    canvas = _Canvas(scene)
    _header(canvas, body.width)
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{body.width:.0f}" height="{body.height:.0f}" '
           f'viewBox="0 0 {body.width:.0f} {body.height:.0f}" font-family="{FONT}">\n'
           f'<rect width="100%" height="100%" fill="#f6f0e2"/>\n' + "\n".join(canvas.parts) + "\n" + body.svg
           + "\n</svg>\n")
    return Picture(svg, dict(body.drawn))


def _body(scene: Scene, log: bool) -> Body:
    """Everything of the picture but its heading (which names the seat), and its size."""
    drawings = active()
    canvas = _Canvas(scene, drawings.elements_for(scene) if drawings is not None else None)
    top = 70
    board_w, board_h = draw_board(canvas, 16, top, (_text, _disk, _cube, _ink))
    display_x = 16 + board_w + (24 if board_w else 0)
    display_w, display_h = _display(canvas, display_x, top)
    y = top + max(board_h, display_h) + 16
    rows_w, rows_h = _rows(canvas, 16, y)
    y += rows_h
    tableau_w, tableau_h = draw_tableau(canvas, 16, y + (8 if rows_h else 0), max(700.0, rows_w),
                                           (_text, _disk, _fit))
    rows_w, y = max(rows_w, tableau_w), y + tableau_h + (8 if tableau_h else 0)
    y += _scores(canvas, 16, y) + 8
    left_w = max(display_x + display_w, 16 + rows_w, 700)
    log_x = left_w + 20
    log_h = _log(canvas, log_x, top, 340) if log else 0
    width = max(log_x + 350 if log_h else left_w + 16, 16 + 3 * (PANEL_W + 10))
    columns = max(1, int((width - 16) // (PANEL_W + 10)))
    if len(scene.panels()) * (PANEL_W + 10) > left_w:  # the panels reach under the log
        y = max(y, top + log_h + 8)
    y += _panels(canvas, 16, y, columns)[1]
    height = max(y, top + log_h) + 16
    if drawings is not None:
        drawings.elements = canvas.used   # what the next picture may take again: this one's
    return Body("\n".join(canvas.parts), canvas.drawn, width, height)
