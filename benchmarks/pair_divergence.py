"""Where the two games of each pair of a comparison part (issue 23: does a change alter only
what it touches?). For pairs 0..N-1 of ``speciation balance RULESET --compare-mod MOD`` (the
same seeds, seats and per-source random streams), plays each pair's two games side by side
and prints the first action where they differ, what differed (the pending decision's options,
or an agent's choice from the same options) and whether the mod's own entities (a card) were
in sight or offered there (``speciation/balance/divergence.py``).

    python benchmarks/pair_divergence.py --mod benchmarks/mods/rumour --pairs 20 --workers 2
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import time
from pathlib import Path

from speciation.balance.divergence import first_difference
from speciation.balance.runner import Config


def _one(task):
    first, second, index = task
    started = time.process_time()
    found = first_difference(first, second, index).to_dict()
    found["cpu_seconds"] = time.process_time() - started
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", default="original")
    parser.add_argument("--mod", default=str(Path(__file__).parent / "mods" / "rumour"))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--agents", default="greedy")
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", help="write every pair's parting to this file")
    args = parser.parse_args()
    first = Config(args.ruleset, args.players, args.agents, seed=args.seed, games=args.pairs, streams="per_source")
    second = Config(args.ruleset, args.players, args.agents, mods=(args.mod,), seed=args.seed, games=args.pairs,
                    streams="per_source")
    tasks = [(first, second, index) for index in range(args.pairs)]
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        found = []
        for part in pool.imap(_one, tasks):
            found.append(part)
            where = "alike to the end" if part["kind"] is None else (
                f"part at action {part['step']} (turn {part['turn']}), {part['kind']}: "
                f"{'the mod involved: ' + '; '.join(part['in_sight']) + (' (offered' + (', taken)' if part['chose_added'] else ')') if part['in_options'] else '') if part['involved'] else 'the mod NOT involved'}")
            seen = "" if part["options_differ"] is None else f"; options first differed at action {part['options_differ']}"
            print(f"pair {part['index']} (seed {part['seed']}): {where}{seen} [{part['cpu_seconds']:.0f} s CPU]",
                  flush=True)
            if part["kind"] and not part["involved"]:
                print(f"    without: {part['first']}\n    with:    {part['second']}", flush=True)
    alike = sum(p["kind"] is None for p in found)
    involved = sum(p["involved"] for p in found)
    print(f"{len(found)} pairs: {alike} alike to the end, {involved} parted with the mod involved, "
          f"{len(found) - alike - involved} parted without it")
    if args.json:
        Path(args.json).write_text(json.dumps(found, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
