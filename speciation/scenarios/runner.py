"""Scenario files: small YAML tests that set up a position, answer the decisions
that come up, and check what must be true afterwards.

The runner is generic: it knows the game API and the rules language, nothing
about any particular game. The file format is documented in
``docs/scenarios.md`` and checked by ``dsl/schemas/scenario.json``; the
command ``speciation scenario FILE...`` runs them.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..dsl.errors import (CompileError, RuleError, RuleErrors, RuleRuntimeError, Span,
                          SpeciationError, did_you_mean)
from ..dsl.loader import Node, load_file, span_of
from ..interpreter.ruleset import Ruleset, load_ruleset
from ..dsl.schema import check
from ..interpreter.game import Game
from .choices import Choice, Feeder, describe_pending
from .expect import (IDENTIFIER, Expectation, ScenarioFailure, check_all, check_options, compile_expectation,
                     evaluate, show)

_CACHE: dict[tuple, Ruleset] = {}


@dataclass
class ScenarioResult:
    """The outcome of one scenario file."""

    name: str
    path: str
    passed: bool
    reason: str = ""
    log: list[str] = field(default_factory=list)  # the game log, for a failure's context


# ---- public entry points ------------------------------------------------------------

def scenario_files(paths: Iterable[str | Path]) -> list[Path]:
    """The scenario files named: files as given, folders searched for ``*.yaml``."""
    found: list[Path] = []
    for item in map(Path, paths):
        found.extend(sorted(item.rglob("*.yaml")) if item.is_dir() else [item])
    return found


def run_scenarios(paths: Iterable[str | Path]) -> list[ScenarioResult]:
    """Run every scenario file in *paths* (files or folders), in order."""
    return [run_scenario_file(path) for path in scenario_files(paths)]


def run_scenario_file(path: str | Path) -> ScenarioResult:
    """Run one scenario file (once per seed of ``seeds``); never raises for a problem in
    the file or the rules."""
    path, run = Path(path), None
    name = path.stem
    try:
        document, text = load_file(str(path))
        if isinstance(document, dict) and isinstance(document.get("scenario"), str):
            name = str(document["scenario"])
        problems, _ = check(document, "scenario", Span(str(path), 1, 1))
        if problems:
            raise RuleErrors(problems, {str(path): text})
        for seed in _seeds(document):
            run = _Run(path, document, seed)
            try:
                run.execute()
            except ScenarioFailure as failure:
                if "seeds" in document:
                    raise ScenarioFailure(f"with seed {seed}: {failure}") from None
                raise
        passed, reason = True, ""
    except ScenarioFailure as failure:
        passed, reason = False, str(failure)
    except (RuleErrors, RuleError) as error:
        passed, reason = False, error.format()
    except RuleRuntimeError as error:
        passed, reason = False, f"runtime error: {error}"
    except SpeciationError as error:
        passed, reason = False, str(error)
    except Exception as exc:  # a bug in the runner or the core: report it, go on with the rest
        passed, reason = False, f"internal error: {type(exc).__name__}: {exc}"
    log = list(run.game.log) if run is not None and run.game is not None else []
    return ScenarioResult(name, str(path), passed, reason, log)


def _seeds(document: Node) -> list[int]:
    """The seeds to run with: ``seeds`` (each one a run), else ``seed`` (default 0)."""
    if "seeds" in document:
        return [int(s) for s in document["seeds"]]
    return [int(document.get("seed", 0))]


def cached_ruleset(name_or_path: str, variants: Iterable[str] = (), mods: Iterable[str] = ()) -> Ruleset:
    """Load a ruleset once per process for each (ruleset, variants, mods)."""
    where = Path(name_or_path)
    key = (str(where.resolve()) if where.exists() else name_or_path, tuple(variants), tuple(mods))
    if key not in _CACHE:
        _CACHE[key] = load_ruleset(name_or_path, list(variants), list(mods))
    return _CACHE[key]


def clear_cache() -> None:
    """Forget the rulesets loaded so far (after editing rule files, say)."""
    _CACHE.clear()


# ---- one run --------------------------------------------------------------------------

class _Run:
    """One scenario: compile everything, run the steps, feed choices, check."""

    def __init__(self, path: Path, document: Node, seed: int = 0):
        self.path, self.seed = path, seed
        self.doc = document
        self.folder = path.parent
        self.errors: list[RuleError] = []
        self.game: Game | None = None

    def execute(self) -> None:
        ruleset = self.ruleset()
        game = self.game = self.new_game(ruleset)
        names = list(game.state["players"])
        steps = [step for step in (self.compile_setup(ruleset, names),
                                   self.compile_run(ruleset, names)) if step is not None]
        expectations = self.compile_expectations(ruleset, self.doc.get("expect"), names)
        choices = [self.compile_choice(ruleset, item, span, names) for item, span in _items(self.doc.get("choices"))]
        if self.errors:
            raise RuleErrors(self.errors)
        env = {name: name for name in names}
        feeder = Feeder(game, choices, env)
        for number, (label, step) in enumerate(steps, 1):
            if game.pending is not None:
                raise ScenarioFailure(f"{label} could not start: the game is still waiting for "
                                      f"{describe_pending(game)} and no choice is left to answer it" + feeder.note())
            step(game, dict(env))
            feeder.feed(final=number == len(steps))
        self.check_stop(game, feeder)
        check_all(game, expectations, env)

    # ---- preparing ----------------------------------------------------------------

    def ruleset(self) -> Ruleset:
        name = _resolve(str(self.doc["ruleset"]), self.folder)
        mods = [str(self.folder / m) for m in self.doc.get("mods", [])]
        return cached_ruleset(name, scenario_variants(self.doc, self.folder), mods)

    def new_game(self, ruleset: Ruleset) -> Game:
        chance = json.loads(json.dumps(self.doc.get("chance", [])))
        try:
            return Game.new(ruleset, self.doc.get("players"), self.seed, chance, start=False)
        except ValueError as exc:
            raise ScenarioFailure(f"{self.doc.where('players')}: {exc}") from None

    def compile_setup(self, ruleset: Ruleset, names: list[str]):
        if "setup" not in self.doc:
            return None
        block = self._compile(lambda: ruleset.compile_program(
            self.doc["setup"], self.doc.where("setup"), names))
        return "setup", lambda game, env: game.run_block(block, env)

    def compile_run(self, ruleset: Ruleset, names: list[str]):
        if "run" not in self.doc:
            if "args" in self.doc:
                self._error("'args' goes with 'run: MACRO_NAME'", self.doc.where_key("args"))
            return None
        text, span = str(self.doc["run"]), self.doc.where("run")
        if IDENTIFIER.match(text):
            return self._compile_macro_run(ruleset, text.strip(), span, names)
        if "args" in self.doc:
            self._error("'args' goes with 'run: MACRO_NAME', not with a program", self.doc.where_key("args"))
        block = self._compile(lambda: ruleset.compile_program(text, span, names))
        return "run", lambda game, env: game.run_block(block, env)

    def _compile_macro_run(self, ruleset: Ruleset, name: str, span: Span, names: list[str]):
        macro = ruleset.macros.get(name)
        if macro is None:
            self._error(f"the ruleset has no macro named '{name}'", span, did_you_mean(name, ruleset.macros))
            return None
        args = list(_items(self.doc.get("args")))
        if len(args) != len(macro.params):
            wanted = ", ".join(macro.params) or "none"
            self._error(f"macro '{name}' takes {len(macro.params)} argument(s) ({wanted}), "
                        f"but 'args' gives {len(args)}", self.doc.where("args") if args else span)
        compiled = [(self._compile(lambda a=a, s=s: ruleset.compile_expression(str(a), s, names)), s)
                    for a, s in args]

        def step(game: Game, env: dict) -> None:
            values = [evaluate(fn, game, env, f"{s}: argument") for fn, s in compiled]
            game.start(name, json.loads(json.dumps(values)))
        return f"run {name}", step

    def compile_expectations(self, ruleset: Ruleset, section: Any, names: list[str]) -> list[Expectation]:
        return [compile_expectation(ruleset, item, span, names, self._compile) for item, span in _items(section)]

    def compile_choice(self, ruleset: Ruleset, item: Any, span: Span, names: list[str]) -> Choice:
        choice = Choice(item, span)
        if isinstance(item, dict) and "expr" in item:
            where = span_of(item["expr"], span)
            choice.expr = self._compile(lambda: ruleset.compile_expression(str(item["expr"]), where, names))
        if isinstance(item, dict) and "expect" in item:
            choice.checkpoint = self.compile_expectations(ruleset, item["expect"], names)
        return choice

    def _compile(self, build: Callable) -> Any:
        try:
            return build()
        except RuleErrors as errors:
            self.errors.extend(errors.errors)
            return None

    def _error(self, message: str, span: Span, hint: str = "") -> None:
        self.errors.append(CompileError(message, span, hint))

    # ---- checking -------------------------------------------------------------------

    def check_stop(self, game: Game, feeder: Feeder) -> None:
        """Where the run stopped must be where the scenario says."""
        wanted = self.doc.get("expect_pending")
        pending = game.pending
        if feeder.left():
            raise ScenarioFailure(f"{feeder.next_span()}: {feeder.left()} choice(s) left unused: "
                                  "the run finished before they were needed" + feeder.note())
        if wanted is not None:
            where = self.doc.where("expect_pending")
            if pending is None:
                raise ScenarioFailure(f"{where}: expected the run to stop at a decision whose prompt "
                                      f"contains {str(wanted)!r}, but the run finished")
            if str(wanted) not in pending["prompt"]:
                raise ScenarioFailure(f"{where}: expected a decision whose prompt contains {str(wanted)!r}, "
                                      f"but the run stopped at {describe_pending(game)}" + feeder.note())
            if "expect_options" in self.doc:
                check_options(game, self.doc["expect_options"], self.doc.where("expect_options"))
            return
        if pending is not None:
            raise ScenarioFailure(f"the run stopped at {describe_pending(game)} and no choice is left "
                                  "to answer it (add a choice, or 'expect_pending')" + feeder.note())
        if game.state["chance"]:
            raise ScenarioFailure(f"{self.doc.where('chance')}: scripted chance outcomes never drawn: "
                                  f"{show(game.state['chance'])}")



# ---- helpers ---------------------------------------------------------------------------

def _items(section: Any) -> Iterable[tuple[Any, Span]]:
    """(item, span) for each item of a YAML list (nothing for a missing list)."""
    if not section:
        return []
    spans = getattr(section, "item_spans", [getattr(section, "span", None)] * len(section))
    return list(zip(section, spans))


def scenario_variants(document: Any, folder: Path) -> list[str]:
    """A scenario's variants: names, or variant files by a path from the scenario's folder."""
    return [str(folder / str(v)) if str(v).endswith((".yaml", ".yml")) else str(v)
            for v in document.get("variants", []) or []]


def _resolve(ruleset: str, folder: Path) -> str:
    """A relative ruleset path is read from the scenario's folder; else a builtin name."""
    path = Path(ruleset)
    if path.is_absolute():
        return ruleset
    candidate = folder / path
    if (candidate / "ruleset.yaml").is_file() or candidate.name == "ruleset.yaml" and candidate.is_file():
        return str(candidate)
    if "/" in ruleset or ruleset.startswith("."):
        return str(candidate)  # clearly meant as a path: report it as one
    return ruleset
