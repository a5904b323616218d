"""``scripts/golden``: check or rewrite the golden playthroughs (tests/golden/) and the perft
counts (tests/perft/). See docs/testing.md.

    scripts/golden                 # check both; a unified diff / a breakdown on mismatch
    scripts/golden --update        # rewrite what differs (review the diff, then commit)
    scripts/golden --only perft    # just one kind
"""
from __future__ import annotations

import argparse
import sys
import time

from . import perft, playthrough


def check(only: str | None) -> int:
    failures = 0
    if only in (None, "games"):
        for spec in playthrough.game_specs():
            diff = playthrough.difference(spec)
            print(f"{'DIFFERS' if diff else 'same   '} golden {spec.name}")
            if diff:
                failures += 1
                sys.stdout.write(diff)
    if only in (None, "perft"):
        for path, position in perft.all_positions():
            report = position.difference()
            print(f"{'DIFFERS' if report else 'same   '} perft  {path.stem}: {position.name}")
            if report:
                failures += 1
                print(report)
    print(f"{failures} differ" if failures else "all the same")
    return 1 if failures else 0


def update(only: str | None) -> int:
    if only in (None, "games"):
        for spec in playthrough.game_specs():
            print(f"{'rewrote' if playthrough.update(spec) else 'same   '} {spec.path.name}")
    if only in (None, "perft"):
        for path in perft.files():
            print(f"{'rewrote' if perft.update(path) else 'same   '} {path.name}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/golden", description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--check", action="store_true", help="compare (the default)")
    group.add_argument("--update", action="store_true", help="rewrite the files from the current rules")
    parser.add_argument("--only", choices=("games", "perft"), help="only the playthroughs or the counts")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    status = update(args.only) if args.update else check(args.only)
    print(f"({time.perf_counter() - start:.1f} s)")
    return status


if __name__ == "__main__":
    sys.exit(main())
