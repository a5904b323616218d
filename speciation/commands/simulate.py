"""``speciation simulate RULESET --games N``: many games with random agents, summed up."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..simulation import MAX_ACTIONS, simulate
from .common import err, lang_option, positive, ruleset_and_players, ruleset_options, workers


def register(commands) -> None:
    sim = commands.add_parser("simulate", help="play many games with random agents")
    sim.add_argument("ruleset", metavar="RULESET", help="ruleset folder or builtin name")
    sim.add_argument("--games", type=positive, required=True, metavar="N", help="number of games")
    sim.add_argument("--players", type=positive, metavar="N",
                     help="players per game (default: one per agent named in --agents, else the ruleset's minimum)")
    ruleset_options(sim)
    sim.add_argument("--seed", type=int, default=0, metavar="S", help="game i uses seed S+i (default 0)")
    sim.add_argument("--json", metavar="FILE", help="write the summary and each game's result as JSON")
    sim.add_argument("--max-actions", type=positive, default=MAX_ACTIONS, metavar="N",
                     help=f"a game longer than this fails (default {MAX_ACTIONS})")
    sim.add_argument("--workers", type=workers, default=1, metavar="N",
                     help="play the games in N processes (0: one per core; default 1); "
                          "the results are the same for any N")
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")
    lang_option(sim, "names (winner labels)")
    sim.set_defaults(handler=cmd_simulate)


def cmd_simulate(args: argparse.Namespace) -> int:
    loaded = ruleset_and_players(args)
    if isinstance(loaded, int):
        return loaded
    ruleset, players = loaded
    summary = simulate(ruleset, args.games, players, args.seed, progress=not args.no_progress,
                       max_actions=args.max_actions, lang=args.lang, workers=args.workers)
    print(summary.format())
    if args.json:
        try:
            Path(args.json).write_text(json.dumps(summary.to_dict(), indent=1), encoding="utf-8")
        except OSError as exc:
            err(f"error: cannot write {args.json}: {exc.strerror or exc}")
            return 2
    return 1 if summary.failed else 0
