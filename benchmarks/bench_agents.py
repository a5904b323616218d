"""Benchmark: the search agents' targets (issue 8), measured by CPU time on this machine.

    python benchmarks/bench_agents.py decision --ruleset original --players 4   # mcts decision time mid-game
    python benchmarks/bench_agents.py endings --games 6                         # greedy games' endings
    python benchmarks/bench_agents.py versus --opponent random --games 4        # mcts vs 3 others, rotated

``decision``: plays *walk* random decisions, then times the default ``mcts`` agent's next
*decisions* decisions (CPU time, min/median/max). ``endings``: greedy in every seat, every
player count of both editions, counts ``end_reason()``. ``versus``: 4 players, ``mcts`` (default
settings) against three *opponent* agents, the mcts seat rotated game by game; prints wins.
Larger studies: ``speciation balance ... --workers 2``.
"""
from __future__ import annotations

import argparse
import time
from collections import Counter
from statistics import median

from speciation import Game, load_ruleset
from speciation.agents import MctsAgent, RandomAgent, SeatView
from speciation.balance import Config, run_study, summarize


def bench_decision(ruleset: str, players: int, walk: int, decisions: int, seed: int) -> None:
    game = Game.new(load_ruleset(ruleset), players, seed)
    walker = RandomAgent(seed, 99)
    for _ in range(walk):
        game.apply(walker.choose(SeatView(game, game.current_player)))
    times, options = [], []
    for _ in range(decisions):
        seat = game.current_player
        agent = MctsAgent(seed, seat)
        view = SeatView(game, seat)
        options.append(len(view.legal_actions()))
        started = time.process_time()
        action = agent.choose(view)
        times.append(time.process_time() - started)
        game.apply(action)
    print(f"{ruleset} x{players}, after {walk} random decisions: mcts decision CPU s "
          f"min {min(times):.2f} median {median(times):.2f} max {max(times):.2f} "
          f"over {decisions} decisions ({min(options)}-{max(options)} options)")


def bench_endings(games: int, workers: int) -> None:
    for ruleset, counts in (("original", range(2, 7)), ("marine", range(2, 5))):
        for players in counts:
            started = time.perf_counter()
            summary = summarize(run_study(Config(ruleset, players, "greedy", games=games), workers))
            endings = {k: v["count"] for k, v in summary["endings"].items()}
            print(f"{ruleset} x{players}: {endings} of {summary['completed']} "
                  f"(turns mean {summary['turns']['mean']:.1f}; {time.perf_counter() - started:.0f} s)")


def bench_versus(opponent: str, games: int, workers: int, ruleset: str) -> None:
    config = Config(ruleset, 4, f"mcts,{opponent},{opponent},{opponent}", games=games, rotate=True)
    summary = summarize(run_study(config, workers))
    print(f"{ruleset} x4, mcts vs 3 {opponent}, seats rotated: {summary['wins_by_agent']}")
    print(f"endings: {Counter({k: v['count'] for k, v in summary['endings'].items()})}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["decision", "endings", "versus"])
    parser.add_argument("--ruleset", default="original")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--walk", type=int, default=300)
    parser.add_argument("--decisions", type=int, default=5)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.what == "decision":
        bench_decision(args.ruleset, args.players, args.walk, args.decisions, args.seed)
    elif args.what == "endings":
        bench_endings(args.games, args.workers)
    else:
        bench_versus(args.opponent, args.games, args.workers, args.ruleset)


if __name__ == "__main__":
    main()
