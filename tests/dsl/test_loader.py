"""Stage 1: YAML loading keeps positions and turns every YAML problem into a LoadError."""
import pytest

from speciation.dsl.errors import LoadError, Span
from speciation.dsl.loader import Node, NodeList, Text, load_file, load_text

DOC = """\
# a comment
macros:
  main: |
    let x = 1

    log("{}", x)
  short: pass
symbols:
  letters: [a, "b", c]
tables:
  worth:
    a: 1
quoted: 'hello'
"""


@pytest.fixture
def doc():
    return load_text(DOC, "rules.yaml")


def test_types_and_values(doc):
    assert isinstance(doc, Node)
    assert isinstance(doc["symbols"]["letters"], NodeList)
    assert isinstance(doc["macros"]["short"], Text)
    assert doc["symbols"]["letters"] == ["a", "b", "c"]
    assert doc["tables"]["worth"] == {"a": 1}
    assert doc["macros"]["main"] == 'let x = 1\n\nlog("{}", x)\n'


def test_key_positions(doc):
    assert doc.where_key("macros") == Span("rules.yaml", 2, 1)
    assert doc["macros"].where_key("short") == Span("rules.yaml", 7, 3)
    assert doc["tables"]["worth"].where_key("a") == Span("rules.yaml", 12, 5)
    # an absent key falls back to the mapping's own position
    assert doc["macros"].where_key("nothing") == doc["macros"].span == Span("rules.yaml", 3, 3)


def test_value_positions(doc):
    assert doc["macros"].where("short") == Span("rules.yaml", 7, 10)
    assert doc["macros"]["short"].span == Span("rules.yaml", 7, 10)
    assert doc.where("symbols") == Span("rules.yaml", 9, 3)
    # a quoted scalar starts after its quote
    assert doc.where("quoted") == Span("rules.yaml", 13, 10)


def test_list_item_positions(doc):
    letters = doc["symbols"]["letters"]
    assert letters.span == Span("rules.yaml", 9, 12)
    assert letters.item_spans == [Span("rules.yaml", 9, 13), Span("rules.yaml", 9, 17),
                                  Span("rules.yaml", 9, 21)]


def test_block_scalar_starts_at_its_first_content_line(doc):
    # "main: |" is on line 3; the program text starts on line 4, indented by 4
    assert doc["macros"].where("main") == Span("rules.yaml", 4, 5)
    assert doc["macros"]["main"].span == Span("rules.yaml", 4, 5)


def test_block_scalar_skips_blank_lines_before_content():
    doc = load_text("a: |\n\n\n      text\n", "f.yaml")
    assert doc.where("a") == Span("f.yaml", 4, 7)


@pytest.mark.parametrize("text, span, fragment", [
    ("a: 1\nb: 2\na: 3\n", (3, 1), "duplicate key 'a'"),
    ("outer:\n  x: 1\n  y: {z: 1, z: 2}\n", (3, 13), "duplicate key 'z'"),
    ("a: [1, 2\n", (2, 1), "malformed YAML: expected ',' or ']'"),
    ("a: b: c\n", (1, 5), "malformed YAML: mapping values are not allowed here"),
    ("a:\n  - x\n - y\n", (3, 2), "malformed YAML"),
    ("\tx: 1\n", (1, 1), "malformed YAML: found character '\\t' that cannot start any token"),
    ("? [1, 2]\n: x\n", (1, 3), "a mapping key must be a plain word or number"),
    ("a: !custom x\n", (1, 4), "YAML tag '!custom' is not supported"),
    ("base: &b {x: 1}\n<<: *b\n", (2, 1), "merge keys ('<<') are not supported"),
])
def test_bad_yaml_is_a_load_error_with_position(text, span, fragment):
    with pytest.raises(LoadError) as caught:
        load_text(text, "bad.yaml")
    error = caught.value
    assert (error.span.path, error.span.line, error.span.col) == ("bad.yaml", *span)
    assert fragment in error.message


def test_yaml_boolean_words_as_keys_stay_words():
    # YAML 1.1 reads on/yes/no as booleans; a trigger's "on:" key must stay "on".
    doc = load_text("triggers:\n  - on: scored(p)\n    effect: pass\nyes: 1\n", "f.yaml")
    trigger = doc["triggers"][0]
    assert list(trigger) == ["on", "effect"]
    assert trigger.where_key("on") == Span("f.yaml", 2, 5)
    assert "yes" in doc


def test_dates_stay_text():
    doc = load_text("released: 2010-05-01\n", "f.yaml")
    assert doc["released"] == "2010-05-01" and isinstance(doc["released"], Text)


def test_empty_document_is_none():
    assert load_text("", "f.yaml") is None
    assert load_text("# only a comment\n", "f.yaml") is None


def test_error_format_shows_source_line_and_caret():
    with pytest.raises(LoadError) as caught:
        load_text("a: 1\nb: 2\nb: 3\n", "bad.yaml")
    text = caught.value.format({"bad.yaml": "a: 1\nb: 2\nb: 3\n"})
    assert text == "bad.yaml:3:1: error: duplicate key 'b'\n    b: 3\n    ^"


def test_load_file_returns_text_and_reports_missing_files(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("a: 1\n")
    document, text = load_file(str(path))
    assert document == {"a": 1} and text == "a: 1\n"
    with pytest.raises(LoadError) as caught:
        load_file(str(tmp_path / "missing.yaml"))
    assert caught.value.message.startswith("cannot read file")
    assert caught.value.span == Span(str(tmp_path / "missing.yaml"), 1, 1)
