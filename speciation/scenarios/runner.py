"""Scenario files: small YAML tests that set up a position, answer the decisions
that come up, and check what must be true afterwards.

The runner is generic: it knows the game API and the rules language, nothing
about any particular game. The file format is documented in
``docs/scenarios.md`` and checked by ``dsl/schemas/scenario.json``; the
command ``speciation scenario FILE...`` runs them.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from lark import Token

from ..dsl.errors import (CompileError, RuleError, RuleErrors, RuleRuntimeError, Span,
                          SpeciationError, did_you_mean)
from ..dsl.loader import Node, load_file, span_of
from ..dsl.parser import parse_effect
from ..dsl.ruleset import Ruleset, load_ruleset
from ..dsl.schema import check
from ..interpreter.game import Action, Game

IDENTIFIER = re.compile(r"^\s*[A-Za-z_]\w*\s*$")
_COMPARISONS = ("comparison", "in_op", "not_in_op")
_CACHE: dict[tuple, Ruleset] = {}


@dataclass
class ScenarioResult:
    """The outcome of one scenario file."""

    name: str
    path: str
    passed: bool
    reason: str = ""
    log: list[str] = field(default_factory=list)  # the game log, for a failure's context


class ScenarioFailure(Exception):
    """The scenario ran, but something it states did not hold."""


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
    """Run one scenario file; never raises for a problem in the file or the rules."""
    path, run = Path(path), None
    name = path.stem
    try:
        document, text = load_file(str(path))
        if isinstance(document, dict) and isinstance(document.get("scenario"), str):
            name = str(document["scenario"])
        problems, _ = check(document, "scenario", Span(str(path), 1, 1))
        if problems:
            raise RuleErrors(problems, {str(path): text})
        run = _Run(path, document)
        run.execute()
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


def run_block(game: Game, block: Any, env: dict) -> None:
    """Run a compiled program (a Block) on *game* with the local names in *env*,
    until it ends or stops at a decision. (Game has no public hook for this.)"""
    stack = game.state["stack"]
    stack.append([block.id, 0, env, len(stack)])
    game._machine.run()


def start_macro(game: Game, name: str, args: list) -> None:
    """Run one of the ruleset's macros on *game* until it ends or stops at a decision."""
    game._machine.start(name, args)
    game._machine.run()


# ---- one run --------------------------------------------------------------------------

@dataclass
class _Expectation:
    text: str
    span: Span
    doc: str
    test: Callable
    sides: list[tuple[str, Callable]]


class _Run:
    """One scenario: compile everything, run the steps, feed choices, check."""

    def __init__(self, path: Path, document: Node):
        self.path = path
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
        expectations = [self.compile_expectation(ruleset, item, span, names)
                        for item, span in _items(self.doc.get("expect"))]
        if self.errors:
            raise RuleErrors(self.errors)
        feeder = _Feeder(game, list(_items(self.doc.get("choices"))))
        env = {name: name for name in names}
        for label, step in steps:
            if game.pending is not None:
                raise ScenarioFailure(f"{label} could not start: the game is still waiting for "
                                      f"{_describe_pending(game)} and no choice is left to answer it")
            step(game, dict(env))
            feeder.feed()
        self.check_stop(game, feeder)
        _check_expectations(game, expectations, env)

    # ---- preparing ----------------------------------------------------------------

    def ruleset(self) -> Ruleset:
        name = _resolve(str(self.doc["ruleset"]), self.folder)
        mods = [str(self.folder / m) for m in self.doc.get("mods", [])]
        return cached_ruleset(name, [str(v) for v in self.doc.get("variants", [])], mods)

    def new_game(self, ruleset: Ruleset) -> Game:
        chance = json.loads(json.dumps(self.doc.get("chance", [])))
        try:
            return Game.new(ruleset, self.doc.get("players"), int(self.doc.get("seed", 0)),
                            chance, start=False)
        except ValueError as exc:
            raise ScenarioFailure(f"{self.doc.where('players')}: {exc}") from None

    def compile_setup(self, ruleset: Ruleset, names: list[str]):
        if "setup" not in self.doc:
            return None
        block = self._compile(lambda: ruleset.compile_program(
            self.doc["setup"], self.doc.where("setup"), names))
        return "setup", lambda game, env: run_block(game, block, env)

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
        return "run", lambda game, env: run_block(game, block, env)

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
            values = [_evaluate(fn, game, env, f"{s}: argument") for fn, s in compiled]
            start_macro(game, name, json.loads(json.dumps(values)))
        return f"run {name}", step

    def compile_expectation(self, ruleset: Ruleset, item: Any, span: Span, names: list[str]):
        text, doc = (item.get("that", ""), str(item.get("doc", ""))) if isinstance(item, dict) else (item, "")
        span = span_of(text, span)
        test = self._compile(lambda: ruleset.compile_expression(str(text), span, names))
        sides = (self._compile(lambda: _sides(ruleset, str(text), span, names)) or []) if test else []
        return _Expectation(" ".join(str(text).split()), span, doc, test, sides)

    def _compile(self, build: Callable) -> Any:
        try:
            return build()
        except RuleErrors as errors:
            self.errors.extend(errors.errors)
            return None

    def _error(self, message: str, span: Span, hint: str = "") -> None:
        self.errors.append(CompileError(message, span, hint))

    # ---- checking -------------------------------------------------------------------

    def check_stop(self, game: Game, feeder: "_Feeder") -> None:
        """Where the run stopped must be where the scenario says."""
        wanted = self.doc.get("expect_pending")
        pending = game.pending
        if feeder.left():
            raise ScenarioFailure(f"{feeder.next_span()}: {feeder.left()} choice(s) left unused: "
                                  "the run finished before they were needed")
        if wanted is not None:
            where = self.doc.where("expect_pending")
            if pending is None:
                raise ScenarioFailure(f"{where}: expected the run to stop at a decision whose prompt "
                                      f"contains {str(wanted)!r}, but the run finished")
            if str(wanted) not in pending["prompt"]:
                raise ScenarioFailure(f"{where}: expected a decision whose prompt contains {str(wanted)!r}, "
                                      f"but the run stopped at {_describe_pending(game)}")
            self.check_options(game)
            return
        if pending is not None:
            raise ScenarioFailure(f"the run stopped at {_describe_pending(game)} and no choice is left "
                                  "to answer it (add a choice, or 'expect_pending')")
        if game.state["chance"]:
            raise ScenarioFailure(f"{self.doc.where('chance')}: scripted chance outcomes never drawn: "
                                  f"{_show(game.state['chance'])}")


    def check_options(self, game: Game) -> None:
        """expect_options: exactly these option values are offered (pass = may decline)."""
        wanted = self.doc.get("expect_options")
        if wanted is None:
            return
        offered = sorted((game.label(a.value) if a.value is not None else "pass") for a in game.legal_actions())
        expected = sorted("pass" if v in (None, "pass") else game.label(v) for v in wanted)
        if offered != expected:
            raise ScenarioFailure(f"{self.doc.where('expect_options')}: expected the options {expected}, "
                                  f"but the decision offers {offered}")


class _Feeder:
    """Answers pending decisions from the scenario's 'choices', in order."""

    def __init__(self, game: Game, choices: list[tuple[Any, Span]]):
        self.game = game
        self.choices = choices
        self.used = 0

    def left(self) -> int:
        return len(self.choices) - self.used

    def next_span(self) -> Span:
        return self.choices[self.used][1]

    def feed(self) -> None:
        while self.game.pending is not None and self.left():
            item, span = self.choices[self.used]
            self.used += 1
            self.game.apply(self.match(item, span))

    def match(self, item: Any, span: Span) -> Action:
        game, pending = self.game, self.game.pending
        where = f"{span}: choice {self.used}"
        pick = item.get("pick") if isinstance(item, dict) else item
        if isinstance(item, dict) and "by" in item:
            actor = pending["actor"]
            if str(item["by"]) not in (str(actor), game.label(actor)):
                raise ScenarioFailure(f"{where}: expected a decision by {item['by']}, but the game "
                                      f"is waiting for {_describe_pending(game)}")
        if isinstance(item, dict) and "prompt_contains" in item:
            if str(item["prompt_contains"]) not in pending["prompt"]:
                raise ScenarioFailure(f"{where}: expected a decision whose prompt contains "
                                      f"{str(item['prompt_contains'])!r}, but the game is waiting for "
                                      f"{_describe_pending(game)}")
        action = _find_action(game.legal_actions(), json.loads(json.dumps(pick)))
        if action is None:
            raise ScenarioFailure(f"{where}: {_show(pick)} is not a legal choice for "
                                  f"{_describe_pending(game)}; legal: {_legal(game)}")
        return action


# ---- helpers ---------------------------------------------------------------------------

def _items(section: Any) -> Iterable[tuple[Any, Span]]:
    """(item, span) for each item of a YAML list (nothing for a missing list)."""
    if not section:
        return []
    spans = getattr(section, "item_spans", [getattr(section, "span", None)] * len(section))
    return list(zip(section, spans))


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


def _find_action(actions: list[Action], pick: Any) -> Action | None:
    """The legal action a scenario's pick names: by value (true is not 1), 'pass', or by label."""
    for action in actions:
        if action.value == pick and isinstance(action.value, bool) == isinstance(pick, bool):
            return action
    if pick == "pass":
        return next((a for a in actions if a.value is None), None)
    labelled = [a for a in actions if a.value is not None and a.label == str(pick)]
    return labelled[0] if len(labelled) == 1 else None


def _legal(game: Game) -> str:
    """The legal options as values to write, with their labels where those differ."""
    shown = [(_show(a.value) if a.value is not None else "pass", a.label) for a in game.legal_actions()]
    return ", ".join(v if label in (v, "pass (decline)") else f"{v} ({label})" for v, label in shown)


def _describe_pending(game: Game) -> str:
    pending = game.pending
    prompt = pending["prompt"] or pending["var"]
    return f"'{prompt}' by {pending['actor']} ({game.label(pending['actor'])})"


def _show(value: Any) -> str:
    """A value as a scenario author would write it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value if IDENTIFIER.match(value) and value.strip() == value else json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_show(k)}: {_show(v)}" for k, v in value.items()) + "}"
    return str(value)


def _evaluate(fn: Callable, game: Game, env: dict, where: str) -> Any:
    try:
        return fn(game._machine, dict(env))
    except Exception as exc:  # a rule function that fails on this position
        raise ScenarioFailure(f"{where}: {exc or type(exc).__name__}") from None


def _sides(ruleset: Ruleset, text: str, span: Span, names: list[str]) -> list[tuple[str, Callable]]:
    """The two sides of a top-level comparison, compiled, or [] for another expression."""
    tree = parse_effect(text, span, start="expr_start").children[0]
    if getattr(tree, "data", None) not in _COMPARISONS:
        return []
    source = text if text.endswith("\n") else text + "\n"
    left, right = tree.children[0], tree.children[-1]
    out = []
    for side in (left, right):
        meta = side if isinstance(side, Token) else side.meta
        piece = source[meta.start_pos:meta.end_pos]
        out.append((piece, ruleset.compile_expression(piece, span.shifted(meta.line, meta.column), names)))
    return out


def _check_expectations(game: Game, expectations: list[_Expectation], env: dict) -> None:
    """Every expectation must hold; all that do not are reported together."""
    failures = []
    for exp in expectations:
        try:
            _check_one(game, exp, env)
        except ScenarioFailure as failure:
            failures.append(str(failure))
    if failures:
        raise ScenarioFailure("\n".join(failures))


def _check_one(game: Game, exp: _Expectation, env: dict) -> None:
    value = _evaluate(exp.test, game, env, f"{exp.span}: cannot evaluate '{exp.text}'")
    if value:
        return
    message = f"{exp.span}: expected {exp.text}, but "
    if exp.sides:
        described = []
        for which, (text, fn) in zip(("left", "right"), exp.sides):
            shown, text = _show(_evaluate(fn, game, env, f"{exp.span}: {which} side")), " ".join(text.split())
            described.append(f"the {which} side " + (f"({text}) " if text != shown else "") + f"is {shown}")
        message += " and ".join(described)
    else:
        message += f"it is {_show(value)}"
    raise ScenarioFailure(message + (f" [{exp.doc}]" if exp.doc else ""))
