"""Stage 4: names, arities and attributes are checked at load time, all errors at once."""
from pathlib import Path

import pytest

from speciation import CompileError, Game, RuleErrors
from speciation.dsl.errors import Span

from support.ruleset_builder import MINI, load, main


def errors(tmp_path, files, **options):
    with pytest.raises(RuleErrors) as caught:
        load(tmp_path, files, **options)
    return [(Path(e.span.path).name, e.span.line, e.span.col, e.message, e.hint)
            for e in caught.value.errors]


def only_error(tmp_path, files, **options):
    found = errors(tmp_path, files, **options)
    assert len(found) == 1, found
    return found[0]


# ---- names ---------------------------------------------------------------------------------
# main() puts the body at line 3, indented by 4: the first statement starts at 3:5.

def test_unknown_name_with_did_you_mean(tmp_path):
    assert only_error(tmp_path, main("let w = lettrs")) == (
        "rules.yaml", 3, 13, "unknown name 'lettrs'", "did you mean 'letters'?")


def test_unknown_name_without_close_match(tmp_path):
    assert only_error(tmp_path, main("let w = zzzqqq")) == (
        "rules.yaml", 3, 13, "unknown name 'zzzqqq'", "")


def test_unknown_function_with_did_you_mean(tmp_path):
    assert only_error(tmp_path, main("let x = lenn([1])")) == (
        "rules.yaml", 3, 13, "unknown function 'lenn'", "did you mean 'len'?")


def test_unknown_function_suggests_the_rulesets_own(tmp_path):
    found = only_error(tmp_path, main("let x = scor(1)"))
    assert found[3] == "unknown function 'scor'" and "'score'" in found[4]


def test_unknown_verb_with_did_you_mean(tmp_path):
    assert only_error(tmp_path, main("apend(game.out, 1)")) == (
        "rules.yaml", 3, 5, "unknown verb or macro 'apend'", "did you mean 'append'?")


def test_unknown_macro_suggests_a_macro(tmp_path):
    found = only_error(tmp_path, main("helpr()", {"helper": "pass"}))
    assert found[3:] == ("unknown verb or macro 'helpr'", "did you mean 'helper'?")


def test_unknown_attribute_with_did_you_mean(tmp_path):
    assert only_error(tmp_path, main("game.bagg = []")) == (
        "rules.yaml", 3, 10, "no kind of entity has an attribute 'bagg'", "did you mean 'bag'?")


def test_unknown_attribute_in_a_function_body(tmp_path):
    files = main("pass", extra="functions:\n  f(p): p.victory\n")
    assert only_error(tmp_path, files) == (
        "rules.yaml", 5, 11, "no kind of entity has an attribute 'victory'", "")


def test_locals_symbols_tables_kinds_and_literals_resolve(tmp_path):
    body = """
        let xs = [a, b, letters, worth, player, game, true, false, none]
        for p in entities(player):
            let n = p.vp
        choose k from [1, 2] by first(entities(player))
        draw d from game.bag
        let ys = [k, d, n, xs]
    """
    assert load(tmp_path, main(body)).macros["main"]


def test_comprehension_name_is_local_to_the_comprehension(tmp_path):
    assert only_error(tmp_path, main("let xs = [i for i in [1]]\nlet y = i"))[3] == "unknown name 'i'"


# ---- assignments -------------------------------------------------------------------------------

def test_assigning_to_a_non_local(tmp_path):
    assert only_error(tmp_path, main("y = 3")) == (
        "rules.yaml", 3, 5, "cannot assign to 'y': it is not a local name (use 'let')", "")


def test_assigning_to_a_symbol_is_not_allowed(tmp_path):
    assert only_error(tmp_path, main("a = 3"))[3] == "cannot assign to 'a': it is not a local name (use 'let')"


def test_assigning_to_let_names_and_parameters_is_fine(tmp_path):
    ruleset = load(tmp_path, main("let x = 1\nx = 2\nhelper(x)", {"helper(n)": "n = n + 1"}))
    assert set(ruleset.macros) == {"main", "helper"}


# ---- functions versus verbs ------------------------------------------------------------------

def test_function_used_as_a_verb(tmp_path):
    assert only_error(tmp_path, main("score(1)")) == (
        "rules.yaml", 3, 5, "'score' is a function and changes nothing; use its value", "")


def test_builtin_function_used_as_a_verb(tmp_path):
    assert only_error(tmp_path, main("len([1])"))[3] == "'len' is a function and changes nothing; use its value"


def test_verb_used_as_a_function(tmp_path):
    assert only_error(tmp_path, main("let z = append(game.out, 1)")) == (
        "rules.yaml", 3, 13, "'append' changes the game and has no value; call it as a statement", "")


def test_macro_used_as_a_function(tmp_path):
    found = only_error(tmp_path, main("let z = helper()", {"helper": "pass"}))
    assert found[3] == "'helper' changes the game and has no value; call it as a statement"


def test_verb_target_must_be_a_place(tmp_path):
    assert only_error(tmp_path, main("append([1], 2)")) == (
        "rules.yaml", 3, 12, "the first argument of 'append' must be a place such as game.bag or x.items", "")


# ---- arity -------------------------------------------------------------------------------------

@pytest.mark.parametrize("body, message", [
    ("let q = score(1, 2)", "'score' takes 1 argument, not 2"),
    ("let q = len()", "'len' takes 1 argument, not 0"),
    ("let q = range(1, 2, 3)", "'range' takes 1 to 2 arguments, not 3"),
    ("let q = max()", "'max' takes 1 or more arguments, not 0"),
    ("let q = player_count(1)", "'player_count' takes 0 arguments, not 1"),
    ("insert(game.out, 1)", "'insert' takes 3 arguments, not 2"),
])
def test_arity_of_functions_and_verbs(tmp_path, body, message):
    assert only_error(tmp_path, main(body))[3] == message


def test_arity_of_macros(tmp_path):
    assert only_error(tmp_path, main("helper(1, 2)", {"helper(a)": "pass"})) == (
        "rules.yaml", 3, 5, "'helper' takes 1 argument, not 2", "")


# ---- choices -----------------------------------------------------------------------------------

def test_choose_needs_a_chooser(tmp_path):
    assert only_error(tmp_path, main("choose k from [1, 2]")) == (
        "rules.yaml", 3, 5, "a choice needs 'by PLAYER' here (no 'you' is known)", "")


def test_choose_defaults_to_you_when_it_is_a_parameter(tmp_path):
    assert "turn" in load(tmp_path, main("pass", {"turn(you)": "choose k from [1, 2]"})).macros


# ---- definitions and layers ----------------------------------------------------------------------

def test_duplicate_definitions_in_one_layer(tmp_path):
    files = main("pass")
    files["zmore.yaml"] = ("functions:\n  score(q): q.vp\nmacros:\n  main: pass\ntables:\n  worth: 2\n"
                          "symbols:\n  letters: [x]\ndecks:\n  d: {}\n")
    files["zthird.yaml"] = "decks:\n  d: {}\n"
    found = errors(tmp_path, files)
    assert [(f, line, col, m.split(" (first")[0]) for f, line, col, m, _ in found] == [
        ("zmore.yaml", 2, 3, "function 'score' is defined twice"),
        ("zmore.yaml", 4, 3, "macro 'main' is defined twice"),
        ("zmore.yaml", 6, 3, "table 'worth' is defined twice"),
        ("zmore.yaml", 8, 3, "symbol list 'letters' is defined twice"),
        ("zthird.yaml", 2, 3, "deck 'd' is defined twice"),
    ]
    assert found[0][3].endswith(f"(first at {tmp_path / 'base.yaml'}:11:3)")


def test_same_macro_with_other_parameters_in_one_file(tmp_path):
    files = {"rules.yaml": "macros:\n  main: pass\n  helper(a): pass\n  helper(b): pass\n"}
    assert only_error(tmp_path, files) == (
        "rules.yaml", 4, 3, f"macro 'helper' is defined twice (first at {tmp_path / 'rules.yaml'}:3:3)", "")


def test_variant_replaces_by_name_and_merges_kinds():
    from speciation import load_ruleset
    plain, rich = load_ruleset(str(MINI)), load_ruleset(str(MINI), variants=["rich"])
    assert rich.variant_titles == {"rich": "Rich start"}
    assert plain.player_defaults == {"vp": 0, "letters": {}}
    assert rich.player_defaults == {"vp": 5, "letters": {}}  # merged attribute by attribute
    assert rich.functions["value"].span.path.endswith("rich.yaml")
    assert Game.new(plain).evaluate("value", "b") == 2
    assert Game.new(rich).evaluate("value", "b") == 3  # the variant's definition
    assert plain.digest != rich.digest


def test_variant_may_redefine_what_the_base_defines(tmp_path):
    files = main("log(\"base\")")
    files["variants/loud.yaml"] = ('variant: loud\ntitle: Loud\nmacros:\n  main: log("loud")\n'
                                   "tables:\n  worth: {a: 9}\n")
    ruleset = load(tmp_path, files, variants=["loud"])
    game = Game.new(ruleset)
    assert game.log == ["loud"]
    assert ruleset.constants["worth"] == {"a": 9}


def test_unknown_variant(tmp_path):
    found = only_error(tmp_path, main("pass"), variants=["lod"])
    assert found[3] == f"no variant named 'lod' in ruleset '{tmp_path.name}'"


# ---- whole-ruleset checks ---------------------------------------------------------------------------

def test_unknown_deck_and_modifier_function(tmp_path):
    files = main("pass", extra="modifiers:\n  - function: scroe\n    value: base\n")
    files["cards/ember.yaml"] = ("card: Ember\ndeck: event\ntext: t\n"
                                 "provenance: {confidence: unknown, sources: [x]}\neffect: pass\n")
    files["decks.yaml"] = "decks:\n  events: {}\n"
    assert errors(tmp_path, files) == [
        ("ember.yaml", 2, 7, "unknown deck 'event'", "did you mean 'events'?"),
        ("rules.yaml", 5, 15, "a modifier names unknown function 'scroe'", "did you mean 'score'?"),
    ]


def test_trigger_event_must_look_like_a_call(tmp_path):
    files = main("pass", extra="triggers:\n  - on: 'bad('\n    effect: pass\n")
    assert only_error(tmp_path, files)[3] == "a trigger's 'on' must look like event(a, b)"


def test_trigger_and_modifier_bodies_are_compiled(tmp_path):
    extra = ("functions:\n  f(x): x\ntriggers:\n  - on: scored(p)\n    if: p.vpp > 1\n    effect: nope(p)\n"
             "modifiers:\n  - function: f\n    while: y > 1\n    value: base + x\n")
    found = errors(tmp_path, main("pass", extra=extra))
    assert [m for *_, m, _ in found] == ["no rule emits the event 'scored'",
                                        "no kind of entity has an attribute 'vpp'",
                                        "unknown verb or macro 'nope'", "unknown name 'y'"]


def test_trigger_must_match_an_emitted_event_and_its_values(tmp_path):
    extra = "triggers:\n  - on: scorred(p)\n    effect: pass\n  - on: scored(p, q)\n    effect: pass\n"
    found = errors(tmp_path, main("emit scored(1)", extra=extra))
    assert [m for *_, m, hint in found] == ["no rule emits the event 'scorred'",
                                            "event 'scored' carries 1 values, but this trigger names 2"]
    assert found[0][4] == "did you mean 'scored'?"


def test_many_errors_in_one_file_are_all_reported_in_order(tmp_path):
    found = errors(tmp_path, main("let x = nosuch\ny = 1\nscore(1)\ngame.nope = 2"))
    assert [(line, col) for _, line, col, _, _ in found] == [(3, 13), (4, 5), (5, 5), (6, 10)]


def test_compile_program_and_expression_against_a_ruleset():
    from speciation import load_ruleset
    ruleset = load_ruleset(str(MINI))
    block = ruleset.compile_program("log(\"{}\", value(a))", Span("extra", 1, 1))
    assert block.body
    expr = ruleset.compile_expression("value(c) + 1", Span("extra", 1, 1))
    game = Game.new(ruleset)
    assert expr(game._machine, {}) == 4
    with pytest.raises(RuleErrors) as caught:
        ruleset.compile_expression("valu(c)", Span("extra.yaml", 4, 7))
    assert len(caught.value.errors) == 1
    error = caught.value.errors[0]
    assert isinstance(error, CompileError) and error.span == Span("extra.yaml", 4, 7)
    # the failed compile leaves no errors behind for the next one
    assert ruleset.compile_expression("1", Span("extra", 1, 1))(game._machine, {}) == 1


# ---- the node kinds: one table (dsl/walker.py) for the grammar and every walker -------------

def test_the_grammar_makes_the_node_kinds_every_walker_handles():
    from speciation.dsl.parser import _parser
    from speciation.dsl.walker import EXPRESSION_KINDS, NODE_KINDS, STATEMENT_KINDS
    from speciation.interpreter.codegen.expressions import ExpressionWriter
    from speciation.interpreter.compiler import Compiler
    made = {str(rule.alias or rule.origin.name) for rule in _parser().rules}
    inlined = {"stmt", "simple_stmt", "compound_stmt", "expr", "ternary", "not_expr", "unary", "postfix", "atom"}
    parts = {"start", "expr_start", "args", "suite", "elif_clause", "else_clause", "choose_by", "choose_label",
             "choose_private", "choose_prompt", "choose_count", "choose_always", "comp_for", "target_name", "target_attr", "target_index"}
    assert {n for n in made if not n.startswith("__")} == NODE_KINDS | inlined | parts
    assert set(Compiler.tables["e_"]) == EXPRESSION_KINDS and set(Compiler.tables["s_"]) == STATEMENT_KINDS
    assert set(ExpressionWriter.tables["x_"]) == EXPRESSION_KINDS


def test_a_handler_named_after_no_node_kind_is_refused():
    from speciation.dsl.walker import EXPRESSION_KINDS, TreeWalker
    with pytest.raises(TypeError, match="x_numbr name no node kind"):
        type("Walker", (TreeWalker,), {"families": {"x_": EXPRESSION_KINDS}, "x_numbr": lambda self, tree: 0})
