"""Benchmark: where the interpreter stands, by CPU time (``time.process_time``).

    python benchmarks/bench_speed.py                 # everything, a few games per line
    python benchmarks/bench_speed.py --games 5 --only throughput,clone

Prints: actions per CPU second for original 2/4/6 and Marine 2/4 players (log on and,
where the engine can, off); the cost of clone, to_json/from_json, apply and
legal_actions at the start and the end of a game; load time (in a new process with
nothing cached, in a new process with the disk cache, and again in the same process);
and five hot rule computations written by hand in plain Python, checked equal to the
interpreted result on sampled states, with the interpreted / hand-written time ratio.
Every figure is the minimum (and median) over repeated runs. The script runs on older
engines too (what they lack is skipped), so two checkouts can be compared side by side.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial

from speciation import Game, load_ruleset

import hand_written

CLOCK = time.process_time


def cpu(fn, repeat: int = 5, number: int = 1) -> list[float]:
    """CPU seconds of one call of fn, for each of *repeat* runs of *number* calls."""
    runs = []
    for _ in range(repeat):
        started = CLOCK()
        for _ in range(number):
            fn()
        runs.append((CLOCK() - started) / number)
    return runs


def fmt(runs: list[float], unit: float = 1e6, suffix: str = "µs") -> str:
    return f"min {min(runs) * unit:9.1f} {suffix}  median {statistics.median(runs) * unit:9.1f} {suffix}"


def play(game: Game, seed: int, stop: int | None = None) -> int:
    """Random play (one generator per game, as the benchmark of every engine); actions taken."""
    rng = random.Random(f"bench:{seed}")
    taken = 0
    while not game.is_over and (stop is None or taken < stop):
        game.apply(rng.choice(game.legal_actions()))
        taken += 1
    return taken


def throughput(rulesets: dict, games: int) -> None:
    print("== throughput (random play, actions per CPU second; per game: min / median) ==")
    for name, players in (("original", 2), ("original", 4), ("original", 6), ("marine", 2), ("marine", 4)):
        for log in (True, False):
            if not log and not hasattr(Game, "keep_log"):
                continue
            rates, total, spent = [], 0, 0.0
            for seed in range(games):
                game = Game.new(rulesets[name], players, seed)
                if not log:
                    game.keep_log = False
                started = CLOCK()
                taken = play(game, seed)
                seconds = CLOCK() - started
                rates.append(taken / seconds)
                total, spent = total + taken, spent + seconds
            print(f"{name:8} {players}p log {'on ' if log else 'off'}  {total / spent:8.0f} actions/CPU-s  "
                  f"(per game min {min(rates):6.0f}, median {statistics.median(rates):6.0f}; {games} games, "
                  f"{total} actions)")


def costs(rulesets: dict) -> None:
    print("== costs of the API at the start and the end of a game (original and marine, 4 players) ==")
    for name in ("original", "marine"):
        start = Game.new(rulesets[name], 4, 7)
        end = Game.new(rulesets[name], 4, 7)
        taken = play(end, 7)
        end_minus = Game.new(rulesets[name], 4, 7)
        play(end_minus, 7, stop=taken - 1)  # the last decision, still open
        for label, game in (("start", start), ("end", end_minus)):
            print(f"{name} at {label} ({len(game.state['log'])} log lines)")
            print(f"  clone             {fmt(cpu(game.clone, 7, 20))}")
            if hasattr(Game, "keep_log"):
                quiet = game.clone()
                quiet.keep_log = False
                quiet.state["log"] = []
                print(f"  clone (log off)   {fmt(cpu(quiet.clone, 7, 20))}")
            to_json, from_json = _save_functions()
            text = to_json(game)
            print(f"  to_json           {fmt(cpu(partial(to_json, game), 7, 10))}")
            print(f"  from_json         {fmt(cpu(partial(from_json, text, rulesets[name]), 7, 10))}")
            print(f"  legal_actions     {fmt(cpu(game.legal_actions, 7, 50))}")
            action = game.legal_actions()[0]
            copies = [game.clone() for _ in range(7 * 5)]
            runs = []
            for i in range(7):
                batch = copies[i * 5:(i + 1) * 5]
                started = CLOCK()
                for copy in batch:
                    copy.apply(action)  # offered by the game, taken on its clone: looked up by value
                runs.append((CLOCK() - started) / 5)
            print(f"  apply             {fmt(runs)}")


_LOAD = """
import sys, time
from speciation import load_ruleset
started = time.process_time()
load_ruleset(sys.argv[1])
print(time.process_time() - started)
"""


def _load_in_new_process(name: str, cache_dir: str) -> float:
    """CPU seconds of loading *name* in a new process (the package's import left out)."""
    env = dict(os.environ, SPECIATION_CACHE_DIR=cache_dir)
    done = subprocess.run([sys.executable, "-c", _LOAD, name], env=env, capture_output=True, text=True, check=True)
    return float(done.stdout.split()[-1])


def loads() -> None:
    print("== load time (CPU) ==")
    with tempfile.TemporaryDirectory() as folder:
        for name in ("original", "marine"):
            cold = [_load_in_new_process(name, "off") for _ in range(3)]  # nothing cached anywhere
            _load_in_new_process(name, folder)  # writes the disk cache (engines that have one)
            disk = [_load_in_new_process(name, folder) for _ in range(3)]
            load_ruleset(name)
            again = cpu(partial(load_ruleset, name), 5)
            print(f"{name:8} new process, cold {fmt(cold, 1000, 'ms')}   from the disk cache {fmt(disk, 1000, 'ms')}")
            print(f"{'':8} again in the same process {fmt(again, 1000, 'ms')}")


def _save_functions():
    """(to_json(game), from_json(text, ruleset)): the save functions, or on older engines
    the Game methods they were."""
    if hasattr(Game, "to_json"):
        return (lambda game: game.to_json()), (lambda text, ruleset: Game.from_json(text, ruleset))
    from speciation.interpreter.saves import from_json, to_json
    return to_json, from_json


def references(rulesets: dict, samples: int) -> None:
    print("== hand-written reference: interpreted / hand-written CPU time on sampled states ==")
    if not hasattr(Game, "run_block"):  # an older engine: no public hook to run a program
        print("  skipped: this engine has no Game.run_block")
        return
    for check in hand_written.CHECKS:
        ruleset = rulesets[check.ruleset]
        states = hand_written.sample_states(ruleset, check, samples)
        interpreted_fn = check.interpreted(ruleset)
        slow, fast = [], []
        for game in states:
            want = check.hand(game)
            got = interpreted_fn(game)
            if got != want:
                print(f"  MISMATCH in {check.name}: interpreted {got!r} != hand-written {want!r}")
                raise SystemExit(1)
            slow.append(min(cpu(partial(interpreted_fn, game), 5, 5)))
            fast.append(min(cpu(partial(check.hand, game), 5, 5)))
        print(f"{check.name:34} equal on {len(states):3} states   interpreted {sum(slow) / len(slow) * 1e6:8.1f} µs"
              f"   hand {sum(fast) / len(fast) * 1e6:7.1f} µs   ratio {sum(slow) / sum(fast):5.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per throughput line (default 3)")
    parser.add_argument("--samples", type=int, default=20, help="sampled states per reference (default 20)")
    parser.add_argument("--only", default="throughput,costs,load,reference",
                        help="comma list of: throughput, costs, load, reference")
    args = parser.parse_args(argv)
    parts = set(args.only.split(","))
    if "load" in parts:
        loads()
    rulesets = {name: load_ruleset(name) for name in ("original", "marine")}
    if "throughput" in parts:
        throughput(rulesets, args.games)
    if "costs" in parts:
        costs(rulesets)
    if "reference" in parts:
        references(rulesets, args.samples)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
