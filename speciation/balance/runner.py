"""Playing the games of a balance study: one task per game, run here, on worker processes
(``workers``), or on a Dask distributed cluster (``dask``); the same seeds give the same games
wherever they run."""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Any

from ..agents.base import GameTooLong
from ..agents.registry import make_agents
from ..batch import map_games
from ..interpreter.game import Game
from ..outcome import GameOutcome
from ..play import play

MAX_ACTIONS = 100_000


@dataclass(frozen=True)
class Config:
    """What a study plays: a ruleset with variants and mods, a player count, agents (a comma
    list as on the command line; with ``rotate``, game i shifts them i seats), seeds."""

    ruleset: str
    players: int
    agents: str = "greedy"
    variants: tuple[str, ...] = ()
    mods: tuple[str, ...] = ()
    games: int = 100
    seed: int = 0
    rotate: bool = False
    max_actions: int = MAX_ACTIONS  # a game not over after this many actions is stopped (and reported)

    def seats(self, index: int) -> list[str]:
        """The agent spec of each seat in game *index*."""
        specs = [s.strip() for s in self.agents.split(",") if s.strip()] or ["random"]
        specs = specs * self.players if len(specs) == 1 else specs
        if len(specs) != self.players:
            raise ValueError(f"--agents names {len(specs)} agents for {self.players} players")
        shift = index % self.players if self.rotate else 0
        return specs[-shift:] + specs[:-shift] if shift else specs

    def record(self) -> dict:
        """Everything needed to play the study again (with the ruleset's digest)."""
        ruleset = load(self.ruleset, self.variants, self.mods)
        return {**asdict(self), "variants": list(self.variants), "mods": list(self.mods),
                "ruleset_name": ruleset.name, "ruleset_version": ruleset.version,
                "ruleset_digest": ruleset.digest, "seeds": [self.seed, self.seed + self.games - 1]}


@dataclass
class GameRecord:
    """What one game of a study came to: its :class:`GameOutcome` and what a study adds, the
    agents of its seats and the cards taken (``[card label, seat of the taker]``). Plain data:
    it travels between processes. The outcome's fields read as the record's own
    (``record.winner``); :meth:`to_dict` gives them side by side, as the JSON files hold them."""

    outcome: GameOutcome
    agents: list[str]
    taken: list = field(default_factory=list)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "outcome":  # not set yet (while unpickling)
            raise AttributeError(name)
        return getattr(self.outcome, name)

    def to_dict(self) -> dict:
        return {**asdict(self.outcome), "agents": self.agents, "taken": self.taken}


@lru_cache(maxsize=8)
def load(name: str, variants: tuple, mods: tuple):
    from ..interpreter.ruleset import load_ruleset
    return load_ruleset(name, list(variants), list(mods))


def play_one(config: Config, index: int) -> GameRecord:
    """Play game *index* of a study (seed ``config.seed + index``)."""
    seed = config.seed + index
    seats = config.seats(index)
    record = GameRecord(GameOutcome(index, seed), seats)
    started = time.process_time()
    try:
        game = Game.new(load(config.ruleset, config.variants, config.mods), config.players, seed)
        game.keep_log = False  # a study reads outcomes, never the log
        outcome = play(game, make_agents(",".join(seats), config.players, seed), max_actions=config.max_actions)
        outcome.index = index
        record.outcome = outcome
        taken = game.ruleset.conventions.get("cards_taken")
        if outcome.error is None and taken:
            record.taken = [[game.label(card), game.player_of(taker)] for taker, card in game.evaluate(taken)]
    except GameTooLong as exc:
        record.outcome.stopped, record.outcome.error = True, str(exc)
    except Exception as exc:  # reported with its seed, never fatal to the study
        record.outcome.completed, record.outcome.error = False, f"{type(exc).__name__}: {exc}"
    record.outcome.seconds = time.process_time() - started
    return record


def _play_task(task: tuple[Config, int]) -> GameRecord:
    return play_one(*task)


def run_study(config: Config, workers: int = 1, dask: str | None = None,
              progress: Callable[[int], object] | None = None,
              each: Callable[[GameRecord], None] | None = None) -> list[GameRecord]:
    """Play every game of *config*; records in game order. *dask*: the address of a Dask
    distributed scheduler (``tcp://host:8786``), or a ``distributed.Client``. *each* is given
    every record as soon as its game is over (locally: in game order)."""
    tasks = [(config, index) for index in range(config.games)]
    if dask is not None:
        return _run_on_dask(tasks, dask, progress, each)
    return map_games(_play_task, tasks, workers, progress, each)


def _run_on_dask(tasks: list, address: Any, progress: Callable[[int], object] | None,
                 each: Callable[[GameRecord], None] | None) -> list[GameRecord]:
    try:
        from distributed import Client, as_completed
    except ImportError as exc:
        raise RuntimeError("--dask needs the ai extra: pip install 'speciation[ai]'") from exc
    client = address if isinstance(address, Client) else Client(address)
    try:
        futures = client.map(_play_task, tasks, pure=False)
        for future in as_completed(futures):
            if each:
                each(future.result())
            if progress:
                progress(1)
        return client.gather(futures)
    finally:
        if client is not address:
            client.close()
