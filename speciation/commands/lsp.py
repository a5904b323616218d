"""``speciation lsp``: the language server for rule files, over standard input/output
(see :mod:`speciation.lsp`; needs the ``lsp`` extra)."""
from __future__ import annotations

import argparse
import sys


def cmd_lsp(args: argparse.Namespace) -> int:
    try:
        from ..lsp.server import main
    except ImportError as exc:
        print(f"error: the language server needs pygls: pip install 'speciation[lsp]' ({exc})", file=sys.stderr)
        return 2
    main()
    return 0


def register(commands) -> None:
    parser = commands.add_parser("lsp", help="run the language server for rule files (stdio)")
    parser.set_defaults(handler=cmd_lsp)
