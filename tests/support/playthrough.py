"""Golden playthroughs: a seeded game written as readable text, one block per decision.

A game is named in ``tests/golden/games.yaml`` (ruleset, players, seed, variants, mods, an
optional cap on decisions). Its text is written by :func:`playthrough` and kept in
``tests/golden/<name>.txt``; ``scripts/golden --check`` (and ``tests/rulesets/test_golden.py``)
plays it again and shows a unified diff when anything differs, ``--update`` rewrites it.
The agent is a seeded random chooser: at each decision it takes option number
``random.Random(seed).randrange(n)`` of ``legal_actions()`` (the ``Action`` itself), so the
file depends on nothing but the rules and the engine.
"""
from __future__ import annotations

import difflib
import random
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from speciation import Game, load_ruleset

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


@dataclass(frozen=True)
class GameSpec:
    """One golden game: what is played and the file it is kept in."""

    name: str
    ruleset: str
    players: int
    seed: int
    variants: tuple[str, ...] = ()
    mods: tuple[str, ...] = ()
    cap: int | None = None  # write only the first *cap* decisions
    doc: str = field(default="", compare=False)

    @property
    def path(self) -> Path:
        return GOLDEN / f"{self.name}.txt"

    def title(self) -> str:
        extra = "".join(f", variant {v}" for v in self.variants) + "".join(f", mod {m}" for m in self.mods)
        return f"{self.ruleset}, {self.players} players, seed {self.seed}{extra or ', no variant'}"


def game_specs(path: Path = GOLDEN / "games.yaml") -> list[GameSpec]:
    """The golden games named in *path*, in its order."""
    entries = yaml.safe_load(path.read_text(encoding="utf-8"))["games"]
    return [GameSpec(name=e["name"], ruleset=e["ruleset"], players=e["players"], seed=e["seed"],
                     variants=tuple(e.get("variants", ())), mods=tuple(e.get("mods", ())),
                     cap=e.get("cap"), doc=e.get("doc", "")) for e in entries]


def new_game(ruleset: str, players: int, seed: int, variants=(), mods=()) -> Game:
    return Game.new(load_ruleset(ruleset, variants=list(variants), mods=list(mods)), players, seed)


def choose(game: Game, rng: random.Random):
    """The seeded random agent: (index, action, number of options) for the pending decision."""
    actions = game.legal_actions()
    index = rng.randrange(len(actions))
    return index, actions[index], len(actions)


def seat(game: Game) -> str:
    """``P<n>/<actor>``: the deciding player (1-based, as the log names them) and the actor."""
    return f"P{game.current_player + 1}/{game.current_actor}"


def playthrough(spec: GameSpec) -> str:
    """The golden text of *spec*'s game (deterministic: same rules and engine, same text)."""
    game = new_game(spec.ruleset, spec.players, spec.seed, spec.variants, spec.mods)
    rng = random.Random(spec.seed)
    lines = ["setup"] + [f"  {line}" for line in game.log]
    seen = game.log_size
    number = 0
    while not game.is_over and (spec.cap is None or number < spec.cap):
        number += 1
        who, prompt = seat(game), game.prompt
        index, action, count = choose(game, rng)
        lines.append(f"#{number} {who} · {prompt} -> {action.label} ({index + 1} of {count} options)")
        game.apply(action)
        lines += [f"  {line}" for line in game.log_since(seen)]
        seen = game.log_size
    return "\n".join(_header(spec, game, number) + lines + _footer(game, number)) + "\n"


def _header(spec: GameSpec, game: Game, decisions: int) -> list[str]:
    extent = (f"The first {decisions} decisions (capped at {spec.cap}; the game goes on)"
              if not game.is_over else f"The whole game, {decisions} decisions")
    out = [f"# Golden playthrough: {spec.title()}",
           f"# {extent}.",
           f"# Agent: at each decision, option random.Random({spec.seed}).randrange(n) of legal_actions().",
           "# Each decision: #N P<seat>/<actor> · prompt -> chosen label (k of n options),",
           "# then the log lines it wrote. Written by `scripts/golden --update` (docs/testing.md)."]
    if spec.doc:
        out += [f"# {line}" for line in spec.doc.strip().splitlines()]
    return out + [""]


def _footer(game: Game, decisions: int) -> list[str]:
    if not game.is_over:
        return [f"stopped after {decisions} decisions", f"digest: {game.digest()}"]
    scores = ", ".join(f"P{i + 1} {s}" for i, s in enumerate(game.scores))
    winner = game.winner
    return [f"game over after {decisions} decisions",
            f"scores: {scores}",
            f"winner: {'none' if winner is None else f'P{winner + 1}'}",
            f"digest: {game.digest()}"]


def difference(spec: GameSpec, got: str | None = None) -> str:
    """A unified diff from the kept file to the game played now ('' when they are equal)."""
    expected = spec.path.read_text(encoding="utf-8") if spec.path.exists() else ""
    got = playthrough(spec) if got is None else got
    if got == expected:
        return ""
    where = spec.path.relative_to(GOLDEN.parent.parent)
    return "".join(difflib.unified_diff(expected.splitlines(keepends=True), got.splitlines(keepends=True),
                                        f"{where} (kept)", f"{where} (played now)", n=3))


def update(spec: GameSpec) -> bool:
    """Rewrite *spec*'s file; True when it changed."""
    text = playthrough(spec)
    if spec.path.exists() and spec.path.read_text(encoding="utf-8") == text:
        return False
    spec.path.write_text(text, encoding="utf-8")
    return True
