"""Generic hex-grid geometry: cells, the corners they share, adjacency.

Cells use axial coordinates ``(q, r)`` and have ids ``"q,r"``. A corner is
where three hexes meet; its id names those three hexes, sorted, joined by
``|`` (some of them may lie off the grid). Nothing here knows any game.
"""
from __future__ import annotations

from dataclasses import dataclass

DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def cell_id(q: int, r: int) -> str:
    return f"{q},{r}"


def parse_cell(cid: str) -> tuple[int, int]:
    q, r = cid.split(",")
    return int(q), int(r)


@dataclass(frozen=True)
class HexGrid:
    """Adjacency and corner tables for a set of cells, computed once."""

    cells: list[str]
    neighbours: dict[str, list[str]]
    corners: dict[str, list[str]]
    cells_at: dict[str, list[str]]

    @classmethod
    def build(cls, coordinates: list[tuple[int, int]]) -> HexGrid:
        present = {cell_id(q, r) for q, r in coordinates}
        cells = [cell_id(q, r) for q, r in coordinates]
        neighbours: dict[str, list[str]] = {}
        corners: dict[str, list[str]] = {}
        cells_at: dict[str, list[str]] = {}
        for q, r in coordinates:
            here = cell_id(q, r)
            around = [(q + dq, r + dr) for dq, dr in DIRECTIONS]
            neighbours[here] = [cell_id(*h) for h in around if cell_id(*h) in present]
            own = []
            for i in range(6):
                trio = sorted([(q, r), around[i], around[(i + 1) % 6]])
                corner = "|".join(cell_id(*h) for h in trio)
                own.append(corner)
                cells_at.setdefault(corner, [cell_id(*h) for h in trio if cell_id(*h) in present])
            corners[here] = own
        return cls(cells, neighbours, corners, cells_at)

    def corner_of(self, trio: list[str]) -> str | None:
        """The id of the corner shared by three hexes (given as ids), if they meet."""
        key = "|".join(sorted(trio, key=parse_cell))
        return key if key in self.cells_at else None
