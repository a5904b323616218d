"""Broken rulesets in tests/dsl/bad_input/: each gives RuleErrors (never a traceback), placed exactly.

Each row: case folder, the error's "file:line:col" inside the folder, a fragment of its
message. A case with one row must produce exactly that one error.
"""
from pathlib import Path

import pytest

from speciation import RuleErrors, load_ruleset
from speciation.dsl.errors import RuleError

HERE = Path(__file__).parent / "bad_input"

CASES = [
    ("malformed_yaml", "extra.yaml:3:8", "malformed YAML: expected ',' or '}', but got ':'"),
    ("unknown_top_level_key", "extra.yaml:1:1", "unknown key 'tabels'"),
    ("unknown_verb", "rules.yaml:13:9", "unknown verb or macro 'scor'"),
    ("unknown_name", "rules.yaml:13:17", "unknown name 'lenght'"),
    ("wrong_type", "extra.yaml:2:12", "in 'symbols' → 'colours': expected a list, got the text 'red'"),
    ("undefined_attribute", "rules.yaml:13:11", "no kind of entity has an attribute 'victory_points'"),
    ("grammar_error", "rules.yaml:12:30", "unexpected end of line; expected ':'"),
    ("wrong_arity", "rules.yaml:12:13", "'len' takes 1 argument, not 2"),
    ("missing_main", "ruleset.yaml:1:1", "the ruleset has no 'main' macro"),
    ("unknown_deck", "cards/ember.yaml:2:7", "unknown deck 'event'"),
    ("card_file_name", "cards/ember.yaml:1:7", "card file should be named 'ember_storm.yaml' after its card"),
    ("presentation_names", "rules.yaml:16:14", "'game' has no attribute 'bgs'"),
]

# One ruleset, several mistakes in several files: all of them, sorted by file and position.
SEVERAL = [
    ("cards/comet.yaml:2:7", "unknown deck 'event'"),
    ("cards/meteor.yaml:1:7", "card file should be named 'meteor_shower.yaml'"),
    ("cards/meteor.yaml:7:5", "no kind of entity has an attribute 'scroe'"),
    ("extra.yaml:4:5", "in 'triggers' → item 1: missing key 'effect'"),
    ("extra.yaml:5:5", "in 'triggers' → item 1: unknown key 'effects'"),
    ("flow.yaml:4:14", "unexpected end of line; expected ':'"),
    ("rules.yaml:16:9", "'turn' takes 1 argument, not 2"),
    ("rules.yaml:17:17", "unknown name 'bonus'"),
]


def load_errors(case: str) -> tuple[list[RuleError], RuleErrors]:
    with pytest.raises(RuleErrors) as caught:  # anything else (KeyError, ...) fails the test
        load_ruleset(str(HERE / case))
    return caught.value.errors, caught.value


def where(error: RuleError, case: str) -> str:
    relative = Path(error.span.path).relative_to(HERE / case).as_posix()
    return f"{relative}:{error.span.line}:{error.span.col}"


@pytest.mark.parametrize("case, place, fragment", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_reported_once_and_placed(case, place, fragment):
    errors, batch = load_errors(case)
    assert [(where(e, case), fragment in e.message) for e in errors] == [(place, True)], batch.format()
    # the printed form: path:line:col: error: message, then the source line and a caret
    first, source, caret = batch.format().splitlines()
    assert first.startswith(f"{HERE / case / place}: error: ")
    assert caret.strip() == "^"
    assert len(caret) - 4 == errors[0].span.col  # 4 spaces of indent, then the caret column
    assert source[4:]  # the offending line itself


def test_several_errors_in_several_files_come_in_one_batch_sorted():
    errors, batch = load_errors("several_errors")
    assert [where(e, "several_errors") for e in errors] == [place for place, _ in SEVERAL]
    for error, (place, fragment) in zip(errors, SEVERAL):
        assert fragment in error.message, (place, error.message)
    assert batch.format().count(": error: ") == len(SEVERAL)
    assert str(batch) == batch.format()


def test_every_case_folder_is_in_the_table():
    folders = {p.name for p in HERE.iterdir() if p.is_dir()}
    assert folders == {case for case, _, _ in CASES} | {"several_errors"}


def test_malformed_manifest_is_reported_in_a_batch(tmp_path):
    (tmp_path / "ruleset.yaml").write_text("ruleset: bad\ntitle: [\n")
    with pytest.raises(RuleErrors):
        load_ruleset(str(tmp_path))
