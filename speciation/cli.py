"""The ``speciation`` command: the parser of its commands and ``main``.

Each command is one module of :mod:`speciation.commands` (check, play, simulate, scenario,
list, balance, explain, lsp, new, render, serve), which adds its sub-parser and handler.
Every command returns an exit code: 0 success, 1 a problem found (rule errors, failed games
or scenarios), 2 a usage error. Rule errors are printed as ``path:line:col: error: message``
with the source line; never as a traceback. See ``docs/cli.md``.
"""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from . import __version__
from .commands import register_all
from .commands.common import err


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="speciation", description="Speciation: check rulesets, play, "
                                     "simulate games, run scenarios, list what a ruleset holds.")
    parser.add_argument("--version", action="version", version=f"speciation {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    register_all(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        err("interrupted")
        return 130
    except BrokenPipeError:
        return _closed_pipe()


def _closed_pipe() -> int:
    """The reader of our output went away (``speciation list x | head -1``): stop quietly.
    Standard output is pointed at the null device so that Python's final flush does not
    complain either; the exit code is the shell's for a closed pipe (128 + SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 141
