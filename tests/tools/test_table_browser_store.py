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

from support.table_support import SCREENSHOTS, RunningTable, need_table_extra

need_table_extra()
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need Playwright: bash scripts/setup")
pytest.importorskip("sqlalchemy", reason="the table's database needs the 'table' extra: bash scripts/setup")

from speciation.table.store import Store, database_url  # noqa: E402

WAIT = 30_000  # ms


class Person:
    def __init__(self, browser):
        self.context = browser.new_context(viewport={"width": 1280, "height": 720})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def received(self) -> int:
        return int(self.page.evaluate("Number(document.body.dataset.received || 0)"))

    def phase(self) -> str:
        return self.page.evaluate("document.body.dataset.phase || ''")

    def decision(self) -> str:
        return self.page.evaluate("state && state.decision ? state.decision.split('/')[1] : ''")

    def wait(self, after: int) -> None:
        self.page.wait_for_function(
            f"Number(document.body.dataset.received || 0) > {after} && "
            "['yours', 'waiting', 'over'].includes(document.body.dataset.phase)", timeout=WAIT)

    def shoot(self, name: str) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SCREENSHOTS / f"table-{name}.png"), full_page=True)

    def close(self) -> None:
        self.context.close()
        assert not self.errors, f"the page's script failed: {self.errors}"


def play(people: list[Person], running: RunningTable, ident: str, decisions: int) -> None:
    """Whoever's turn it is clicks their first option, until *decisions* more are made."""
    start = len(running.table.sessions[ident].decisions)
    for _ in range(200):
        if len(running.table.sessions[ident].decisions) >= start + decisions:
            return
        for person in people:
            if person.phase() == "yours":
                before = person.received()
                person.page.locator("#options button.option").first.click()
                person.wait(before)
                break
        else:
            people[0].page.wait_for_timeout(100)
    raise AssertionError("the people could not play")


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
        people[0].shoot("restart-disconnected")
        received = [person.received() for person in people]
        running = RunningTable(port=port, store=Store(database_url(data=tmp_path)))   # nothing but the database
        for person, before in zip(people, received):
            person.wait(before)                          # reconnected by itself
            person.page.wait_for_selector("body[data-connected='1']", timeout=WAIT)
        assert running.table.sessions[ident].game.digest() == digest
        assert [person.decision() for person in people] == shown
        assert [person.phase() for person in people] == phases
        people[0].shoot("restart-reconnected")
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
        people[turn].shoot("lobby-your-turn")
        home.locator(f"#open-games tr[data-game='{listed}'] button").click()   # join it: a seat of one's own
        home.wait_for_url(f"**/play/{listed}#t=*", timeout=WAIT)
        home.wait_for_function("document.body.dataset.phase", timeout=WAIT)
        assert "Player" in home.locator("#seat-name").inner_text()
    finally:
        for person in people:
            person.close()
        running.stop()
