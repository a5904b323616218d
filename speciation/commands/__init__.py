"""Commands of the ``speciation`` program beyond the core ones in :mod:`speciation.cli`.

Each module here is one command (or a few related ones) and defines
``register(commands)``, which adds its sub-parser(s) to the ``argparse``
sub-parsers object and sets ``handler`` to a function ``(args) -> exit code``.
Modules are found by name, so adding a command never edits a shared list.
"""
from __future__ import annotations

import importlib
import pkgutil


def register_all(commands) -> None:
    """Let every command module here add its sub-parser(s), in name order."""
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(commands)
