"""What every part of the code generator shares: the switch, the error that keeps a
closure, validated names, the helpers and constants a generated function sees.

No text of a rule file ever becomes code: every value is passed in the generated
function's globals as ``C_i`` (:func:`constants`), and the only names written into the
source are identifiers checked by :func:`ident`.
"""
from __future__ import annotations

import os
import re
from typing import Any

from ...dsl import cache
from ..errors import note_function
from ..limits import check_sequence, multiply

# Set SPECIATION_CODEGEN=0 to run the closures, the reference semantics (the tests compare both).
ENABLED = os.environ.get("SPECIATION_CODEGEN", "1") != "0"
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
RELATIONS = {"==", "!=", "<", "<=", ">", ">="}
# the globals every generated function sees (with its constants)
HELPERS = {"isinstance": isinstance, "dict": dict, "bool": bool, "KeyError": KeyError,
           "TypeError": TypeError, "Exception": Exception, "len": len, "max": max, "min": min,
           "sum": sum, "any": any, "all": all, "abs": abs, "list": list, "range": range,
           "_check_sequence": check_sequence, "_mul": multiply,
           "_note": note_function, "_MISS": object(), "__builtins__": {}}


class Unsupported(Exception):
    """A shape this generator does not know: the closure is kept."""


def ident(name: str) -> str:
    """A rule-local or attribute name as a Python string literal, checked to be an identifier."""
    if not IDENT.match(name):  # the grammar guarantees this; never let anything else through
        raise Unsupported(name)
    return repr(name)


def constants(writer) -> dict[str, Any]:
    """The globals holding a writer's constants: ``C_0``, ``C_1``, ..."""
    return {f"C_{i}": value for i, value in enumerate(writer.constants)}


def load_function(source: str, filename: str, namespace: dict, entry: str) -> Any:
    """The function *entry* of the generated *source*, compiled once (through the load cache)
    in *namespace*, with its source kept on it for tests and debugging; None when Python
    refuses the source (nested past its limits): the caller keeps the closures or the machine."""
    try:
        code = cache.code(source, filename)
    except (SyntaxError, RecursionError):
        return None
    exec(code, namespace)
    fn = namespace[entry]
    fn.source = source
    return fn
