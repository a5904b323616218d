"""Benchmark: Evolution: New World under random play, by CPU time (``time.process_time``).

    python benchmarks/bench_evolution.py                   # 2, 3 and 4 players, 20 games each
    python benchmarks/bench_evolution.py --games 50 --players 3

Prints, per player count, the actions per CPU second of whole games of random play (one seeded
generator per game, as bench_speed.py plays): the total over the games, and the minimum and
median per game (after one unmeasured game that warms up the compiled rules); with --log off the same without the game log. The goal for this ruleset is at
least 15,000 actions per CPU second (issue 20).
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from speciation import Game, load_ruleset

CLOCK = time.process_time
GOAL = 15_000


def play(game: Game, seed: int) -> int:
    """Random play to the end (one generator per game); actions taken."""
    rng = random.Random(f"bench:{seed}")
    taken = 0
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        taken += 1
    return taken


def run(ruleset, players: int, games: int, keep_log: bool) -> tuple[int, float, list[float]]:
    total_actions, total_cpu, rates = 0, 0.0, []
    for seed in range(games):
        started = CLOCK()
        game = Game.new(ruleset, players=players, seed=seed)
        game.keep_log = keep_log
        actions = play(game, seed)
        spent = CLOCK() - started
        total_actions, total_cpu = total_actions + actions, total_cpu + spent
        rates.append(actions / spent)
    return total_actions, total_cpu, rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--log", choices=["on", "off"], default="on")
    args = parser.parse_args()
    ruleset = load_ruleset("evolution", variants=args.variant)
    play(Game.new(ruleset, players=2, seed=-1), -1)  # warm up: the first game compiles what it meets
    print(f"== evolution{'+' + '+'.join(args.variant) if args.variant else ''}: random play, actions per CPU "
          f"second (log {args.log}; goal {GOAL:,}) ==")
    for players in args.players:
        actions, spent, rates = run(ruleset, players, args.games, args.log == "on")
        print(f"{players} players: {actions / spent:9,.0f} actions/s over {args.games} games "
              f"({actions} actions, {spent:.2f} s CPU; per game min {min(rates):,.0f}, "
              f"median {statistics.median(rates):,.0f})")


if __name__ == "__main__":
    main()
