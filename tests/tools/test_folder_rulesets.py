"""A ruleset that lives in a folder, in every tool (issue 20, deliverable 3), and seat kinds
that survive resume (issue 21): a save names the folder's name (never its path) and each
seat's kind; ``render SAVE`` and ``play --resume SAVE`` load it when given the folder
(``--ruleset DIR``, ``play DIR --resume SAVE``) and otherwise say how to name it; ``play
--resume`` without ``--agents`` keeps who was a person and who an agent; the table resumes
and replays such a save when the folder was named at ``serve --ruleset`` (never a path a
page sends), and says how to offer it otherwise."""
from __future__ import annotations

import io
import json
import random
import shutil
from pathlib import Path

import pytest

from speciation import Game, load_ruleset
from speciation.api import load_save, save_json, saved_seats
from speciation.cli import main
from speciation.dsl.errors import SaveFileError

ORIGINAL = Path(__file__).resolve().parents[2] / "rulesets" / "original"


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """The original game, copied into a folder of its own under another name."""
    where = tmp_path_factory.mktemp("rules") / "homebrew"
    shutil.copytree(ORIGINAL, where)
    manifest = where / "ruleset.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("ruleset: original", "ruleset: homebrew", 1),
                        encoding="utf-8")
    return where


@pytest.fixture(scope="module")
def saved(folder, tmp_path_factory) -> tuple[Path, Game]:
    game = Game.new(load_ruleset(str(folder)), 2, 7)
    rng = random.Random(1)
    for _ in range(12):
        game.apply(rng.choice(game.legal_actions()))
    path = tmp_path_factory.mktemp("saves") / "homebrew.json"
    path.write_text(save_json(game, ["human", "greedy"]), encoding="utf-8")
    return path, game


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_save_names_the_folder_by_its_name_and_the_seats(saved, folder):
    path, game = saved
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["named"] == {"folder": "homebrew"} and str(folder.parent) not in text
    assert saved_seats(text) == ["human", "greedy"]
    with pytest.raises(SaveFileError, match="loaded from a folder named 'homebrew'"):
        load_save(text)
    assert load_save(text, named=str(folder)).digest() == game.digest()
    assert load_save(text, folders={"homebrew": str(folder)}).digest() == game.digest()
    builtin = Game.new(load_ruleset("original"), 2, 7)
    assert "named" not in json.loads(save_json(builtin))   # a built-in save is as before


def test_render_loads_a_folder_save_when_given_the_folder(capsys, saved, folder):
    path, _ = saved
    code, out, err = run(capsys, "render", path)
    assert code == 1 and "'homebrew'" in err and f"speciation render {path} --ruleset DIR" in err
    code, out, err = run(capsys, "render", path, "--ruleset", folder)
    assert code == 0 and out.strip(), err


def test_play_resume_uses_the_folder_given_and_keeps_the_seat_kinds(capsys, monkeypatch, saved, folder):
    path, _ = saved
    code, out, err = run(capsys, "play", "--resume", path)
    assert code == 1 and "speciation play DIR --resume" in err
    # No --agents: seat 1 is still a person (asked at the terminal), seat 2 still greedy.
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, err = run(capsys, "play", folder, "--resume", path, "--quiet", "--save", path.with_name("again.json"))
    assert "game stopped" in out, out + err
    assert saved_seats(path.with_name("again.json").read_text(encoding="utf-8")) == ["human", "greedy"]
    # --agents still overrides them
    code, out, err = run(capsys, "play", folder, "--resume", path, "--quiet", "--agents", "random",
                         "--save", path.with_name("done.json"))
    assert code == 0 and "final scores" in out, err
    assert saved_seats(path.with_name("done.json").read_text(encoding="utf-8")) == ["random", "random"]


def test_the_table_resumes_and_replays_a_folder_save_only_when_the_server_offers_it(saved, folder):
    pytest.importorskip("starlette", reason="the table needs the 'table' extra: bash scripts/setup")
    from speciation.table.session import Replay, TableGame

    path, game = saved
    text = path.read_text(encoding="utf-8")
    with pytest.raises(SaveFileError, match=r"serve --ruleset DIR"):
        TableGame.resume("x", text)
    with pytest.raises(SaveFileError, match=r"serve --ruleset DIR"):
        Replay.from_save("x", text)
    session = TableGame.resume("x", text, folders={"homebrew": str(folder)})
    assert session.game.digest() == game.digest()
    assert session.seats == ["human", "greedy"] and set(session.agents) == {1}   # the agent stays an agent
    replay = Replay.from_save("y", text, folders={"homebrew": str(folder)})
    assert replay.seats == ["human", "greedy"] and len(replay.decisions) == 12


def test_the_table_routes_resume_a_folder_save(saved, folder):
    pytest.importorskip("uvicorn", reason="the table needs the 'table' extra: bash scripts/setup")
    import urllib.error
    import urllib.request

    from support.table_support import RunningTable

    path, game = saved
    body = path.read_bytes()

    def post(running, route):
        request = urllib.request.Request(running.url + route, data=body, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    running = RunningTable()
    try:
        status, answer = post(running, "/api/resume")
        assert status == 400 and "serve --ruleset DIR" in answer["error"] and str(folder) not in answer["error"]
    finally:
        running.stop()
    running = RunningTable(rulesets={"homebrew": str(folder)})
    try:
        status, answer = post(running, "/api/resume")
        assert status == 200, answer
        session = running.table.sessions[answer["game"]]
        assert session.game.digest() == game.digest() and session.origin == "homebrew"
        assert post(running, "/api/replay")[0] == 200
    finally:
        running.stop()
