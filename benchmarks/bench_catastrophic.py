"""Benchmark: Catastrophic under random play: actions per CPU second (``time.process_time``),
the share of decisions spent in response windows, and what one pass costs (issue 22).

    python benchmarks/bench_catastrophic.py                   # 2, 3 and 4 players, 50 games each
    python benchmarks/bench_catastrophic.py --games 200 --players 4
    python benchmarks/bench_catastrophic.py --log off          # no log line made (agents, batch runs)

One seeded generator per game picks uniformly among the legal actions; a decision is counted
as a window's when it is one of the 'responses' window's questions (its choose statement is
the window's, found by its prompt function); a hold ('hold priority off') is one option among
the others. Goals: at least 15,000 actions per CPU second; windows at most a third of all
decisions, with every seat asked (ask_all). A pass: the CPU time of passing at a window
question and listing the next decision's options, over window questions met in random play
(saved there and resumed), compared with the average decision.
"""
from __future__ import annotations

import argparse
import random
import time

from speciation import Game, load_ruleset
from speciation.interpreter.saves import from_json, to_json

CLOCK = time.process_time


def window_nodes(ruleset) -> set[int]:
    """The ids of the window's choose statements (in the generated respond_to macro)."""
    window = ruleset.macros["respond_to"].body
    return {id(node) for node in ruleset.nodes if getattr(node, "span", None) is not None
            and node.span.path == window.span.path and node.__class__.__name__ == "Choose"
            and node.span.line >= window.span.line}


def play(ruleset, players: int, seed: int, saves: list | None = None, keep_log: bool = True) -> tuple[int, int]:
    """One random game to the end: (decisions, decisions in response windows); with *saves*,
    each window question met is saved there too; with *keep_log* False, no log line is made
    (as agents and batch runs play)."""
    game, rng = Game.new(ruleset, players=players, seed=seed), random.Random(f"bench:{seed}")
    game.keep_log = keep_log
    nodes = window_nodes(ruleset)
    decisions = in_window = 0
    while not game.is_over:
        pending = game.pending
        if id(ruleset.nodes[pending["node"]]) in nodes:
            in_window += 1
            if saves is not None:
                saves.append(to_json(game))
        decisions += 1
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    return decisions, in_window


def pass_cost(ruleset, players: int, games: int) -> float:
    """The CPU time of one pass at a window question (and listing the next options), in
    microseconds: the median of five runs over the questions of *games* random games."""
    saves: list = []
    for seed in range(games):
        play(ruleset, players, 10_000 + seed, saves)
    runs = []
    for _ in range(5):
        positions = [from_json(text, ruleset) for text in saves]
        ids = [game.decision_id for game in positions]  # (each resumed game's token: not the pass's cost)
        started = CLOCK()
        for game, decision in zip(positions, ids):
            game.apply(None, decision=decision)
            if not game.is_over:
                game.legal_actions()
        runs.append((CLOCK() - started) / len(positions))
    return sorted(runs)[2] * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--log", choices=["on", "off"], default="on",
                        help="keep the game log (on, the goal's figure) or make no log line (off)")
    args = parser.parse_args()
    ruleset = load_ruleset("catastrophic")
    play(ruleset, 2, -1)  # warm up: the first game compiles what it meets
    print(f"== catastrophic: random play, log {args.log} (goal: 15,000 actions per CPU second; windows <= 1/3) ==")
    for players in args.players:
        started = CLOCK()
        results = [play(ruleset, players, seed, keep_log=args.log == "on") for seed in range(args.games)]
        spent = CLOCK() - started
        decisions = sum(d for d, _ in results)
        windows = sum(w for _, w in results)
        print(f"{players} players: {decisions / spent:9,.0f} actions/s over {args.games} games "
              f"({decisions / args.games:.0f} decisions a game); windows {windows / decisions:.0%} of decisions; "
              f"a pass {pass_cost(ruleset, players, 5):.0f} us CPU (a decision on average {spent / decisions * 1e6:.0f} us)")


if __name__ == "__main__":
    main()
