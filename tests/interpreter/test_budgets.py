"""Budgets at run time: every runaway kind of rule stops quickly, at the author's line,
with the chain of calls that led there, in the author's words (docs/security.md)."""
import time

import pytest

from speciation import Game, RuleRuntimeError
from speciation.interpreter.limits import Limits

from support.ruleset_builder import load, main

SMALL = Limits(work=50_000, seconds=5.0, stack_depth=300, call_depth=50, sequence=100_000,
               text=10_000, number_digits=200, log_chars=200_000)


def fails(tmp_path, body, macros=None, extra="", limits=SMALL):
    ruleset = load(tmp_path, main(body, macros, extra))
    started = time.process_time()
    with pytest.raises(RuleRuntimeError) as caught:
        Game.new(ruleset, limits=limits)
    assert time.process_time() - started < 3, "a budget must stop the rules quickly"
    return caught.value


def test_exponential_function(tmp_path):
    extra = 'functions:\n  grow(n, xs): "0 if n == 0 else grow(n - 1, xs) + grow(n - 1, xs)"\n'
    error = fails(tmp_path, "let x = 1\nlet y = grow(40, [1])", extra=extra)
    assert error.span.line == 4 and "units of work" in error.message


def test_squaring_loop(tmp_path):
    error = fails(tmp_path, "let x = 2\nwhile true:\n    x = x * x")
    assert error.span.line == 5 and "more than 200 digits" in error.message


def test_comprehension_over_a_huge_range(tmp_path):
    error = fails(tmp_path, "let xs = [i for i in range(1000000000000)]")
    assert error.span.line == 3 and "a range of 1000000000000 items" in error.message


def test_builtins_asked_for_huge_work(tmp_path):
    assert fails(tmp_path, "repeat 1000000000000:\n    pass").span.line == 3
    assert "repeating" in fails(tmp_path, 'let s = "ab" * 1000000000000').message
    assert "repeating" in fails(tmp_path, "let xs = [0] * 1000000000000").message


def test_huge_text_logged_in_a_loop(tmp_path):
    error = fails(tmp_path, 'let s = "x"\nwhile true:\n    s = s + s\n    log(s)')
    assert error.span.line == 5 and "longer than the 10000 allowed" in error.message
    body = 'let s = format("{}{}{}{}{}{}{}{}", 1111111111, 1, 1, 1, 1, 1, 1, 1)\nlet s = s + s + s + s + s\n' \
           'let t = s + s + s + s + s + s + s + s + s + s\nwhile true:\n    log(t)'
    error = fails(tmp_path, body)
    assert error.span.line == 7 and "log grew past 200000 characters" in error.message


def test_recursive_macros(tmp_path):
    error = fails(tmp_path, "again(1)", {"again(n)": "again(n + 1)"})
    assert error.span.line == 5 and "nested more than 300 deep" in error.message


def test_self_emitting_trigger(tmp_path):
    extra = "triggers:\n  - on: ping(n)\n    effect: |\n      emit ping(n + 1)\n"
    error = fails(tmp_path, "emit ping(0)", extra=extra)
    assert error.span.line == 7 and "nested more than 300 deep" in error.message
    lines = str(error).splitlines()
    assert len(lines) == 13 and "... 290 more calls ..." in lines[5] and lines[-1].endswith(":7:7: here")


def test_recursive_function(tmp_path):
    extra = 'functions:\n  down(n): "down(n + 1)"\n'
    error = fails(tmp_path, "let x = down(0)", extra=extra)
    assert error.span.line == 3 and "nested more than 50 deep" in error.message


def test_time_budget(tmp_path):
    limits = Limits(work=10**12, seconds=0.3)
    error = fails(tmp_path, "while true:\n    pass_time()", {"pass_time()": "let x = 1"}, limits=limits)
    assert "0.3 CPU seconds" in error.message


def test_chain_of_calls_in_the_authors_words(tmp_path):
    extra = 'functions:\n  worth_of(x): "x + 1"\n'
    error = fails(tmp_path, "let w = first(game.bag)\nscore_it(w)",
                  {"score_it(w)": "log(\"{}\", 1)\ngame.n += worth_of(w)"}, extra=extra)
    text = str(error)
    assert error.span.line == 7 and "cannot use + on a text and a number" in error.message
    assert "unsupported operand" not in text and "concatenate" not in text
    lines = text.splitlines()
    assert lines[0] == f"{error.span}: {error.message}"
    assert [line.split(": ", 1)[1] for line in lines[2:]] == [
        "calls macro score_it", "here", "in function worth_of(x)"]
    assert ":4:5: calls" in lines[2] and ":7:5: here" in lines[3] and ":9:17: in function" in lines[4]


def test_limits_are_per_game_and_kept_by_clones(tmp_path):
    import dataclasses
    game = Game.new(load(tmp_path, main("pass")), limits=SMALL)
    assert game.clone().limits is SMALL and Game.new(game.ruleset).limits == Limits()
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.limits.work = 1  # the default is shared: replace, never change in place
