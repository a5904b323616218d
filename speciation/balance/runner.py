"""Playing the games of a balance study: one task per game, run here, on worker processes
(``workers``), or on a Dask distributed cluster (``dask``); the same seeds give the same games
wherever they run.

A comparison plays *pairs*: game i of the first configuration and game i of the second have
the same seed and the same agents in the same seats, and are handed out one after the other
(first, second, first, second ...), so the pairs finish together and a study stopped at any
moment holds whole pairs. The games of a comparison keep one random stream per chance source
(``Config.streams``, ``interpreter/rng.py``): the change alters only the draws it touches.
Worker processes are stopped with the study (Ctrl-C, SIGTERM, or a sequential study that has
its answer): :func:`stream_games` terminates its pool on the way out.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Any

from ..agents.base import GameTooLong
from ..agents.registry import make_agents
from ..interpreter.game import Game
from ..outcome import GameOutcome
from ..play import play

MAX_ACTIONS = 100_000


@dataclass(frozen=True)
class Config:
    """What a study plays: a ruleset with variants and mods, a player count, agents (a comma
    list as on the command line; with ``rotate``, game i shifts them i seats), seeds, and the
    random streams of its games (``single``: the game's one generator, as in play;
    ``per_source``: one per deck, bag or die, as comparisons use)."""

    ruleset: str
    players: int
    agents: str = "greedy"
    variants: tuple[str, ...] = ()
    mods: tuple[str, ...] = ()
    games: int = 100
    seed: int = 0
    rotate: bool = False
    max_actions: int = MAX_ACTIONS  # a game not over after this many actions is stopped (and reported)
    streams: str = "single"

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
    game = None
    try:
        game = Game.new(load(config.ruleset, config.variants, config.mods), config.players, seed,
                        streams=config.streams)
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
    if game is not None:
        record.outcome.actions = game.state["steps"]
    record.outcome.seconds = time.process_time() - started
    return record


def _play_task(task: tuple[Config, int]) -> GameRecord:
    return play_one(*task)


def tasks_for(configs: Sequence[Config]) -> list[tuple[Config, int]]:
    """The games of one configuration, or of a comparison's two interleaved by seed
    (game 0 of each, then game 1 of each, ...)."""
    games = max(c.games for c in configs)
    return [(config, index) for index in range(games) for config in configs if index < config.games]


class Stopped(BaseException):
    """The study was stopped by a signal (SIGTERM); the games played so far are kept. A
    ``BaseException``, as KeyboardInterrupt is: no handler of a game's errors may take it
    for the game's own failure."""


def _worker_init() -> None:
    # Ctrl-C goes to the whole process group: the study, not each worker, handles it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _on_sigterm(signum, frame) -> None:
    raise Stopped("stopped by SIGTERM")


def stream_games(tasks: Sequence[tuple[Config, int]], workers: int = 1) -> Generator[GameRecord, None, None]:
    """Play *tasks*, yielding each record in task order as soon as it and those before it
    are over: here (*workers* 1) or on a pool of worker processes (0: one per core). Closing
    the generator (a sequential study that has its answer), Ctrl-C or SIGTERM terminates the
    workers at once; SIGTERM raises :class:`Stopped` in the study."""
    workers = max(1, min(workers or os.cpu_count() or 1, len(tasks)))
    previous = signal.getsignal(signal.SIGTERM) if _main_thread() else None
    if previous is not None:
        signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        if workers == 1:
            for task in tasks:
                yield _play_task(task)
            return
        pool = multiprocessing.get_context("spawn" if os.name == "nt" else "fork").Pool(workers, _worker_init)
        try:
            yield from pool.imap(_play_task, tasks, chunksize=1)
        finally:
            pool.terminate()  # unfinished games are dropped, workers stopped (not left running)
            pool.join()
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _main_thread() -> bool:
    import threading
    return threading.current_thread() is threading.main_thread()


def run_study(config: Config, workers: int = 1, dask: str | None = None,
              progress: Callable[[int], object] | None = None,
              each: Callable[[GameRecord], None] | None = None) -> list[GameRecord]:
    """Play every game of *config*; records in game order. *dask*: the address of a Dask
    distributed scheduler (``tcp://host:8786``), or a ``distributed.Client``. *each* is given
    every record as soon as its game is over (locally: in game order)."""
    tasks = tasks_for([config])
    if dask is not None:
        return _run_on_dask(tasks, dask, progress, each)
    records = []
    for record in stream_games(tasks, workers):
        records.append(record)
        if each:
            each(record)
        if progress:
            progress(1)
    return records


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
