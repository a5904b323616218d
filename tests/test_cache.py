"""The load cache: a second load of unchanged files is cheap, a changed file is never stale."""
import pytest

from speciation import Game, RuleErrors, load_ruleset
from speciation.dsl import cache

from ruleset_builder import main, write_ruleset


def test_a_changed_file_is_read_again(tmp_path):
    root = write_ruleset(tmp_path, main('log("{}", twice(3))', extra='functions:\n  twice(n): "n * 2"\n'))
    assert Game.new(load_ruleset(str(root))).log == ["6"]
    assert Game.new(load_ruleset(str(root))).log == ["6"]  # from the cache
    write_ruleset(tmp_path, main('log("{}", twice(3))', extra='functions:\n  twice(n): "n * 20"\n'))
    assert Game.new(load_ruleset(str(root))).log == ["60"]
    write_ruleset(tmp_path, main('log("{}", twice(3))', extra='functions:\n  twice(n): "n * nope"\n'))
    with pytest.raises(RuleErrors, match="unknown name 'nope'"):
        load_ruleset(str(root))
    write_ruleset(tmp_path, main('log("{}", twice(3))', extra='functions:\n  twice(n): "n * 2"\n'))
    assert Game.new(load_ruleset(str(root))).log == ["6"]


def test_a_document_given_out_is_a_copy(tmp_path):
    root = write_ruleset(tmp_path, main("pass"))
    path = str(root / "rules.yaml")
    text = (root / "rules.yaml").read_text()
    from speciation.dsl.loader import load_text
    first = cache.document(text, path, load_text)
    first.pop("macros")
    second = cache.document(text, path, load_text)
    assert "macros" not in first and "macros" in second and second.where_key("macros").line == 1
