"""Stage 3: the effect grammar parses every construct and explains errors in plain words."""
import re

import pytest
from lark import Tree

from speciation.dsl.errors import ParseError, Span
from speciation.dsl.parser import _parser, parse_effect

ORIGIN = Span("rules.yaml", 10, 5)


def statements(text: str) -> list[str]:
    return [child.data for child in parse_effect(text, ORIGIN).children if isinstance(child, Tree)]


def expression(text: str) -> Tree:
    return parse_effect(text, ORIGIN, start="expr_start").children[0]


def shape(tree) -> object:
    """A tree as nested tuples of rule names and token texts."""
    if isinstance(tree, Tree):
        return (str(tree.data), *[shape(c) for c in tree.children if c is not None])
    return str(tree)


# ---- statements ------------------------------------------------------------------------

@pytest.mark.parametrize("text, kind", [
    ("let x = 1", "let_stmt"),
    ("x = 1", "assign_stmt"),
    ("p.vp = 1", "assign_stmt"),
    ("p.counts[a] = 1", "assign_stmt"),
    ("p.vp += 2", "aug_stmt"),
    ("p.vp -= 2", "aug_stmt"),
    ('choose x from xs by p prompt "pick" showing label(x)', "choose_stmt"),
    ("may choose x from xs by p", "choose_stmt"),
    ("draw x from game.bag", "draw_stmt"),
    ("shuffle game.bag", "shuffle_stmt"),
    ('log("hi {}", x)', "call_stmt"),
    ("helper()", "call_stmt"),
    ("emit scored(p, 3)", "emit_stmt"),
    ("emit started()", "emit_stmt"),
    ("perform c", "perform_stmt"),
    ("perform c with p = p, n = 2", "perform_stmt"),
    ("break", "break_stmt"),
    ("return", "return_stmt"),
    ("pass", "pass_stmt"),
    ("if a:\n    pass\nelif b:\n    pass\nelse:\n    pass", "if_stmt"),
    ("for x in xs:\n    pass", "for_stmt"),
    ("while x < 3:\n    pass", "while_stmt"),
    ("repeat 3:\n    pass", "repeat_stmt"),
])
def test_each_statement_parses(text, kind):
    assert statements(text) == [kind]


def test_program_with_comments_blank_lines_and_nesting():
    text = ("# setup\nlet total = 0\n\nfor p in entities(player):  # each\n"
            "    if p.vp > 3:\n        total += p.vp\n    else:\n        pass\nlog(\"{}\", total)\n")
    assert statements(text) == ["let_stmt", "for_stmt", "call_stmt"]


def test_may_choose_keeps_the_may_marker_and_options():
    tree = parse_effect('may choose x from xs by p prompt "pick" showing 1', ORIGIN).children[0]
    kids = [shape(c) for c in tree.children]
    assert kids[0] == "may" and kids[1] == "x"
    assert [k[0] for k in kids[3:]] == ["choose_by", "choose_prompt", "choose_label"]


def test_perform_with_keeps_names_and_values():
    tree = parse_effect("perform c with p = q, n = 2", ORIGIN).children[0]
    assert shape(tree) == ("perform_stmt", ("name", "c"), "p", ("name", "q"), "n", ("number", "2"))


def test_brackets_continue_a_line():
    assert statements("let xs = [1,\n    2,\n    3]\nlog(\"{}\",\n    xs)") == ["let_stmt", "call_stmt"]


# ---- expressions and precedence -----------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("1 + 2 * 3", ("sum_expr", ("number", "1"), "+", ("product", ("number", "2"), "*", ("number", "3")))),
    ("(1 + 2) * 3", ("product", ("sum_expr", ("number", "1"), "+", ("number", "2")), "*", ("number", "3"))),
    ("-a.b", ("neg", ("attr", ("name", "a"), "b"))),
    ("not a == b", ("not_op", ("comparison", ("name", "a"), "==", ("name", "b")))),
    ("a or b and c", ("or_expr", ("name", "a"), ("and_expr", ("name", "b"), ("name", "c")))),
    ("x if a or b else y", ("cond_expr", ("name", "x"), ("or_expr", ("name", "a"), ("name", "b")), ("name", "y"))),
    ("a in xs", ("in_op", ("name", "a"), ("name", "xs"))),
    ("a not in xs", ("not_in_op", ("name", "a"), "not in", ("name", "xs"))),
    ("t[a][b]", ("index", ("index", ("name", "t"), ("name", "a")), ("name", "b"))),
    ("f(1, x)", ("call", "f", ("args", ("number", "1"), ("name", "x")))),
    ("[]", ("list_lit",)),
    ("[1, 'two']", ("list_lit", ("args", ("number", "1"), ("string", "'two'")))),
    ("[x * 2 for x in xs if x > 1]",
     ("comprehension", ("product", ("name", "x"), "*", ("number", "2")), "x", ("name", "xs"),
      ("comparison", ("name", "x"), ">", ("number", "1")))),
    ("7 // 2 % 3", ("product", ("number", "7"), "//", ("number", "2"), "%", ("number", "3"))),
])
def test_expression_shapes(text, expected):
    assert shape(expression(text)) == expected


def test_keywords_are_not_names():
    with pytest.raises(ParseError):
        parse_effect("let for = 1", ORIGIN)
    # ...but names may start with a keyword
    assert statements("let format_x = 1\nlet iffy = 2") == ["let_stmt", "let_stmt"]


# ---- errors: plain words and exact positions ----------------------------------------------

TERMINALS = {t.name for t in _parser().terminals} | {"$END", "_INDENT", "_DEDENT"}
LEAK = re.compile("|".join(re.escape(t) for t in sorted(TERMINALS, key=len, reverse=True)))

BROKEN = [
    # text, (line, col) in the rule file, message fragment
    ("let x = ", (10, 13), "unexpected end of line; expected '(', '-', '[', 'not', a name, a number"),
    ("let = 3", (10, 9), "unexpected '='; expected a name"),
    ("if x\n    pass", (10, 9), "unexpected end of line; expected ':'"),
    ("if x:\npass", (11, 5), "unexpected 'pass'"),
    ("x = = 1", (10, 9), "unexpected '='"),
    ("let x = 1 +", (10, 16), "unexpected end of line"),
    ("for in xs:\n    pass", (10, 9), "unexpected 'in'; expected a name"),
    ("let x = 3 $ 4", (10, 15), "unexpected character '$' in effect"),
    ("let x = (1, 2", (10, 15), "unexpected ','; expected ')'"),
    ("let x = [1, 2", (10, 17), "effect ends too early"),
    ("let x = a not b", (10, 15), "unexpected 'not'"),
    ("let x = 1\n    let y = 2", (11, 9), "unexpected indentation"),
    ("if x:\n        a = 1\n    b = 2", (12, 9), "indented less than its block but more than"),
    ("emit 3", (10, 10), "unexpected '3'; expected a name"),
    ("let x = 'abc", (10, 13), "unexpected character"),
    ("let x = 1 if y", (10, 19), "unexpected end of line; expected 'else'"),
    ("let x = y[]", (10, 15), "unexpected ']'"),
    ("p.vp + = 1", (10, 10), "unexpected '+'; expected '+=' or '-='"),
    ("choose from xs", (10, 12), "unexpected 'from'; expected a name"),
    ("let x = a b", (10, 15), "unexpected 'b'"),
    ("while x\n    pass", (10, 12), "unexpected end of line; expected"),
    ("perform c with", (10, 19), "unexpected end of line; expected a name"),
    ("let x = a n", (10, 15), "unexpected 'n'"),
]


@pytest.mark.parametrize("text, where, fragment", BROKEN)
def test_parse_errors_are_friendly_and_placed(text, where, fragment):
    with pytest.raises(ParseError) as caught:
        parse_effect(text, ORIGIN)
    error = caught.value
    assert (error.span.path, error.span.line, error.span.col) == ("rules.yaml", *where)
    assert fragment in error.message
    shown = error.message + " " + error.hint
    assert not LEAK.search(shown), f"a grammar terminal name leaks into: {shown}"
    assert "not_in" not in shown and "__" not in shown


def test_missing_colon_has_a_hint():
    with pytest.raises(ParseError) as caught:
        parse_effect("if x\n    pass", ORIGIN)
    assert caught.value.hint == "a ':' is missing at the end of the line before the block"


@pytest.mark.parametrize("text, col", [("if x = 3:\n    pass", 6), ("while n = 0:\n    pass", 9),
                                       ("let y = [a for a in b if a = 2]", 28)])
def test_a_single_equals_sign_in_a_condition_suggests_double(text, col):
    with pytest.raises(ParseError) as caught:
        parse_effect(text, ORIGIN)
    assert caught.value.message.startswith("unexpected '='")
    assert (caught.value.span.line, caught.value.span.col) == (ORIGIN.line, ORIGIN.col + col - 1)
    assert caught.value.hint == "did you mean '=='? A single '=' gives a value (let x = 3)"


def test_expression_start_rejects_statements():
    with pytest.raises(ParseError) as caught:
        parse_effect("let x = 1", Span("f.yaml", 3, 12), start="expr_start")
    assert caught.value.span == Span("f.yaml", 3, 12)
    assert caught.value.message.startswith("unexpected 'let'; expected")
