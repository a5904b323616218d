"""Many games with random agents: outcomes, lengths and speed.

Used by ``speciation simulate`` and by ``benchmarks/bench_games.py``.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from statistics import mean

from .batch import MAX_ACTIONS, GameSpec, play_spec, remember_ruleset, run_games
from .outcome import GameOutcome

__all__ = ["MAX_ACTIONS", "Summary", "play_random_game", "simulate"]


@dataclass
class Summary:
    """What a batch of simulated games came to."""

    ruleset: str
    version: str
    players: int
    variants: list[str]
    seed: int
    results: list[GameOutcome]
    seconds: float
    mods: list[dict] = field(default_factory=list)   # each mod's name, version, author, path

    @property
    def completed(self) -> list[GameOutcome]:
        return [r for r in self.results if r.completed]

    @property
    def failed(self) -> list[GameOutcome]:
        return [r for r in self.results if not r.completed]

    @property
    def mean_actions(self) -> float | None:
        done = self.completed
        return mean(r.actions for r in done) if done else None

    @property
    def mean_turns(self) -> float | None:
        turns = [r.turns for r in self.completed if isinstance(r.turns, (int, float))]
        return mean(turns) if turns else None

    @property
    def wins(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for result in self.completed:
            label = result.winner_label or "no winner"
            counts[label] = counts.get(label, 0) + 1
        return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))

    @property
    def actions_per_second(self) -> float:
        total = sum(r.actions for r in self.results)
        played = sum(r.seconds for r in self.results)
        return total / played if played > 0 else 0.0

    def to_dict(self) -> dict:
        return {"ruleset": self.ruleset, "version": self.version, "players": self.players,
                "variants": self.variants, "mods": self.mods, "seed": self.seed, "games": len(self.results),
                "completed": len(self.completed), "failed": len(self.failed),
                "mean_actions": self.mean_actions, "mean_turns": self.mean_turns, "wins": self.wins,
                "actions_per_second": round(self.actions_per_second, 1),
                "seconds": round(self.seconds, 3), "results": [asdict(r) for r in self.results]}

    def format(self) -> str:
        """The summary as lines of text."""
        games = len(self.results)
        lines = [f"games completed: {len(self.completed)} of {games}"]
        if self.mean_actions is not None:
            length = f"mean length: {self.mean_actions:.1f} actions"
            if self.mean_turns is not None:
                length += f", {self.mean_turns:.1f} turns"
            lines.append(length)
        if self.completed:
            lines.append("wins:")
            for label, count in self.wins.items():
                lines.append(f"  {label}: {count} ({100 * count / len(self.completed):.1f}%)")
        lines.append(f"speed: {self.actions_per_second:.0f} actions/s ({self.seconds:.2f} s in all)")
        for result in self.failed:
            lines.append(f"error in game {result.index + 1} (seed {result.seed}): {result.error}")
        return "\n".join(lines)


def _spec(ruleset, players: int, seed: int, index: int, max_actions: int, lang: str | None,
          log: bool = True) -> GameSpec:
    return GameSpec(ruleset.source or ruleset.name, players, seed, tuple(ruleset.variants), tuple(ruleset.mods),
                    "random", index, max_actions, lang, log)


def play_random_game(ruleset, players: int, seed: int, index: int = 0,
                     max_actions: int = MAX_ACTIONS, lang: str | None = None) -> GameOutcome:
    """Play one game with random agents (game and agents seeded with *seed*); a game
    longer than *max_actions* fails."""
    spec = _spec(ruleset, players, seed, index, max_actions, lang)
    remember_ruleset(spec, ruleset)
    return play_spec(spec)


def simulate(ruleset, games: int, players: int | None = None, seed: int = 0,
             progress: bool = False, max_actions: int = MAX_ACTIONS, lang: str | None = None,
             workers: int = 1, log: bool = False) -> Summary:
    """Play *games* random games; game i uses seed ``seed + i``. *lang*: the language of
    names (winner labels), as in ``Game.new``. *workers*: processes to play them in (the
    results are the same for any number). *log*: keep each game's event log (nobody reads
    it here, so off by default)."""
    count = players if players is not None else ruleset.min_players
    started = time.perf_counter()
    specs = [_spec(ruleset, count, seed + i, i, max_actions, lang, log) for i in range(games)]
    if specs:
        remember_ruleset(specs[0], ruleset)
    results = run_games(specs, workers=workers, progress=progress, desc=f"{ruleset.name} x{count}")
    return Summary(ruleset.name, ruleset.version, count, list(ruleset.variants), seed, results,
                   time.perf_counter() - started, mod_records(ruleset))


def mod_records(ruleset) -> list[dict]:
    """What a result file records of each mod applied: name, version, author, path."""
    return [{k: m.get(k) for k in ("name", "version", "author", "path")} for m in ruleset.mod_infos]
