"""Balance studies: interval arithmetic, local/parallel/Dask runs agree, the command's reports."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("scipy", reason="balance studies need the ai extra: pip install 'speciation[ai]'")

from speciation.balance import Config, compare, run_study, summarize, wilson_interval
from speciation.cli import main

TOY = str(Path(__file__).parents[1] / "support" / "fixtures" / "toy")


def test_wilson_interval_on_known_cases():
    # Wilson score interval, z = 1.95996: 50/100 -> 0.4038..0.5962; 0/10 -> 0..0.2775; 9/10 -> 0.5958..0.9821
    assert wilson_interval(50, 100) == pytest.approx((0.40383, 0.59617), abs=5e-5)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.27753), abs=5e-5)
    assert wilson_interval(9, 10) == pytest.approx((0.59585, 0.98212), abs=5e-5)
    assert wilson_interval(0, 0) is None


def test_study_figures_and_a_comparison():
    config = Config(TOY, 3, "greedy,random,random", games=24, seed=1, rotate=True)
    records = run_study(config)
    assert [r.agents for r in records[:3]] == [["greedy", "random", "random"], ["random", "greedy", "random"],
                                               ["random", "random", "greedy"]]
    summary = summarize(records)
    assert summary["completed"] == 24 and sum(e["count"] for e in summary["wins_by_seat"].values()) == 24
    greedy = summary["wins_by_agent"]["greedy"]
    assert greedy["of"] == 24 and greedy["count"] >= 18  # greedy takes 3 points every turn
    assert greedy["ci95"] == list(wilson_interval(greedy["count"], 24))
    assert summary["turns"]["mean"] == 9
    assert summary["long_games"] == []  # none of these short games is listed as a stall
    other = run_study(Config(TOY, 3, "random", games=24, seed=1))
    result = compare(records, other)
    assert result["wins"]  # per label: both shares, difference, Fisher p-value
    assert all(0 <= e["p_value"] <= 1 for e in result["wins"].values())


def test_workers_and_dask_give_the_games_of_a_local_run():
    distributed = pytest.importorskip("distributed", reason="--dask needs the ai extra: pip install 'speciation[ai]'")
    config = Config(TOY, 2, "greedy,random", games=6, seed=4)
    local = [(r.seed, r.winner, r.scores) for r in run_study(config)]
    assert [(r.seed, r.winner, r.scores) for r in run_study(config, workers=2)] == local
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        assert [(r.seed, r.winner, r.scores) for r in run_study(config, dask=client)] == local


def test_a_game_past_max_actions_is_stopped_reported_and_not_counted(tmp_path, capsys):
    games = tmp_path / "games.jsonl"
    code = main(["balance", TOY, "--players", "2", "--games", "3", "--agents", "greedy,random", "--quiet",
                 "--max-actions", "4", "--games-file", str(games)])
    assert code == 0  # a stopped game is not an error
    text = capsys.readouterr().out
    assert "games completed: 0 of 3" in text
    assert text.count("not counted: the game did not end within 4 actions") == 3
    lines = [json.loads(line) for line in games.read_text().splitlines()]
    assert [(g["seed"], g["stopped"], g["completed"]) for g in lines] == [(0, True, False), (1, True, False), (2, True, False)]


def test_the_games_file_has_each_game_as_it_ends(tmp_path, capsys):
    games = tmp_path / "games.jsonl"
    assert main(["balance", TOY, "--players", "2", "--games", "4", "--agents", "greedy,random", "--quiet",
                 "--seed", "7", "--games-file", str(games)]) == 0
    lines = [json.loads(line) for line in games.read_text().splitlines()]
    assert [g["seed"] for g in lines] == [7, 8, 9, 10] and all(g["completed"] for g in lines)
    again = run_study(Config(TOY, 2, "greedy,random", games=4, seed=7))
    assert [(g["winner"], g["scores"]) for g in lines] == [(r.winner, r.scores) for r in again]
    assert main(["balance", TOY, "--games", "1", "--quiet", "--games-file", str(tmp_path / "no" / "f")]) == 2
    assert "error: cannot write the games file" in capsys.readouterr().err


def test_balance_command_writes_text_json_and_html(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="--html needs the ai extra: pip install 'speciation[ai]'")
    out_json, out_html = tmp_path / "study.json", tmp_path / "study.html"
    code = main(["balance", TOY, "--players", "2", "--games", "8", "--agents", "greedy,random", "--quiet",
                 "--compare-variant", "seats", "--json", str(out_json), "--html", str(out_html)])
    assert code == 0
    text = capsys.readouterr().out
    assert "games completed: 8 of 8" in text and "wins by seat:" in text
    assert "compared with: variant seats" in text and "McNemar exact p" in text
    data = json.loads(out_json.read_text())
    assert data["study"]["ruleset_digest"] and data["study"]["seeds"] == [0, 7] and len(data["games"]) == 8
    assert data["study"]["compare"]["variants"] == ["seats"] and "--compare-variant seats" in data["study"]["command"]
    assert data["comparison"]["by_seat"] and data["comparison"]["pairs"] == 8
    page = out_html.read_text()
    assert page.count("<svg") >= 5 and "ruleset_digest" in page
    assert main(["balance", TOY, "--agents", "bogus", "--quiet"]) == 2


@pytest.mark.parametrize("edition", ["original", "marine"])
def test_balance_of_each_edition_with_and_without_a_mod(tmp_path, capsys, edition):
    # issue 8: the report and the HTML page for both editions, with and without a mod
    pytest.importorskip("matplotlib", reason="--html needs the ai extra: pip install 'speciation[ai]'")
    mod = tmp_path / "mod"
    mod.mkdir()
    (mod / "extra.yaml").write_text("tables:\n  study_marker: {a: 1}\n")
    for extra, name in (([], "plain"), (["--mod", str(mod)], "mod")):
        out_json, out_html = tmp_path / f"{name}.json", tmp_path / f"{name}.html"
        code = main(["balance", edition, "--players", "2", "--games", "2", "--agents", "random", "--quiet",
                     *extra, "--json", str(out_json), "--html", str(out_html)])
        assert code == 0
        assert "games completed: 2 of 2" in capsys.readouterr().out
        study = json.loads(out_json.read_text())["study"]
        assert len(study["mods"]) == len(extra) // 2 and study["ruleset_digest"]
        assert out_html.read_text().count("<svg") >= 3
