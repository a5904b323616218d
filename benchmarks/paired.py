"""Paired CPU-time comparison of two checkouts (for a refactor or optimisation that must not slow anything).

    python benchmarks/paired.py --a /path/to/old/.venv/bin/python --b .venv/bin/python --rounds 8

Each workload runs as a fresh process of each interpreter in turn (A B A B ...), and the CPU
time (user + sys, from ``resource.getrusage(RUSAGE_CHILDREN)``) of each run is taken; the
ratio B/A is computed pair by pair, so a machine whose speed drifts still compares fairly.
Prints min / median / max of each side and of the ratios (below 1: B is faster).

Workloads (each uses only the stable public API, so an older checkout runs them too):
- ``play``: random games, original 4 players (seeds 0-5) and Marine 4 players (seeds 0-2),
  one generator per game, every action applied as the ``Action`` that ``legal_actions()`` gave;
  prints the action count, so both sides are checked to play the same games.
- ``play-evolution``, ``play-catastrophic`` (not in the default set): the same for Evolution
  (2 and 4 players, seeds 0-2) and Catastrophic (2, 3 and 4 players, seeds 0-7).
- ``load``: load both editions in a new process with the load cache turned off (a cold load).
- ``load-cached``: the same with a warm disk cache (a folder of its own, filled by a first run);
  ``play`` and ``mcts`` load from that warm cache too, so their figures are mostly play.
- ``mcts``: one ``mcts`` decision (60 iterations, no time bound, so the work is fixed and
  the choice must be the same) of a 4-player original game after 40 random decisions.
- ``greedy``: two 4-player original games of greedy agents (seeds 0 and 1); prints each game's
  actions, winner and digest, so both sides are checked to play the same games.
Import time is part of every figure (the same on both sides unless the imports changed), except
with ``--inner``: the random-play workloads then report the CPU time of their play alone
(``Game.new`` and the moves, ``time.process_time`` in the process), far less noisy than the
whole process when the question is whether play got slower; an older checkout runs the same
code, so both sides are timed alike. Each
process runs with ``python -P`` so the current folder never shadows the installed checkout.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile

# Random play of the given games: one seeded generator per game picks among the legal actions,
# each applied as the Action listed; prints the action count (both sides must play the same games).
_RANDOM_PLAY = """
import random
import time
from speciation import Game, load_ruleset
total = 0
rulesets = {{}}
played = 0.0
for name, players, seed in {games}:
    if name not in rulesets:
        rulesets[name] = load_ruleset(name)
    start = time.process_time()
    game = Game.new(rulesets[name], players, seed)
    rng = random.Random(seed)
    while not game.is_over:
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
        total += 1
    played += time.process_time() - start
print(total)
print(f"cpu {{played:.6f}}")
"""

WORKLOADS = {
    "play": _RANDOM_PLAY.format(games='[("original", 4, s) for s in range(6)] + [("marine", 4, s) for s in range(3)]'),
    "play-evolution": _RANDOM_PLAY.format(games='[("evolution", n, s) for n in (2, 4) for s in range(3)]'),
    "play-catastrophic": _RANDOM_PLAY.format(games='[("catastrophic", n, s) for n in (2, 3, 4) for s in range(8)]'),
    "load": """
from speciation import load_ruleset
load_ruleset("original"); load_ruleset("marine")
print("loaded")
""",
    "mcts": """
import random
from speciation import Game, load_ruleset
from speciation.agents import MctsAgent, SeatView
game = Game.new(load_ruleset("original"), 4, 3)
rng = random.Random(3)
for _ in range(40):
    actions = game.legal_actions()
    game.apply(actions[rng.randrange(len(actions))])
seat = game.current_player
action = MctsAgent(seed=1, seat=seat, iterations=60, seconds=0).choose(SeatView(game, seat))
print(action.label)
""",
    "greedy": """
from speciation import Game, load_ruleset
from speciation.agents.registry import make_agents
from speciation.play import play
ruleset = load_ruleset("original")
for seed in (0, 1):
    game = Game.new(ruleset, 4, seed)
    game.keep_log = False
    outcome = play(game, make_agents("greedy", 4, seed))
    print(seed, outcome.actions, outcome.winner, game.digest()[:16])
""",
}


def run(python: str, workload: str, env: dict, inner: bool = False) -> tuple[float, str]:
    """CPU seconds of one run of *workload* under *python*, and what it printed (without the
    ``cpu`` line of the random-play workloads); with *inner*, the CPU seconds that workload
    reports of its play alone (where it reports them), else the whole process's."""
    code = WORKLOADS["load" if workload == "load-cached" else workload]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([python, "-P", "-c", code], env=env, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        sys.exit(f"{python}: {workload} failed:\n{done.stderr[-2000:]}")
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = done.stdout.strip().splitlines()
    reported = [float(line.split()[1]) for line in lines if line.startswith("cpu ")]
    printed = "\n".join(line for line in lines if not line.startswith("cpu "))
    return (reported[0] if inner and reported else used), printed


def environment(workload: str, cache: str) -> dict:
    env = dict(os.environ)
    env["SPECIATION_CACHE_DIR"] = "off" if workload == "load" else cache  # play and mcts: a warm load
    return env


def describe(values: list[float]) -> str:
    return f"min {min(values):.3f}  median {statistics.median(values):.3f}  max {max(values):.3f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, help="the reference interpreter (e.g. the old checkout's .venv/bin/python)")
    parser.add_argument("--b", default=sys.executable, help="the changed interpreter (default: this one)")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--only", default="play,load,load-cached,mcts")
    parser.add_argument("--inner", action="store_true",
                        help="random play: time the play alone (Game.new and the moves), not import and load")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as cache_a, tempfile.TemporaryDirectory() as cache_b:
        for workload in args.only.split(","):
            envs = {args.a: environment(workload, cache_a), args.b: environment(workload, cache_b)}
            outputs = {run(python, workload, envs[python])[1] for python in (args.a, args.b)}  # warm-up
            if len(outputs) != 1:
                print(f"{workload}: the two sides printed different results: {sorted(outputs)}")
                return 1
            a_times, b_times = [], []
            for _ in range(args.rounds):
                a_times.append(run(args.a, workload, envs[args.a], args.inner)[0])
                b_times.append(run(args.b, workload, envs[args.b], args.inner)[0])
            ratios = [b / a for a, b in zip(a_times, b_times, strict=True)]
            faster = sum(ratio < 1 for ratio in ratios)
            what = "CPU seconds of play" if args.inner and workload.startswith("play") else "CPU seconds"
            print(f"{workload} ({outputs.pop() if len(outputs) == 1 else 'results differ'}), {what}")
            print(f"  A {describe(a_times)}")
            print(f"  B {describe(b_times)}")
            print(f"  B/A by pair {describe(ratios)}  (B faster in {faster} of {len(ratios)} pairs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
