"""Benchmark: Catastrophic under random play: actions per CPU second (``time.process_time``)
and the share of decisions spent in response windows (issue 22).

    python benchmarks/bench_catastrophic.py                   # 2, 3 and 4 players, 50 games each
    python benchmarks/bench_catastrophic.py --games 200 --players 4

One seeded generator per game picks uniformly among the legal actions; a decision is counted
as a window's when it is one of the 'responses' window's questions (its choose statement is
the window's, found by its prompt function). Goals: at least 15,000 actions per CPU second;
windows at most a third of all decisions.
"""
from __future__ import annotations

import argparse
import random
import time

from speciation import Game, load_ruleset

CLOCK = time.process_time


def play(ruleset, players: int, seed: int) -> tuple[int, int]:
    """One random game to the end: (decisions, decisions in response windows)."""
    game, rng = Game.new(ruleset, players=players, seed=seed), random.Random(f"bench:{seed}")
    window = ruleset.macros["respond_to"].body
    window_nodes = {id(node) for node in ruleset.nodes if getattr(node, "span", None) is not None
                    and node.span.path == window.span.path and node.__class__.__name__ == "Choose"
                    and node.span.line >= window.span.line}
    decisions = in_window = 0
    while not game.is_over:
        pending = game.pending
        in_window += id(ruleset.nodes[pending["node"]]) in window_nodes
        decisions += 1
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    return decisions, in_window


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    args = parser.parse_args()
    ruleset = load_ruleset("catastrophic")
    play(ruleset, 2, -1)  # warm up: the first game compiles what it meets
    print("== catastrophic: random play (goal: 15,000 actions per CPU second; windows <= 1/3) ==")
    for players in args.players:
        started = CLOCK()
        results = [play(ruleset, players, seed) for seed in range(args.games)]
        spent = CLOCK() - started
        decisions = sum(d for d, _ in results)
        windows = sum(w for _, w in results)
        print(f"{players} players: {decisions / spent:9,.0f} actions/s over {args.games} games "
              f"({decisions / args.games:.0f} decisions a game); windows {windows / decisions:.0%} of decisions")


if __name__ == "__main__":
    main()
