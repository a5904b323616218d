"""``speciation check [PATH...]``: load rulesets (or lone card, variant and mod files) and
report every rule error."""
from __future__ import annotations

import argparse

from ..interpreter.ruleset import available_rulesets
from ..lonefile import check_lone, is_lone
from .common import err, load, ruleset_options


def register(commands) -> None:
    check = commands.add_parser("check", help="load rulesets and report every rule error")
    check.add_argument("paths", nargs="*", metavar="PATH",
                       help="ruleset folders or builtin names, or a lone card, variant or mod file or folder "
                       "(default: every builtin)")
    ruleset_options(check)
    check.add_argument("--ruleset", metavar="NAME",
                       help="check a lone file against this ruleset (default: the one its manifest targets, "
                       "else the built-in one it fits best)")
    check.set_defaults(handler=cmd_check)


def cmd_check(args: argparse.Namespace) -> int:
    targets = args.paths or available_rulesets()
    if not targets:
        err("no built-in rulesets to check")
        return 0
    code = 0
    for target in targets:
        if is_lone(target):
            code = max(code, 1 if check_lone(target, args.variant, args.mod, args.ruleset) != 0 else 0)
            continue
        ruleset = load(target, args.variant, args.mod)
        if isinstance(ruleset, int):
            code = max(code, ruleset)
            continue
        print(f"ok: {ruleset.name} {ruleset.version} ({len(ruleset.cards)} cards)")
    return code
