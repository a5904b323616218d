"""The package's layers, read from the source with ast (nothing is imported or run).

`dsl/` (the language front end) never imports `interpreter/` (the back end); no module
of the package is in an import circle; no module is longer than 500 lines. Folders are
followed to their package names through `[tool.setuptools.package-dir]` in
pyproject.toml, as the installed package names them.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 500


def package_dirs() -> dict[str, Path]:
    """Package name -> folder: pyproject's package-dir table, and the packages it lists."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    block = re.search(r"\[tool\.setuptools\.package-dir\]\n(.*?)(\n\[|\Z)", text, re.S)
    assert block, "pyproject.toml has no [tool.setuptools.package-dir] table"
    return {name: ROOT / folder for name, folder in re.findall(r'"([\w.]+)"\s*=\s*"([^"]*)"', block.group(1))}


def modules() -> dict[str, Path]:
    """Every module of the installed package: its dotted name -> its file."""
    found: dict[str, Path] = {}
    for package, folder in sorted(package_dirs().items(), key=lambda item: -len(item[0])):
        for path in sorted(folder.rglob("*.py")):
            relative = path.relative_to(folder)
            if {"tests", "build", ".venv", "__pycache__"} & set(relative.parts):
                continue
            parts = [p for p in relative.with_suffix("").parts if p != "__init__"]
            found.setdefault(".".join([package, *parts]), path)
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that a module imports (at its top or inside a function)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            stem = base[: len(base) - node.level + 1] if node.level else []
            module = ".".join(stem + ([node.module] if node.module else []))
            targets = [module] + [f"{module}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            # (a package importing its own modules is how a package is made, not a circle)
            if target and target != name and not target.startswith(name + "."):
                out.add(target)
    return out


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports_of(name, path, set(found)) for name, path in found.items()}


def circles(edges: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    result: list[tuple[str, ...]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    result.append(tuple(sorted(group)))
    return result


def test_the_walk_finds_both_layers():
    found = modules()
    assert "speciation.dsl.parser" in found and "speciation.interpreter.machine" in found
    assert len(found) > 50


def test_the_language_never_imports_the_engine():
    back = sorted(f"{m} -> {t}" for m, targets in graph().items() for t in targets
                  if (m + ".").startswith("speciation.dsl.") and (t + ".").startswith("speciation.interpreter."))
    assert not back, "dsl/ imports interpreter/:\n" + "\n".join(back)


def test_no_import_circle():
    found = [" <-> ".join(c) for c in circles(graph())]
    assert not found, "import circles:\n" + "\n".join(found)


def test_no_module_over_500_lines():
    long = [f"{path.relative_to(ROOT)}: {n} lines" for path in modules().values()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES]
    assert not long, "modules over 500 lines:\n" + "\n".join(long)


def test_the_checks_catch_what_they_look_for(tmp_path):
    """A circle and a back edge made up here are found (the checks can fail)."""
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [("a", "b", "c")]
    assert circles({"a": {"b"}, "b": set()}) == []
    known = {"speciation.dsl", "speciation.dsl.x", "speciation.interpreter", "speciation.interpreter.y"}
    source = tmp_path / "probe.py"
    source.write_text("from ..interpreter.y import thing\nfrom . import x\n", encoding="utf-8")
    assert imports_of("speciation.dsl.probe", source, known) == {"speciation.interpreter.y",
                                                                 "speciation.dsl.x", "speciation.dsl"}


def test_the_code_generator_shares_no_private_name():
    """Inside interpreter/codegen/, what one module takes from another has a public name."""
    found = modules()
    private = []
    for name, path in found.items():
        if not name.startswith("speciation.interpreter.codegen"):
            continue
        base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                stem = base[: len(base) - node.level + 1] if node.level else []
                module = ".".join(stem + ([node.module] if node.module else []))
                private += [f"{name}: {alias.name} from {module}" for alias in node.names
                            if alias.name.startswith("_") and module.startswith("speciation.")]
    assert not private, "private names imported:\n" + "\n".join(private)


def test_every_signature_has_its_implementation_and_no_other():
    """The front end's signatures (dsl/signatures.py) and the back end's implementations
    (interpreter/builtins.py) name the same builtins, and each implementation takes every
    number of arguments its signature allows (after the machine, its first parameter)."""
    import inspect

    from speciation.dsl import signatures
    from speciation.interpreter import builtins
    for known, implemented in ((signatures.FUNCTIONS, builtins.FUNCTIONS), (signatures.VERBS, builtins.VERBS)):
        assert list(known) == list(implemented)
        for name, signature in known.items():
            builtin = implemented[name]
            assert (builtin.min_args, builtin.max_args, builtin.doc, builtin.target) == \
                (signature.min_args, signature.max_args, signature.doc, signature.target)
            parameters = inspect.signature(builtin.fn)
            top = signature.max_args if signature.max_args is not None else signature.min_args + 3
            for count in range(signature.min_args, top + 1):
                parameters.bind("rt", *range(count))  # raises TypeError if it cannot take them
            if signature.max_args is not None:
                with pytest.raises(TypeError):
                    parameters.bind("rt", *range(signature.max_args + 1))
    assert set(signatures.FUNCTIONS).isdisjoint(signatures.VERBS)
