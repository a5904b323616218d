"""The table shared by people on different devices, in a real browser (Playwright driving
the system's Chromium; issue 21): the creator starts a game on the new-game page and gets
invite links; two browser contexts, two people, each join by their link and play; a third
context spectates and never sees a secret (Marine's secretly kept traits); ``?seat=N``
without a token is a spectator; a double click makes one decision. Screenshots at 1280×720
and 375×812 go to ``build/screenshots/``.

Skips, saying why, without the ``table`` extra or Chromium.
"""
from __future__ import annotations

import json

import pytest

from support.browser_people import WAIT, Person, play_first_options, secrets_of
from support.table_support import need_table_extra

need_table_extra()
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need Playwright: bash scripts/setup")


def create_shared_game(person: Person, running) -> dict:
    """The creator fills the new-game page (Marine, two people on their own devices, one
    agent) and reads the links it shows."""
    page = person.page
    page.goto(running.url + "/")
    page.wait_for_selector("body[data-ready='1']", timeout=WAIT)
    page.select_option("#ruleset", "marine")
    page.fill("#players", "3")
    page.dispatch_event("#players", "change")
    for seat, kind in enumerate(["human", "human", "random"]):
        page.select_option(f"#seats select[data-seat='{seat}']", kind)
    page.uncheck("#hotseat")
    page.click("#start")
    page.wait_for_selector("body[data-links='1']", timeout=WAIT)
    person.shoot("invite-links")
    links = page.locator("#link-list input").evaluate_all("nodes => nodes.map(n => n.value)")
    assert len(links) == 4 and all(running.url in link for link in links)
    return {"creator": links[0], "spectator": links[1], "seats": links[2:]}


def play_some(people: list[Person], session, decisions: int) -> None:
    """The people whose turn it is click their first option, until *decisions* are made."""
    play_first_options(people, lambda: len(session.decisions), decisions, lambda: session.game.is_over)


def test_two_people_join_by_invite_and_a_spectator_sees_no_secret(browser, running):
    creator, alice, bob = Person(browser), Person(browser), Person(browser, "375")
    watcher, curious = Person(browser), Person(browser, "375")
    try:
        links = create_shared_game(creator, running)
        ident = links["spectator"].rsplit("/", 1)[1]
        session = running.table.sessions[ident]
        for person, link in ((alice, links["seats"][0]), (bob, links["seats"][1]), (watcher, links["spectator"]),
                             (curious, links["spectator"] + "?seat=1")):
            person.page.goto(link)
            person.wait(0)
        assert "Player 1" in alice.page.locator("#seat-name").inner_text()
        assert "Player 2" in bob.page.locator("#seat-name").inner_text()
        for spectator in (watcher, curious):  # ?seat=N without a token: a spectator all the same
            assert spectator.page.locator("#seat-name").inner_text() == "watching (a spectator)"
            assert spectator.page.locator("#options button").count() == 0
        # Marine's setup: each keeps a trait secretly (revealed once all have): a spectator sees
        # none of the traits dealt or kept, at the start and after the first keeps one.
        for decisions in (0, 1):
            play_some([alice, bob], session, decisions)
            watcher.page.wait_for_timeout(500)
            hidden = secrets_of(session, 0) | secrets_of(session, 1)
            assert hidden, "Marine's dealt traits are secret: the test must have something to look for"
            for spectator in (watcher, curious):
                text = spectator.page.inner_text("body")
                states = [json.loads(f) for f in spectator.frames if isinstance(f, str) and '"type": "state"' in f]
                assert states and all(m["seat"] is None and not m["options"] for m in states)
                words = "\n".join([text] + [json.dumps({**m, "svg": ""}) for m in states])
                for label in hidden:
                    assert label not in words, f"a spectator saw the secret {label!r}"
            if decisions == 0:
                for person, name in ((alice, "seat-1280"), (bob, "seat-375"), (watcher, "spectator-1280"),
                                     (curious, "spectator-375")):
                    person.shoot(name)
        play_some([alice, bob], session, 5)
        creator.page.goto(links["creator"])
        creator.wait(0)
        assert creator.page.locator("#creator").is_visible()
        assert creator.page.locator("#invites .invite[data-seat]").count() == 2
        creator.shoot("creator-1280")
    finally:
        for person in (creator, alice, bob, watcher, curious):
            person.close()


def test_a_double_click_makes_one_decision(browser, running):
    from speciation.table.session import TableGame
    session = TableGame.new("double", "original", 2, ["human", "human"], seed=12, hotseat=False)
    people = [Person(browser), Person(browser)]
    try:
        for seat, person in enumerate(people):
            person.page.goto(running.seat_url(session, seat))
            person.wait(0)
        # Two choices sent at once for one decision (as a fast double click would, past the
        # page's own guard): the second is refused, with a message, and changes nothing.
        person = people[session.decider]
        made, before = len(session.decisions), person.received()
        person.page.evaluate("() => { const d = state.decision; choose(0); state.decision = d; choose(1); }")
        person.page.wait_for_selector("#toast:not([hidden])", timeout=WAIT)
        assert "already taken" in person.page.locator("#toast").inner_text()
        person.wait(before)
        assert len(session.decisions) == made + 1 and session.decisions[-1][1] is not None
        # A double click on an option button: one decision.
        person = people[session.decider]
        person.wait(0, ("yours",))
        made, before = len(session.decisions), person.received()
        person.page.locator("#options button.option").first.dblclick()
        person.wait(before)
        person.page.wait_for_timeout(500)
        assert len(session.decisions) == made + 1
    finally:
        for person in people:
            person.close()
