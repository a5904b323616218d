"""Comparisons in pairs: the paired statistics on known cases, the power statements, the
report in text, JSON and HTML naming the compared mod, sequential stopping, per-source random
streams, and workers stopped with the study."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("statsmodels", reason="comparisons need the balance extra: pip install 'speciation[balance]'")
from scipy import stats

from speciation import Game, load_ruleset
from speciation.api import load_save, save_json
from speciation.balance.paired import (card_figures, compare_paired, final_alpha, look_alpha, looks,
                                       pairs_needed)
from speciation.balance.runner import Config, GameRecord, tasks_for
from speciation.cli import main
from speciation.interpreter import rng
from speciation.outcome import GameOutcome

FIXTURES = Path(__file__).parents[1] / "support" / "fixtures"
TOY = str(FIXTURES / "toy")
EVEN, FIRST = str(FIXTURES / "mods" / "toy_even"), str(FIXTURES / "mods" / "toy_first")
WINDFALL = str(FIXTURES / "mods" / "windfall")


def _record(index: int, winner: int, taken=(), agents=("a", "b")) -> GameRecord:
    scores = [0, 0]
    scores[winner] = 1
    outcome = GameOutcome(index, index, completed=True, winner=winner, winner_label=f"P{winner + 1}", scores=scores)
    return GameRecord(outcome, list(agents), [list(t) for t in taken])


def test_paired_differences_on_a_known_case():
    # 20 pairs; seat 1 wins 10 games without the change and 15 with it: 8 pairs it wins in
    # both, 2 only without, 7 only with (discordant 2 against 7), 3 in neither.
    first = [1] * 3 + [0] * 8 + [0] * 2 + [1] * 7          # seat 0 wins where 0
    second = [1] * 3 + [0] * 8 + [1] * 2 + [0] * 7
    result = compare_paired([_record(i, w) for i, w in enumerate(first)],
                            [_record(i, w) for i, w in enumerate(second)], detect=0.05)
    seat = result["by_seat"][1]
    assert (seat["first"], seat["second"], seat["difference"]) == (0.5, 0.75, pytest.approx(0.25))
    assert (seat["only_first"], seat["only_second"]) == (2, 7)
    # McNemar's exact test is the two-sided binomial test on the discordant pairs
    assert seat["p_value"] == pytest.approx(stats.binomtest(2, 9, 0.5).pvalue)
    d = [b - a for a, b in zip([w == 0 for w in first], [w == 0 for w in second])]
    half = stats.t.ppf(0.975, 19) * stats.tstd(d) / len(d) ** 0.5
    assert seat["ci95"] == pytest.approx([0.25 - half, 0.25 + half])
    assert result["by_seat"][2]["difference"] == pytest.approx(-0.25)
    assert result["by_label"]["P1"]["difference"] == pytest.approx(0.25)
    assert result["by_agent"]["a"]["difference"] == pytest.approx(0.25)  # agent a sits in seat 1
    assert result["answer"] == "undecided"  # p = 0.18: not moved, not shown within ±5
    assert result["largest_change_allowed"] == pytest.approx(0.25 + half)


def test_identical_pairs_show_no_change_and_a_large_one_is_detected():
    # 0 pairs of n differing: Clopper-Pearson 95% upper bound 1 - 0.025 ** (1 / n) on the share of
    # pairs that differ, which bounds the difference; 'not moved by 5 points' needs the exact
    # binomial test 0.95 ** n < 0.05, so 30 identical pairs leave it undecided and 60 decide it
    few = [_record(i, i % 2) for i in range(30)]
    result = compare_paired(few, few, detect=0.05)
    assert result["answer"] == "undecided" and result["identical_pairs"] == 30
    assert result["by_seat"][1]["ci95"] == pytest.approx([-(1 - 0.025 ** (1 / 30)), 1 - 0.025 ** (1 / 30)])
    assert result["by_seat"][1]["equivalence_p"] == pytest.approx(0.95 ** 30)
    assert result["largest_change_allowed"] == pytest.approx(0.1157, abs=1e-4)
    same = [_record(i, i % 2) for i in range(60)]
    result = compare_paired(same, same, detect=0.05)
    assert result["answer"] == "not moved" and result["by_seat"][1]["equivalence_p"] == pytest.approx(0.95 ** 60)
    assert result["largest_change_allowed"] == pytest.approx(1 - 0.025 ** (1 / 60))
    moved = compare_paired(same, [_record(i, 0) for i in range(30)], detect=0.05)
    assert moved["answer"] == "moved" and moved["by_seat"][1]["difference"] == pytest.approx(0.5)
    assert moved["by_seat"][1]["p_value"] == pytest.approx(2 * 0.5 ** 15)  # 15 discordant pairs, all one way


def test_power_before_and_the_sequential_error_rates():
    plan = pairs_needed(0.05, 4)
    assert plan["sd"] == pytest.approx((2 * 0.25 * 0.75) ** 0.5)
    # normal approximation: ((1.96 + 0.8416) * sd / 0.05)^2 = 1177.5; the t test needs a little more
    assert 1178 <= plan["pairs_to_detect"] <= 1182 and plan["pairs_to_rule_out"] > plan["pairs_to_detect"]
    assert pairs_needed(0.05, 4, sd=0.3)["pairs_to_detect"] < plan["pairs_to_detect"] / 4
    assert looks(200, 50) == [50, 100, 150, 200] and looks(100, 0) == [100]
    assert [look_alpha(i, 4) for i in (1, 2, 3)] == [0.001] * 3 and look_alpha(4, 4) == pytest.approx(0.047)
    assert final_alpha(0) == 0.05 and final_alpha(3) == pytest.approx(0.047) and final_alpha(100) == 0.001


def test_a_study_stopped_early_keeps_the_error_rate_of_the_looks_it_did_not_make():
    # 400 pairs planned, a look every 20: 19 interim looks at 0.001 would leave 0.031 to the last;
    # stopped after 50 pairs (2 looks made, the pairs identical: undecided at 0.001 with 40), the
    # final analysis is at 0.05 - 2 x 0.001, and its answer uses it (0.9^50 = 0.005: not moved)
    from speciation.balance.study import run_comparison
    first = Config(TOY, 2, "random", games=400, streams="per_source")
    second = Config(TOY, 2, "random", mods=(EVEN,), games=400, streams="per_source")

    def stop(number: int, record: GameRecord) -> None:
        if number == 1 and record.index == 49:
            raise KeyboardInterrupt

    study = run_comparison(first, second, each=stop, detect=0.1, look_every=20)
    assert [look["pairs"] for look in study["looks"]] == [20, 40]
    assert [look["answer"] for look in study["looks"]] == ["undecided"] * 2
    assert study["stopped"] == "interrupted (Ctrl-C)" and study["alpha"] == pytest.approx(0.048)
    found = compare_paired(study["first"], study["second"], detect=0.1, alpha=study["alpha"])
    assert found["pairs"] == found["identical_pairs"] == 50 and found["answer"] == "not moved"
    from speciation.balance.report import comparison_lines
    found.update(looks=study["looks"], stopped=study["stopped"])
    text = "\n".join(comparison_lines(found))
    assert "answer at error rate 0.048, what the 2 looks made leave of the study's error rate" in text


def test_card_figures_count_takes_games_and_takers_who_won():
    records = [_record(0, 0, [["Windfall", 0]]), _record(1, 1, [["Windfall", 0], ["Windfall", 1]]),
               _record(2, 1), _record(3, 0, [["Other", 0]])]
    found = card_figures(records, ["Windfall", "Unseen"])
    assert found["Windfall"]["taken"] == 3 and found["Windfall"]["games_taken"] == 2
    assert found["Windfall"]["per_game"] == 0.75
    assert found["Windfall"]["taker_won"]["count"] == 2 and found["Windfall"]["taker_won"]["of"] == 3
    assert found["Unseen"]["taken"] == 0 and found["Unseen"]["taker_won"]["share"] is None


def test_pairs_are_interleaved():
    a, b = Config(TOY, 2, games=3), Config(TOY, 2, games=3, mods=(EVEN,))
    assert [(c is b, i) for c, i in tasks_for([a, b])] == [(False, 0), (True, 0), (False, 1), (True, 1),
                                                            (False, 2), (True, 2)]


def test_compare_mod_reports_in_text_json_and_html(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="--html needs the ai extra")
    out_json, out_html = tmp_path / "s.json", tmp_path / "s.html"
    assert main(["balance", TOY, "--players", "2", "--agents", "random", "--games", "40", "--quiet",
                 "--compare-mod", FIRST, "--detect", "10", "--json", str(out_json), "--html", str(out_html)]) == 0
    text = capsys.readouterr().out
    assert f"compared with: mod toy_first version 1 ({FIRST})" in text
    assert "answer at error rate 0.05 (does it move a seat's win share by 10 points?): MOVED" in text
    assert "win share by seat (second - first, points; 95% paired interval; McNemar exact p):" in text
    assert "planned: 395 pairs detect a 10-point change" in text and "--compare-mod" in text
    data = json.loads(out_json.read_text())
    assert data["study"]["compare"]["mods"][0]["name"] == "toy_first" and "--compare-mod" in data["study"]["command"]
    seat = data["comparison"]["by_seat"]["1"]
    assert seat["difference"] > 0.2 and seat["ci95"][0] > 0 and data["comparison"]["answer"] == "moved"
    assert len(data["games"]) == len(data["second_games"]) == 40
    page = out_html.read_text()
    assert "Compared with mod toy_first" in page and "How to reproduce" in page and "MOVED" in page
    assert "paired differences" in page  # the plot's title

    assert main(["balance", TOY, "--players", "2", "--agents", "random", "--games", "30", "--quiet",
                 "--compare-mod", EVEN, "--detect", "10"]) == 0
    text = capsys.readouterr().out
    assert "30 complete pairs of 30 played (30 pairs ended exactly alike)" in text
    assert "NOT MOVED" in text and "no detectable difference larger than ±11.6 points at 95% with 30 pairs" in text


def test_the_mods_card_figures_are_reported(tmp_path, capsys):
    out = tmp_path / "s.json"
    assert main(["balance", "original", "--players", "2", "--agents", "random", "--games", "2", "--quiet",
                 "--compare-mod", WINDFALL, "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "card Windfall: taken " in text and "of 2 games" in text
    cards = json.loads(out.read_text())["comparison"]["cards"]
    assert set(cards) == {"Windfall"} and cards["Windfall"]["games"] == 2


def test_a_sequential_study_stops_when_decided(capsys):
    assert main(["balance", TOY, "--players", "2", "--agents", "random", "--games", "400", "--quiet",
                 "--compare-mod", FIRST, "--detect", "10", "--sequential", "--look-every", "40"]) == 0
    text = capsys.readouterr().out
    assert "study stopped: decided at look 1 of 10 (40 pairs): moved" in text
    assert "look 1: 40 pairs, error rate 0.001: moved" in text
    assert main(["balance", TOY, "--sequential", "--quiet"]) == 2
    assert main(["balance", TOY, "--players", "2", "--detect", "5", "--plan"]) == 0
    assert "to detect a change of 5 points" in capsys.readouterr().out


def test_per_source_streams_are_opt_in_saved_and_replayed():
    ruleset = load_ruleset(TOY)
    plain = Game.new(ruleset, 2, 5)
    assert isinstance(plain.state["rng"], int) and "streams" not in plain.history
    game = Game.new(ruleset, 2, 5, streams="per_source")
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    assert game.state["rng"]["steps"] == {"game.bag": 4}  # four letters drawn; an empty bag takes no step
    again = Game.new(ruleset, 2, 5, streams="per_source")
    while not again.is_over:
        again.apply(again.legal_actions()[0])
    assert again.digest() == game.digest()
    assert load_save(save_json(game), ruleset).digest() == game.digest()  # replayed with its streams
    assert "rng" not in game.view(0)
    with pytest.raises(Exception, match="streams must be one of"):
        Game.new(ruleset, 2, 5, streams="bogus")


def test_a_keyed_shuffle_keeps_the_order_of_the_items_it_had():
    for seed in range(20):
        items = [f"card{i}" for i in range(12)]
        with_one_more = items + ["new"]
        rng.order(rng.per_source_state(seed), "deck", items)
        rng.order(rng.per_source_state(seed), "deck", with_one_more)
        assert [i for i in with_one_more if i != "new"] == items
    bag = ["grass", "grass", "grass", "sun"]  # equal items are told apart: a draw is fair
    picks = [bag[rng.pick(rng.per_source_state(seed), "bag", bag)] for seed in range(400)]
    assert 240 < picks.count("grass") < 360


def test_sigterm_stops_the_study_and_its_workers(tmp_path):
    psutil = pytest.importorskip("psutil")
    out = tmp_path / "s.json"
    process = subprocess.Popen([sys.executable, "-m", "speciation", "balance", "original", "--players", "4",
                                "--agents", "greedy", "--games", "200", "--workers", "2", "--quiet",
                                "--compare-mod", WINDFALL, "--json", str(out)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    parent = psutil.Process(process.pid)
    workers: list = []
    deadline = time.monotonic() + 120
    while len(workers) < 2 and time.monotonic() < deadline:
        time.sleep(0.5)
        workers = parent.children(recursive=True)
    assert len(workers) >= 2, "the study started no workers"
    time.sleep(1)
    process.send_signal(signal.SIGTERM)
    text, _ = process.communicate(timeout=120)
    gone, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive, f"workers left running: {[p.pid for p in alive]}"
    assert "study stopped: stopped by SIGTERM" in text and out.exists()
    assert process.returncode == 0 and not any(p.pid == os.getpid() for p in gone)


def test_a_long_game_is_listed_as_a_possible_stall():
    from speciation.balance.report import format_text
    from speciation.balance.stats import summarize
    records = [_record(0, 0), _record(1, 1)]
    records[1].outcome.actions = 7006
    summary = summarize(records)
    assert summary["long_games"] == [{"index": 1, "seed": 1, "actions": 7006}]
    study = Config(TOY, 2, games=2).record()
    assert "long games (over 3000 actions: a stall, most likely; counted): game 2 (seed 1, 7006 actions)" \
        in format_text(study, summary)


def test_sigterm_stops_a_plain_study_with_a_report():
    process = subprocess.Popen([sys.executable, "-m", "speciation", "balance", "original", "--players", "4",
                                "--agents", "greedy", "--games", "100", "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(15)
    process.send_signal(signal.SIGTERM)
    text, errors = process.communicate(timeout=120)
    assert "study stopped: stopped by SIGTERM after" in text and "Traceback" not in errors
