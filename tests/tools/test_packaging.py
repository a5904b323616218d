"""Packaging: every folder that ships code or data is a package in pyproject.toml, so a
wheel holds all of it and setuptools has nothing to warn about; setup installs once."""
import os
import subprocess
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[2]
SHIPPED = (".py", ".yaml", ".json", ".lark", ".typed")


def _declared() -> tuple[set[str], dict[str, str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    return set(config["packages"]), config["package-dir"]


def _folders_with_files(package: str, folder: Path):
    for path in sorted(folder.rglob("*")):
        if path.is_dir() and "__pycache__" not in path.parts and any(
                f.is_file() and f.name.endswith(SHIPPED) for f in path.iterdir()):
            yield ".".join([package, *path.relative_to(folder).parts])


def test_every_folder_with_code_or_data_is_a_declared_package():
    packages, package_dir = _declared()
    missing = []
    for package, folder in package_dir.items():
        assert package in packages, package
        missing += [name for name in _folders_with_files(package, ROOT / folder)
                    if name not in packages and not any(name.startswith(p + ".") and p != package
                                                        and p in package_dir for p in packages)]
    assert not missing, f"add these to [tool.setuptools] packages in pyproject.toml: {missing}"


def test_license_is_an_spdx_string():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert isinstance(project["license"], str)
    assert set(project["optional-dependencies"]) >= {"table", "ai", "lsp", "balance", "test"}
    assert ".[table,ai,lsp,balance,test]" in (ROOT / "scripts" / "setup").read_text()


def test_the_test_tools_are_a_test_extra_used_by_tests_only():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = {d.split(">")[0].split("[")[0] for d in project["dependencies"]}
    tools = {"pytest", "hypothesis", "pytest-xdist", "ruff", "mypy", "types-PyYAML", "types-jsonschema", "types-tqdm"}
    assert not runtime & tools
    assert {d.split(">")[0] for d in project["optional-dependencies"]["test"]} == tools
    importing = [str(path.relative_to(ROOT)) for folder in ("dsl", "interpreter", "speciation", "benchmarks")
                 for path in (ROOT / folder).rglob("*.py")
                 if any(line.startswith(("import pytest", "from pytest", "import hypothesis", "from hypothesis",
                                         "import xdist", "from xdist", "import mypy", "from mypy", "import ruff"))
                        for line in path.read_text(encoding="utf-8").splitlines())]
    assert importing == []


def test_setup_a_second_time_installs_nothing_and_prints_nothing():
    subprocess.run(["bash", "scripts/setup"], cwd=ROOT, check=True, capture_output=True)
    start = time.monotonic()  # pip cannot reach any index now: a reinstall would fail
    done = subprocess.run(["bash", "scripts/setup"], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": ""})
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and done.stderr == ""
    assert time.monotonic() - start < 5
