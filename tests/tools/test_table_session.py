"""The table's sessions without a browser: undo only where nothing hidden came out since,
saves that resume and replay, a replay that names the first decision that no longer applies,
and the ``serve`` command's options."""
from __future__ import annotations

import json
import random

import pytest

from support.table_support import advance, need_table_extra

need_table_extra()

from speciation.cli import build_parser  # noqa: E402
from speciation.table.session import Replay, TableGame  # noqa: E402


def test_undo_takes_back_the_decision_and_the_agents_replies():
    session = TableGame.new("u", "original", 2, ["human", "random"], seed=3)
    while session.agent_step():
        pass
    seat, before = session.decider, json.dumps(session.game.state)
    played = len(session.decisions)
    assert session.human(seat) and session.undo_refusal(seat) == "there is no decision of yours to undo"
    assert session.choose(seat, session.game.decision_id, 0) is None
    while session.agent_step():
        pass
    assert session.decider == seat and len(session.decisions) >= 2
    assert session.undo(1 - seat) == "there is no decision of yours to undo"
    assert session.undo(seat) is None
    assert json.dumps(session.game.state) == before and len(session.decisions) == played


def test_undo_is_refused_once_something_was_drawn():
    session = TableGame.new("d", "original", 2, ["human", "human"], seed=3)
    rng = random.Random(1)
    for _ in range(400):  # until one decision of a person draws from the random state
        seat = session.decider
        drawn_before = session.game.state["rng"]
        assert session.choose(seat, session.game.decision_id, rng.randrange(len(session.game.legal_actions()))) is None
        if session.game.state["rng"] != drawn_before:
            break
    else:
        pytest.fail("no decision drew anything")
    assert session.undo_refusal(seat).startswith("chance has been drawn since")
    assert session.undo(seat).startswith("chance has been drawn since")


def test_a_save_resumes_and_replays():
    session = TableGame.new("s", "marine", 2, ["human", "random"], seed=5)
    advance(session, lambda game: len(session.decisions) >= 30, random.Random(2))
    text = session.save_json()
    resumed = TableGame.resume("r", text)
    assert resumed.game.digest() == session.game.digest() and resumed.seats == ["human", "random"]
    replay = Replay.from_save("p", text)
    assert replay.game_at(30).digest() == session.game.digest() and replay.error is None
    assert replay.game_at(0).digest() != session.game.digest()


def test_a_replay_names_the_first_decision_that_no_longer_applies():
    session = TableGame.new("x", "original", 2, ["human", "human"], seed=5)
    advance(session, lambda game: len(session.decisions) >= 12, random.Random(4))
    history = session.game.history
    history["decisions"][7][1] = "no such option"
    replay = Replay("y", session.game.ruleset, history)
    replay.game_at(12)
    assert replay.step == 7 and replay.error.startswith("decision 8 of 12 (")
    assert "no longer applies" in replay.error


def test_serve_command_options():
    args = build_parser().parse_args(["serve", "--port", "0", "--no-browser", "--host", "127.0.0.1"])
    assert (args.port, args.no_browser, args.host) == (0, True, "127.0.0.1") and callable(args.handler)


def test_a_new_game_seed_is_secret_unless_given():
    seeds = {TableGame.new(str(i), "original", 2, ["human", "human"]).game.state["seed"] for i in range(3)}
    assert len(seeds) == 3  # drawn from a secure random source, not 0
    assert TableGame.new("g", "original", 2, ["human", "human"], seed=5).game.state["seed"] == 5
    assert build_parser().parse_args(["play", "original"]).seed is None  # play draws one too


def test_serve_offers_listed_folders_by_name(tmp_path, capsys):
    from speciation.commands.serve import _offered
    (tmp_path / "mymod").mkdir()
    args = build_parser().parse_args(["serve", "--mod", str(tmp_path / "mymod"), "--origin", "https://t.example"])
    assert _offered(args) == ({}, {"mymod": str((tmp_path / "mymod").resolve())})
    assert args.origin == ["https://t.example"]
    args = build_parser().parse_args(["serve", "--ruleset", str(tmp_path / "missing")])
    assert _offered(args) is None and "no such file or folder" in capsys.readouterr().err


def test_a_replaced_person_is_played_by_an_agent():
    session = TableGame.new("a", "original", 2, ["human", "human"], seed=3)
    assert session.replace_by_agent(1, "random") is None
    assert session.seats == ["human", "random"] and 1 in session.agents
    assert session.replace_by_agent(1, "random") == "that seat is not a person's"
    assert session.replace_by_agent(7, "random") == "no such seat"
