"""Saves as untrusted input: every corruption is a clear SaveFileError, no save makes us read
a file it names, a state that cannot be kept is refused when saved, and a save made under
older rules replays under new ones up to the first decision that is no longer legal."""
import json
import random
import shutil
from pathlib import Path

import pytest

from speciation import Game, ReplayError, SaveFileError, load_ruleset
from speciation.api import load_save, replay, save_json

MINI = Path(__file__).parents[1] / "support" / "fixtures" / "mini"


@pytest.fixture(scope="module")
def original():
    return load_ruleset("original")


@pytest.fixture(scope="module")
def saved(original):
    game = Game.new(original, players=3, seed=8)
    chooser = random.Random(8)
    for _ in range(60):
        game.apply(chooser.choice(game.legal_actions()))
    return game


def test_a_save_holds_its_history_and_loads_by_replaying_it(original, saved):
    data = json.loads(save_json(saved))
    assert data["ruleset"] == {"name": "original", "version": original.version, "digest": original.digest,
                               "variants": [], "mods": []}
    assert data["history"]["seed"] == 8 and data["history"]["players"] == 3
    assert len(data["history"]["decisions"]) == data["decisions"] == saved.decision_number == 60
    assert data["history"] == saved.history
    loaded = load_save(save_json(saved))  # a built-in ruleset is loaded by name
    assert loaded.digest() == saved.digest() and loaded.log == saved.log
    assert replay(original, saved.history, stop=10).decision_number == 10


def _ent(state, kind):
    return next(r for r in state["ent"].values() if r["kind"] == kind)


CORRUPTIONS = {
    "extra option": lambda d: d["state"]["pending"]["options"].append("sea"),
    "broken generator": lambda d: d["state"].__setitem__("rng", -5),
    "generator moved on": lambda d: d["state"].__setitem__("rng", d["state"]["rng"] ^ 1),
    "deleted entity": lambda d: d["state"]["ent"].pop("stack_1"),
    "unknown entity": lambda d: d["state"]["ent"].__setitem__("x", {"kind": "stack", "id": "x"}),
    "500 extra VP": lambda d: _ent(d["state"], "faction").__setitem__("vp", 500),
    "30 extra disks": lambda d: d["state"]["ent"]["game"]["bag"].extend(["sun"] * 30),
    "attribute removed": lambda d: _ent(d["state"], "faction").pop("vp"),
    "kind changed": lambda d: d["state"]["ent"]["stack_1"].__setitem__("kind", "faction"),
    "players": lambda d: d["state"]["players"].append("p9"),
    "stack frame": lambda d: d["state"]["stack"].append(["x", 0, None, 0]),
    "stack node": lambda d: d["state"]["stack"][0].__setitem__(0, 10 ** 6),
    "env frame": lambda d: d["state"]["stack"][0].__setitem__(3, 99),
    "pending node": lambda d: d["state"]["pending"].__setitem__("node", 0),
    "pending actor": lambda d: d["state"]["pending"].__setitem__("actor", "nobody"),
    "pending removed": lambda d: d["state"].__setitem__("pending", None),
    "pending garbage": lambda d: d["state"].__setitem__("pending", [1, 2]),
    "log garbage": lambda d: d["state"]["log"].append({"a": 1}),
    "state key missing": lambda d: d["state"].pop("chance"),
    "state extra key": lambda d: d["state"].__setitem__("extra", 1),
    "state not a map": lambda d: d.__setitem__("state", [1]),
    "ruleset missing": lambda d: d.pop("ruleset"),
    "ruleset by path": lambda d: d["ruleset"].__setitem__("name", "/etc"),
    "ruleset other": lambda d: d["ruleset"].__setitem__("name", "marine"),
    "mods by path": lambda d: d["ruleset"].__setitem__("mods", ["/etc/passwd"]),
    "variants garbage": lambda d: d["ruleset"].__setitem__("variants", [{"a": 1}]),
    "unknown variant": lambda d: d["ruleset"].__setitem__("variants", ["nosuch"]),
    "history garbage": lambda d: d.__setitem__("history", [1, 2]),
    "history seed": lambda d: d["history"].__setitem__("seed", "8"),
    "history players": lambda d: d["history"].__setitem__("players", 99),
    "history decision": lambda d: d["history"]["decisions"].__setitem__(3, "x"),
    "history value": lambda d: d["history"]["decisions"][3].__setitem__(1, "nowhere"),
    "history actor": lambda d: d["history"]["decisions"][3].__setitem__(0, "p3"),
    "history cut": lambda d: d["history"]["decisions"].pop(),
    "history longer": lambda d: d["history"]["decisions"].extend(d["history"]["decisions"][:5]),
    "decision count": lambda d: d.__setitem__("decisions", -1),
    "format version": lambda d: d.__setitem__("format_version", 1),
    "no format": lambda d: d.pop("format"),
}


BY_NAME = {"ruleset by path", "ruleset other", "mods by path", "variants garbage", "unknown variant"}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_every_corruption_is_a_clear_save_error(original, saved, name):
    data = json.loads(save_json(saved))
    CORRUPTIONS[name](data)
    with pytest.raises(SaveFileError) as caught:  # the identity ones: also when we load by name
        load_save(json.dumps(data), None if name in BY_NAME else original)
    assert str(caught.value) and "Traceback" not in str(caught.value)


@pytest.mark.parametrize("text", [
    b"\xff\xfe not utf-8", "garbage{", "[1, 2]", "null", "[" * 100000 + "]" * 100000,
    '{"format": "speciation-save", "format_version": 2, "ruleset": {"name": "original"}, "state": '
    + "9" * 5000 + "}", 42,
])
def test_text_that_is_not_a_save(original, text):
    with pytest.raises(SaveFileError):
        load_save(text, original)


def test_a_save_never_makes_us_read_a_file_it_names(tmp_path, saved):
    secret = tmp_path / "ruleset"
    secret.mkdir()
    (secret / "ruleset.yaml").write_text("ruleset: secret-words-here\n")
    for field, value in (("name", str(secret)), ("name", str(MINI)), ("mods", [str(secret)])):
        data = json.loads(save_json(saved))
        data["ruleset"][field] = value
        with pytest.raises(SaveFileError) as caught:
            load_save(json.dumps(data))
        assert "secret-words" not in str(caught.value)


def test_a_save_with_mods_needs_the_ruleset_passed(tmp_path):
    mod = tmp_path / "mod"
    mod.mkdir()
    (mod / "extra.yaml").write_text("tables:\n  extra_bonus: {a: 5}\n")
    ruleset = load_ruleset(str(MINI), mods=[str(mod)])
    assert len(ruleset.mod_digests) == 1 and str(mod) not in save_json(Game.new(ruleset, 2))
    text = save_json(Game.new(ruleset, 2))
    assert load_save(text, ruleset).decision_number == 0
    with pytest.raises(SaveFileError, match="the ruleset given has"):
        load_save(text, load_ruleset(str(MINI)))


def test_what_json_cannot_keep_is_refused_when_saving(tmp_path):
    game = Game.new(load_ruleset(str(MINI)), 2)
    for bad, fragment in (({1: 2}, "key that is not text"), (float("nan"), "JSON cannot hold"),
                          (b"x", "holds a bytes"), ([[[[]]]], None)):
        game.state["ent"]["game"]["hits"] = bad
        if fragment is None:
            load_save(save_json(game), game.ruleset, verify=False)
            continue
        with pytest.raises(SaveFileError, match=fragment):
            save_json(game)
    game.state["ent"]["game"]["hits"] = {1: "a", "1": "b"}  # keys of two types
    assert len(game.digest()) == 64


def _changed_mini(tmp_path, old, new):
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    rules = folder / "rules.yaml"
    rules.write_text(rules.read_text().replace(old, new))
    return load_ruleset(str(folder))


def test_a_save_under_changed_rules_replays_when_every_decision_is_still_legal(tmp_path):
    before = Game.new(load_ruleset(str(MINI)), players=2, seed=3)
    for move in (3, 1):
        before.apply(move, decision=before.decision_id)
    changed = _changed_mini(tmp_path, "p.vp += n", "p.vp += 2 * n")
    resumed = load_save(save_json(before), changed)
    assert resumed.decision_number == 2 and resumed.state["ent"]["p1"]["vp"] == 2 * 3 + 1  # +1: a trigger


def test_a_save_under_changed_rules_names_the_first_decision_no_longer_legal(tmp_path):
    before = Game.new(load_ruleset(str(MINI)), players=2, seed=3)
    for move in (1, 3):
        before.apply(move, decision=before.decision_id)
    changed = _changed_mini(tmp_path, "choose n from [1, 2, 3]", "choose n from [1, 2]")
    with pytest.raises(ReplayError) as caught:
        load_save(save_json(before), changed)
    error = caught.value
    assert (error.number, error.prompt, error.value) == (1, "how many", 3)
    assert str(error).startswith("decision 2 of 2 (Player 2: 'how many' → 3) is no longer legal")
    assert error.game.decision_number == 1 and error.game.current_actor == "p2"
