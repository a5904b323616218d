"""A comparison study: two configurations played in pairs (:func:`.runner.tasks_for`), looked
at as the pairs come in, stopped when a sequential study has its answer, on Ctrl-C or on
SIGTERM (with the whole pairs played so far kept and reported as such)."""
from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from .paired import ALPHA, compare_paired, final_alpha, look_alpha, looks
from .runner import Config, GameRecord, Stopped, _run_on_dask, stream_games, tasks_for


def run_comparison(first: Config, second: Config, workers: int = 1, dask: Any = None,
                   progress: Callable[[int], object] | None = None,
                   each: Callable[[int, GameRecord], None] | None = None,
                   detect: float | None = None, look_every: int = 0, alpha: float = ALPHA) -> dict:
    """Play *first* and *second* in pairs. With *look_every* (and *detect*), a sequential
    study: after every *look_every* pairs the paired tests run at the look's error rate
    (:func:`.paired.look_alpha`) and the study stops once the answer is ``moved`` or ``not
    moved``. Returns ``{"first": records, "second": records, "looks": [...], "stopped": why
    or None, "alpha": the error rate of the final analysis}`` (what the looks made leave of
    *alpha*: :func:`.paired.final_alpha`). *each(number, record)*:
    every record as it comes (number 0 or 1: which configuration)."""
    tasks = tasks_for([first, second])
    plan = looks(first.games, look_every) if look_every and detect is not None else [first.games]
    records: list[list[GameRecord]] = [[], []]
    done: list[dict] = []
    stopped = None
    if dask is not None:
        for task, record in zip(tasks, _run_on_dask(tasks, dask, progress, None)):
            records[task[0] is second].append(record)
        return {"first": records[0], "second": records[1], "looks": done, "stopped": None, "alpha": alpha,
                "plan": plan}
    games: Generator[GameRecord, None, None] = stream_games(tasks, workers)
    try:
        for task, record in zip(tasks, games):
            number = 1 if task[0] is second else 0
            records[number].append(record)
            if each:
                each(number, record)
            if progress:
                progress(1)
            played = len(records[1])
            if number == 1 and len(plan) > 1 and played in plan[:-1]:
                look = plan.index(played) + 1
                rate = look_alpha(look, len(plan), alpha)
                found = compare_paired(records[0], records[1], detect, alpha=rate)
                done.append({"look": look, "pairs_played": played, "pairs": found["pairs"], "alpha": rate,
                             "answer": found["answer"]})
                if found["answer"] != "undecided":
                    stopped = f"decided at look {look} of {len(plan)} ({played} pairs): {found['answer']}"
                    break
    except KeyboardInterrupt:
        stopped = "interrupted (Ctrl-C)"
    except Stopped as exc:
        stopped = str(exc)
    finally:
        games.close()  # terminates the workers
    del records[0][len(records[1]):]  # a game whose pair is unfinished is not counted
    final = final_alpha(len(done), alpha) if len(plan) > 1 else alpha  # what the looks made leave
    if done and stopped and stopped.startswith("decided"):
        final = done[-1]["alpha"]
    return {"first": records[0], "second": records[1], "looks": done, "stopped": stopped, "alpha": final,
            "plan": plan}
