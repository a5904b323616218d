"""The batch runner: games played in several processes give the results of one process."""
from __future__ import annotations

import re
from dataclasses import asdict
from pathlib import Path

from speciation.batch import GameSpec, play_spec, run_games
from speciation.cli import main

TOY = str(Path(__file__).parents[1] / "support" / "fixtures" / "toy")


def _outcome(result) -> dict:
    data = asdict(result)
    data.pop("seconds")
    return data


def test_workers_give_the_results_of_one_process():
    specs = [GameSpec(TOY, players=3, seed=s, variants=("seats",), index=i) for i, s in enumerate(range(20, 32))]
    one = run_games(specs, workers=1)
    two = run_games(specs, workers=2)
    assert [_outcome(r) for r in two] == [_outcome(r) for r in one]
    assert [r.index for r in two] == list(range(12)) and all(r.completed for r in two)
    assert len({tuple(r.scores) for r in one}) > 1  # the seeds really differ


def test_a_failing_spec_is_reported_not_raised():
    result = play_spec(GameSpec(TOY, players=9, seed=1))
    assert not result.completed and "players" in result.error


def test_log_off_plays_the_same_game():
    on = play_spec(GameSpec(TOY, players=2, seed=5))
    off = play_spec(GameSpec(TOY, players=2, seed=5, log=False))
    assert _outcome(on) == _outcome(off)


def test_simulate_workers_prints_the_same_summary(capsys):
    outputs = []
    for workers in ("1", "2"):
        assert main(["simulate", TOY, "--games", "10", "--players", "2", "--workers", workers]) == 0
        captured = capsys.readouterr()
        assert "10/10" in captured.err  # one progress bar for the whole batch
        outputs.append(re.sub(r"speed: .*", "", captured.out))
    assert outputs[0] == outputs[1]
