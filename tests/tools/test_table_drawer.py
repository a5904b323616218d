"""Pictures' bodies drawn in a worker process (speciation/table/drawer.py): every screen a
table with the worker builds is, to the character, the one built without it; the worker is
sent each page's own view and nothing else; rules it cannot load by name are drawn here."""
from __future__ import annotations

import json
import os
import random
import signal
import re
from pathlib import Path

import pytest

from speciation.interpreter.views import public_view
from speciation.table.app import Table
from speciation.table.drawer import Drawer, _draw
from speciation.table.session import TableGame
from support.workers import ready


ROOT = Path(__file__).resolve().parents[2]
MOD = ROOT / "tests" / "support" / "fixtures" / "mods" / "windfall"
VARIANT = sorted(p.stem for p in (ROOT / "rulesets" / "original" / "variants").glob("*.yaml"))[0]


@pytest.fixture(scope="module")
def drawer():
    made = Drawer(1)
    yield made
    made.close()


def text(message: dict) -> str:
    """The message as sent, its decision id's game token left out (each game has its own)."""
    return re.sub(r'"[0-9a-f]{12}/', '"/', json.dumps(message, default=str))


@pytest.mark.parametrize("ruleset, players", [("original", 3), ("marine", 3)])
def test_every_screen_is_the_one_drawn_here_and_the_worker_sees_only_each_pages_view(drawer, ruleset, players,
                                                                                      monkeypatch):
    here, there = Table(agent_delay=0.0), Table(agent_delay=0.0, drawer=drawer)
    games = [TableGame.new(ruleset, ruleset, players, ["human"] * players, seed=5) for n in range(2)]
    for table, session in zip((here, there), games):
        table.sessions[session.ident] = session
    ready(drawer, games[1])
    sent = []   # (seat, the state the worker was sent)
    submit = drawer.pool.submit
    monkeypatch.setattr(drawer.pool, "submit", lambda function, *args: (
        sent.append((args[4], args[3])) if function is _draw else None, submit(function, *args))[1])
    pick, before = random.Random(5), drawer.drawn
    for _ in range(25):
        for seat in [*range(players), None]:
            alone = here.screen(games[0], seat, "en", None)
            shared = there.screen(games[1], seat, "en", None)
            assert text(shared) == text(alone), (ruleset, seat)
        game = games[1].game
        assert sent
        for seat, state in sent:
            view = game.view(seat) if seat is not None else public_view(game)
            assert state == {**view, "log": []}   # the view, without its log (drawn beside the picture)
        sent.clear()
        if game.is_over:
            break
        index = pick.randrange(len(game.legal_actions()))
        for session in games:
            session.game.apply(session.game.legal_actions()[index])
    assert drawer.drawn > before and not drawer.failed


def test_a_worker_of_several_that_has_not_loaded_the_rules_loads_them_to_draw(monkeypatch):
    # the server checks the rules in one worker process (Drawer.ready); another of the pool
    # is sent a body to draw all the same: it loads them first, and refuses other rules
    from speciation.table import drawer as module
    monkeypatch.setattr(module, "_rulesets", {})   # (this process stands for the worker that has none)
    session = TableGame.new("fresh", "original", 3, ["human"] * 3, seed=2)
    game = session.game
    body = _draw("fresh", session.recipe, game.ruleset.digest, {**game.view(0), "log": []}, 0, None, False)
    assert body is not None and module._rulesets[session.recipe].digest == game.ruleset.digest
    with pytest.raises(RuntimeError, match="not the server's"):
        _draw("fresh", session.recipe, "another digest", {**game.view(0), "log": []}, 0, None, False)


def test_rules_the_worker_cannot_load_by_name_are_drawn_here(drawer, tmp_path):
    # a built-in ruleset, with or without variants, is loaded by name there; with a mod it is not
    assert TableGame.new("plain", "original", 3, ["human"] * 3, seed=2).recipe == ("original", ())
    assert TableGame.new("variant", "original", 3, ["human"] * 3, seed=2,
                         variants=[VARIANT]).recipe == ("original", (VARIANT,))
    assert TableGame.new("modded", "original", 3, ["human"] * 3, seed=2, mods=[str(MOD)]).recipe is None
    session = TableGame.new("resumed", "original", 3, ["human"] * 3, seed=2)
    session.recipe = None   # as a game from a save, a folder or with mods
    table = Table(agent_delay=0.0, drawer=drawer)
    table.sessions[session.ident] = session
    before = drawer.drawn
    assert table.screen(session, 0, "en", None)["svg"].startswith("<svg")
    assert drawer.drawn == before


def test_a_worker_that_dies_leaves_the_pictures_to_the_server():
    drawer = Drawer(1)
    try:
        session = TableGame.new("killed", "original", 3, ["human"] * 3, seed=4)
        table = Table(agent_delay=0.0, drawer=drawer)
        table.sessions[session.ident] = session
        ready(drawer, session)
        for process in list(drawer.pool._processes.values()):
            os.kill(process.pid, signal.SIGKILL)
            process.join(10)
        alone = Table(agent_delay=0.0)
        other = TableGame.new("killed", "original", 3, ["human"] * 3, seed=4)
        alone.sessions[other.ident] = other
        assert text(table.screen(session, 1, "en", None)) == text(alone.screen(other, 1, "en", None))
        assert drawer.failed and drawer.remote(session) is None
    finally:
        drawer.close()


@pytest.mark.parametrize("cpus, worker", [(1, False), (2, True), (8, True)])
def test_speciation_serve_draws_in_a_worker_where_there_is_a_cpu_for_it(monkeypatch, capsys, cpus, worker):
    import uvicorn

    from speciation.cli import main
    from speciation.commands import serve
    served = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *args, **kwargs: served.append(self.config.app.state.table))
    monkeypatch.setattr(serve, "_announce", lambda *args: None)
    monkeypatch.setattr(os, "cpu_count", lambda: cpus)
    base = ["serve", "--memory", "--no-browser", "--port", "0"]
    assert main(base) == 0   # by default (auto): one worker if the machine has a second CPU, else none
    assert (served[-1].drawer is not None) is worker and (served[-1].thinker is not None) is worker
    if worker:   # the agents think in a worker of their own, never the drawing worker
        assert served[-1].thinking is not served[-1].drawer and served[-1].thinking.processes == 1
    if worker:
        assert isinstance(served[-1].drawer, Drawer) and served[-1].drawer.processes == 1
        assert served[-1].drawer.pool is None   # the worker is made when first needed
    assert main([*base, "--draw-processes", "0"]) == 0 and served[-1].drawer is None   # the server draws
    assert main([*base, "--draw-processes", "2"]) == 0 and served[-1].drawer.processes == 2
    assert main([*base, "--draw-processes", "-1"]) == 2 and "0 or more" in capsys.readouterr().err
    assert main([*base, "--draw-processes", "many"]) == 2 and "0 or more" in capsys.readouterr().err
    assert main([*base, "--agent-processes", "0"]) == 0 and served[-1].thinker is None   # the agents: in the server
    assert main([*base, "--agent-processes", "2"]) == 0 and served[-1].thinker.drawer is served[-1].thinking
    assert served[-1].thinking.processes == 2
    assert main([*base, "--agent-processes", "-1"]) == 2 and "0 or more" in capsys.readouterr().err
