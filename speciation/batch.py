"""Play many games, in one process or on several cores, with one progress bar.

A batch is a list of :class:`GameSpec` (plain, picklable data: which ruleset, how
many players, which seed, which agents); :func:`run_games` plays them (with the one play
loop, :func:`speciation.play.play`) and returns one :class:`~speciation.outcome.GameOutcome`
per spec, in the order given. With ``workers=N`` the games
are shared among N processes; each game depends only on its spec, so the results
are the same as in one process (only the timings differ).

>>> from speciation.batch import GameSpec, run_games
>>> specs = [GameSpec("tests/support/fixtures/toy", players=2, seed=s) for s in range(4)]
>>> [r.completed for r in run_games(specs, workers=2)]  # doctest: +SKIP
[True, True, True, True]
"""
from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from tqdm import tqdm

from .agents.registry import make_agents
from .interpreter.game import Game
from .outcome import GameOutcome, describe
from .play import play

MAX_ACTIONS = 100_000  # a random game longer than this is taken to be stuck in a rules loop


@dataclass(frozen=True)
class GameSpec:
    """One game to play: everything a worker process needs, as plain data.

    *ruleset* is a builtin name or a folder (as for ``load_ruleset``); *agents* a comma
    list of agent names as for ``speciation play --agents`` (one for everybody, or one per
    seat), each seeded with *seed*; *index* is only carried into the result."""

    ruleset: str
    players: int
    seed: int
    variants: tuple[str, ...] = ()
    mods: tuple[str, ...] = ()
    agents: str = "random"
    index: int = 0
    max_actions: int = MAX_ACTIONS
    lang: str | None = None
    log: bool = True  # keep the game's event log (off: faster, nothing lost but the log)


_RULESETS: dict[tuple, Any] = {}  # rulesets loaded by this process, by (ruleset, variants, mods)


def _ruleset_for(spec: GameSpec):
    key = (spec.ruleset, tuple(spec.variants), tuple(spec.mods))
    if key not in _RULESETS:
        from .interpreter.ruleset import load_ruleset
        _RULESETS[key] = load_ruleset(spec.ruleset, list(spec.variants), list(spec.mods))
    return _RULESETS[key]


def remember_ruleset(spec: GameSpec, ruleset) -> None:
    """Use an already loaded ruleset for specs like *spec* in this process (no reload)."""
    _RULESETS[(spec.ruleset, tuple(spec.variants), tuple(spec.mods))] = ruleset


def play_spec(spec: GameSpec) -> GameOutcome:
    """Play one game; any failure (a rule error, a game too long) is recorded in the
    outcome with its seed, never raised."""
    started = time.process_time()
    result = GameOutcome(spec.index, spec.seed)
    game = None
    try:
        ruleset = _ruleset_for(spec)
        game = Game.new(ruleset, spec.players, spec.seed, lang=spec.lang)
        if not spec.log:
            game.keep_log = False
        agents = make_agents(spec.agents, spec.players, spec.seed)
        result = play(game, agents, max_actions=spec.max_actions)
        result.index, result.seed = spec.index, spec.seed
    except Exception as exc:  # any failure is reported with its seed, never fatal
        result.error = describe(exc)
    result.seconds = time.process_time() - started
    if game is not None:
        result.actions = game.state["steps"]
    return result


def run_games(specs: Sequence[GameSpec], workers: int = 1, progress: bool = False,
              desc: str | None = None, play: Callable[[GameSpec], Any] = play_spec) -> list:
    """Play every spec and return their results in the same order.

    *workers*: processes to use (1: this process; 0 or None: one per core). *progress*:
    one tqdm bar on stderr for the whole batch. *play*: the function run for each spec
    (default :func:`play_spec`); with several workers it must be picklable (a module-level
    function), and so must its results."""
    specs = list(specs)
    bar = tqdm(total=len(specs), file=sys.stderr, unit="game", disable=not progress, desc=desc)
    try:
        return map_games(play, specs, workers, bar.update)
    finally:
        bar.close()


def map_games(play: Callable[[Any], Any], tasks: Sequence, workers: int = 1,
              done: Callable[[int], Any] | None = None, each: Callable[[Any], Any] | None = None) -> list:
    """``[play(task) for task in tasks]``, in this process or shared among *workers*
    processes (0 or None: one per core); *done(1)* is called as each one finishes, and
    *each(result)* with its result, in task order."""
    workers = _worker_count(workers, len(tasks))
    if workers <= 1:
        return list(_counted(map(play, tasks), done, each))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(_counted(pool.map(play, tasks, chunksize=_chunk(len(tasks), workers)), done, each))


def _counted(results: Iterable, done: Callable[[int], Any] | None, each: Callable[[Any], Any] | None) -> Iterable:
    for result in results:
        if each:
            each(result)
        if done:
            done(1)
        yield result


def _worker_count(workers: int | None, games: int) -> int:
    if not workers:
        workers = os.cpu_count() or 1
    return max(1, min(workers, games))


def _chunk(games: int, workers: int) -> int:
    """Games handed to a worker at once: small enough to keep every core busy to the end."""
    return max(1, games // (workers * 8))
