"""The ``speciation`` command line, against the toy ruleset fixture."""
from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from speciation import load_ruleset
from speciation.cli import main
from speciation.api import load_save

TOY = Path(__file__).parents[1] / "support" / "fixtures" / "toy"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    """A copy of the toy with two mistakes in rules.yaml."""
    copy = tmp_path / "broken"
    shutil.copytree(TOY, copy)
    rules = copy / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    text = text.replace("            p.vp += n\n", "            p.vpp += n\n")
    text = text.replace("  score(p): p.vp\n", "  score(p): p.vp +\n")
    rules.write_text(text, encoding="utf-8")
    return copy


@pytest.fixture
def failing(tmp_path: Path) -> Path:
    """A copy of the toy whose game breaks at run time (adds a letter to a number)."""
    copy = tmp_path / "failing"
    shutil.copytree(TOY, copy)
    rules = copy / "rules.yaml"
    text = rules.read_text(encoding="utf-8").replace(
        '                log("{} drew {}", p, x)\n', "                p.vp += x\n")
    rules.write_text(text, encoding="utf-8")
    return copy


# ---- check ---------------------------------------------------------------------------

def test_check_ok(capsys):
    code, out, err = run(capsys, "check", TOY)
    assert code == 0
    assert out == "ok: toy 1 (1 cards)\n"
    assert err == ""


def test_check_broken_reports_every_error_with_position(capsys, broken):
    code, out, err = run(capsys, "check", broken)
    assert code == 1
    rules = re.escape(str(broken / "rules.yaml"))
    assert re.search(rf"^{rules}:\d+:\d+: error: no kind of entity has an attribute 'vpp' "
                     r"\(did you mean 'vp'\?\)$", err, re.M)
    assert re.search(rf"^{rules}:\d+:\d+: error: .*end", err, re.M)  # the unfinished 'p.vp +'
    assert "                p.vpp += n\n" in err and "^" in err  # the source line and a caret
    assert "Traceback" not in out + err
    assert "ok:" not in out


def test_check_several_paths_and_variants(capsys, broken):
    code, out, err = run(capsys, "check", TOY, broken)
    assert code == 1 and out == "ok: toy 1 (1 cards)\n" and "vpp" in err
    code, out, err = run(capsys, "check", TOY, "--variant", "seats")
    assert code == 0 and out.startswith("ok: toy")
    code, out, err = run(capsys, "check", TOY, "--variant", "sets")
    assert code == 1 and "no variant named 'sets' in ruleset 'toy' (did you mean 'seats'?)" in err


def test_check_unknown_ruleset(capsys):
    code, out, err = run(capsys, "check", "no_such_ruleset_here")
    assert code == 2 and "error: no ruleset named 'no_such_ruleset_here'" in err  # a usage error


def test_check_with_a_mod(capsys, tmp_path):
    mod = tmp_path / "mod.yaml"
    mod.write_text("mod: bonus\nfunctions:\n  score(p): p.vp + 10\n", encoding="utf-8")
    assert run(capsys, "check", TOY, "--mod", mod)[0] == 0
    mod.write_text("mod: bonus\nfunctions:\n  score(p): p.vq\n", encoding="utf-8")
    code, out, err = run(capsys, "check", TOY, "--mod", mod)
    assert code == 1 and re.search(rf"{re.escape(str(mod))}:3:\d+: error: no kind of entity", err)


# ---- play ------------------------------------------------------------------------------

def test_play_quiet_prints_only_the_result(capsys):
    code, out, err = run(capsys, "play", TOY, "--quiet", "--seed", "4", "--players", "3")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "final scores:"
    assert [line.split(":")[0] for line in lines[1:4]] == ["  Player 1", "  Player 2", "  Player 3"]
    assert lines[4].startswith("winner: Player ")
    assert len(lines) == 5 and "drew" not in out


def test_play_prints_the_log_and_is_reproducible(capsys):
    code, first, _ = run(capsys, "play", TOY, "--seed", "9")
    assert code == 0
    assert "how many →" in first and "drew" in first
    assert run(capsys, "play", TOY, "--seed", "9")[1] == first
    scores = [int(line.split(": ")[1]) for line in first.splitlines() if line.startswith("  Player ")
              and "→" not in line]
    winner = first.splitlines()[-1]
    assert winner == f"winner: Player {scores.index(max(scores)) + 1}"


def test_play_shows_winner_label_and_saves(capsys, tmp_path):
    save = tmp_path / "game.json"
    code, out, _ = run(capsys, "play", TOY, "--quiet", "--variant", "seats", "--save", save)
    assert code == 0
    assert re.search(r"^winner: Player \d \((odd|even) seats\)$", out, re.M)
    game = load_save(save.read_text(), load_ruleset(str(TOY), ["seats"]))
    assert game.is_over and game.state["steps"] == 6


def test_play_with_a_human(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("hello\n9\n3\nq\n"))
    code, out, _ = run(capsys, "play", TOY, "--agents", "human,random", "--seed", "1")
    assert code == 0
    assert "Player 1: how many\n  1. 1\n  2. 2\n  3. 3\n  4. pass (decline)\n" in out
    assert out.count("please type one of the numbers 1-4, a command (help), or q to quit") == 2
    assert "  Player 1: how many → 3" in out
    assert out.rstrip().endswith("game stopped")


def test_play_seats_one_player_per_agent_named(capsys):
    code, out, _ = run(capsys, "play", TOY, "--quiet", "--agents", "random,greedy,random")
    assert code == 0 and [line.split(":")[0] for line in out.splitlines()[1:4]] == [
        "  Player 1", "  Player 2", "  Player 3"] and "Player 4" not in out


def test_play_usage_errors(capsys):
    assert run(capsys, "play", TOY, "--agents", "random,robot")[0] == 2
    code, _, err = run(capsys, "play", TOY, "--players", "2", "--agents", "random,random,random")
    assert code == 2 and "3 agents for 2 players" in err
    code, _, err = run(capsys, "play", TOY, "--agents", "random,random,random,random,random")
    assert code == 2 and "takes 2 to 4 players, not 5" in err
    code, _, err = run(capsys, "play", TOY, "--players", "7")
    assert code == 2 and "takes 2 to 4 players, not 7" in err


def test_play_rule_error_is_reported_without_traceback(capsys, failing):
    code, out, err = run(capsys, "play", failing, "--quiet")
    assert code == 1
    assert re.search(r"rules\.yaml:\d+:\d+: ", err) and "Traceback" not in err


# ---- simulate ---------------------------------------------------------------------------

def test_simulate_summary_and_json(capsys, tmp_path):
    report = tmp_path / "sim.json"
    code, out, err = run(capsys, "simulate", TOY, "--games", "6", "--players", "3", "--seed", "10",
                         "--json", report)
    assert code == 0
    assert "games completed: 6 of 6" in out
    assert "mean length: 9.0 actions, 9.0 turns" in out  # 3 rounds x 3 players; turn_count()
    wins = re.findall(r"^  Player (\d): (\d+) ", out, re.M)
    assert sum(int(n) for _, n in wins) == 6
    assert re.search(r"^speed: \d+ actions/s", out, re.M)
    assert "6/6" in err  # the progress bar
    data = json.loads(report.read_text())
    assert data["completed"] == 6 and data["failed"] == 0
    assert [r["seed"] for r in data["results"]] == [10, 11, 12, 13, 14, 15]
    assert all(r["actions"] == 9 and r["completed"] for r in data["results"])


def test_simulate_is_reproducible_and_uses_winner_label(capsys):
    first = run(capsys, "simulate", TOY, "--games", "8", "--variant", "seats", "--no-progress")
    assert first[0] == 0
    assert re.search(r"^  (odd|even) seats: \d+ ", first[1], re.M)
    assert "Player 1:" not in first[1]
    again = run(capsys, "simulate", TOY, "--games", "8", "--variant", "seats", "--no-progress")
    strip = lambda text: re.sub(r"speed: .*", "", text)  # noqa: E731
    assert strip(again[1]) == strip(first[1])


def test_simulate_reports_failing_games(capsys, failing):
    code, out, err = run(capsys, "simulate", failing, "--games", "2", "--seed", "5", "--no-progress")
    assert code == 1
    assert "games completed: 0 of 2" in out
    assert re.search(r"error in game 1 \(seed 5\): .*rules\.yaml:\d+:\d+: ", out)
    assert "error in game 2 (seed 6)" in out


# ---- list ---------------------------------------------------------------------------------

def test_list_sections(capsys):
    code, out, _ = run(capsys, "list", TOY, "cards")
    assert code == 0
    assert re.fullmatch(r"Windfall\s+events\s+reconstructed\s+toy rulebook p\. 1; designer notes\n", out)
    code, out, _ = run(capsys, "list", TOY, "actions")
    assert out.splitlines() == ["action_take(p)  Take 1 to 3 victory points.", "action_draw(p)"]
    code, out, _ = run(capsys, "list", TOY, "variants")
    assert out == "seats  Seat teams (odd seats against even seats)\n"


def test_list_everything_by_default(capsys):
    code, out, _ = run(capsys, "list", TOY)
    assert code == 0
    assert [line for line in out.splitlines() if line and not line.startswith(" ")] == \
        ["cards (1):", "actions (2):", "variants (1):"]


def test_list_rejects_an_unknown_section(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["list", str(TOY), "rules"])
    assert exit_info.value.code == 2


# ---- scenario -----------------------------------------------------------------------------

def test_scenario_pass_and_fail(capsys, tmp_path):
    failing = tmp_path / "bad.yaml"
    failing.write_text(f"scenario: Wrong total\nruleset: {TOY}\nexpect:\n  - p1.vp == 1\n", encoding="utf-8")
    code, out, _ = run(capsys, "scenario", TOY / "scenarios")
    assert code == 0
    assert out.splitlines() == ["PASS First round - points and draws",
                                "PASS The take action stops at its choice", "2 passed, 0 failed"]
    code, out, _ = run(capsys, "scenario", TOY / "scenarios" / "first_round.yaml", failing, "--log")
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "PASS First round - points and draws"
    assert lines[1] == (f"FAIL Wrong total: {failing}:4:5: expected p1.vp == 1, but the left side "
                        "(p1.vp) is 0 and the right side is 1")
    assert lines[2:4] == ["    game log:", "      (empty)"]
    assert lines[-1] == "1 passed, 1 failed"


def test_scenario_with_nothing_to_run(capsys, tmp_path):
    code, _, err = run(capsys, "scenario", tmp_path)
    assert code == 1 and "no scenario files found" in err


# ---- the program itself -------------------------------------------------------------------

def test_no_command_prints_help(capsys):
    code, out, _ = run(capsys)
    assert code == 2 and "simulate" in out and "scenario" in out


def test_python_dash_m(tmp_path):
    done = subprocess.run([sys.executable, "-m", "speciation", "check", str(TOY)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0 and done.stdout == "ok: toy 1 (1 cards)\n"


def test_simulate_max_actions_fails_long_games(capsys):
    code, out, _ = run(capsys, "simulate", TOY, "--games", "2", "--max-actions", "3", "--no-progress")
    assert code == 1
    assert "games completed: 0 of 2" in out
    assert "error in game 1 (seed 0): GameTooLong: the game did not end within 3 actions" in out


# ---- languages (--lang) -------------------------------------------------------------------

def test_play_in_another_language_changes_only_the_names(capsys):
    code, out, err = run(capsys, "play", TOY, "--quiet", "--seed", "4", "--players", "3", "--lang", "pl")
    assert code == 0 and err == ""
    english = run(capsys, "play", TOY, "--quiet", "--seed", "4", "--players", "3")[1]
    assert out == english.replace("Player ", "Gracz ")


def test_play_log_in_another_language(capsys):
    code, out, _ = run(capsys, "play", TOY, "--seed", "9", "--lang", "pl")
    assert code == 0
    assert "  Gracz 1: how many →" in out and re.search(r"^Gracz \d drew litera [ABC]$", out, re.M)
    assert "Player" not in out


def test_simulate_in_another_language(capsys):
    code, out, _ = run(capsys, "simulate", TOY, "--games", "4", "--no-progress", "--lang", "pl")
    assert code == 0
    assert re.search(r"^  Gracz \d: \d+ ", out, re.M) and "Player" not in out


def test_list_cards_in_another_language(capsys):
    code, out, _ = run(capsys, "list", TOY, "cards", "--lang", "pl")
    assert code == 0
    assert re.fullmatch(r"Gratka \(Windfall\)\s+events\s+reconstructed\s+toy rulebook p\. 1; designer notes\n", out)


@pytest.mark.parametrize("command", [["play"], ["simulate", "--games", "1"], ["list"]])
def test_an_unknown_language_is_a_usage_error(capsys, command):
    code, out, err = run(capsys, command[0], TOY, *command[1:], "--lang", "de")
    assert code == 2 and out == ""
    assert "error: ruleset 'toy' has no names in language 'de' (it has: pl)" in err


def _card_rows(out: str) -> list[list[str]]:
    return [re.split(r"\s{2,}", line) for line in out.splitlines()]


def test_list_marine_cards_shows_both_decks(capsys):
    ruleset = load_ruleset("marine")
    code, out, _ = run(capsys, "list", "marine", "cards")
    assert code == 0
    rows = _card_rows(out)
    decks = [row[1] for row in rows]
    assert decks == ["evolution"] * 35 + ["trait"] * 18  # deck by deck (GF-B.0: 35 + 18)
    assert sorted(row[0] for row in rows) == sorted(card.name for card in ruleset.cards.values())
    by_name = {card.name: card for card in ruleset.cards.values()}
    for name, deck, confidence, *sources in rows:
        assert by_name[name].deck == deck and by_name[name].provenance["confidence"] == confidence
        assert sources and sources[0].startswith(by_name[name].provenance["sources"][0])


def test_list_marine_cards_in_polish(capsys):
    code, out, _ = run(capsys, "list", "marine", "cards", "--lang", "pl")
    assert code == 0
    names = [row[0] for row in _card_rows(out)]
    assert len(names) == 53
    assert "Asteroida (Asteroid)" in names and "Drapieżniki stadne (Pack Hunters)" in names
    assert "Różnorodność biologiczna (Biodiversity)" in names  # an adopted original card
    assert all(re.fullmatch(r".+ \(.+\)", name) for name in names)  # every card has a Polish name


def test_play_marine_in_polish(capsys):
    code, out, err = run(capsys, "play", "marine", "--lang", "pl", "--quiet", "--players", "2", "--seed", "1")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "final scores:"
    assert lines[1].startswith("  Gracz 1: ") and lines[2].startswith("  Gracz 2: ")
    assert re.fullmatch(r"winner: Gracz [12] \((Gady|Głowonogi|Ryby|Skorupiaki)\)", lines[3])
    english = run(capsys, "play", "marine", "--quiet", "--players", "2", "--seed", "1")[1].splitlines()
    assert [line.split(": ")[-1] for line in english[1:3]] == [line.split(": ")[-1] for line in lines[1:3]]
