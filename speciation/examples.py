"""The examples of a ruleset's vocabulary, run: every ``Example:`` of a doc comment.

An example is written in the doc comment of the name it shows, after ``Example:``::

    # Gives an animal VP, never below 0.
    # Example: gain_vp(mammal, 3) => mammal.vp == 3
    gain_vp(f, n): |

Before ``=>`` are statements (several separated by ``;``), after it the expression that must
then be true; an example without ``=>`` is only that expression. Each example runs on its own
copy of one starting position: the scenario file ``scenarios/examples.yaml`` of the ruleset's
folder (its ``players``, ``seed`` and ``setup``), else a game of the ruleset's fewest players
before its first statement. A decision the statements reach takes the first option offered.
The runner is generic; ``speciation list RULESET examples`` and a test run them.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .dsl.errors import RuleError, RuleErrors, RuleRuntimeError, Span
from .dsl.layers import find_ruleset
from .dsl.loader import load_file
from .dsl.schema import check
from .interpreter.game import Game
from .interpreter.ruleset import Ruleset, load_ruleset
from .vocabulary import Entry, vocabulary

DECISIONS = 500     # at most this many decisions answered by one example


@dataclass
class ExampleResult:
    entry: Entry
    example: str
    passed: bool
    reason: str = ""

    def line(self) -> str:
        verdict = "ok  " if self.passed else "FAIL"
        return f"{verdict} {self.entry.name}: {self.example}" + ("" if self.passed else f"\n     {self.reason}")


def split_example(text: str) -> tuple[list[str], str]:
    """``"a; b => c"`` -> (["a", "b"], "c"); semicolons and arrows inside strings stay."""
    program, _, expect = _cut(text, "=>")
    if not expect:
        return [], text.strip()
    statements = []
    rest = program
    while rest:
        head, _, rest = _cut(rest, ";")
        if head.strip():
            statements.append(head.strip())
    return statements, expect.strip()


def _cut(text: str, mark: str) -> tuple[str, str, str]:
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif text.startswith(mark, i):
            return text[:i], mark, text[i + len(mark):]
    return text, "", ""


def starting_position(name: str, variants=(), mods=()) -> tuple[Ruleset, Game, dict]:
    """The ruleset and the game every example of it starts from, with the names the examples
    may use (the players' names, as in a scenario)."""
    ruleset = load_ruleset(name, list(variants), list(mods))
    path = find_ruleset(name) / "scenarios" / "examples.yaml"
    players, seed, setup, origin = None, 0, None, Span(str(path), 1, 1)
    if path.is_file():
        document, text = load_file(str(path))
        problems, _ = check(document, "scenario", Span(str(path), 1, 1))
        if problems:
            raise RuleErrors(problems, {str(path): text})
        players, seed = document.get("players"), int(document.get("seed", 0))
        if "setup" in document:
            setup, origin = str(document["setup"]), document.where("setup")
    game = Game.new(ruleset, players, seed, start=False)
    names = {p: p for p in game.state["players"]}
    if setup is not None:
        game.run_block(ruleset.compile_program(setup, origin, list(names)), names)
        _answer(game)
    return ruleset, game, names


def run_examples(name: str, variants=(), mods=()) -> list[ExampleResult]:
    """Run every example of the vocabulary of ruleset *name*; never raises for a problem in
    an example (it is a failed result)."""
    ruleset, start, names = starting_position(name, variants, mods)
    out = []
    for entry in own_entries(name, vocabulary(name, variants, mods).entries):
        for example in entry.examples:
            out.append(_run_one(ruleset, start, names, entry, example))
    return out


def own_entries(name: str, entries: list[Entry]) -> list[Entry]:
    """The entries a ruleset (with its variants and mods) defines itself: not those of a
    ruleset it extends, whose examples run on that ruleset's own starting position."""
    own = find_ruleset(name).resolve()
    return [e for e in entries if _home(Path(e.span.path)) in (None, own)]


def _home(path: Path) -> Path | None:
    """The folder of the ruleset a rule file belongs to (None: a mod's or variant's file
    outside any ruleset folder)."""
    for folder in path.resolve().parents:
        if (folder / "ruleset.yaml").is_file():
            return folder
    return None


def _run_one(ruleset: Ruleset, start: Game, names: dict, entry: Entry, example: str) -> ExampleResult:
    origin = entry.span
    where = f"{origin.path}:{origin.line}"
    statements, expect = split_example(example)
    try:
        game = start.clone()
        env = dict(names)
        if statements:
            block = ruleset.compile_program("\n".join(statements), origin, list(env))
            env = game.run_block(block, env)
            _answer(game)
        value = game.evaluate_expression(ruleset.compile_expression(expect, origin, list(env)), env)
    except (RuleErrors, RuleError) as error:
        return ExampleResult(entry, example, False, error.format().strip().splitlines()[0])
    except RuleRuntimeError as error:
        return ExampleResult(entry, example, False, f"{where}: runtime error: {error}")
    if value is not True:
        return ExampleResult(entry, example, False, f"{where}: '{expect}' is {game.label(value)}, not true")
    return ExampleResult(entry, example, True)


def _answer(game: Game) -> None:
    """Answer each decision the statements reach with its first option."""
    for _ in range(DECISIONS):
        if game.pending is None or game.is_over:
            return
        game.apply(game.legal_actions()[0])
    raise RuleRuntimeError(f"the example reached more than {DECISIONS} decisions")


def missing(name: str, sections=("function", "macro", "attribute", "event")) -> list[str]:
    """The names of *sections* without a description or without an example, with where."""
    out = []
    for entry in own_entries(name, vocabulary(name).entries):
        if entry.section in sections and not (entry.doc and entry.examples):
            lack = " and ".join(w for w, has in (("description", entry.doc), ("example", entry.examples)) if not has)
            out.append(f"{entry.span.path}:{entry.span.line}: {entry.section} {entry.name} has no {lack}")
    return out


__all__ = ["ExampleResult", "run_examples", "missing", "split_example", "starting_position"]
