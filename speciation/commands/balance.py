"""``speciation balance RULESET``: a balance study (see :mod:`speciation.balance`)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tqdm import tqdm

from ..balance.runner import MAX_ACTIONS
from ..dsl.errors import RuleErrors, SpeciationError


def cmd_balance(args: argparse.Namespace) -> int:
    from ..agents.registry import make_agents
    from ..balance import Config, compare, run_study, summarize
    from ..balance.report import format_html, format_text, to_json
    from ..balance.runner import load
    if args.compare_mod and args.compare_variant:
        print("error: give --compare-mod or --compare-variant, not both", file=sys.stderr)
        return 2
    try:
        ruleset = load(args.ruleset, tuple(args.variant), tuple(args.mod))
        players = args.players or ruleset.min_players
        make_agents(args.agents, players)  # the agent list is checked before any game is played
        first = Config(args.ruleset, players, args.agents, tuple(args.variant), tuple(args.mod), args.games,
                       args.seed, args.rotate, args.max_actions)
        configs = [first]
        if args.compare_mod or args.compare_variant:
            configs.append(Config(args.ruleset, players, args.agents, tuple(args.variant + args.compare_variant),
                                  tuple(args.mod + args.compare_mod), args.games, args.seed, args.rotate,
                                  args.max_actions))
        records = [c.record() for c in configs]
    except RuleErrors as errors:
        print(errors.format(), file=sys.stderr)
        return 1
    except (SpeciationError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    results = []
    try:
        stream = open(args.games_file, "w", encoding="utf-8") if args.games_file else None
    except OSError as error:
        print(f"error: cannot write the games file: {error}", file=sys.stderr)
        return 2
    try:
        for number, config in enumerate(configs):
            def each(record, number=number):  # one JSON line per game, as soon as it is over
                stream.write(json.dumps({"study": number, **record.to_dict()}) + "\n")
                stream.flush()
            with tqdm(total=config.games, file=sys.stderr, unit="game", disable=args.quiet,
                      desc=f"{config.ruleset} x{config.players}") as bar:
                results.append(run_study(config, args.workers, args.dask, bar.update, each if stream else None))
    finally:
        if stream:
            stream.close()
    summaries = [summarize(r) for r in results]
    comparison = compare(*results) if len(results) == 2 else None
    second = summaries[1] if len(summaries) == 2 else None
    print(format_text(records[0], summaries[0], comparison, second))
    if args.json:
        Path(args.json).write_text(to_json(records[0], summaries[0], results[0], comparison, second),
                                   encoding="utf-8")
    if args.html:
        Path(args.html).write_text(format_html(records[0], summaries[0], comparison, second), encoding="utf-8")
    return 1 if any(s["failed"] for s in summaries) else 0


def register(commands) -> None:
    parser = commands.add_parser("balance", help="a balance study: many games, win shares with intervals")
    parser.add_argument("ruleset", metavar="RULESET", help="ruleset folder or builtin name")
    parser.add_argument("--players", type=int, metavar="N", help="players (default: the ruleset's minimum)")
    parser.add_argument("--games", type=int, default=100, metavar="N", help="games to play (default 100)")
    parser.add_argument("--agents", default="greedy", metavar="LIST",
                        help="agents as for play (default greedy for all), e.g. mcts,random,random,random")
    parser.add_argument("--rotate", action="store_true", help="game i shifts the agents i seats")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="game i uses seed S+i (default 0)")
    parser.add_argument("--variant", action="append", default=[], metavar="V", help="variant (repeatable)")
    parser.add_argument("--mod", action="append", default=[], metavar="PATH", help="mod (repeatable)")
    parser.add_argument("--compare-mod", action="append", default=[], metavar="PATH",
                        help="also play with this mod added, and test the difference")
    parser.add_argument("--compare-variant", action="append", default=[], metavar="V",
                        help="also play with this variant added, and test the difference")
    parser.add_argument("--workers", type=int, default=1, metavar="N", help="worker processes (default 1)")
    parser.add_argument("--dask", metavar="ADDRESS", help="run the games on this Dask scheduler")
    parser.add_argument("--max-actions", type=int, default=MAX_ACTIONS, metavar="N",
                        help=f"stop a game not over after N actions; it is reported, not counted (default {MAX_ACTIONS})")
    parser.add_argument("--games-file", metavar="FILE",
                        help="write each game's record to FILE as a JSON line as soon as it is over")
    parser.add_argument("--json", metavar="FILE", help="write every figure and game as JSON")
    parser.add_argument("--html", metavar="FILE", help="write an HTML report with plots")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(handler=cmd_balance)
