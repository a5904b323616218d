"""The load cache: a second load of unchanged files is cheap, a changed file is never stale."""
import os

import pytest

from speciation import Game, RuleErrors, load_ruleset
from speciation.dsl import cache

from support.ruleset_builder import main, write_ruleset


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
    from speciation.dsl.loader import copy_document, load_text
    first = cache.document(text, path, load_text, copy_document)
    first.pop("macros")
    second = cache.document(text, path, load_text, copy_document)
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


# ---- the cache on disk: read by the next process, never stale -------------------------

_PLAY = """
import json, random, sys
from speciation import Game, load_ruleset
from speciation.dsl import cache
if len(sys.argv) > 2:  # an entry too deeply nested to pickle (a fuzzed effect, say)
    deep = []
    for _ in range(100000):
        deep = [deep]
    cache.tree("deep", "expr", lambda: deep)
game = Game.new(load_ruleset(sys.argv[1]), players=3, seed=5)
rng = random.Random(5)
for _ in range(300):
    if game.is_over:
        break
    game.apply(rng.choice(game.legal_actions()))
print(json.dumps({"made": cache.made, "digest": game.digest(), "file": str(cache.disk_file())}))
"""


def _process(folder, ruleset: str = "original", *more: str) -> dict:
    import json
    import subprocess
    import sys
    env = dict(os.environ, SPECIATION_CACHE_DIR=str(folder))
    done = subprocess.run([sys.executable, "-c", _PLAY, ruleset, *more], env=env, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


def test_the_next_process_loads_from_disk_and_plays_the_same_game(tmp_path):
    first = _process(tmp_path)
    assert first["made"]["code"] > 100 and first["made"]["trees"] > 100
    assert os.path.exists(first["file"])  # written when the first process ended
    second = _process(tmp_path)
    assert second["made"] == {name: 0 for name in second["made"]}  # nothing parsed, checked or compiled
    assert second["digest"] == first["digest"]


def test_another_engine_never_reads_the_file(tmp_path, monkeypatch):
    _process(tmp_path)
    monkeypatch.setenv("SPECIATION_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cache, "_ENGINE", ["another engine"])  # as if a file of dsl/ had changed
    cache.clear()
    for name in cache.made:
        monkeypatch.setitem(cache.made, name, 0)
    load_ruleset("original")
    assert cache.made["code"] > 100
    cache.clear()


def test_a_broken_file_is_ignored_and_written_anew(tmp_path):
    first = _process(tmp_path)
    with open(first["file"], "wb") as f:
        f.write(b"not a cache")
    again = _process(tmp_path)  # loads as if there were no file
    assert again["made"]["code"] > 100 and again["digest"] == first["digest"]
    assert _process(tmp_path)["made"]["code"] == 0


def test_the_cache_can_be_off(tmp_path):
    off = _process("off")
    assert off["file"] == "None" and _process("off")["made"]["code"] > 100


def test_an_entry_that_cannot_be_saved_leaves_out_only_itself(tmp_path):
    _process(tmp_path, "original", "deep")
    assert _process(tmp_path)["made"]["code"] == 0


def test_the_disk_file_is_named_by_every_source_of_the_front_and_back_end():
    """The code generator (interpreter/codegen/) and the compiler shape what is cached: a
    change to any of them names another disk file."""
    from pathlib import Path
    import speciation.dsl
    import speciation.interpreter
    named = {path.resolve() for _, path in cache.engine_sources()}
    for package in (speciation.dsl, speciation.interpreter):
        folder = Path(package.__file__).resolve().parent
        sources = {p.resolve() for p in folder.rglob("*.py") if "__pycache__" not in p.parts}
        assert sources and sources <= named
    assert any(name == "interpreter/codegen/statements.py" for name, _ in cache.engine_sources())
    assert any(name == "dsl/grammar/effects.lark" for name, _ in cache.engine_sources())
