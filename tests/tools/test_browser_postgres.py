"""Issue 21's test with PostgreSQL, in a browser: two ``speciation serve`` processes on one
PostgreSQL database serve one game to two people, each in a Chromium context of their own.

The game is made through the first process (two people, not hot-seat); Alice (1280×720)
opens her invite link on the first process, Bob (a 375×812 phone) his on the second. Each
plays as a person does: a click on the drawn thing an option names (a hex, a corner, an
action space) when it is the only option naming it, else on the option's button. After
every click the other person's page, on the other process, shows the same decision and the
log line the move wrote (the move reached it through the database's notifications); the
people take several decisions each. Screenshots ``docs/screenshots/postgres-*.png``.

Starts a real PostgreSQL (tests/support/postgres.py); skips, saying why, without it, the
``table`` extra, Playwright or Chromium.
"""
from __future__ import annotations

import pytest

from support.browser_people import WAIT, Person
from support.postgres import Serve, running_postgres
from support.table_support import SCREENSHOTS, need_table_extra

need_table_extra()
pytest.importorskip("psycopg", reason="PostgreSQL needs the 'table' extra (psycopg): bash scripts/setup")
pytest.importorskip("playwright.sync_api", reason="browser tests need Playwright: bash scripts/setup")

SHOTS = SCREENSHOTS.parents[1] / "docs" / "screenshots"
EACH = 4        # decisions each person takes, at least
LIMIT = 40      # decisions at most (the original's turn order may give one person several in a row)


@pytest.fixture(scope="module")
def servers():
    with running_postgres() as database:
        one = Serve(database)
        try:
            two = Serve(database)
        except BaseException:
            one.stop()
            raise
        try:
            yield one, two
        finally:
            one.stop()
            two.stop()


def number(person: Person) -> int:
    """The number of the decision the page shows (ids differ between processes, numbers not)."""
    return int(person.decision() or -1)


def click_an_option(person: Person) -> bool:
    """Choose as a person does: the first option that alone names a drawn thing is clicked on
    the board, else the first option's button. Whether the board was clicked."""
    options = person.page.evaluate("state.options")
    named: dict[str, int] = {}
    for option in options:
        for entity in option["entities"]:
            named[entity] = named.get(entity, 0) + 1
    before = person.received()
    for option in options:
        alone = [e for e in option["entities"] if named[e] == 1]
        drawn = [e for e in alone if person.page.locator(f"#board [data-entity='{e}'].choosable").count()]
        if drawn:
            person.click_drawn(drawn[0])
            return True
    person.page.locator("#options button.option").first.click()
    person.wait(before)
    return False


def test_two_server_processes_serve_one_game_to_two_people_in_a_browser(browser, servers):
    one, two = servers
    links = one.post("/api/games", {"ruleset": "original", "players": 2, "seats": ["human", "human"],
                                    "hotseat": False})
    invites = {i["seat"]: i["url"] for i in links["invites"]}
    alice, bob = Person(browser), Person(browser, "375")
    try:
        alice.page.goto(one.url + invites[0])
        bob.page.goto(two.url + invites[1])
        people, servers_of = [alice, bob], {id(alice): one.url, id(bob): two.url}
        for person in people:
            person.wait(0)
            assert person.page.url.startswith(servers_of[id(person)])
        assert "Player 1" in alice.page.locator("#seat-name").inner_text()
        assert "Player 2" in bob.page.locator("#seat-name").inner_text()
        bob.page.wait_for_function(f"state && state.decision && state.decision.split('/')[1] == {number(alice)}",
                                   timeout=WAIT)
        made = [0, 0]
        on_board = 0
        for _ in range(LIMIT):
            if min(made) >= EACH:
                break
            movers = [p for p in people if p.phase() == "yours"]
            assert len(movers) == 1, [p.phase() for p in people]   # one person decides, the other waits
            mover = movers[0]
            other = people[1 - people.index(mover)]
            assert other.phase() == "waiting"
            start = number(mover)
            assert number(other) == start
            on_board += click_an_option(mover)
            mover.page.wait_for_function(
                f"state && (state.over || Number(state.decision.split('/')[1]) > {start})", timeout=WAIT)
            made[people.index(mover)] += 1
            now = number(mover)
            # heard through the other process: the same decision, and the log line of the move
            other.page.wait_for_function(
                f"state && (state.over || Number(state.decision.split('/')[1]) === {now})", timeout=WAIT)
            mine, theirs = (p.page.evaluate("state.log") for p in (mover, other))
            assert mine and mine[-1] in theirs, (mine[-3:], theirs[-3:])
            assert mine[-1].strip() in other.page.locator("#log").inner_text()
            for person in people:
                person.page.wait_for_function("['yours', 'waiting'].includes(document.body.dataset.phase)",
                                              timeout=WAIT)
        assert min(made) >= EACH, f"each person decides several times: {made}"
        assert on_board, "some choices are made by clicking the board"
        SHOTS.mkdir(parents=True, exist_ok=True)
        for person, name in ((alice, "alice-1280"), (bob, "bob-375")):
            person.page.mouse.move(1, 1)   # no hover text left over the picture by the last click
            person.page.screenshot(path=str(SHOTS / f"postgres-{name}.png"))
    finally:
        for person in (alice, bob):
            person.close()
