"""Answering a scenario's decisions from its ``choices``: plain values, expressions, checks
of who decides and what is offered, checkpoints after a choice, actions that must be
refused. Every choice error notes the decisions the rules settled by themselves (one
legal option) since the previous choice, since a choice written for one of those would
otherwise seem to go to the wrong question."""
from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from ..dsl.errors import IllegalActionError, Span
from ..interpreter.game import Action, Game
from .expect import Expectation, ScenarioFailure, check_all, check_options, evaluate, show


@dataclass
class Choice:
    """One item of ``choices``, compiled."""

    item: Any
    span: Span
    expr: Callable | None = None                            # {expr: ...}
    checkpoint: list[Expectation] = field(default_factory=list)   # {expect: [...]} after it

    @property
    def refuse(self) -> bool:
        return isinstance(self.item, dict) and "refuse" in self.item


class Feeder:
    """Answers pending decisions from the scenario's choices, in order."""

    def __init__(self, game: Game, choices: list[Choice], env: dict):
        self.game, self.choices, self.env = game, choices, env
        self.used = 0
        self.settled: list[tuple[Span, str, Any]] = []   # decided by the rules since the last choice
        _note_settled(game, self.settled)

    def left(self) -> int:
        return len(self.choices) - self.used

    def next_span(self) -> Span:
        return self.choices[self.used].span

    def note(self) -> str:
        """The decisions settled automatically since the last choice, as a note (or "")."""
        if not self.settled:
            return ""
        shown = "; ".join(f"'{var}' at {span} → {show(value)}" for span, var, value in self.settled[-5:])
        more = f" (the last 5 of {len(self.settled)})" if len(self.settled) > 5 else ""
        return (f"\n    note: since the previous choice the rules settled {len(self.settled)} decision(s) "
                f"by themselves (no option, or one and no way to decline), using no choice{more}: {shown}")

    def feed(self, final: bool = False) -> None:
        """Answer decisions while choices are left; a ``refuse`` with no decision pending is
        tried only after the last step (*final*), when the game is over."""
        while self.left() and (self.game.pending is not None or (final and self.choices[self.used].refuse)):
            choice = self.choices[self.used]
            self.used += 1
            if choice.refuse:
                self.refused(choice)
                continue
            action = self.match(choice)
            self.settled.clear()
            self.game.apply(action)
            if choice.checkpoint:
                check_all(self.game, choice.checkpoint, self.env, f"{choice.span}: after choice {self.used}")

    def fail(self, message: str) -> NoReturn:
        raise ScenarioFailure(message + self.note())

    def refused(self, choice: Choice) -> None:
        """``{refuse: VALUE, reason_contains: TEXT}``: the action is refused, nothing changes."""
        item, where = choice.item, f"{choice.span}: choice {self.used}"
        value = json.loads(json.dumps(item["refuse"]))
        value = None if value == "pass" else value
        before = self.game.digest()
        try:
            self.game.apply(value, decision=self.game.decision_id)
        except IllegalActionError as error:
            wanted = str(item.get("reason_contains", ""))
            if wanted not in str(error):
                self.fail(f"{where}: {show(value)} was refused, but the reason does not contain {wanted!r}: {error}")
            if self.game.digest() != before:
                self.fail(f"{where}: refusing {show(value)} changed the game")
            return
        self.fail(f"{where}: expected {show(value)} to be refused, but it was accepted")

    def match(self, choice: Choice) -> Action:
        game, pending, item = self.game, self.game.pending, choice.item
        assert pending is not None  # a choice is matched at a decision
        where = f"{choice.span}: choice {self.used}"
        actions = game.legal_actions()
        if "fiber" in pending and isinstance(item, dict) and "by" in item:  # several seats decide: 'by' picks one
            for decision in game.decisions():
                if str(item["by"]) in (str(decision.actor), game.label(decision.actor)):
                    pending, actions = decision.pending, decision.legal_actions()
        if isinstance(item, dict) and "by" in item:
            actor = pending["actor"]
            if str(item["by"]) not in (str(actor), game.label(actor)):
                self.fail(f"{where}: expected a decision by {item['by']}, but the game is waiting for "
                          f"{describe_pending(game)}")
        if isinstance(item, dict) and "prompt_contains" in item:
            if str(item["prompt_contains"]) not in pending["prompt"]:
                self.fail(f"{where}: expected a decision whose prompt contains {str(item['prompt_contains'])!r}, "
                          f"but the game is waiting for {describe_pending(game)}")
        if isinstance(item, dict) and "expect_options" in item:
            try:
                check_options(game, item["expect_options"], choice.span)
            except ScenarioFailure as failure:
                self.fail(str(failure))
        if choice.expr is not None:
            pick = evaluate(choice.expr, game, self.env, f"{where}: cannot evaluate the choice")
        else:
            pick = json.loads(json.dumps(item.get("pick") if isinstance(item, dict) else item))
        action = find_action(actions, pick)
        if action is None:
            self.fail(f"{where}: {show(pick)} is not a legal choice for {describe_pending(game)}; "
                      f"legal: {legal(game)}")
        return action


def _note_settled(game: Game, settled: list) -> None:
    """Note in *settled* each decision the rules settle by themselves in *game*."""
    game.on_settled = lambda var, value, span: settled.append((span, var, value))


def find_action(actions: Sequence[Action], pick: Any) -> Action | None:
    """The legal action a scenario's pick names: by value (true is not 1), 'pass', or by label."""
    for action in actions:
        if action.value == pick and isinstance(action.value, bool) == isinstance(pick, bool):
            return action
    if pick == "pass":
        return next((a for a in actions if a.value is None), None)
    labelled = [a for a in actions if a.value is not None and a.label == str(pick)]
    return labelled[0] if len(labelled) == 1 else None


def legal(game: Game) -> str:
    """The legal options as values to write, with their labels where those differ."""
    shown = [(show(a.value) if a.value is not None else "pass", a.label) for a in game.legal_actions()]
    return ", ".join(v if label in (v, "pass (decline)") else f"{v} ({label})" for v, label in shown)


def describe_pending(game: Game) -> str:
    pending = game.pending
    assert pending is not None  # described while the game waits for it
    prompt = pending["prompt"] or pending["var"]
    return f"'{prompt}' by {pending['actor']} ({game.label(pending['actor'])})"
