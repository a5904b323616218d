"""``speciation scenario FILE...``: run scenario files (a position, actions, expectations)."""
from __future__ import annotations

import argparse

from ..scenarios import run_scenarios, scenario_files
from .common import err


def register(commands) -> None:
    scen = commands.add_parser("scenario", help="run scenario files")
    scen.add_argument("files", nargs="+", metavar="FILE", help="scenario files or folders of them")
    scen.add_argument("--log", action="store_true", help="show the game log of each failing scenario")
    scen.set_defaults(handler=cmd_scenario)


def cmd_scenario(args: argparse.Namespace) -> int:
    files = scenario_files(args.files)
    if not files:
        err("no scenario files found")
        return 1
    passed = failed = 0
    for result in run_scenarios(files):
        if result.passed:
            passed += 1
            print(f"PASS {result.name}")
        else:
            failed += 1
            print(f"FAIL {result.name}: " + result.reason.replace("\n", "\n    "))
            if args.log:
                print("    game log:" + "".join(f"\n      {line}" for line in result.log or ["(empty)"]))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0
