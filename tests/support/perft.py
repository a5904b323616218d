"""Perft-style counts: the number of legal action sequences of length 1, 2, ... from named
positions, as chess engines count moves, with a per-option breakdown ("divide") on mismatch.

A position is named in ``tests/perft/*.yaml`` by how it is reached: a ruleset (with its
variants and mods), a player count and a seed, then ``random`` decisions taken by the
golden playthroughs' seeded chooser (option ``random.Random(seed).randrange(n)``) and then
the option indices listed in ``then``. ``depth`` says how deep to count. The rest of the
entry is what the counting found: the actor and prompt there (to show it is the same
position), ``counts`` (depth 1, 2, ... up to ``depth``) and ``divide`` (each option of the
position, by label, with the count of its subtree at the full depth). Chance is part of the
position: the game's own seeded generator decides it the same way in every branch, so a
count is of the players' decisions only. A branch where the game ends before the full depth
counts nothing there (as a checkmate does in chess perft).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from speciation import Game

from .playthrough import choose, new_game

PERFT = Path(__file__).resolve().parent.parent / "perft"
HEADER = """\
# Perft counts from named positions (docs/testing.md). Each entry names a position (ruleset,
# variants, mods, players, seed, `random` decisions by the seeded chooser, then the option
# indices in `then`) and a depth; `scripts/golden --update` fills in the rest: who decides
# there and what, the counts of legal action sequences of length 1..depth, and each option's
# subtree count at the full depth (`divide`). tests/rulesets/test_perft.py compares.
"""
_SPEC_KEYS = ("name", "ruleset", "variants", "mods", "players", "seed", "random", "then", "depth")


def perft(game: Game, depth: int) -> int:
    """The number of sequences of *depth* legal actions from *game* (unchanged)."""
    actions = game.legal_actions()
    if depth <= 1:
        return len(actions) if depth == 1 else 1
    total = 0
    for index in range(len(actions)):
        total += perft(_after(game, index), depth - 1)
    return total


def divide(game: Game, depth: int) -> list[list[Any]]:
    """``[label, count]`` for each option of the pending decision: the sequences of *depth*
    actions that begin with it."""
    return [[action.label, perft(_after(game, index), depth - 1)]
            for index, action in enumerate(game.legal_actions())]


def _after(game: Game, index: int) -> Game:
    child = game.clone()
    child.apply(child.legal_actions()[index])
    return child


@dataclass
class Position:
    """One entry of a perft file: how to reach the position, and what was counted there."""

    entry: dict

    @property
    def name(self) -> str:
        return self.entry["name"]

    def reach(self) -> Game:
        e = self.entry
        game = new_game(e["ruleset"], e["players"], e["seed"], e.get("variants", ()), e.get("mods", ()))
        rng = random.Random(e["seed"])
        for _ in range(e.get("random", 0)):
            game.apply(choose(game, rng)[1])
        for index in e.get("then", ()):
            game.apply(game.legal_actions()[index])
        return game

    def count(self) -> dict:
        """What this position gives now: actor, prompt, counts and divide."""
        game = self.reach()
        depth = self.entry["depth"]
        split = divide(game, depth)
        counts = [perft(game, d) for d in range(1, depth)] + [sum(n for _, n in split)]
        return {"actor": game.current_actor, "prompt": game.prompt, "counts": counts, "divide": split}

    def recorded(self) -> dict:
        return {key: self.entry.get(key) for key in ("actor", "prompt", "counts", "divide")}

    def difference(self, got: dict | None = None) -> str:
        """'' when the position counts as recorded, else a report with the breakdown."""
        got = self.count() if got is None else got
        want = self.recorded()
        if got == want:
            return ""
        lines = [f"perft position '{self.name}' differs"]
        for key in ("actor", "prompt"):
            if got[key] != want[key]:
                lines.append(f"  {key}: expected {want[key]!r}, got {got[key]!r} (a different position)")
        lines.append(f"  counts by depth: expected {want['counts']}, got {got['counts']}")
        lines.append(f"  divide at depth {self.entry['depth']} (option: expected got):")
        lines += _breakdown(want["divide"] or [], got["divide"])
        return "\n".join(lines)


def _breakdown(want: list, got: list) -> list[str]:
    """One line per option, in the order they are offered now, then options no longer offered;
    the differing ones marked. Options with the same label are paired in order."""
    def keyed(rows):
        seen: dict[str, int] = {}
        out = {}
        for label, n in rows:
            seen[label] = seen.get(label, 0) + 1
            out[(label, seen[label])] = n
        return out
    expected, now = keyed(want), keyed(got)
    width = max((len(label) for label, _ in list(expected) + list(now)), default=0)
    lines = []
    for key in list(now) + [k for k in expected if k not in now]:
        e, g = expected.get(key, "-"), now.get(key, "-")
        mark = "  " if e == g else "!="
        lines.append(f"  {mark} {key[0]:<{width}}  {e!s:>9} {g!s:>9}")
    return lines


def load(path: Path) -> list[Position]:
    return [Position(entry) for entry in yaml.safe_load(path.read_text(encoding="utf-8"))["positions"]]


def files() -> list[Path]:
    return sorted(PERFT.glob("*.yaml"))


def all_positions() -> list[tuple[Path, Position]]:
    return [(path, position) for path in files() for position in load(path)]


def update(path: Path) -> bool:
    """Count every position of *path* again and rewrite it; True when it changed."""
    entries = []
    for position in load(path):
        spec = {key: position.entry[key] for key in _SPEC_KEYS if key in position.entry}
        entries.append({**spec, **position.count()})
    text = HEADER + yaml.safe_dump({"positions": entries}, sort_keys=False, allow_unicode=True,
                                   default_flow_style=None, width=100)
    if path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True
