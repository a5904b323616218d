"""A table that survives a restart, in a real browser (Playwright driving the system's
Chromium; issue 21): two browser contexts, two people, play a Marine game by their invite
links on a server keeping its games in SQLite; the server is stopped and started again
mid-game (a new Table: nothing but the database); both pages reconnect by themselves
(static/reconnect.js), show the same position as before, and the game goes on. Then the
new-game page's lobby lists the game under "your games" and says whose turn it is, in the
page's title too. Screenshots go to build/screenshots/.

Skips, saying why, without the ``table`` extra or Chromium."""
from __future__ import annotations

import json
import urllib.request

import pytest

from support.browser_people import WAIT, Person, play_first_options
from support.table_support import RunningTable, need_table_extra

need_table_extra()
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need Playwright: bash scripts/setup")
pytest.importorskip("sqlalchemy", reason="the table's database needs the 'table' extra: bash scripts/setup")

from speciation.table.store import Store, database_url  # noqa: E402

def play(people: list[Person], running: RunningTable, ident: str, decisions: int) -> None:
    """Whoever's turn it is clicks their first option, until *decisions* more are made (the
    table's session is read anew each time: a restarted server has a new one)."""
    play_first_options(people, lambda: len(running.table.sessions[ident].decisions), decisions)


def test_a_restarted_server_and_its_pages_go_on_from_the_same_position(browser, tmp_path):
    running = RunningTable(store=Store(database_url(data=tmp_path)))
    port = int(running.url.rsplit(":", 1)[1])
    people = [Person(browser), Person(browser)]
    try:
        body = json.dumps({"ruleset": "marine", "players": 2, "seats": ["human", "human"], "hotseat": False})
        request = urllib.request.Request(running.url + "/api/games", data=body.encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            links = json.loads(response.read())
        ident = links["game"]
        for person, invite in zip(people, links["invites"]):
            person.page.goto(running.url + invite["url"])
            person.wait(0)
        play(people, running, ident, 4)
        digest = running.table.sessions[ident].game.digest()
        shown = [person.decision() for person in people]
        phases = [person.phase() for person in people]
        running.stop()                                   # the server goes away mid-game
        for person in people:
            person.page.wait_for_selector("body[data-connected='0']", timeout=WAIT)
        people[0].shoot("restart-disconnected", full_page=True)
        received = [person.received() for person in people]
        running = RunningTable(port=port, store=Store(database_url(data=tmp_path)))   # nothing but the database
        for person, before in zip(people, received):
            person.wait(before)                          # reconnected by itself
            person.page.wait_for_selector("body[data-connected='1']", timeout=WAIT)
        assert running.table.sessions[ident].game.digest() == digest
        assert [person.decision() for person in people] == shown
        assert [person.phase() for person in people] == phases
        people[0].shoot("restart-reconnected", full_page=True)
        play(people, running, ident, 3)                  # and the game goes on
        # the lobby: this browser's games and whose turn it is, and an open game to join
        body = json.dumps({"ruleset": "original", "players": 3, "seats": ["human", "human", "greedy"],
                           "listed": True})
        request = urllib.request.Request(running.url + "/api/games", data=body.encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            listed = json.loads(response.read())["game"]
        turn = running.table.sessions[ident].game.current_player
        home = people[turn].page
        home.goto(running.url + "/")
        home.wait_for_selector("body[data-lobby='1']", timeout=WAIT)
        row = home.locator(f"#mine tr[data-game='{ident}']")
        assert "your turn" in row.inner_text()
        assert home.title().startswith("(1) your turn")
        assert home.locator(f"#open-games tr[data-game='{listed}']").count() == 1
        people[turn].shoot("lobby-your-turn", full_page=True)
        home.locator(f"#open-games tr[data-game='{listed}'] button").click()   # join it: a seat of one's own
        home.wait_for_url(f"**/play/{listed}#t=*", timeout=WAIT)
        home.wait_for_function("document.body.dataset.phase", timeout=WAIT)
        assert "Player" in home.locator("#seat-name").inner_text()
    finally:
        for person in people:
            person.close()
        running.stop()
