"""What a scenario states must hold: expressions, the log, a seat's view, the options of a
decision. Each is compiled before the run (so every mistake is reported at once) and
checked at the end or at a checkpoint after a choice."""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lark import Token

from ..dsl.errors import Span
from ..dsl.loader import span_of
from ..dsl.parser import parse_effect
from ..interpreter.ruleset import Ruleset
from ..interpreter.game import Game

IDENTIFIER = re.compile(r"^\s*[A-Za-z_]\w*\s*$")
_COMPARISONS = ("comparison", "in_op", "not_in_op")


class ScenarioFailure(Exception):
    """The scenario ran, but something it states did not hold."""


@dataclass
class Expectation:
    """One item of an ``expect`` list."""

    text: str
    span: Span
    doc: str = ""
    test: Callable | None = None                  # an expression, compiled
    sides: list[tuple[str, Callable]] = field(default_factory=list)
    log: tuple[str, str] | None = None            # ("contains" | "lacks", text)
    view: tuple[Any, str, str] | None = None      # (seat, "contains" | "lacks", text)

    def check(self, game: Game, env: dict) -> None:
        if self.log is not None:
            how, wanted = self.log
            _contains(how, wanted, "\n".join(game.log), "the log", self)
        elif self.view is not None:
            seat, how, wanted = self.view
            index = _seat(game, seat, self.span)
            view = game.view(index)
            shown = json.dumps(view, ensure_ascii=False) + "\n" + "\n".join(view.get("log", []))
            _contains(how, wanted, shown, f"the view of seat {seat}", self)
        elif self.test is not None:
            _check_expression(game, self, env)


def _contains(how: str, wanted: str, text: str, what: str, exp: Expectation) -> None:
    found = wanted in text
    if found != (how == "contains"):
        verb = "contain" if how == "contains" else "not contain"
        raise ScenarioFailure(f"{exp.span}: expected {what} to {verb} {wanted!r}, but it "
                              f"{'does not' if how == 'contains' else 'does'}" + (f" [{exp.doc}]" if exp.doc else ""))


def _seat(game: Game, seat: Any, span: Span) -> int:
    players = game.state["players"]
    if isinstance(seat, int) and 1 <= seat <= len(players):
        return seat - 1
    if str(seat) in players:
        return players.index(str(seat))
    raise ScenarioFailure(f"{span}: no seat {seat!r}: the seats are 1-{len(players)} or {', '.join(players)}")


def compile_expectation(ruleset: Ruleset, item: Any, span: Span, names: list[str], compile_: Callable) -> Expectation:
    """An Expectation from one ``expect`` item; *compile_* collects compile errors."""
    if isinstance(item, dict) and ("log_contains" in item or "log_lacks" in item):
        how = "contains" if "log_contains" in item else "lacks"
        text = item.get("log_contains", item.get("log_lacks"))
        return Expectation(f"log {how} {text}", span_of(text, span), str(item.get("doc", "")), log=(how, str(text)))
    if isinstance(item, dict) and "view" in item:
        how = "contains" if "contains" in item else "lacks"
        text = str(item.get("contains", item.get("lacks", "")))
        return Expectation(f"view {how} {text}", span_of(item.get(how), span), str(item.get("doc", "")),
                           view=(item["view"], how, text))
    text, doc = (item.get("that", ""), str(item.get("doc", ""))) if isinstance(item, dict) else (item, "")
    span = span_of(text, span)
    test = compile_(lambda: ruleset.compile_expression(str(text), span, names))
    sides = (compile_(lambda: _sides(ruleset, str(text), span, names)) or []) if test else []
    return Expectation(" ".join(str(text).split()), span, doc, test, sides)


def check_all(game: Game, expectations: list[Expectation], env: dict, when: str = "") -> None:
    """Every expectation must hold; all that do not are reported together."""
    failures = []
    for exp in expectations:
        try:
            exp.check(game, env)
        except ScenarioFailure as failure:
            failures.append(str(failure))
    if failures:
        raise ScenarioFailure((when + ":\n" if when else "") + "\n".join(failures))


def check_options(game: Game, wanted: Any, where: Span) -> None:
    """``expect_options``: a list is the exact option values offered (``pass`` = may decline);
    a mapping ``{includes: [...], excludes: [...]}`` names only some that must (not) be."""
    offered = sorted((game.label(a.value) if a.value is not None else "pass") for a in game.legal_actions())
    labels = lambda values: sorted("pass" if v in (None, "pass") else game.label(v) for v in values)  # noqa: E731
    if isinstance(wanted, dict):
        missing = [v for v in labels(wanted.get("includes", [])) if v not in offered]
        extra = [v for v in labels(wanted.get("excludes", [])) if v in offered]
        if missing or extra:
            said = ([f"{missing} not offered"] if missing else []) + ([f"{extra} offered"] if extra else [])
            raise ScenarioFailure(f"{where}: expected options: {' and '.join(said)}; the decision offers {offered}")
        return
    expected = labels(wanted)
    if offered != expected:
        raise ScenarioFailure(f"{where}: expected the options {expected}, but the decision offers {offered}")


# ---- expressions ----------------------------------------------------------------------

def evaluate(fn: Callable, game: Game, env: dict, where: str) -> Any:
    try:
        return game.evaluate_expression(fn, env)
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
        assert meta.line is not None and meta.column is not None  # the parser keeps positions
        out.append((piece, ruleset.compile_expression(piece, span.shifted(meta.line, meta.column), names)))
    return out


def _check_expression(game: Game, exp: Expectation, env: dict) -> None:
    assert exp.test is not None  # called for an expectation with a test
    value = evaluate(exp.test, game, env, f"{exp.span}: cannot evaluate '{exp.text}'")
    if value:
        return
    message = f"{exp.span}: expected {exp.text}, but "
    if exp.sides:
        described = []
        for which, (text, fn) in zip(("left", "right"), exp.sides):
            shown, text = show(evaluate(fn, game, env, f"{exp.span}: {which} side")), " ".join(text.split())
            described.append(f"the {which} side " + (f"({text}) " if text != shown else "") + f"is {shown}")
        message += " and ".join(described)
    else:
        message += f"it is {show(value)}"
    raise ScenarioFailure(message + (f" [{exp.doc}]" if exp.doc else ""))


def show(value: Any) -> str:
    """A value as a scenario author would write it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value if IDENTIFIER.match(value) and value.strip() == value else json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{show(k)}: {show(v)}" for k, v in value.items()) + "}"
    return str(value)
