"""The code generator: Python source from what the compiler checked, compiled once.

The closures the compiler builds (:mod:`..expressions`, :mod:`..compiler`) are the
reference semantics; this package writes code that computes the same values and raises
the same errors at the same positions, and is used where it was written.
``SPECIATION_CODEGEN=0`` (:data:`.writer.ENABLED`) runs the closures alone, and
``tests/test_codegen.py`` requires the same digests either way.

Modules, each importing only those listed before it: :mod:`.writer` (the switch, names
and helpers they share), :mod:`.quick` (simple comprehensions as Python's),
:mod:`.expressions` (one function per expression), :mod:`.functions` (``fast`` per rule
function), :mod:`.simple` (simple statements), :mod:`.statements` (statement runs that
cannot pause), :mod:`.runner` (one runner per block the machine runs in a frame). Their
writers extend one another: ``ExpressionWriter`` (a ``dsl.walker.TreeWalker``: one handler
per node kind, found in one table) < ``SimpleWriter`` < ``StatementWriter`` < ``RunnerWriter``.
"""
from __future__ import annotations

from . import writer
from .expressions import generate
from .functions import generate_function
from .runner import generate_runners
from .statements import generate_statements

__all__ = ["generate", "generate_code", "generate_function"]


def generate_code(ruleset) -> None:
    """Statement code and block runners for a ruleset's nodes not yet considered."""
    if not writer.ENABLED or getattr(ruleset, "compiler", None) is None:
        return
    generate_statements(ruleset)
    generate_runners(ruleset)
