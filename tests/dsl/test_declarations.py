"""What a ruleset declares for tools and the engine (issue 19): the rule functions tools call
by role (the manifest's ``conventions``), checked at load for existence and arity, and the
hidden information (one ``hidden`` section) parsed once into ``ruleset.hidden``."""
import pytest

from speciation import Game, RuleErrors, load_ruleset
from speciation.dsl.declarations import OPT_IN, ROLES

MANIFEST = 'ruleset: t\ntitle: T\nversion: "1"\nplayers: {min: 2, max: 2}\n'
RULES = """kinds:
  player:
    attributes: {vp: 0, hand: []}
  game:
    attributes: {bag: [a, b, c]}
functions:
  score(p): p.vp
  points(p): p.vp * 2
  leader(): first(entities(player))
macros:
  main: |
    log("done")
"""


def load(tmp_path, manifest_extra="", rules=RULES):
    (tmp_path / "ruleset.yaml").write_text(MANIFEST + manifest_extra)
    (tmp_path / "rules.yaml").write_text(rules)
    return load_ruleset(str(tmp_path))


def errors(tmp_path, manifest_extra="", rules=RULES):
    with pytest.raises(RuleErrors) as caught:
        load(tmp_path, manifest_extra, rules)
    return {(e.span.path.rsplit("/", 1)[-1], e.span.line, e.span.col, e.message, e.hint) for e in caught.value.errors}


def test_declared_conventions_are_what_tools_call(tmp_path):
    ruleset = load(tmp_path, "conventions: {score: points, winner: leader}\n")
    assert ruleset.conventions == {"score": "points", "winner": "leader"}
    game = Game.new(ruleset, 2)
    game.state["ent"]["p2"]["vp"] = 3
    game.state_edited()
    assert game.scores == [0, 6]     # points(p), not score(p)
    assert game.winner == 0           # leader(), not the best score


def test_a_role_not_declared_is_the_function_of_its_name(tmp_path):
    assert load(tmp_path).conventions == {"score": "score"}


def test_an_unknown_convention_function_is_a_positioned_error(tmp_path):
    found = errors(tmp_path, "conventions:\n  winner: leadr\n")
    assert ("ruleset.yaml", 6, 11, "the 'winner' convention names no rule function 'leadr'",
            "did you mean 'leader'?") in found


def test_a_convention_of_the_wrong_arity_is_a_positioned_error(tmp_path):
    found = errors(tmp_path, "conventions:\n  evaluate: leader\n  winner: points\n")
    assert ("ruleset.yaml", 6, 13, "'leader' takes 0 values, but the 'evaluate' convention calls it with "
            "1 value (player)", "") in found
    assert ("ruleset.yaml", 7, 11, "'points' takes 1 value, but the 'winner' convention calls it with "
            "no values", "") in found
    # a function that plays a role by its name is checked too, where it is defined
    found = errors(tmp_path, rules=RULES.replace("leader():", "winner(p):"))
    assert ("rules.yaml", 9, 14, "'winner' takes 1 value, but the 'winner' convention calls it with no values",
            "") in found


def test_an_unknown_role_and_a_missing_score_are_errors(tmp_path):
    found = errors(tmp_path, "conventions: {scor: points}\n", RULES.replace("  score(p): p.vp\n", ""))
    assert ("ruleset.yaml", 5, 15, "in 'conventions': unknown key 'scor'", "did you mean 'score'?") in found
    assert ("ruleset.yaml", 1, 1, "the ruleset has no 'score(player)' function", "") in found


@pytest.mark.parametrize("name", ["original", "marine"])
def test_shipped_rulesets_declare_every_role(name):
    ruleset = load_ruleset(name)
    assert set(ROLES) - set(OPT_IN) <= set(ruleset.conventions) <= set(ROLES)
    assert "trigger_controller" not in ruleset.conventions  # their triggers keep definition order
    for role, function in ruleset.conventions.items():
        assert len(ruleset.functions[function].params) == len(ROLES[role][0])


def test_hidden_section_is_parsed_once_and_merged_by_layer():
    original, marine = load_ruleset("original"), load_ruleset("marine")
    assert original.hidden.order == {"deck", "bag"} and original.hidden.contents == {"tiles"}
    assert original.hidden.tails == {"deck": 1} and original.hidden.private == frozenset()
    # Marine replaces the lists, keeps the original's face-up heads, overrides the deck's tail
    assert marine.hidden.order == {"bag", "marker_bag"}
    assert marine.hidden.shown_heads == {"tiles": "face_up"} and marine.hidden.tails == {"deck": 5}
    assert marine.hidden.private == {"trait_hand", "trait_kept"}
    assert ("deck", "removed_unseen") in marine.hidden.groups
    assert not any(k in original.constants for k in ("hidden_lists", "secret_lists", "shown_heads"))


def test_hidden_section_names_known_attributes_and_old_tables_are_refused(tmp_path):
    found = errors(tmp_path, rules=RULES + "hidden:\n  order: [bag, hnd]\n  private: [hand]\n")
    assert ("rules.yaml", 14, 16, "in 'hidden' → 'order': no kind or entity has an attribute 'hnd'",
            "did you mean 'hand'?") in found
    found = errors(tmp_path, rules=RULES + "tables:\n  secret_lists: [bag]\n")
    assert ("rules.yaml", 14, 3, "the table 'secret_lists' no longer declares hidden information: write it as "
            "'contents' in a 'hidden' section", "") in found


def test_every_role_is_documented():
    from pathlib import Path
    text = (Path(__file__).parents[2] / "docs" / "language.md").read_text(encoding="utf-8")
    for role, (params, _) in ROLES.items():
        assert f"| `{role}` | `{role}({', '.join(params)})` |" in text, role


def test_a_variant_changes_the_hidden_section_key_by_key(tmp_path):
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "secret.yaml").write_text(
        "variant: secret\ntitle: Secret\nhidden:\n  contents: [bag]\n  order: null\n")
    plain = load(tmp_path, rules=RULES + "hidden:\n  order: [bag]\n  private: [hand]\n")
    assert (plain.hidden.order, plain.hidden.contents) == ({"bag"}, frozenset())
    secret = load_ruleset(str(tmp_path), variants=["secret"])
    assert (secret.hidden.order, secret.hidden.contents, secret.hidden.private) == (frozenset(), {"bag"}, {"hand"})
    game = Game.new(secret, 2)
    assert game.view(0)["ent"]["game"]["bag"] == ["?", "?", "?"]
