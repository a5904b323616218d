"""Cards of a tableau drawn with their text: a hand drawn as cards (``hand_as: cards``) and
a responses stack (``tableau.stack``), whose entries are the engine's
``[card, player, what it answers]`` (dsl/responses.py), drawn top entry first: the first
drawn resolves first.

Declared in a ruleset's ``presentation`` (docs/language.md, "How the state looks")::

    tableau:
      stack: {from: game.stack, label: Answers waiting}
      seats: {hand: hand, hand_as: cards}

Every card is a group with ``data-entity`` (a click on a card of the hand chooses the option
naming it); a card this seat may not see ("?") is a small card back, never its name.
Nothing here knows a game.
"""
from __future__ import annotations

from typing import Any

from .layout import card_height, card_lines

CARD_W, BACK_W, PER_ROW = 168, 22, 6
STACK_W, STACK_H = 270, 46


def _group(canvas: Any, entity: Any, title: str, body: str, cls: str) -> None:
    drawn = entity if isinstance(entity, str) and entity in canvas.scene.ent else None
    canvas.group(drawn, title, body, cls)


def hand_size(scene: Any, hand: list) -> tuple[float, float]:
    """The width and height of a hand drawn as cards (faces in rows of PER_ROW, then backs)."""
    faces = [c for c in hand if c != "?"]
    backs = len(hand) - len(faces)
    rows = (len(faces) + PER_ROW - 1) // PER_ROW
    height = sum(_row_height(scene, faces[i:i + PER_ROW]) + 6 for i in range(0, len(faces), PER_ROW))
    width = min(len(faces), PER_ROW) * (CARD_W + 6)
    if backs:
        height += 34
        width = max(width, backs * (BACK_W + 4) + 60)
    return width, height if rows or backs else 0


def _row_height(scene: Any, cards: list) -> float:
    return max([card_height(*card_lines(scene.card_text(c))) for c in cards] + [60])


def draw_hand(canvas: Any, hand: list, x0: float, y0: float, shapes: tuple) -> float:
    """Draw *hand* as cards with their text (the seat's own) and card backs (another's);
    returns the height used."""
    text, fit = shapes
    scene = canvas.scene
    faces = [c for c in hand if c != "?"]
    y = y0
    for start in range(0, len(faces), PER_ROW):
        row = faces[start:start + PER_ROW]
        height = _row_height(scene, row)
        for i, card in enumerate(row):
            x = x0 + i * (CARD_W + 6)
            size, lines = card_lines(scene.card_text(card))
            body = [f'<rect x="{x}" y="{y:.1f}" width="{CARD_W}" height="{height:.0f}" rx="6" fill="#fffaf0" '
                    f'stroke="#7a5c2e" stroke-width="1.5"/>',
                    f'<rect x="{x}" y="{y:.1f}" width="{CARD_W}" height="20" rx="6" fill="#7a5c2e"/>',
                    text(x + 7, y + 14, fit(scene.label(card), 26), 11, weight="bold", fill="#fff")]
            body += [text(x + 6, y + 33 + k * (size + 2.5), line, size) for k, line in enumerate(lines)]
            _group(canvas, card, scene.card_title(card), "".join(body), "card")
        y += height + 6
    backs = len(hand) - len(faces)
    if backs:
        for i in range(backs):
            x = x0 + i * (BACK_W + 4)
            back = (f'<rect x="{x}" y="{y:.1f}" width="{BACK_W}" height="30" rx="3" fill="#5b7f4a" '
                    f'stroke="#3a5230" stroke-width="1.2"/>')
            canvas.group(None, scene.text("a card"), back, "card back")
        canvas.add(text(x0 + backs * (BACK_W + 4) + 6, y + 20, f"× {backs}", 11, fill="#555"))
        y += 34
    return y - y0


def draw_stack(canvas: Any, spec: dict, x0: float, y0: float, shapes: tuple) -> tuple[float, float]:
    """The stack's entries, the top one first (it resolves first); nothing when it is empty."""
    text, fit = shapes
    scene = canvas.scene
    entries = [e for e in (scene.read(spec["from"]) or []) if isinstance(e, list) and len(e) >= 3]
    if not entries:
        return 0, 0
    canvas.add(text(x0, y0 + 14, f"{scene.source_label(spec)}: " + scene.text("the first resolves first"), 14,
                    weight="bold"))
    y = y0 + 22
    for i, (card, player, answers) in enumerate(reversed(entries)):
        x = x0 + i * (STACK_W + 8)
        name = scene.label(card)
        said = scene.text("by {player}, answering {card}").format(player=scene.label(player), card=scene.label(answers))
        body = (f'<rect x="{x}" y="{y}" width="{STACK_W}" height="{STACK_H}" rx="6" fill="#fff4d6" stroke="#b07a12" '
                f'stroke-width="2"/>' + text(x + 8, y + 17, fit(f"{i + 1}. {name}", 34), 12, weight="bold")
                + text(x + 8, y + 35, fit(said, 48), 10, fill="#5a4a32"))
        _group(canvas, card, f"{i + 1}. {scene.card_title(card)}\n{said}", body, "stacked")
    return len(entries) * (STACK_W + 8), 22 + STACK_H + 4


def stack_text(scene: Any, spec: dict) -> list[str]:
    """The stack as a text line, the top entry first (nothing when it is empty)."""
    entries = [e for e in (scene.read(spec["from"]) or []) if isinstance(e, list) and len(e) >= 3]
    if not entries:
        return []
    said = [f"{i + 1}. {scene.label(c)} " + scene.text("by {player}, answering {card}").format(
        player=scene.label(p), card=scene.label(a)) for i, (c, p, a) in enumerate(reversed(entries))]
    return [f"{scene.source_label(spec)} ({scene.text('the first resolves first')}): " + "; ".join(said)]
