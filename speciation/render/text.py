"""A text summary of a position for the terminal, from the same declarations as the
picture: counters, the grid's occupied cells (label, pieces, corner tokens), the action
display, rows of cards and tokens, the panels and the scores."""
from __future__ import annotations

from typing import Any

from .scene import Scene
from .tableau import tableau_text


def render_text(source: Any, seat: int | None = None, lang: str | None = None, ruleset: Any = None,
                omniscient: bool = False) -> str:
    scene = Scene.of(source, seat, lang, ruleset, omniscient)
    parts = [_heading(scene), _board(scene), _display(scene), _rows(scene), tableau_text(scene), _panels(scene),
             scores_text(scene)]
    return "\n".join(p for p in parts if p)


def _heading(scene: Scene) -> str:
    title = scene.ruleset.title or scene.ruleset.name
    counters = []
    for source in scene.presentation.get("counters", []):
        counters.append(f"{scene.source_label(source)} {scene.tally(source)}")
    who = scene.seat_name()
    line = f"== {title}" + (f" — {scene.text('view of')} {who}" if who else "") + " =="
    return line + ("\n" + "; ".join(counters) if counters else "")


def _board(scene: Scene) -> str:
    spec = scene.presentation.get("board", {})
    fill = (spec.get("cell_fill") or {}).get("attribute")
    pieces = (spec.get("pieces") or {}).get("attribute")
    token = (spec.get("corner_token") or {}).get("attribute")
    legend = [scene.text((spec.get("pieces") or {}).get("label", pieces))] if pieces else []
    legend += [f"[{scene.text((spec.get('corner_token') or {}).get('label', token))}]"] if token else []
    tokens_at: dict[str, list[str]] = {}
    if token:
        for corner in scene.ruleset.grid.cells_at:
            value = scene.ent.get(corner, {}).get(token)
            if value is not None:
                for cell in corner.split("|"):
                    tokens_at.setdefault(cell, []).append(scene.label(value))
    lines = []
    for record in scene.cells:
        held = {k: v for k, v in (record.get(pieces) or {}).items() if v} if pieces else {}
        if fill and record.get(fill) is None and not held and not tokens_at.get(record["id"]):
            continue
        line = f"  {scene.cell_title(record):<22}"
        if held:
            line += " " + scene.label(held)
        marker = scene.cell_marker(record["id"])
        if marker is not None:
            line += f"; {marker[0]}: {scene.label(marker[1])}"
        if tokens_at.get(record["id"]):
            line += f"  [{', '.join(sorted(tokens_at[record['id']]))}]"
        lines.append(line.rstrip())
    if not lines:
        return ""
    note = f" ({'; '.join(legend)})" if legend else ""  # the presentation's own words (board: pieces, corner_token)
    return scene.text("Board") + note + ":\n" + "\n".join(lines)


def _display(scene: Scene) -> str:
    sections = scene.display_sections()
    if not sections:
        return ""
    spec = scene.presentation["display"]
    pawn = (spec.get("pawn") or {}).get("attribute")
    lines = [scene.text(spec.get("title", "Display")) + ":"]
    for section, spaces in sections:
        shown = []
        for space in spaces:
            owner = space.get(pawn) if pawn else None
            shown.append(scene.describe_space(space, spec) + (f" = {scene.label(owner)}" if owner else ""))
        box = (spec.get("boxes") or {}).get(section)
        extra = f"  <{scene.items(scene.read(box['from']) or [])}>" if box and not box.get("per_space") else ""
        lines.append(f"  {scene.label(section)}{extra}: " + "; ".join(shown))
    return "\n".join(lines)


def _rows(scene: Scene) -> str:
    lines = []
    for source in scene.presentation.get("rows", []):
        values = scene.row_values(source)
        label = scene.source_label(source)
        if source.get("as") == "pile":
            values = values if isinstance(values, list) else []
            top = f" ({scene.label(values[0])} {scene.text('on top')})" if values and values[0] != "?" else ""
            lines.append(f"{label}: {len(values)}{top}")
            continue
        count = f" ({scene.tally(source, values)})" if "of" in source else ""
        lines.append(f"{label}{count}: {', '.join(scene.row_item(source, v) for v in values) or '—'}")
    return "\n".join(lines)


def _panels(scene: Scene) -> str:
    spec = scene.presentation["panels"]
    lines = []
    for record in scene.panels():
        owner = scene.owner_of(record)
        head = scene.label(record["id"]) + (f" ({scene.label(owner)})" if owner else "")
        fields = []
        for field in spec.get("fields", []):
            value = record.get(field["attribute"])
            said = scene.flag(field, value)
            if said is not None:  # a flag: its words while set, nothing while not
                fields += [said] if said else []
                continue
            fields.append(f"{scene.text(field.get('label', field['attribute']))} "
                          f"{scene.items(value) if value not in ([], None, {}) else '—'}")
        lines.append(f"  {head}" + (": " + "; ".join(fields) if fields else ""))
    return (scene.text(spec.get("title", "Players")) + ":\n" + "\n".join(lines)) if lines else ""


def scores_text(scene: Scene) -> str:
    return scene.text("Scores") + ": " + ", ".join(f"{p} {s}" for p, s in scene.scores())
