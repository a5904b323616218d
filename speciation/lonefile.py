"""``speciation check FILE``: a lone card, variant or mod file (or a folder of them) is
checked as a mod of the ruleset it names — a mod manifest's ``targets``, or the ruleset
folder the file lives in — or, failing that, of each built-in ruleset, saying which."""
from __future__ import annotations

import sys
from pathlib import Path
from collections.abc import Sequence

from .dsl.errors import RuleErrors, SpeciationError
from .dsl.layers import available_rulesets
from .dsl.loader import load_file
from .dsl.mods import mod_files
from .interpreter.ruleset import load_ruleset


def is_lone(target: str) -> bool:
    """True if *target* is a rule file or folder that is not itself a ruleset."""
    path = Path(target)
    if path.suffix in (".yaml", ".yml") and not path.exists():
        return True  # a missing file: say so (not "no ruleset named ...")
    if path.is_file():
        return path.name != "ruleset.yaml"
    return path.is_dir() and not (path / "ruleset.yaml").is_file()


def _containing_ruleset(path: Path) -> Path | None:
    for folder in path.resolve().parents:
        if (folder / "ruleset.yaml").is_file():
            return folder
    return None


def _targets(path: Path) -> list[str]:
    for file in mod_files(path):
        try:
            document, _ = load_file(str(file))
        except SpeciationError:
            continue
        if isinstance(document, dict) and "mod" in document and document.get("targets"):
            return [str(t) for t in document["targets"]]
    return []


def check_lone(target: str, variants: Sequence[str] = (), mods: Sequence[str] = ()) -> int:
    """Check *target*; print what it was checked against and how it went. Exit code."""
    path = Path(target)
    if not path.exists():
        print(f"error: no file '{target}' (a lone card, variant or mod file to check)", file=sys.stderr)
        return 1
    home = _containing_ruleset(path)
    if home is not None and path.is_file() and path.parent.name == "variants":
        print(f"{target}: a variant of the ruleset in {home}; checking that ruleset with it")
        return _one(str(home), list(variants) + [path.stem], mods, None, target)
    if home is not None:
        print(f"{target}: part of the ruleset in {home}; checking that ruleset")
        return _one(str(home), variants, mods, None, target)
    named = _targets(path)
    if named:
        print(f"{target}: checking against {', '.join(named)} (the rulesets its manifest targets)")
    else:
        named = available_rulesets()
        print(f"{target}: names no ruleset; checking it as a mod of each built-in one: {', '.join(named)}")
    codes = [_one(name, variants, list(mods) + [target], target, target) for name in named]
    if len(named) > 1 and not _targets(path):
        fine = [n for n, c in zip(named, codes) if c == 0]
        print(f"{target}: fits {', '.join(fine)}" if fine else f"{target}: fits none of them")
        return 0 if fine else 1
    return max(codes)


def _one(ruleset: str, variants, mods, as_mod: str | None, label: str) -> int:
    try:
        loaded = load_ruleset(ruleset, list(variants), list(mods))
    except RuleErrors as errors:
        print(errors.format(), file=sys.stderr)
        print(f"failed: {label} against {ruleset} ({len(errors.errors)} error"
              f"{'s' if len(errors.errors) != 1 else ''})")
        return 1
    brought = loaded.mod_infos[-1]["brings"] if as_mod and loaded.mod_infos else []
    extra = f"; brings {', '.join(brought)}" if brought else ""
    print(f"ok: {label} against {loaded.name} {loaded.version} ({len(loaded.cards)} cards{extra})")
    return 0
