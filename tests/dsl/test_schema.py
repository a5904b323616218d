"""Stage 2: schema errors name the place in the author's words, with exact messages."""
import pytest

from speciation import RuleErrors, SchemaError
from speciation.dsl.errors import Span
from speciation.dsl.loader import load_text
from speciation.dsl.schema import check, kind_of

from support.ruleset_builder import MANIFEST, load, main


def errors_of(text: str, name: str = "f.yaml"):
    document = load_text(text, name)
    found, _ = check(document, kind_of(document), Span(name, 1, 1))
    return [(e.span.line, e.span.col, e.message, e.hint) for e in found]


@pytest.mark.parametrize("text, kind", [
    ("ruleset: x\n", "manifest"),
    ("card: X\n", "card"),
    ("variant: v\n", "variant"),
    ("mod: m\n", "mod"),
    ("macros: {}\n", "rules"),
])
def test_kind_is_told_by_the_leading_key(text, kind):
    assert kind_of(load_text(text, "f.yaml")) == kind


def test_valid_files_have_no_errors():
    assert errors_of(MANIFEST) == []
    assert errors_of("symbols:\n  letters: [a, b]\nfunctions:\n  f(a, b): a + b\n") == []


# ---- unknown keys, with "did you mean" ------------------------------------------------

def test_unknown_top_level_key():
    assert errors_of("symbols:\n  x: [a]\nmacro:\n  main: pass\n") == [
        (3, 1, "unknown key 'macro'", "did you mean 'macros'?")]


def test_unknown_nested_key_points_at_the_key():
    assert errors_of("decks:\n  events:\n    doc: d\n    param: [p]\n") == [
        (4, 5, "in 'decks' → 'events': unknown key 'param'", "did you mean 'params'?")]


def test_unknown_key_in_a_list_item():
    assert errors_of("triggers:\n  - on: x()\n    effect: pass\n    iff: true\n") == [
        (4, 5, "in 'triggers' → item 1: unknown key 'iff'", "did you mean 'if'?")]


def test_unknown_key_without_close_match_has_no_hint():
    assert errors_of("zzzzz: 1\n") == [(1, 1, "unknown key 'zzzzz'", "")]


# ---- wrong types ---------------------------------------------------------------------------

def test_wrong_type_of_a_value():
    text = 'ruleset: mini\ntitle: Mini\nversion: 1\nplayers: {min: 2, max: 3}\n'
    assert errors_of(text) == [(3, 10, "in 'version': expected a string, got the number 1", "")]


def test_wrong_type_nested():
    text = 'ruleset: mini\ntitle: Mini\nversion: "1"\nplayers: {min: two, max: 3}\n'
    assert errors_of(text) == [
        (4, 16, "in 'players' → 'min': expected a whole number, got the text 'two'", "")]


def test_wrong_type_list_expected():
    assert errors_of("symbols:\n  letters: a\n") == [
        (2, 12, "in 'symbols' → 'letters': expected a list, got the text 'a'", "")]


def test_whole_file_not_a_mapping():
    assert errors_of("- a\n- b\n") == [(1, 1, "a rule file must be a mapping of keys to values", "")]


# ---- missing keys ------------------------------------------------------------------------

def test_missing_top_level_key():
    assert errors_of('ruleset: mini\ntitle: Mini\nplayers: {min: 2, max: 3}\n') == [
        (1, 1, "missing key 'version' in manifest file", "")]


def test_missing_key_in_a_list_item():
    assert errors_of("triggers:\n  - on: x()\n") == [
        (2, 5, "in 'triggers' → item 1: missing key 'effect' in rules file", "")]


def test_missing_card_keys_are_all_reported():
    found = errors_of("card: Ember\ndeck: events\ntext: t\n")
    assert [m for _, _, m, _ in found] == ["missing key 'provenance' in card file",
                                           "missing key 'effect' in card file"]


# ---- values that break a rule ----------------------------------------------------------

def test_enum_with_did_you_mean():
    text = ("card: Ember\ndeck: events\ntext: t\neffect: pass\n"
            "provenance: {confidence: confirmd, sources: [x]}\n")
    assert errors_of(text) == [
        (5, 26, "in 'provenance' → 'confidence': 'confirmd' is not one of: confirmed, reconstructed, unknown",
         "did you mean 'confirmed'?")]


def test_bad_symbol_name():
    assert errors_of("symbols:\n  letters: [a, 'b c']\n") == [
        (2, 17, "in 'symbols' → 'letters' → item 2: 'b c' is not a valid name (letters, digits and _)", "")]


def test_bad_function_signature_points_at_the_key():
    assert errors_of("functions:\n  ok(a): a\n  'bad name(': x\n") == [
        (3, 3, "in 'functions': 'bad name(' is not a valid name or signature like name(a, b)", "")]


# ---- through the ruleset loader ----------------------------------------------------------

def test_ruleset_reports_schema_errors_and_keeps_checking_the_rest(tmp_path):
    files = main("pass", extra="kinds:\n  player:\n    atributes: {}\n")
    files["more.yaml"] = "functions:\n  f(x): nosuchname\n"
    with pytest.raises(RuleErrors) as caught:
        load(tmp_path, files)
    errors = caught.value.errors
    assert len(errors) == 2
    # sorted by file: more.yaml before rules.yaml
    assert errors[0].message == "unknown name 'nosuchname'"
    assert isinstance(errors[1], SchemaError)
    assert errors[1].message == "in 'kinds' → 'player': unknown key 'atributes'"
    assert errors[1].hint == "did you mean 'attributes'?"
    assert (errors[1].span.line, errors[1].span.col) == (6, 5)
