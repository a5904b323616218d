"""``speciation render SAVE``: draw a saved position as SVG or PNG, or as text.

``--seat N`` draws what player N (1 = the first) sees; without it the picture shows the
whole state (every hidden list and private attribute: for a rule author watching a game).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..dsl.errors import SpeciationError
from ..api import load_save
from ..render import render_png, render_svg, render_text


def register(commands) -> None:
    parser = commands.add_parser("render", help="draw a saved game as SVG/PNG (or text)")
    parser.add_argument("save", metavar="SAVE", help="a saved game (JSON, from 'play --save')")
    parser.add_argument("--seat", type=int, metavar="N",
                        help="draw only what player N (1 = the first) may see (default: everything)")
    parser.add_argument("--out", metavar="FILE", help="write FILE.svg or FILE.png (default: text on stdout)")
    parser.add_argument("--lang", metavar="LANG", help="names in this language (e.g. pl)")
    parser.add_argument("--ruleset", metavar="DIR",
                        help="the ruleset folder the game was played with (needed when it is not a built-in one)")
    parser.add_argument("--mod", action="append", default=[], metavar="PATH",
                        help="a mod the game was played with (repeatable; needed when the save has mods)")
    parser.set_defaults(handler=cmd_render)


def cmd_render(args: argparse.Namespace) -> int:
    try:
        game = load_save(Path(args.save).read_text(encoding="utf-8"), lang=args.lang, named=args.ruleset,
                         mods=args.mod, how=f"speciation render {args.save} --ruleset DIR [--mod PATH]")
    except OSError as exc:
        print(f"error: cannot read {args.save}: {exc.strerror}", file=sys.stderr)
        return 1
    except (SpeciationError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    players = len(game.state["players"])
    if args.seat is not None and not 1 <= args.seat <= players:
        print(f"error: --seat must be 1 to {players} for this game, not {args.seat}", file=sys.stderr)
        return 2
    seat = None if args.seat is None else args.seat - 1
    options: dict[str, Any] = {"seat": seat, "omniscient": seat is None}
    if not args.out:
        print(render_text(game, **options))
        return 0
    out = Path(args.out)
    if out.suffix.lower() not in (".svg", ".png"):
        print(f"error: --out must end in .svg or .png, not '{out.suffix or out.name}'", file=sys.stderr)
        return 2
    svg = render_svg(game, **options)
    if out.suffix.lower() == ".svg":
        out.write_text(svg, encoding="utf-8")
    else:
        try:
            out.write_bytes(render_png(svg))
        except RuntimeError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
    print(f"wrote {out}")
    return 0
