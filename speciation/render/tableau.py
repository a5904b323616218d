"""Draw a presentation's ``tableau``: the entities each owner has laid out in a row (cards
played in front of a player), each with its counted tokens and the items beneath it, the
owner's hand as small cards (hidden ones as card backs), and shared places with tokens (the
piles of a market, the areas of a card row).

Declared in a ruleset's ``presentation`` (docs/language.md, "How the state looks")::

    tableau:
      places: {from: game.regions, label: Areas, counters: [food, shelter], detail: needs}
      seats:
        kind: player          # one band per entity of this kind, in seat order
        row: row              # the owner's list of the entities laid out in the band
        hand: hand            # the owner's list drawn as small cards ("?" as a card back)
        counters: [food, fat, shelter]   # numbers on each laid-out entity, as tokens
        items: traits         # each laid-out entity's list drawn beneath it, as small cards
        hidden: body          # optional: an attribute that, when "?", marks the entity face down
        hand_as: cards        # optional: the hand as cards with their text (:mod:`.cards`)
        levels: {...}         # optional: entities placed by level and place attributes (:mod:`.levels`)
        faces: [main, short]  # optional: a hand card's attributes naming its faces, each drawn
                              # as a part of the card (a click on it names that face)
        slot: {value: new animal}   # optional: an empty place after the seat's own row while
                              # it may choose that option (a click there chooses it)
      stack: {from: game.stack}   # optional: a responses stack, top entry first (:mod:`.cards`)
      palette: tokens         # the colours of the counters' tokens (by attribute name)

Every drawn entity (an owner, a laid-out entity, an item, a hand card, a face of a hand card,
a place) is a group with ``data-entity``, so a table maps an option naming it to a click. A
face is drawn inside its card's group (and may be drawn on several cards: a table tells them
apart by the card it lies in). Nothing here knows a game: what is drawn comes from the
declaration and the seat's view.
"""
from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from .cards import draw_hand, draw_stack, hand_size, stack_text
from .levels import draw_levels, levels_text, measure

ENTITY_W, ENTITY_H, ITEM_H, CHIP_W, GAP = 132, 58, 17, 126, 10


def draw_tableau(canvas: Any, x0: float, y0: float, width: float, shapes: tuple) -> tuple[float, float]:
    """Draw the tableau with its top-left at (x0, y0) within *width*; returns its size.
    *shapes* are the SVG module's drawing helpers (text, disk, fit): one look for every part."""
    _text, _disk, _fit = shapes
    scene = canvas.scene
    spec = scene.presentation.get("tableau") or {}
    if not spec:
        return 0, 0
    palette = spec.get("palette")
    y = y0
    used_w = 0.0
    places = spec.get("places")
    if places:
        values = scene.read(places["from"]) or []
        canvas.add(_text(x0, y + 14, scene.source_label(places), 14, weight="bold"))
        x = x0
        for ident in values:
            record = scene.ent.get(ident, {}) if isinstance(ident, str) else {}
            detail = record.get(places.get("detail", ""))
            name = scene.label(ident)
            body = [f'<rect x="{x}" y="{y + 22}" width="{ENTITY_W}" height="{ENTITY_H - 8}" rx="6" fill="#e7dcc0" '
                    f'stroke="#7a6a48" stroke-width="1.5"/>', _text(x + 6, y + 38, _fit(name, 20), 11, weight="bold")]
            if detail is not None:
                body.append(_text(x + 6, y + 51, _fit(f"({scene.label(detail)})", 22), 9, fill="#5a4a32"))
            body.append(_tokens(scene, record, places.get("counters", []), palette, x + ENTITY_W - 8, y + 40, _disk))
            title = name + (f" ({scene.label(detail)})" if detail is not None else "") + ": " + \
                ", ".join(f"{scene.text(c)} {record.get(c, 0)}" for c in places.get("counters", []))
            canvas.group(ident if isinstance(ident, str) and ident in scene.ent else None, title, "".join(body), "place")
            x += ENTITY_W + GAP
        used_w = max(used_w, x - x0)
        y += 22 + ENTITY_H + GAP
    if spec.get("stack"):
        w, h = draw_stack(canvas, spec["stack"], x0, y, (_text, _fit))
        used_w, y = max(used_w, w), y + (h + GAP if h else 0)
    seats = spec.get("seats")
    if seats:
        owners = [p for p in scene.state.get("players", [])] if seats.get("kind", "player") == "player" else \
            [r["id"] for r in scene.of_kind(seats["kind"])]
        for owner in owners:
            w, h = _band(canvas, seats, palette, owner, x0, y, width, _disk, _fit, _text)
            used_w, y = max(used_w, w), y + h + GAP
    return used_w, y - y0


def _tokens(scene: Any, record: dict, counters: list, palette: str | None, right: float, cy: float, disk) -> str:
    """The counters of *record* as numbered tokens, right-aligned at *right* (none for 0)."""
    out, x = [], right
    for attribute in reversed(counters):
        value = record.get(attribute)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            out.append(disk(x - 8, cy, 8, scene.colour(palette, attribute), str(value)))
            x -= 19
    return "".join(out)


def _band(canvas: Any, seats: dict, palette: str | None, owner: str, x0: float, y: float, width: float,
          disk, fit, text) -> tuple[float, float]:
    """One owner's band: name, hand, then the row of laid-out entities with items beneath."""
    scene = canvas.scene
    record = scene.ent.get(owner, {})
    mine = scene.seat is not None and scene.state.get("players", [None] * (scene.seat + 1))[scene.seat] == owner
    colour = "#6b4f2a" if mine else "#555"
    row = record.get(seats.get("row", ""), []) or []
    items_attr, hidden_attr = seats.get("items"), seats.get("hidden")
    deepest = max([len(scene.ent.get(a, {}).get(items_attr, []) or []) for a in row if isinstance(a, str)] + [0])
    height: float = 30 + ENTITY_H + deepest * (ITEM_H + 2) + 12 if "row" in seats else 30
    hand = record.get(seats.get("hand", ""), []) if seats.get("hand") else []
    as_cards = seats.get("hand_as") == "cards"
    faces = seats.get("faces") or []
    chip_h = 20 if not faces else 6 + 13 * len(faces)
    hand_w, hand_h = hand_size(scene, hand) if as_cards else (len(hand) * (CHIP_W + 4), chip_h + 10)
    if hand:
        height += hand_h + (8 if as_cards else 0)
    levels = seats.get("levels")
    levels_w, levels_h = measure(scene, levels, owner) if levels else (0, 0)
    height += levels_h + (6 if levels_h else 0)
    slot = seats.get("slot") if mine and "row" in seats else None  # the seat's own row, while it is offered
    slot = slot if slot and slot["value"] in ((scene.state.get("pending") or {}).get("options") or []) else None
    width = max(width, 64 + hand_w, 20 + (len(row) + (1 if slot else 0)) * (ENTITY_W + GAP), 20 + levels_w)
    canvas.add(f'<rect x="{x0}" y="{y}" width="{width}" height="{height}" rx="8" fill="#fbf7ec" stroke="{colour}" '
               f'stroke-width="2"/>')
    canvas.group(owner, scene.label(owner), text(x0 + 10, y + 19, scene.label(owner), 13, weight="bold", fill=colour),
                 "owner")
    top = y + 28
    if levels:  # the owner's levels first, under its name: what it has built before what it holds
        top += draw_levels(canvas, levels, owner, x0 + 10, top, (text, fit))[1] + (6 if levels_h else 0)
    if hand and as_cards:
        canvas.add(text(x0 + 10, top + 14, scene.text(seats.get("hand_label", "Hand")), 10, fill="#555"))
        top += draw_hand(canvas, hand, x0 + 54, top + 2, (text, fit)) + 8
    elif hand:
        canvas.add(text(x0 + 10, top + 14, scene.text(seats.get("hand_label", "Hand")), 10, fill="#555"))
        for i, card in enumerate(hand):
            cx = x0 + 54 + i * (CHIP_W + 4)
            back = card == "?"
            name = "" if back else scene.label(card)
            chip = (f'<rect x="{cx}" y="{top + 2}" width="{CHIP_W}" height="{chip_h}" rx="3" '
                    f'fill="{"#5b7f4a" if back else "#fffaf0"}" stroke="#7a5c2e" stroke-width="1.2"/>')
            shown = _faces(canvas, scene.ent.get(card, {}), faces, cx, top + 2, text, fit) if not back and faces else ""
            chip += shown or text(cx + CHIP_W / 2, top + 6 + chip_h / 2, fit(name, 22), 9, "middle", fill="#222")
            entity = None if back or not isinstance(card, str) or card not in scene.ent else card
            canvas.group(entity, scene.text("a card") if back else name, chip, "card")
        top += chip_h + 10
    x = x0 + 10
    for animal in row:
        rec = scene.ent.get(animal, {}) if isinstance(animal, str) else {}
        down = hidden_attr is not None and rec.get(hidden_attr) == "?"
        name = scene.label(animal)
        counters = seats.get("counters", [])
        body = [f'<rect x="{x}" y="{top}" width="{ENTITY_W}" height="{ENTITY_H}" rx="6" fill="#c9d7b8" '
                f'stroke="#4a5a38" stroke-width="1.5"/>', text(x + 6, top + 16, fit(name, 18), 11, weight="bold")]
        if hidden_attr is not None and not down and rec.get(hidden_attr) is not None:
            body.append(text(x + 6, top + 30, fit(scene.label(rec[hidden_attr]), 24), 8, fill="#3a4a28"))
        body.append(_tokens(scene, rec, counters, palette, x + ENTITY_W - 6, top + ENTITY_H - 14, disk))
        title = name + ": " + ", ".join(f"{scene.text(c)} {rec.get(c, 0)}" for c in counters)
        canvas.group(animal if isinstance(animal, str) and animal in scene.ent else None, title, "".join(body),
                     "entity")
        for j, item in enumerate(rec.get(items_attr, []) or [] if items_attr else []):
            iy = top + ENTITY_H + 2 + j * (ITEM_H + 2)
            label = scene.label(item)
            chip = (f'<rect x="{x + 4}" y="{iy}" width="{ENTITY_W - 8}" height="{ITEM_H}" rx="3" fill="#fffaf0" '
                    f'stroke="#7a5c2e" stroke-width="1"/>' + text(x + ENTITY_W / 2, iy + 12, fit(label, 22), 9, "middle"))
            canvas.group(item if isinstance(item, str) and item in scene.ent else None, label, chip, "item")
        x += ENTITY_W + GAP
    if slot:
        _slot(canvas, slot, x, top, text, fit)
        x += ENTITY_W + GAP
    return max(width, x - x0), height


def _slot(canvas: Any, slot: dict, x: float, top: float, text, fit) -> None:
    """The empty place after the seat's row that stands for an option (a new entity laid
    out there): a dashed outline with its words; an option whose value is the slot's
    ``value`` is on it, so a click there chooses it."""
    words = canvas.scene.text(slot.get("label", slot["value"]))
    body = (f'<rect x="{x}" y="{top}" width="{ENTITY_W}" height="{ENTITY_H}" rx="6" fill="#fbf7ec" '
            f'stroke="#8a9a78" stroke-width="1.5" stroke-dasharray="5 4"/>'
            + text(x + ENTITY_W / 2, top + ENTITY_H / 2 + 4, fit(f"+ {words}", 20), 11, "middle", fill="#4a5a38"))
    canvas.group(slot["value"], words, body, "slot")


def _faces(canvas: Any, card: dict, faces: list, x: float, y: float, text, fit) -> str:
    """A hand card's faces (the entities its *faces* attributes name), one line each, each a
    group of its own inside the card's (a click on it names the face); "" if it names none."""
    scene = canvas.scene
    parts = []
    for k, attribute in enumerate(faces):
        face = card.get(attribute)
        if not isinstance(face, str) or face not in scene.ent:
            continue
        fy = y + 3 + k * 13
        line = "" if k == 0 else (f'<line x1="{x + 4}" y1="{fy}" x2="{x + CHIP_W - 4}" y2="{fy}" stroke="#c9b58e" '
                                  f'stroke-width="0.8"/>')
        body = (f'<rect x="{x + 1}" y="{fy}" width="{CHIP_W - 2}" height="13" fill="#fffaf0" fill-opacity="0"/>'
                + line + text(x + CHIP_W / 2, fy + 10, fit(scene.label(face), 24), 9, "middle",
                              weight="bold" if k == 0 else "normal", fill="#222"))
        parts.append(f'<g class="face"{canvas.entity(face, scene.card_title(face))}>'
                     f'<title>{escape(scene.card_title(face))}</title>{body}</g>')
    return "".join(parts)


def tableau_text(scene: Any) -> str:
    """The tableau as text (the terminal's board): the places with their counters, then each
    owner's hand and row, every laid-out entity with its counters and items."""
    spec = scene.presentation.get("tableau") or {}
    lines: list[str] = []
    places = spec.get("places")
    if places:
        shown = []
        for ident in scene.read(places["from"]) or []:
            record = scene.ent.get(ident, {}) if isinstance(ident, str) else {}
            detail = record.get(places.get("detail", ""))
            counts = ", ".join(f"{scene.text(c)} {record.get(c, 0)}" for c in places.get("counters", []))
            shown.append(f"{scene.label(ident)}{f' ({scene.label(detail)})' if detail is not None else ''}: {counts}")
        lines.append(f"{scene.source_label(places)}: " + "; ".join(shown))
    if spec.get("stack"):
        lines += stack_text(scene, spec["stack"])
    seats = spec.get("seats")
    if seats:
        owners = list(scene.state.get("players", [])) if seats.get("kind", "player") == "player" else \
            [r["id"] for r in scene.of_kind(seats["kind"])]
        for owner in owners:
            record = scene.ent.get(owner, {})
            lines.append(f"{scene.label(owner)}:")
            if seats.get("hand"):
                hand = record.get(seats["hand"], []) or []
                said = [scene.label(c) for c in hand if c != "?"] if seats.get("hand_as") == "cards" else \
                    ["(a card)" if c == "?" else scene.label(c) for c in hand]
                if seats.get("hand_as") == "cards" and "?" in hand:  # a count of the backs, not one word each
                    said.append(f"{hand.count('?')} {scene.text('cards not shown')}")
                lines.append(f"  {scene.text(seats.get('hand_label', 'Hand'))}: " + (", ".join(said) or "—"))
            for ident in record.get(seats.get("row", ""), []) or []:
                rec = scene.ent.get(ident, {}) if isinstance(ident, str) else {}
                counts = ", ".join(f"{scene.text(c)} {rec[c]}" for c in seats.get("counters", []) if rec.get(c))
                items = ", ".join(scene.label(i) for i in rec.get(seats.get("items", ""), []) or [])
                lines.append(f"  {scene.label(ident)}: {items or '—'}{f' [{counts}]' if counts else ''}")
            if seats.get("levels"):
                lines += levels_text(scene, seats["levels"], owner)
    return "\n".join(lines)
