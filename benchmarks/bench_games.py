"""Benchmark: ruleset load time and full random games, on one core.

    python benchmarks/bench_games.py                       # original, 4 players, 20 games
    python benchmarks/bench_games.py --ruleset tests/support/fixtures/toy --players 2 --games 200

Prints a small table; exits 1 if any game failed (the errors are listed).
"""
from __future__ import annotations

import argparse
import sys
import time
from statistics import mean

from speciation import RuleErrors, load_ruleset
from speciation.simulation import MAX_ACTIONS, Summary, simulate

LOADS = 5


def time_loads(name: str, variants: list[str], count: int = LOADS) -> tuple[float, float]:
    """(first load, mean of *count* further loads), in seconds."""
    timings = []
    for _ in range(count + 1):
        started = time.perf_counter()
        load_ruleset(name, variants)
        timings.append(time.perf_counter() - started)
    return timings[0], mean(timings[1:])


def table(rows: list[tuple[str, str]]) -> str:
    width = max(len(key) for key, _ in rows)
    return "\n".join(f"{key.ljust(width)}  {value}" for key, value in rows)


def report(name: str, first: float, load: float, summary: Summary) -> str:
    games = len(summary.results)
    played = sum(r.seconds for r in summary.results)
    rows = [("ruleset", f"{name} {summary.version} ({summary.players} players"
                        + "".join(f", {v}" for v in summary.variants) + ")"),
            ("load (first)", f"{first * 1000:.1f} ms"),
            (f"load (mean of {LOADS})", f"{load * 1000:.1f} ms"),
            ("games", f"{games} ({len(summary.completed)} completed) in {played:.2f} s"),
            ("games/s", f"{games / played:.2f}" if played else "-"),
            ("actions/s", f"{summary.actions_per_second:.0f}"),
            ("mean actions/game", f"{summary.mean_actions:.1f}" if summary.mean_actions is not None else "-")]
    if summary.mean_turns is not None:
        rows.append(("mean turns/game", f"{summary.mean_turns:.1f}"))
    return table(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="original", help="builtin name or folder (default: original)")
    parser.add_argument("--players", type=int, default=4, help="players per game (default: 4)")
    parser.add_argument("--games", type=int, default=20, help="games to play (default: 20)")
    parser.add_argument("--variant", action="append", default=[], help="variant (repeatable)")
    parser.add_argument("--seed", type=int, default=0, help="game i uses seed S+i (default: 0)")
    parser.add_argument("--max-actions", type=int, default=MAX_ACTIONS,
                        help=f"a game longer than this fails (default: {MAX_ACTIONS})")
    args = parser.parse_args(argv)
    try:
        first, load = time_loads(args.ruleset, args.variant)
        ruleset = load_ruleset(args.ruleset, args.variant)
    except RuleErrors as errors:
        print(errors.format(), file=sys.stderr)
        return 1
    if not ruleset.min_players <= args.players <= ruleset.max_players:
        print(f"error: {ruleset.name} takes {ruleset.min_players} to {ruleset.max_players} players",
              file=sys.stderr)
        return 2
    summary = simulate(ruleset, args.games, args.players, args.seed, max_actions=args.max_actions)
    print(report(args.ruleset, first, load, summary))
    for result in summary.failed:
        print(f"error in game {result.index + 1} (seed {result.seed}): {result.error}", file=sys.stderr)
    return 1 if summary.failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
