"""Many games with random agents: outcomes, lengths and speed.

Used by ``speciation simulate`` and by ``benchmarks/bench_games.py``.
"""
from __future__ import annotations

import sys
import time
from dataclasses import asdict, dataclass, field
from statistics import mean
from typing import Any

from tqdm import tqdm

from .agents import RandomAgent, play_game
from .dsl.errors import SpeciationError
from .interpreter.game import Game

MAX_ACTIONS = 100_000  # a random game longer than this is taken to be stuck in a rules loop


@dataclass
class GameResult:
    """One simulated game."""

    index: int
    seed: int
    completed: bool
    actions: int = 0
    turns: Any = None
    winner: int | None = None
    winner_label: str | None = None
    scores: list = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None


@dataclass
class Summary:
    """What a batch of simulated games came to."""

    ruleset: str
    version: str
    players: int
    variants: list[str]
    seed: int
    results: list[GameResult]
    seconds: float
    mods: list[dict] = field(default_factory=list)   # each mod's name, version, author, path

    @property
    def completed(self) -> list[GameResult]:
        return [r for r in self.results if r.completed]

    @property
    def failed(self) -> list[GameResult]:
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


def play_random_game(ruleset, players: int, seed: int, index: int = 0,
                     max_actions: int = MAX_ACTIONS, lang: str | None = None) -> GameResult:
    """Play one game with random agents (game and agents seeded with *seed*); a game
    longer than *max_actions* fails."""
    started = time.perf_counter()
    result = GameResult(index, seed, completed=False)
    game = None
    try:
        game = Game.new(ruleset, players, seed, lang=lang)
        play_game(game, [RandomAgent(seed, seat) for seat in range(players)], max_actions=max_actions)
        _finish(game, result)
    except Exception as exc:  # any failure is reported with its seed, never fatal
        result.error = _describe(exc)
    result.seconds = time.perf_counter() - started
    if game is not None:
        result.actions = game.state["steps"]
    return result


def _finish(game: Game, result: GameResult) -> None:
    """Fill in the outcome of a finished game."""
    functions = game.ruleset.functions
    result.scores = game.scores
    result.winner = game.winner
    if "turn_count" in functions:
        result.turns = game.evaluate("turn_count")
    if "winner_label" in functions:
        result.winner_label = str(game.evaluate("winner_label"))
    elif result.winner is not None:  # the seat's name ("Player 2"), in the game's language
        result.winner_label = game.label(game.state["players"][result.winner])
    result.completed = True


def _describe(exc: BaseException) -> str:
    if isinstance(exc, SpeciationError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


def simulate(ruleset, games: int, players: int | None = None, seed: int = 0,
             progress: bool = False, max_actions: int = MAX_ACTIONS, lang: str | None = None) -> Summary:
    """Play *games* random games; game i uses seed ``seed + i``. *lang*: the language of
    names (winner labels), as in ``Game.new``."""
    count = players if players is not None else ruleset.min_players
    started = time.perf_counter()
    indices = tqdm(range(games), file=sys.stderr, unit="game", disable=not progress,
                   desc=f"{ruleset.name} x{count}")
    results = [play_random_game(ruleset, count, seed + i, i, max_actions, lang) for i in indices]
    return Summary(ruleset.name, ruleset.version, count, list(ruleset.variants), seed, results,
                   time.perf_counter() - started, mod_records(ruleset))


def mod_records(ruleset) -> list[dict]:
    """What a result file records of each mod applied: name, version, author, path."""
    return [{k: m.get(k) for k in ("name", "version", "author", "path")} for m in ruleset.mod_infos]
