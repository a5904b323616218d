"""Comprehensions with several 'for's (and an 'if' after each), as in Python: closures and
generated code give the same lists, each source walked pays its items, mistakes are placed."""
from __future__ import annotations

import pytest

from speciation import Game, RuleErrors, RuleRuntimeError
from speciation.interpreter.codegen import writer as codegen
from speciation.interpreter.limits import Limits

from support.ruleset_builder import load, main

BODY = """\
let xs = [1, 2, 3]
let ys = [2, 3]
log("{}", [a + b for a in xs for b in ys if a != b])
log("{}", [a * 10 + b for a in xs if a > 1 for b in range(a) if b != 1])
log("{}", [[p, l] for p in entities(player) for l in letters if worth[l] > 1])
let a = 7
log("{}", [len(ws) for ws in [xs, ys] for w in ws for v in ws if w < v])
log("{} {}", a, total([[1, 2], [3], []]))
log("{}", [x for x in xs for x in ys])
"""
FUNCTIONS = 'functions:\n  total(xss): "sum([x for xs in xss for x in xs])"\n'
EXPECTED = ["[3, 4, 5, 5]", "[20, 30, 32]",
            "[[Player 1, b], [Player 1, c], [Player 2, b], [Player 2, c]]",
            "[3, 3, 3, 2]", "7 6", "[2, 3, 2, 3, 2, 3]"]


@pytest.mark.parametrize("generated", [True, False])
def test_several_fors_as_python(tmp_path, monkeypatch, generated):
    monkeypatch.setattr(codegen, "ENABLED", generated)
    ruleset = load(tmp_path, main(BODY, extra=FUNCTIONS))
    assert hasattr(ruleset.functions["total"].fast, "source") is generated
    assert Game.new(ruleset).log == EXPECTED


def test_several_fors_in_a_function_and_a_loop_body_generated(tmp_path):
    """The generated source really has the nested loops (no fall-back to the closures)."""
    ruleset = load(tmp_path, main(BODY, extra=FUNCTIONS))
    source = ruleset.functions["total"].fast.source
    assert source.count("for ") >= 2


@pytest.mark.parametrize("generated", [True, False])
def test_every_inner_walk_pays_its_items(tmp_path, monkeypatch, generated):
    """An inner source is walked once per outer item, and pays each time: 3000 x 3000 items
    is more than a small budget, though each list alone is cheap."""
    monkeypatch.setattr(codegen, "ENABLED", generated)
    ruleset = load(tmp_path, main("let xs = range(3000)\nlet n = len([1 for a in xs for b in xs if a == b])"))
    with pytest.raises(RuleRuntimeError) as caught:
        Game.new(ruleset, limits=Limits(work=1_000_000, seconds=5.0))
    assert caught.value.span.line == 4 and "units of work" in caught.value.message
    assert len(Game.new(ruleset, limits=Limits(work=20_000_000, seconds=60.0)).log) == 0


def test_mistakes_in_a_later_clause_are_placed(tmp_path):
    body = "let xs = [1]\nlog(\"{}\", [a for a in xs for b in ys if b > zz])"
    with pytest.raises(RuleErrors) as caught:
        load(tmp_path, main(body))
    found = [(e.span.line, e.span.col, e.message) for e in caught.value.errors]
    assert found == [(4, 39, "unknown name 'ys'"), (4, 49, "unknown name 'zz'")]


def test_the_names_of_a_comprehension_are_its_own(tmp_path):
    body = "let a = 1\nlet xs = [a + b for a in [5] for b in [a]]\nlog(\"{} {}\", a, xs)"
    assert Game.new(load(tmp_path, main(body))).log == ["1 [10]"]
