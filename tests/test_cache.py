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


def _card_mod(folder, effect: str) -> str:
    folder.mkdir(exist_ok=True)
    (folder / "windfall.yaml").write_text(
        "card: Windfall\ndeck: dominance\ntext: Gain VP.\nprovenance: {confidence: unknown, sources: [test]}\n"
        f"effect: |\n  {effect}\n")
    return str(folder)


def test_type_errors_are_found_again_after_a_change_and_on_every_load(tmp_path):
    mod = _card_mod(tmp_path / "mod", "gain_vp(you, 2)")
    load_ruleset("original", mods=[mod])
    load_ruleset("original", mods=[mod])  # the type check of these very files, remembered
    _card_mod(tmp_path / "mod", 'gain_vp(you, "two")')
    for _ in range(2):  # a changed card is checked anew, and its error is given on every load
        with pytest.raises(RuleErrors, match="'gain_vp' parameter 'n' needs a number, not a text"):
            load_ruleset("original", mods=[mod])
    _card_mod(tmp_path / "mod", "gain_vp(you, 2)")
    load_ruleset("original", mods=[mod])


def test_schema_errors_are_found_again_after_a_change_and_on_every_load(tmp_path):
    root = write_ruleset(tmp_path, main("pass", extra="symbols:\n  colours: [red]\n"))
    load_ruleset(str(root))
    write_ruleset(tmp_path, main("pass", extra="symbols:\n  colours: red\n"))
    for _ in range(2):
        with pytest.raises(RuleErrors, match="expected a list, got the text 'red'"):
            load_ruleset(str(root))
    write_ruleset(tmp_path, main("pass", extra="symbols:\n  colours: [red]\n"))
    load_ruleset(str(root))
