"""``speciation new card RULESET NAME``: write the skeleton of a new card that loads as it
is (a mod of RULESET), with the deck's parameters and doc in comments."""
from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

from ..dsl.errors import RuleErrors
from ..dsl.layers import slug
from ..vocabulary import collect

SKELETON = """\
# A new card for {title}. Fill in the text, the provenance and the effect, then:
#   speciation check {file}
#   speciation explain {ruleset} {ident} --mod {file}
# The names an effect may use: speciation list {ruleset} vocabulary
card: {name}
deck: {deck}{deck_note}
text: >-
  What the card says, in your words.
provenance:
  confidence: unknown          # confirmed, reconstructed or unknown
  sources: ["where the card comes from"]
effect: |
  # The deck's parameters: {params}.{deck_doc}
  log("{{}} plays {name}", you)
"""


def skeleton(ruleset: str, name: str, deck: str | None, file: str) -> str:
    defs = collect(ruleset)
    decks = defs.decks
    if not decks:
        raise ValueError(f"ruleset '{ruleset}' has no deck of cards")
    if deck is None:
        deck = next(iter(decks))
    if deck not in decks:
        raise ValueError(f"ruleset '{ruleset}' has no deck '{deck}' (its decks: {', '.join(decks)})")
    spec = decks[deck]
    params = ["self"] + [str(p) for p in spec.get("params", [])]
    doc = " ".join(str(spec.get("doc", "")).split())
    others = [d for d in decks if d != deck]
    manifest: dict = defs.manifest or {}
    return SKELETON.format(title=manifest.get("title", ruleset), file=file, ruleset=ruleset, ident=slug(name),
                           name=name, deck=deck, params=", ".join(params),
                           deck_note=f"          # or: {', '.join(others)}" if others else "",
                           deck_doc="".join(f"\n  # {line}" for line in textwrap.wrap(doc, 92)))


def cmd_new(args: argparse.Namespace) -> int:
    name = " ".join(args.name)
    folder = Path(args.out)
    path = folder / f"{slug(name)}.yaml"
    if path.exists() and not args.force:
        print(f"error: {path} exists (use --force to overwrite)", file=sys.stderr)
        return 1
    try:
        text = skeleton(args.ruleset, name, args.deck, str(path))
    except RuleErrors as errors:
        print(errors.format(), file=sys.stderr)
        return 1
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")
    return 0


def register(commands) -> None:
    parser = commands.add_parser("new", help="write the skeleton of a new rule file (a card)")
    what = parser.add_subparsers(dest="what", metavar="WHAT", required=True)
    card = what.add_parser("card", help="a new card of RULESET, as a file that loads as it is")
    card.add_argument("ruleset", metavar="RULESET", help="ruleset folder or builtin name")
    card.add_argument("name", nargs="+", metavar="NAME", help="the card's name (\"Cold Snap\")")
    card.add_argument("--deck", metavar="DECK", help="its deck (default: the ruleset's first deck)")
    card.add_argument("--out", default=".", metavar="DIR", help="folder to write NAME.yaml in (default: here)")
    card.add_argument("--force", action="store_true", help="overwrite an existing file")
    card.set_defaults(handler=cmd_new)
