"""Rewrite the generated module map in docs/architecture.md.

The part between ``<!-- modules:start -->`` and ``<!-- modules:end -->`` lists, layer by
layer, every module of the package with the first line of its docstring, and which layers
each layer imports (read from the code with ``ast``; nothing is imported or run).
Everything else in the page is kept.

    python docs/gen_architecture.py          # rewrite docs/architecture.md
    python docs/gen_architecture.py --check  # exit 1 if it is out of date
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = Path(__file__).with_name("architecture.md")
START = "<!-- modules:start -->"
END = "<!-- modules:end -->"

# The layers, lowest first: (folder, package name, what it is). A folder's subfolders with
# Python files are layers of their own only when listed; otherwise they belong to it.
LAYERS = (
    ("dsl", "speciation.dsl", "the language front end: load, check, parse, layers, types, node kinds"),
    ("interpreter", "speciation.interpreter", "the back end: compile, generated code, the frame machine, the game API"),
    ("speciation", "speciation", "the public API, the command line and the tools built on the game API"),
)


def modules(folder: Path) -> list[Path]:
    """The Python files of *folder*, sorted, leaving out other layers' folders."""
    others = {ROOT / name for name, _, _ in LAYERS} - {folder}
    return sorted(p for p in folder.rglob("*.py")
                  if not any(o in p.parents for o in others) and "__pycache__" not in p.parts)


def summary(path: Path) -> str:
    """The first sentence of the module's docstring (or nothing)."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    first = " ".join(doc.strip().split("\n\n")[0].split())
    end = first.find(". ")
    return first if end < 0 else first[: end + 1]


def dotted(path: Path, folder: str, package: str) -> str:
    """The module's name in the installed package (``dsl/loader.py`` -> ``speciation.dsl.loader``)."""
    parts = [p for p in path.relative_to(ROOT / folder).with_suffix("").parts if p != "__init__"]
    return ".".join([package, *parts])


def layer_of(name: str) -> str | None:
    """The layer (package name) a module name belongs to."""
    for _, package, _ in LAYERS[:-1]:
        if name == package or name.startswith(package + "."):
            return package
    return "speciation" if name == "speciation" or name.startswith("speciation.") else None


def imported_layers(path: Path, folder: str, package: str) -> set[str]:
    """The other layers that the module at *path* imports."""
    name = dotted(path, folder, package)
    base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            stem = base[: len(base) - node.level + 1] if node.level else []
            module = ".".join(stem + ([node.module] if node.module else []))
            targets = [module] + [f"{module}.{a.name}" for a in node.names]
        else:
            continue
        found |= {layer for t in targets if (layer := layer_of(t)) is not None}
    found.discard(package)
    return found


def generated() -> str:
    lines = []
    for folder, package, what in LAYERS:
        files = modules(ROOT / folder)
        uses: set[str] = set()
        for path in files:
            uses |= imported_layers(path, folder, package)
        below = ", ".join(f"`{u}`" for u in sorted(uses)) or "nothing of the package"
        lines += ["", f"**`{folder}/`** (`{package}`): {what}. Imports {below}.", "",
                  "| module | what it is |", "|---|---|"]
        for path in files:
            lines.append(f"| `{path.relative_to(ROOT).as_posix()}` | {summary(path).replace('|', '/')} |")
    return "\n".join(lines) + "\n"


def render(text: str) -> str:
    if text.count(START) != 1 or text.count(END) != 1 or text.index(START) > text.index(END):
        raise ValueError(f"expected one '{START}' followed by one '{END}'")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}{generated()}{END}{tail}"


def main(argv: list[str]) -> int:
    text = PAGE.read_text(encoding="utf-8")
    new = render(text)
    if "--check" in argv:
        if new != text:
            print("docs/architecture.md is out of date: run python docs/gen_architecture.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
