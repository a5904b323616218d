"""A rule author's mistake is never an internal error: mutated copies of the real rule files,
and each kind of bad input an audit found, load or fail with positioned rule errors only.
(A longer study with more mutations: benchmarks/fuzz_rules.py.)"""
import contextlib
from pathlib import Path

import pytest

from speciation import RuleErrors, load_ruleset
from support.fuzz_rules import SPECIAL_FILES, copy_ruleset, mutated_runs

EXPECTED = {  # what each kind of bad input is reported as
    "non-utf8": "not UTF-8 text", "deep yaml": "nested too deeply", "deep yaml maps": "nested too deeply",
    "nested ifs": "nested too deeply", "nested brackets": None, "nested lists": "nested too deeply",
    "huge yaml number": "more than 100 digits", "huge effect number": "more than 100 digits",
    "bad float tag": "not a valid float", "bad int tag": "not a valid int", "bad bool tag": "not a valid bool",
    "binary tag": "not supported", "python tag": "not supported", "tag on a list": "not supported on a list",
    "tag on a map": "not supported on a list or map", "bad escape": "malformed YAML", "recursive alias": "aliases ('*name') are not supported",
    "alias bomb": "aliases ('*name') are not supported", "infinity": "not a finite number", "null byte": "malformed YAML",
    "huge file": "file too large", "bad escape in effect": "bad escape \\x in a quoted text",
    "long or chain": None, "many nested loops": None,
}


@pytest.fixture(scope="module")
def original_copy(tmp_path_factory):
    return copy_ruleset("original", tmp_path_factory.mktemp("fuzz"))


@pytest.mark.parametrize("kind", sorted(SPECIAL_FILES))
def test_each_kind_of_bad_input_is_a_positioned_rule_error(original_copy, kind):
    path = original_copy / "zz_bad.yaml"
    path.write_bytes(SPECIAL_FILES[kind])
    try:
        with pytest.raises(RuleErrors) if EXPECTED[kind] is not None else _nothing() as caught:
            load_ruleset(str(original_copy))  # anything but RuleErrors is an internal error
    finally:
        path.unlink()
    if EXPECTED[kind] is None:  # fine as it is (brackets around a number fold away)
        return
    mine = [e for e in caught.value.errors if e.span.path == str(path)]
    assert mine and EXPECTED[kind] in mine[0].message, caught.value.format()[:500]
    assert mine[0].span.line >= 1


@contextlib.contextmanager
def _nothing():
    yield None


@pytest.mark.parametrize("name, count, seed", [("original", 30, 1), ("marine", 8, 2)])
def test_mutated_rule_files_never_cause_an_internal_error(tmp_path, name, count, seed):
    folder = copy_ruleset(name, tmp_path)
    failures = [f"{label}:\n{error}" for label, error in mutated_runs(folder, count, seed) if error]
    assert not failures, "\n".join(failures)


def _ruleset(tmp_path, manifest_extra: str = "", players: str = "{min: 2, max: 3}") -> Path:
    (tmp_path / "ruleset.yaml").write_text(f'ruleset: r\ntitle: R\nversion: "1"\nplayers: {players}\n{manifest_extra}')
    (tmp_path / "rules.yaml").write_text('functions:\n  score(p): "0"\nmacros:\n  main: |\n    log("x")\n')
    return tmp_path


@pytest.mark.parametrize("players, fragment, line", [
    ("{min: 7, max: 2}", "min (7) is more than max (2)", 4),
    ("{min: 2, max: 20000000}", "20000000 is greater than the maximum of 100", 4),
])
def test_impossible_player_counts_are_refused(tmp_path, players, fragment, line):
    with pytest.raises(RuleErrors) as caught:
        load_ruleset(str(_ruleset(tmp_path, players=players)))
    [error] = caught.value.errors
    assert fragment in error.message and error.span.line == line


def test_extends_of_an_unknown_ruleset_points_at_the_extends(tmp_path):
    with pytest.raises(RuleErrors) as caught:
        load_ruleset(str(_ruleset(tmp_path, "extends: orignal\n")))
    [error] = caught.value.errors
    assert error.message == "extends: no built-in ruleset named 'orignal'" and "'original'" in error.hint
    assert (error.span.line, error.span.col) == (5, 10)


def test_a_symbolic_link_in_a_mod_is_refused(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("tables:\n  secret_words_here: {a: 1}\n")
    mod = tmp_path / "mod"
    mod.mkdir()
    (mod / "ok.yaml").write_text("tables:\n  extra: {a: 1}\n")
    (mod / "link.yaml").symlink_to(secret)
    ruleset = _ruleset(tmp_path / "r") if (tmp_path / "r").mkdir() is None else None
    with pytest.raises(RuleErrors) as caught:
        load_ruleset(str(ruleset), mods=[str(mod)])
    assert "symbolic link" in caught.value.format() and "secret_words_here" not in caught.value.format()
    (tmp_path / "linked_mod").symlink_to(mod)
    with pytest.raises(RuleErrors, match="a mod may not be a symbolic link"):
        load_ruleset(str(ruleset), mods=[str(tmp_path / "linked_mod")])
