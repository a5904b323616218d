"""What fuzzing found escaping the budgets and the error classes (issue 19, hygiene): each
is a positioned rule error or a budget error at the author's line, never an internal error
or a run that only a memory cap stops."""
import pytest

from speciation import Game, RuleErrors, RuleRuntimeError
from speciation.cli import main as cli
from speciation.dsl import errors
from speciation.interpreter.codegen import writer as codegen
from speciation.dsl.errors import ParseError
from speciation.interpreter.limits import Limits

from support.ruleset_builder import load, main

SMALL = Limits(work=50_000, seconds=5.0, stack_depth=300, call_depth=50, sequence=100_000,
               text=10_000, number_digits=200, log_chars=200_000)


@pytest.fixture(params=[True, False], ids=["codegen", "closures"])
def both_paths(request, monkeypatch):
    """Each test runs with the generated code and with the closures alone."""
    monkeypatch.setattr(codegen, "ENABLED", request.param)
    return request.param


def load_error(tmp_path, body, extra=""):
    with pytest.raises(RuleErrors) as caught:
        load(tmp_path, main(body, extra=extra))
    return caught.value.errors


def budget_error(tmp_path, body, extra="", limits=SMALL):
    ruleset = load(tmp_path, main(body, extra=extra))
    with pytest.raises(RuleRuntimeError) as caught:
        Game.new(ruleset, limits=limits)
    return caught.value


def logged(tmp_path, body, extra=""):
    game = Game.new(load(tmp_path, main(body, extra=extra)), limits=SMALL)
    return [line for line in game.state["log"]]


# ---- 1. a bad escape in a quoted text --------------------------------------------------

@pytest.mark.parametrize("text, shown, col", [
    (r'log("\x")', r"\x", 10), (r'log("ab\x4g")', r"\x", 12), (r'log("\N{no such}")', r"\N{no such}", 10),
    (r'log("é\u12")', r"\u", 11), (r"log('\U99999999')", r"\U99999999", 10),
])
def test_a_bad_escape_is_a_parse_error_at_the_escape(tmp_path, text, shown, col):
    [error] = load_error(tmp_path, text)
    assert isinstance(error, ParseError)
    assert error.message == f"bad escape {shown} in a quoted text"
    assert (error.span.line, error.span.col) == (3, col)


def test_good_escapes_keep_their_meaning(tmp_path):
    lines = logged(tmp_path, r'log("a\tb\x41\u00e9\N{BULLET}\"é\\")')
    assert lines[-1] == 'a\tbA\u00e9\u2022"é\\'


# ---- 2. long chains of and / or / + ----------------------------------------------------

@pytest.mark.parametrize("terms", [100, 1000])
def test_long_chains_of_operators_load_and_run(tmp_path, both_paths, terms):
    ors = " or ".join(["game.n == 1"] * (terms - 1) + ["game.n == 0"])
    ands = " and ".join(["game.n == 0"] * (terms - 1) + ["game.n == 1"])
    plus = " + ".join(["game.n + 1"] * terms)
    body = (f'log("{{}} {{}} {{}}", {ors}, {ands}, {plus})\n'
            f'if {ors}:\n    log("if")\nlet f = [x for x in [1, 2] if {ors}]\nlog("{{}}", len(f))')
    assert logged(tmp_path, body)[-3:] == [f"true false {terms}", "if", "2"]


def test_deeply_nested_loops_and_comprehensions_run(tmp_path, both_paths):
    loops = "".join("    " * i + f"for i{i} in [1]:\n" for i in range(30)) + "    " * 30 + 'log("deep")'
    comprehension = "[" * 25 + "1" + "".join(f" for i{i} in [1]]" for i in range(25))
    extra = f'functions:\n  nest(): "{comprehension}"\n'
    assert logged(tmp_path, loops + "\nlet x = nest()\nlog(\"{}\", len(x))", extra)[-2:] == ["deep", "1"]


# ---- 3. runaway comprehensions ---------------------------------------------------------

@pytest.mark.parametrize("body", [
    "let xs = [len(range(1000000)) for i in range(1000000)]",
    "let xs = [i for i in range(1000000) if len(range(1000000)) == 0]",
    "let r = range(100000)\nlet xs = [i for i in r if i + 100000 in r]",
    "let r = range(100000)\nlet xs = [i for i in r if not (i + 100000 not in r)]",
    "let r = range(100000)\nlet xs = [i for i in r if i in r]",
    "let xs = [[[k for k in range(1000)] for j in range(1000)] for i in range(1000)]",
])
def test_a_runaway_comprehension_is_stopped_by_the_work_budget(tmp_path, both_paths, body):
    error = budget_error(tmp_path, body, limits=Limits(work=1_000_000))
    assert "units of work" in error.message and error.span.line == 2 + body.count("\n") + 1


def test_a_runaway_comprehension_in_a_rule_function(tmp_path, both_paths):
    extra = 'functions:\n  f(): "[i for i in range(100000) if i + 100000 in range(100000)]"\n'
    error = budget_error(tmp_path, "let xs = f()", extra, limits=Limits(work=1_000_000))
    assert "units of work" in error.message and error.span.line == 3


# ---- 4. lists grown in place ----------------------------------------------------------

@pytest.mark.parametrize("grow", [
    "extend(game.out, game.out)", "game.out = game.out + game.out", "game.out += game.out",
    "game.out = concat(game.out, game.out)",
])
def test_a_list_doubled_in_the_state_is_stopped_at_the_authors_line(tmp_path, both_paths, grow):
    limits = Limits(work=10_000_000, sequence=100_000)
    error = budget_error(tmp_path, f"game.out = [1]\nwhile true:\n    {grow}", limits=limits)
    assert "more than the 100000 allowed" in error.message and error.span.line == 5


def test_a_list_grown_one_item_at_a_time_is_stopped_too(tmp_path):
    limits = Limits(work=10_000_000, sequence=1000)
    for verb in ("append(game.out, 1)", "insert(game.out, 0, 1)"):
        error = budget_error(tmp_path, f"game.out = []\nwhile true:\n    {verb}", limits=limits)
        assert "a list of 1001 items is more than the 1000 allowed" in error.message and error.span.line == 5


def test_extend_pays_a_unit_of_work_per_item(tmp_path):
    error = budget_error(tmp_path, "game.out = range(60000)\nextend(game.out, game.out)",
                         limits=Limits(work=100_000))
    assert "units of work" in error.message and error.span.line == 4


# ---- 5. did-you-mean over very many unknown names --------------------------------------

def test_twenty_thousand_unknown_names_are_all_reported_with_a_bounded_search(tmp_path):
    body = "let score_total = 1\n" + "\n".join(f"let v{i} = score_totl + w{i}" for i in range(20000))
    found = load_error(tmp_path, body)
    assert len(found) == 40000  # every unknown name, placed
    assert found[0].span.line == 4 and found[0].hint == "did you mean 'score_total'?"
    # the search is bounded: the later names (each with a long list of names in scope) get none
    assert found[-1].hint == "" and found[-1].span.line == 20003
    assert errors._considered <= errors.SUGGESTION_BUDGET + 30000


def test_each_load_has_its_own_suggestion_budget(tmp_path):
    errors._considered = errors.SUGGESTION_BUDGET + 1
    [error] = load_error(tmp_path, "let score_total = 1\nlet x = score_totl")
    assert error.hint == "did you mean 'score_total'?"


# ---- 6. a state that cannot be saved ---------------------------------------------------

def test_play_with_a_state_that_cannot_be_saved_is_one_line_and_exit_2(tmp_path, capsys):
    rules = load(tmp_path / "r", main("append(game.out, game.out)\nlog(\"done\")")).source
    code = cli(["play", rules, "--agents", "random,random", "--quiet", "--save", str(tmp_path / "s.json")])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: cannot save: ") and err.count("\n") == 1
    assert not (tmp_path / "s.json").exists() and "Traceback" not in err


def test_play_and_simulate_with_a_save_path_that_cannot_be_written(tmp_path, capsys):
    rules = load(tmp_path / "r", main('log("done")')).source
    missing = str(tmp_path / "no" / "such" / "s.json")
    assert cli(["play", rules, "--agents", "random,random", "--quiet", "--save", missing]) == 2
    assert capsys.readouterr().err == f"error: cannot write {missing}: No such file or directory\n"
    assert cli(["simulate", rules, "--games", "1", "--no-progress", "--json", missing]) == 2
    assert capsys.readouterr().err.endswith(f"error: cannot write {missing}: No such file or directory\n")
