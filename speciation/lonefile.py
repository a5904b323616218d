"""``speciation check FILE``: a lone card, variant or mod file (or a folder of them) is
checked as a mod (a variant file: as a variant) of the ruleset it is meant for — the
ruleset folder it lives in, a mod manifest's ``targets``, ``--ruleset NAME``, or else the
built-in ruleset it fits best — and only that ruleset's errors are shown, each labelled
with it. The same choice is the language server's (:mod:`speciation.lsp`)."""
from __future__ import annotations

import sys
from pathlib import Path
from collections.abc import Callable, Sequence

from .dsl.errors import RuleError, RuleErrors, SpeciationError
from .dsl.layers import available_rulesets
from .dsl.loader import load_file
from .dsl.mods import mod_files
from .dsl.schema import kind_of
from .interpreter.ruleset import load_ruleset
from .rulemessages import from_environment, gettext_of

# A mistake that says the file was written for another ruleset, not that it is wrong:
# it weighs more than any number of other mistakes when choosing the ruleset a file fits.
FOREIGN = ("unknown deck", "cannot change card", "cannot remove")


def is_lone(target: str) -> bool:
    """True if *target* is a rule file or folder that is not itself a ruleset."""
    path = Path(target)
    if path.suffix in (".yaml", ".yml") and not path.exists():
        return True  # a missing file: say so (not "no ruleset named ...")
    if path.is_file():
        return path.name != "ruleset.yaml"
    return path.is_dir() and not (path / "ruleset.yaml").is_file()


def containing_ruleset(path: Path) -> Path | None:
    for folder in path.resolve().parents:
        if (folder / "ruleset.yaml").is_file():
            return folder
    return None


def containing_mod(path: Path) -> Path | None:
    """The mod folder a file lives in: the nearest folder above it with a ``mod.yaml`` whose
    document is a mod manifest, looking no further than a ruleset folder."""
    for folder in path.resolve().parents:
        if (folder / "ruleset.yaml").is_file():
            return None
        manifest = folder / "mod.yaml"
        if manifest.is_file() and _kind(manifest) == "mod":
            return folder
    return None


def _kind(path: Path) -> str | None:
    try:
        document, _ = load_file(str(path))
    except SpeciationError:
        return None
    return kind_of(document)


def is_variant(path: Path) -> bool:
    """True if *path* is a variant file (its leading key is ``variant``)."""
    return path.is_file() and _kind(path) == "variant"


def targets(path: Path) -> list[str]:
    """The rulesets a mod's manifest ``targets`` (none if it names none)."""
    for file in mod_files(path):
        try:
            document, _ = load_file(str(file))
        except SpeciationError:
            continue
        if isinstance(document, dict) and "mod" in document and document.get("targets"):
            return [str(t) for t in document["targets"]]
    return []


def weight(errors: Sequence[RuleError]) -> int:
    """How badly a file fits a ruleset: a mistake that says it was written for another
    ruleset (an unknown deck, a card to change that is not there) weighs 100, any other 1."""
    return sum(100 if e.message.startswith(FOREIGN) else 1 for e in errors)


def best_fit(candidates: Sequence[str], errors_of: Callable[[str], list[RuleError]]) -> tuple[list[str], list[RuleError]]:
    """The candidates a file fits: every one without errors, or else the one whose errors
    weigh least (the first of equals), and the errors against the first of them."""
    tried = [(name, errors_of(name)) for name in candidates]
    clean = [name for name, errors in tried if not errors]
    if clean:
        return clean, []
    name, errors = min(tried, key=lambda item: weight(item[1]))
    return [name], errors


def check_lone(target: str, variants: Sequence[str] = (), mods: Sequence[str] = (),
               ruleset: str | None = None) -> int:
    """Check *target*; print what it was checked against and how it went. Exit code."""
    path = Path(target)
    if not path.exists():
        print(f"error: no file '{target}' (a lone card, variant or mod file to check)", file=sys.stderr)
        return 1
    home = containing_ruleset(path)
    if home is not None and path.is_file() and path.parent.name == "variants":
        print(f"{target}: a variant of the ruleset in {home}; checking that ruleset with it")
        return _report(target, str(home), *_attempt(str(home), list(variants) + [path.stem], mods))
    if home is not None:
        print(f"{target}: part of the ruleset in {home}; checking that ruleset")
        return _report(target, str(home), *_attempt(str(home), variants, mods))
    mod = containing_mod(path) if path.is_file() else None
    if mod is not None:
        print(f"{target}: part of the mod in {mod}; checking that mod")
        return check_lone(str(mod), variants, mods, ruleset)
    variant = is_variant(path)
    layers = (list(variants) + [target], list(mods)) if variant else (list(variants), list(mods) + [target])
    named = [ruleset] if ruleset else targets(path)
    if named:
        why = "as asked" if ruleset else "the rulesets its manifest targets"
        print(f"{target}: checking against {', '.join(named)} ({why})")
        return max(_report(target, name, *_attempt(name, *layers)) for name in named)
    candidates = available_rulesets()
    attempts = {name: _attempt(name, *layers) for name in candidates}
    fits, _ = best_fit(candidates, lambda name: attempts[name][1])
    ok = not attempts[fits[0]][1]
    print(f"{target}: names no ruleset; checked against each built-in one ({', '.join(candidates)}): "
          f"{'it fits ' + ', '.join(fits) if ok else 'it fits none; nearest ' + fits[0]}"
          f"{'' if ok else ' (choose another with --ruleset NAME)'}")
    return max(_report(target, name, *attempts[name]) for name in fits)


def _attempt(ruleset: str, variants: Sequence[str], mods: Sequence[str]):
    """The ruleset loaded with these layers (or None), its errors and the files' texts."""
    try:
        return load_ruleset(ruleset, list(variants), list(mods)), [], {}
    except RuleErrors as errors:
        return None, list(errors.errors), errors.sources
    except SpeciationError as error:
        return None, [RuleError(str(error))], {}


def _report(label: str, name: str, loaded, errors: list[RuleError], sources: dict[str, str]) -> int:
    if loaded is None:
        for error in errors:
            print(labelled(error.format(sources, gettext_of(from_environment())), name), file=sys.stderr)
        print(f"failed: {label} against {name} ({len(errors)} error{'s' if len(errors) != 1 else ''})")
        return 1
    brought = loaded.mod_infos[-1]["brings"] if loaded.mod_infos else []
    extra = f"; brings {', '.join(brought)}" if brought else ""
    print(f"ok: {label} against {loaded.name} {loaded.version} ({len(loaded.cards)} cards{extra})")
    return 0


def labelled(formatted: str, ruleset: str) -> str:
    """An error's text with the ruleset it was found against: ``…: error (original): …``
    (``…: błąd (original): …`` in Polish)."""
    import re

    return re.sub(r": (\w+): ", lambda m: f": {m[1]} ({Path(ruleset).name}): ", formatted, count=1)
