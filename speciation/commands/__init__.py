"""The commands of the ``speciation`` program, one module per command.

Each module here defines ``register(commands)``, which adds its sub-parser(s) to the
``argparse`` sub-parsers object and sets ``handler`` to a function ``(args) -> exit code``;
:mod:`.common` holds what the commands share. Modules are found by name, so adding a command
never edits a shared list; the core commands come first in the help, the others by name.
"""
from __future__ import annotations

import importlib
import pkgutil

FIRST = ("check", "play", "simulate", "scenario", "listing")  # the help lists these first, in this order


def register_all(commands) -> None:
    """Let every command module here add its sub-parser(s): the core ones first, the others
    in name order."""
    names = [info.name for info in pkgutil.iter_modules(__path__)]
    for name in sorted(names, key=lambda n: (FIRST.index(n) if n in FIRST else len(FIRST), n)):
        module = importlib.import_module(f"{__name__}.{name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(commands)
