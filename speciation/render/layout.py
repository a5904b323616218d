"""How a card's text is laid out in its box: the font size and the lines at which it fits
(the SVG drawing is :mod:`.svg`'s)."""
from __future__ import annotations

import functools
import textwrap

# The largest of these (font size, characters a line) at which a card's text fits in
# CARD_LINES lines; a longer text takes the smallest and makes its row's cards taller.
CARD_FONTS = ((10.0, 27), (9.0, 30), (8.5, 32))
CARD_LINES = 8


def card_lines(text: str) -> tuple[float, list[str]]:
    """The font size and the lines of a card's *text* (all of it: nothing is cut off)."""
    size, lines = _laid_out(text)
    return size, list(lines)


@functools.lru_cache(maxsize=4096)
def _laid_out(text: str) -> tuple[float, tuple[str, ...]]:
    """:func:`card_lines`, once per text (a card is laid out again on every picture)."""
    for size, width in CARD_FONTS:
        lines = textwrap.wrap(text, width)
        if len(lines) <= CARD_LINES:
            return size, tuple(lines)
    return CARD_FONTS[-1][0], tuple(textwrap.wrap(text, CARD_FONTS[-1][1]))


def card_height(size: float, lines: list[str]) -> float:
    """The height of a card box holding *lines* at *size* under its title bar."""
    return 30 + len(lines) * (size + 2.5) + 6
