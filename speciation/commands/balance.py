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
    from ..balance import Config, run_study, summarize
    from ..balance.paired import card_figures, compare_paired, pairs_needed, paired_shift
    from ..balance.report import format_html, format_text, to_json
    from ..balance.runner import Stopped, load
    from ..balance.study import run_comparison
    if args.compare_mod and args.compare_variant:
        print("error: give --compare-mod or --compare-variant, not both", file=sys.stderr)
        return 2
    comparing = bool(args.compare_mod or args.compare_variant)
    detect = args.detect / 100 if args.detect is not None else None
    if args.sequential and (not comparing or detect is None):
        print("error: --sequential needs a comparison (--compare-mod or --compare-variant) and --detect",
              file=sys.stderr)
        return 2
    streams = args.streams or ("per_source" if comparing else "single")
    try:
        ruleset = load(args.ruleset, tuple(args.variant), tuple(args.mod))
        players = args.players or ruleset.min_players
        make_agents(args.agents, players)  # the agent list is checked before any game is played
        first = Config(args.ruleset, players, args.agents, tuple(args.variant), tuple(args.mod), args.games,
                       args.seed, args.rotate, args.max_actions, streams)
        second = None
        if comparing:
            second = Config(args.ruleset, players, args.agents, tuple(args.variant + args.compare_variant),
                            tuple(args.mod + args.compare_mod), args.games, args.seed, args.rotate,
                            args.max_actions, streams)
        record = first.record()
        record["command"] = _command(args, players, streams)
        added: list[str] = []
        if second is not None:
            other = load(second.ruleset, second.variants, second.mods)
            mods = list(other.mod_infos[len(ruleset.mod_infos):])  # mods load in order: the compared ones last
            record["compare"] = {"mods": [{k: m.get(k) for k in ("name", "version", "path", "title")} for m in mods],
                                 "variants": list(args.compare_variant), "second": second.record()}
            added = [str(other.entities[item.split(" ", 1)[1]].get("name", item.split(" ", 1)[1]))
                     for m in mods for item in m.get("brings", [])
                     if item.startswith("card ") and item.split(" ", 1)[1] in other.entities]
    except RuleErrors as errors:
        print(errors.format(), file=sys.stderr)
        return 1
    except (SpeciationError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    plan = pairs_needed(detect, players) if detect is not None else None
    if plan is not None:
        print(f"to detect a change of {args.detect:g} points in a seat's win share (95% confidence, 80% power): "
              f"about {plan['pairs_to_detect']} pairs ({2 * plan['pairs_to_detect']} games); to rule one out: "
              f"about {plan['pairs_to_rule_out']} pairs, if pairs share nothing (spread {plan['sd']:.3f}); "
              "pairs that share draws need fewer", file=sys.stderr if not args.plan else sys.stdout)
        if args.plan:
            return 0
    try:
        stream = open(args.games_file, "w", encoding="utf-8") if args.games_file else None
    except OSError as error:
        print(f"error: cannot write the games file: {error}", file=sys.stderr)
        return 2

    def each(number, record):  # one JSON line per game, as soon as it is over
        if stream:
            stream.write(json.dumps({"study": number, **record.to_dict()}) + "\n")
            stream.flush()
    total = args.games * (2 if comparing else 1)
    interrupted = None
    try:
        with tqdm(total=total, file=sys.stderr, unit="game", disable=args.quiet,
                  desc=f"{first.ruleset} x{first.players}") as bar:
            if second is None:
                study, played = None, []

                def keep(record) -> None:
                    played.append(record)
                    each(0, record)
                try:
                    results = [run_study(first, args.workers, args.dask, bar.update, keep)]
                except (KeyboardInterrupt, Stopped) as stop:  # the workers are stopped; report what was played
                    results, interrupted = [played], str(stop) or "interrupted (Ctrl-C)"
            else:
                study = run_comparison(first, second, args.workers, args.dask, bar.update, each, detect,
                                       args.look_every if args.sequential else 0)
                results = [study["first"], study["second"]]
    finally:
        if stream:
            stream.close()
    summaries = [summarize(r) for r in results]
    if study is None and interrupted:
        summaries[0]["interrupted"] = f"{interrupted} after {len(results[0])} of {args.games} games"
    comparison = second_summary = None
    if study is not None:
        comparison = compare_paired(results[0], results[1], detect=detect, alpha=study["alpha"])
        comparison.update(compared=record["compare"], looks=study["looks"], stopped=study["stopped"],
                          power_before=plan, cards=card_figures(results[1], added),
                          turns=paired_shift(results[0], results[1], lambda r: r.turns),
                          winning_scores=paired_shift(results[0], results[1],
                                                      lambda r: max(r.scores) if r.scores else None))
        second_summary = summaries[1]
    print(format_text(record, summaries[0], comparison, second_summary))
    if args.json:
        Path(args.json).write_text(to_json(record, summaries[0], results[0], comparison, second_summary,
                                           results[1] if comparison else None), encoding="utf-8")
    if args.html:
        Path(args.html).write_text(format_html(record, summaries[0], comparison, second_summary), encoding="utf-8")
    return 1 if any(s["failed"] for s in summaries) else 0


def _command(args: argparse.Namespace, players: int, streams: str) -> str:
    """The command line that plays this study again."""
    import shlex
    words = ["speciation", "balance", args.ruleset, "--players", str(players), "--games", str(args.games),
             "--agents", args.agents, "--seed", str(args.seed), "--max-actions", str(args.max_actions),
             "--streams", streams]
    words += ["--rotate"] if args.rotate else []
    for flag, values in (("--variant", args.variant), ("--mod", args.mod), ("--compare-mod", args.compare_mod),
                         ("--compare-variant", args.compare_variant)):
        for value in values:
            words += [flag, value]
    if args.detect is not None:
        words += ["--detect", f"{args.detect:g}"]
    if args.sequential:
        words += ["--sequential", "--look-every", str(args.look_every)]
    return " ".join(shlex.quote(w) for w in words)


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
                        help="also play with this mod added, in pairs (same seed and seats), and test the difference")
    parser.add_argument("--compare-variant", action="append", default=[], metavar="V",
                        help="also play with this variant added, and test the difference")
    parser.add_argument("--streams", choices=["single", "per_source"],
                        help="random streams of the games: one generator (single, as in play) or one per deck, "
                             "bag and die (per_source); default per_source with a comparison, else single")
    parser.add_argument("--detect", type=float, metavar="POINTS",
                        help="the change in a seat's win share (in points) the comparison must detect or rule "
                             "out: says how many games that takes, and answers moved / not moved / undecided")
    parser.add_argument("--plan", action="store_true", help="with --detect: print how many games it takes, play none")
    parser.add_argument("--sequential", action="store_true",
                        help="with --detect and a comparison: look every --look-every pairs and stop once "
                             "decided (Haybittle-Peto boundaries: 0.001 at each look before the last)")
    parser.add_argument("--look-every", type=int, default=50, metavar="N",
                        help="pairs between the looks of a sequential study (default 50)")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="worker processes (default 1; 0: one per core)")
    parser.add_argument("--dask", metavar="ADDRESS", help="run the games on this Dask scheduler")
    parser.add_argument("--max-actions", type=int, default=MAX_ACTIONS, metavar="N",
                        help=f"stop a game not over after N actions; it is reported, not counted (default {MAX_ACTIONS})")
    parser.add_argument("--games-file", metavar="FILE",
                        help="write each game's record to FILE as a JSON line as soon as it is over")
    parser.add_argument("--json", metavar="FILE", help="write every figure and game as JSON")
    parser.add_argument("--html", metavar="FILE", help="write an HTML report with plots")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(handler=cmd_balance)
