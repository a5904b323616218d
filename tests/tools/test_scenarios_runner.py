"""The scenario runner (speciation/scenarios/), against the toy ruleset fixture."""
from __future__ import annotations

import os
import re
import textwrap
from pathlib import Path

import pytest

from speciation.scenarios import (ScenarioResult, cached_ruleset, run_scenario_file, run_scenarios,
                                  scenario_files)

TOY = Path(__file__).parents[1] / "support" / "fixtures" / "toy"
POSITION = re.compile(r"\.yaml:\d+:\d+:")


def write(tmp_path: Path, body: str, name: str = "s.yaml") -> Path:
    """A scenario file on the toy ruleset (given by a path relative to the file).
    Line 3 is blank, so the body's first line is line 4."""
    ruleset = os.path.relpath(TOY, tmp_path)
    path = tmp_path / name
    path.write_text(f"scenario: test\nruleset: {ruleset}\n" + textwrap.dedent(body), encoding="utf-8")
    return path


def run(tmp_path: Path, body: str) -> ScenarioResult:
    return run_scenario_file(write(tmp_path, body))


# ---- passing ------------------------------------------------------------------------

def test_the_committed_toy_scenarios_pass():
    results = run_scenarios([TOY / "scenarios"])
    assert [r.name for r in results] == ["First round - points and draws",
                                         "The take action stops at its choice"]
    assert all(r.passed for r in results), [r.reason for r in results]
    assert all(r.reason == "" for r in results)


def test_a_whole_game_with_choices_and_scripted_chance(tmp_path):
    result = run(tmp_path, """
        players: 2
        run: main
        chance: [c, b, a]
        choices: [1, 2, 3, pass, null, 1]
        expect:
          - p1.vp == 4
          - p2.vp == 3
          - game.round == 3
          - game.bag == []
    """)
    assert result.passed, result.reason
    draws = [line for line in result.log if "drew" in line]
    assert draws == ["Player 1 drew c", "Player 2 drew b", "Player 1 drew a", "Player 2 drew a"]
    assert "  Player 2: how many → passes" in result.log


def test_macro_with_args_evaluated_after_setup(tmp_path):
    result = run(tmp_path, """
        players: 3
        setup: |
            game.round = 2
        run: setup_helper
        args: [p2, game.round * 10]
        expect: [p2.vp == 20, p1.vp == 0]
    """)
    assert result.passed, result.reason


def test_pick_can_name_an_options_label_and_check_the_actor(tmp_path):
    result = run(tmp_path, """
        run: action_take
        args: [p2]
        choices:
          - {by: Player 2, prompt_contains: how, pick: "3"}
        expect: [p2.vp == 3]
    """)
    assert result.passed, result.reason


# ---- failing expectations -------------------------------------------------------------

def test_failed_comparison_shows_both_sides(tmp_path):
    result = run(tmp_path, """
        setup: |
            p1.vp = 2
            p2.vp = 9
        expect:
          - p1.vp == 2
          - p1.vp + 1 == p2.vp
          - that: game.bag != [a, b, c, a]
            doc: the bag is untouched
    """)
    assert not result.passed
    lines = result.reason.splitlines()
    assert len(lines) == 2  # the first expectation holds
    assert lines[0].endswith("s.yaml:9:5: expected p1.vp + 1 == p2.vp, but the left side (p1.vp + 1) "
                             "is 3 and the right side (p2.vp) is 9")
    assert lines[1].endswith("s.yaml:10:11: expected game.bag != [a, b, c, a], but the left side "
                             "(game.bag) is [a, b, c, a] and the right side is [a, b, c, a] "
                             "[the bag is untouched]")


def test_failed_plain_expression_shows_its_value(tmp_path):
    result = run(tmp_path, """
        expect: ["p1.vp", "p2 in [p1]"]
    """)
    assert not result.passed
    assert "expected p1.vp, but it is 0" in result.reason
    assert "expected p2 in [p1], but the left side is p2 and the right side is [p1]" in result.reason


def test_an_expectation_that_cannot_be_evaluated_fails_with_its_position(tmp_path):
    result = run(tmp_path, """
        expect: ["game.bag[9] == a"]
    """)
    assert not result.passed
    assert re.search(r"s\.yaml:4:\d+: cannot evaluate 'game\.bag\[9\] == a': list index out of range",
                     result.reason)


# ---- choices ----------------------------------------------------------------------------

def test_illegal_choice_lists_the_legal_ones(tmp_path):
    result = run(tmp_path, """
        run: main
        choices: [1, 7]
    """)
    assert not result.passed
    assert re.search(r"s\.yaml:5:\d+: choice 2: 7 is not a legal choice for 'how many' by p2 "
                     r"\(Player 2\); legal: 1, 2, 3, pass$", result.reason)


def test_pass_on_a_required_choice_is_illegal(tmp_path):
    result = run(tmp_path, """
        run: action_take
        args: [p1]
        choices: [pass]
    """)
    assert not result.passed
    assert "pass is not a legal choice" in result.reason and "legal: 1, 2, 3" in result.reason
    assert "legal: 1, 2, 3, pass" not in result.reason


def test_wrong_actor_fails(tmp_path):
    result = run(tmp_path, """
        run: main
        choices: [{by: p2, pick: 1}]
        expect_pending: how many
    """)
    assert not result.passed
    assert "expected a decision by p2, but the game is waiting for 'how many' by p1 (Player 1)" in result.reason


def test_unused_choices_fail(tmp_path):
    result = run(tmp_path, """
        run: action_take
        args: [p1]
        choices: [1, 2]
    """)
    assert not result.passed
    assert "1 choice(s) left unused" in result.reason


# ---- where the run stops ---------------------------------------------------------------

def test_expect_pending_passes_at_the_named_decision(tmp_path):
    result = run(tmp_path, """
        run: main
        chance: [b]
        choices: [3]
        expect_pending: how many
        expect:
          - p1.vp == 3
          - game.bag == [a, c, a]
    """)
    assert result.passed, result.reason


def test_expect_pending_fails_when_the_run_finishes(tmp_path):
    result = run(tmp_path, """
        run: setup_helper
        args: [p1, 1]
        expect_pending: how many
    """)
    assert not result.passed
    assert "expected the run to stop at a decision whose prompt contains 'how many', but the run finished" \
        in result.reason


def test_expect_pending_fails_at_another_decision(tmp_path):
    result = run(tmp_path, """
        run: main
        expect_pending: which card
    """)
    assert not result.passed
    assert "but the run stopped at 'how many' by p1 (Player 1)" in result.reason


def test_a_decision_left_unanswered_fails_without_expect_pending(tmp_path):
    result = run(tmp_path, """
        run: main
        choices: [1]
    """)
    assert not result.passed
    assert "the run stopped at 'how many' by p2 (Player 2) and no choice is left" in result.reason


# ---- scripted chance ----------------------------------------------------------------------

def test_scripted_chance_decides_draws(tmp_path):
    result = run(tmp_path, """
        run: action_draw
        args: [p1]
        chance: [c]
        expect:
          - game.bag == [a, b, a]
    """)
    assert result.passed, result.reason
    assert result.log == ["Player 1 drew c"]


def test_unavailable_scripted_chance_is_a_runtime_error(tmp_path):
    result = run(tmp_path, """
        setup: |
            game.bag = [a]
        run: action_draw
        args: [p1]
        chance: [b]
    """)
    assert not result.passed
    assert result.reason.startswith("runtime error: ")
    assert "the scripted chance outcome b is not available (there are: [a])" in result.reason


def test_chance_never_drawn_fails(tmp_path):
    result = run(tmp_path, """
        run: setup_helper
        args: [p1, 1]
        chance: [a]
    """)
    assert not result.passed
    assert "scripted chance outcomes never drawn: [a]" in result.reason


# ---- errors in the scenario file itself ----------------------------------------------------

def test_schema_errors_point_into_the_file(tmp_path):
    result = run(tmp_path, """
        players: two
        choices: [{pik: 1}]
        expext: []
    """)
    assert not result.passed
    assert result.name == "test"
    assert "s.yaml:4:10: error: in 'players': expected a whole number, got the text 'two'" in result.reason
    assert "s.yaml:5:12: error: in 'choices' → item 1: unknown key 'pik' (did you mean 'pick'?)" in result.reason
    assert "s.yaml:6:1: error: unknown key 'expext' (did you mean 'expect'?)" in result.reason


def test_compile_errors_are_all_reported_with_positions(tmp_path):
    result = run(tmp_path, """
        setup: |
            p1.vpp = 3
        run: action_tak
        expect: ["p1.vp =="]
    """)
    assert not result.passed
    assert "s.yaml:5:8: error: no kind of entity has an attribute 'vpp' (did you mean 'vp'?)" in result.reason
    assert "s.yaml:6:6: error: the ruleset has no macro named 'action_tak' (did you mean 'action_take'" \
        in result.reason
    assert re.search(r"s\.yaml:7:\d+: error: unexpected end of line", result.reason)
    assert "        p1.vpp = 3\n           ^" in result.reason  # source line and caret


def test_wrong_number_of_args_is_reported(tmp_path):
    result = run(tmp_path, """
        run: setup_helper
        args: [p1]
    """)
    assert not result.passed
    assert "macro 'setup_helper' takes 2 argument(s) (p, n), but 'args' gives 1" in result.reason


def test_runtime_error_in_setup_is_a_failure(tmp_path):
    result = run(tmp_path, """
        setup: |
            game.round = game.bag + 1
    """)
    assert not result.passed
    assert re.match(r"runtime error: .*s\.yaml:5:5: cannot use \+ on a list and a number", result.reason)


def test_bad_player_count_and_missing_ruleset(tmp_path):
    assert "takes 2 to 4 players, not 9" in run(tmp_path, "players: 9\n").reason
    missing = tmp_path / "m.yaml"
    missing.write_text("scenario: m\nruleset: nowhere_at_all\n", encoding="utf-8")
    result = run_scenario_file(missing)
    assert not result.passed and "no ruleset named 'nowhere_at_all'" in result.reason


def test_malformed_yaml_and_missing_file(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("scenario: [unclosed\n", encoding="utf-8")
    result = run_scenario_file(bad)
    assert not result.passed and POSITION.search(result.reason) and "malformed YAML" in result.reason
    gone = run_scenario_file(tmp_path / "gone.yaml")
    assert not gone.passed and "cannot read file" in gone.reason


# ---- plumbing ------------------------------------------------------------------------------

def test_scenario_files_expands_folders(tmp_path):
    write(tmp_path, "", "b.yaml")
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub", "", "a.yaml")
    found = scenario_files([tmp_path])
    assert [p.relative_to(tmp_path).as_posix() for p in found] == ["b.yaml", "sub/a.yaml"]


def test_rulesets_are_cached_per_variants():
    plain = cached_ruleset(str(TOY))
    assert cached_ruleset(str(TOY)) is plain
    seats = cached_ruleset(str(TOY), ["seats"])
    assert seats is not plain and "winner_label" in seats.functions


@pytest.mark.parametrize("variants, check", [("[]", "p1.vp == 4"),
                                             ("[seats]", 'winner_label() == "odd seats"')])
def test_variants_apply(tmp_path, variants, check):
    result = run(tmp_path, f"""
        variants: {variants}
        setup: |
            p1.vp = 4
        expect: ['{check}']
    """)
    assert result.passed, result.reason


def test_a_variant_function_is_unknown_without_the_variant(tmp_path):
    result = run(tmp_path, """
        expect: ['winner_label() == "odd seats"']
    """)
    assert not result.passed and "unknown function 'winner_label'" in result.reason
