"""``speciation explain RULESET NAME``: what a card, function or macro does (see
:mod:`speciation.explain`)."""
from __future__ import annotations

import argparse
import sys

from ..dsl.errors import RuleErrors
from ..dsl.errors import did_you_mean
from ..explain import explain_lines
from ..vocabulary import vocabulary


def cmd_explain(args: argparse.Namespace) -> int:
    try:
        vocab = vocabulary(args.ruleset, args.variant, args.mod)
    except RuleErrors as errors:
        print(errors.format(), file=sys.stderr)
        return 1
    lines = explain_lines(" ".join(args.name), vocab)
    if lines is None:
        defs = vocab.definitions
        assert defs is not None  # vocabulary() read the ruleset
        known = list(defs.cards) + list(defs.functions) + list(defs.macros)
        hint = did_you_mean(" ".join(args.name), known)
        print(f"error: ruleset '{vocab.name}' has no card, function or macro named '{' '.join(args.name)}'"
              + (f" ({hint})" if hint else ""), file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


def register(commands) -> None:
    parser = commands.add_parser("explain", help="explain a card, function or macro of a ruleset")
    parser.add_argument("ruleset", metavar="RULESET", help="ruleset folder or builtin name")
    parser.add_argument("name", nargs="+", metavar="NAME", help="a card (name or id), function or macro")
    parser.add_argument("--variant", action="append", default=[], metavar="V", help="with this variant")
    parser.add_argument("--mod", action="append", default=[], metavar="PATH", help="with this mod")
    parser.set_defaults(handler=cmd_explain)
