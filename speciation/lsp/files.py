"""What an open rule file is, and its errors as the command that checks such a file reports
them: a scenario (``speciation scenario``: checked against the ruleset it names, with its
variants and mods, its programs and expectations compiled), a file of a ruleset folder
(that ruleset; a file of its ``variants/`` folder, the ruleset with that variant), a file
of a mod folder (the mod with its ``mod.yaml`` and its other files, against the rulesets
the manifest targets), a lone variant (as a variant) or a lone card or mod (as a mod) of
the ruleset it fits best (:func:`speciation.lonefile.best_fit`, as ``speciation check``)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..dsl.errors import CompileError, LoadError, RuleError, RuleErrors, Span, SpeciationError
from ..dsl.layers import available_rulesets, find_ruleset
from ..dsl.loader import load_text
from ..dsl.schema import check, kind_of
from ..interpreter.ruleset import RulesetBuilder
from ..lonefile import best_fit, containing_mod, containing_ruleset, targets
from ..scenarios.expect import ScenarioFailure
from ..scenarios.runner import _items, _resolve, _Run, scenario_variants


@dataclass(frozen=True)
class Setting:
    """How a file is checked: as what, against which rulesets (one if it is known, else
    those it may fit), with which variants and mods."""

    what: str                     # scenario, ruleset, variant, mod, lone
    candidates: tuple[str, ...]
    variants: tuple[str, ...] = ()
    mods: tuple[str, ...] = ()


class _LiveBuilder(RulesetBuilder):
    """Builds a ruleset with some files' text taken from the editor instead of the disk."""

    def __init__(self, texts: dict[str, str]):
        super().__init__()
        self.texts = texts

    def load(self, path: Path) -> tuple[Any, str]:
        key = str(Path(path).resolve())
        if key in self.texts:
            return load_text(self.texts[key], str(path)), self.texts[key]
        return super().load(path)


def setting(path: str, document: Any) -> Setting:
    """How the file at *path*, whose (unsaved) document is *document*, is checked."""
    file = Path(path)
    kind = kind_of(document)
    if kind == "scenario":
        folder = file.parent
        ruleset = _resolve(str(document.get("ruleset", "")), folder)
        return Setting("scenario", (ruleset,), tuple(scenario_variants(document, folder)),
                       tuple(str(folder / m) for m in document.get("mods", []) or []))
    mod = containing_mod(file)
    if mod is not None:
        return Setting("mod", tuple(targets(mod) or available_rulesets()), (), (str(mod),))
    home = containing_ruleset(file)
    if home is not None:
        inside = file.resolve().relative_to(home).parts
        if inside[0] == "variants" and kind == "variant":
            return Setting("variant", (str(home),), (file.stem,))
        return Setting("ruleset", (str(home),))
    if kind == "variant":
        return Setting("variant", tuple(available_rulesets()), (str(file),))
    named = [str(t) for t in document.get("targets", []) or []] if kind == "mod" else []
    return Setting("lone", tuple(named or available_rulesets()), (), (str(file),))


def errors_in(path: str, text: str) -> tuple[list[RuleError], Setting | None, str | None]:
    """The errors in the file at *path* with its unsaved *text*, how it was checked, and
    the ruleset chosen (the one it fits best)."""
    key = str(Path(path).resolve())
    try:
        document = load_text(text, path)
    except LoadError as error:
        return [error], None, None
    if document is None:
        return [], None, None  # an empty file: nothing to say yet
    how = setting(path, document if isinstance(document, dict) else {})
    if how.what == "scenario":
        return scenario_errors(path, document), how, how.candidates[0]
    texts = {key: text}
    fits, errors = best_fit(how.candidates, lambda name: _build_errors(name, how, texts))
    own = [e for e in errors if _same(e.span, key)]
    if errors and not own and (how.what == "lone" or str(Path(path)) in how.variants):
        # a lone file breaks something elsewhere (or names a ruleset that is not there)
        own = [CompileError(f"against {Path(fits[0]).name}: {errors[0]}", Span(path, 1, 1))]
    return own, how, fits[0]


def _build_errors(ruleset: str, how: Setting, texts: dict[str, str]) -> list[RuleError]:
    try:
        _LiveBuilder(texts).build(find_ruleset(ruleset), list(how.variants), list(how.mods))
    except RuleErrors as errors:
        return list(errors.errors)
    except SpeciationError as error:
        return [RuleError(str(error))]
    return []


def scenario_errors(path: str, document: Any) -> list[RuleError]:
    """What ``speciation scenario`` would report about this file before running it: its
    structure, the ruleset it names, its players, and every program, expectation and
    choice compiled against that ruleset."""
    problems, _ = check(document, "scenario", Span(path, 1, 1))
    if problems:
        return list(problems)
    run = _Run(Path(path), document)
    at = document.where("ruleset")
    try:
        ruleset = run.ruleset()
    except RuleErrors as errors:
        own = [e for e in errors.errors if _same(e.span, str(Path(path).resolve()))]
        first = errors.errors[0] if errors.errors else None
        return own or [CompileError(f"the ruleset cannot be loaded: {first}" if first else
                                    "the ruleset cannot be loaded", at)]
    except SpeciationError as error:
        return [CompileError(str(error), at)]
    try:
        game = run.new_game(ruleset)
    except ScenarioFailure as failure:
        where = document.where("players")
        return [CompileError(str(failure).removeprefix(f"{where}: "), where)]
    names = list(game.state["players"])
    run.compile_setup(ruleset, names)
    run.compile_run(ruleset, names)
    run.compile_expectations(ruleset, document.get("expect"), names)
    for item, span in _items(document.get("choices")):
        run.compile_choice(ruleset, item, span, names)
    return run.errors


def _same(span: Span, key: str) -> bool:
    try:
        return str(Path(span.path).resolve()) == key
    except (OSError, ValueError):
        return False
