"""Build small throw-away rulesets for the stage tests.

``write_ruleset(tmp_path, {"rules.yaml": "..."})`` writes a ruleset folder
(manifest and a base file with a ``score`` function included unless given) and
returns its path; ``load(tmp_path, {...})`` also loads it.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

from speciation import load_ruleset

FIXTURES = Path(__file__).parent / "fixtures"
MINI = FIXTURES / "mini"

MANIFEST = """\
ruleset: t
title: T
version: "1"
players: {min: 2, max: 3}
"""

BASE = """\
kinds:
  player:
    attributes: {vp: 0, counts: {}}
  game:
    attributes: {bag: [a, b, c, a], out: [], n: 0}
symbols:
  letters: [a, b, c]
tables:
  worth: {a: 1, b: 2, c: 3}
functions:
  score(p): p.vp
"""


def write_ruleset(root: Path, files: dict[str, str], base: bool = True) -> Path:
    files = dict(files)
    files.setdefault("ruleset.yaml", MANIFEST)
    if base:
        files.setdefault("base.yaml", BASE)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def load(root: Path, files: dict[str, str], base: bool = True, **options):
    return load_ruleset(str(write_ruleset(root, files, base)), **options)


def main(body: str, macros: dict[str, str] | None = None, extra: str = "") -> dict[str, str]:
    """A rules file whose ``main`` macro is *body*, with more *macros* (signature → body)
    and *extra* top-level sections (plain YAML)."""
    text = "macros:\n"
    for signature, code in {"main": body, **(macros or {})}.items():
        code = textwrap.indent(textwrap.dedent(code).strip("\n"), "    ")
        text += f"  {signature}: |\n{code}\n"
    return {"rules.yaml": text + textwrap.dedent(extra)}
