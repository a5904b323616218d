"""Issue 21's test as written: people on their own devices play a game of each edition.

Five browser contexts (Playwright driving the system's Chromium): the creator fills the
new-game page (two people, not hot-seat) and reads the invite links; Alice (1280×720) and Bob
(a 375×812 phone) each open their own link and play by clicking; a spectator opens the
spectator link, another the spectator link with ``?seat=2`` and no token (a spectator all
the same). After every decision the spectators' pages are read as text (and the board's
drawing for entity ids): no seat's secret (Marine's dealt and kept traits) and nothing in a
face-down stack ever appears, nor the game's seed. A double click on an option makes one
decision. The game is played to its end: the first decisions and the last ones by clicks,
those between by random moves on the server (the pages are opened again after them; a whole
game by clicks would take minutes). Marine is played with its ``short`` variant.
Screenshots ``build/screenshots/people-*.png`` at 1280×720 and 375×812.

Skips, saying why, without the ``table`` extra or Chromium.
"""
from __future__ import annotations

import json
import random

import pytest

from support.browser_people import WAIT, Person, hidden_ids, play_first_options, secrets_of
from support.table_support import need_table_extra

need_table_extra()
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need Playwright: bash scripts/setup")

EDITIONS = [("original", []), ("marine", ["short"])]
FIRST, LAST = 12, 10   # decisions clicked at the start and at the end


def start(creator: Person, running, ruleset: str, variants: list[str]) -> dict:
    """The creator's new-game page: two people on their own devices; the links it shows."""
    page = creator.page
    page.goto(running.url + "/")
    page.wait_for_selector("body[data-ready='1']", timeout=WAIT)
    page.select_option("#ruleset", ruleset)
    for variant in variants:
        page.check(f"#variants input[value='{variant}']")
    page.fill("#players", "2")
    page.dispatch_event("#players", "change")
    for seat in range(2):
        page.select_option(f"#seats select[data-seat='{seat}']", "human")
    page.uncheck("#hotseat")
    page.click("#start")
    page.wait_for_selector("body[data-links='1']", timeout=WAIT)
    links = page.locator("#link-list input").evaluate_all("nodes => nodes.map(n => n.value)")
    assert len(links) == 4
    return {"creator": links[0], "spectator": links[1], "seats": links[2:]}


def check_spectators(spectators: list[Person], players: list[Person], session, seed: int) -> int:
    """Nothing secret on a spectator's page; the seed on no page. Returns how many secret
    words were looked for."""
    game = session.game
    words = secrets_of(session, 0) | secrets_of(session, 1)
    ids = hidden_ids(game)
    for spectator in spectators:
        assert spectator.page.locator("#seat-name").inner_text() == "watching (a spectator)"
        assert spectator.page.locator("#options button").count() == 0
        text = spectator.text()
        for word in words:
            assert word not in text, f"a spectator saw the secret {word!r}"
        drawn = spectator.page.locator("#board").inner_html()
        for ident in ids:
            assert f'data-entity="{ident}"' not in drawn, f"a spectator's board drew the hidden {ident!r}"
    for person in spectators + players:
        assert str(seed) not in person.text() and str(seed) not in "".join(map(str, person.frames))
    return len(words) + len(ids)


@pytest.mark.parametrize("ruleset,variants", EDITIONS, ids=[e[0] for e in EDITIONS])
def test_two_people_play_a_game_by_invite_links_and_a_spectator_sees_no_secret(browser, running, ruleset, variants):
    creator, alice, bob = Person(browser), Person(browser), Person(browser, "375")
    watcher, curious = Person(browser), Person(browser, "375")
    everybody = [creator, alice, bob, watcher, curious]
    try:
        links = start(creator, running, ruleset, variants)
        ident = links["spectator"].rsplit("/", 1)[1]
        session = running.table.sessions[ident]
        seed = session.game.history["seed"] if session.game.history else None
        assert isinstance(seed, int) and seed > 1000, "a secret seed was drawn"
        players, spectators = [alice, bob], [watcher, curious]
        for person, link in ((alice, links["seats"][0]), (bob, links["seats"][1]), (watcher, links["spectator"]),
                             (curious, links["spectator"] + "?seat=2")):
            person.page.goto(link)
            person.wait(0)
        assert "Player 1" in alice.page.locator("#seat-name").inner_text()
        assert "Player 2" in bob.page.locator("#seat-name").inner_text()
        looked = check_spectators(spectators, players, session, seed)
        # What a spectator must not see is on its holder's page (so the check can fail).
        mine = secrets_of(session, 0)
        assert all(word in alice.text() for word in mine) and not any(word in bob.text() for word in mine)

        def made() -> int:
            return len(session.decisions)

        def clicked(decisions: int) -> int:
            """Click first options, one decision at a time, the spectators checked after each."""
            found = 0
            for _ in range(decisions):
                if session.game.is_over:
                    break
                play_first_options(players, made, 1, lambda: session.game.is_over)
                for spectator in spectators:
                    spectator.page.wait_for_function(
                        f"!state || !state.decision || state.decision.split('/')[1] >= {made()}", timeout=WAIT)
                found += check_spectators(spectators, players, session, seed)
            return found

        looked += clicked(FIRST // 2)
        for person, name in ((alice, "seat-1280"), (bob, "seat-375"), (watcher, "spectator-1280"),
                             (curious, "spectator-375")):
            person.shoot(f"{ruleset}-{name}", prefix="people-")
        # A double click on an option button: one decision.
        person = next(p for p in players if p.phase() == "yours")
        before, count = person.received(), made()
        person.page.locator("#options button.option").first.dblclick()
        person.wait(before)
        person.page.wait_for_timeout(400)
        assert made() == count + 1
        looked += clicked(FIRST // 2)
        if ruleset == "marine":
            assert looked, "Marine's dealt traits are secret: the test must have something to look for"

        # The middle of the game by random moves on the server, then the end by clicks.
        probe = session.game.clone()
        rng = random.Random(5)
        length = 0
        while not probe.is_over:
            probe.apply(rng.choice(probe.legal_actions()))
            length += 1
        steps = random.Random(5)
        for _ in range(max(0, length - LAST)):
            assert session._apply(session.game.current_player, steps.choice(session.game.legal_actions())) is None
        for person in players + spectators:
            person.reload()
        for _ in range(LAST):   # the probe's last moves (the same generator), clicked
            person = players[session.decider]
            pick = steps.randrange(len(session.game.legal_actions()))
            person.page.wait_for_function(f"state && state.yours && state.decision === '{session.game.decision_id}'",
                                          timeout=WAIT)
            before, count = person.received(), made()
            person.page.locator(f"#options button.option[data-index='{pick}']").click()
            person.wait(before)
            assert made() == count + 1
            for spectator in spectators:
                spectator.page.wait_for_function(
                    f"!state || !state.decision || state.decision.split('/')[1] >= {made()}", timeout=WAIT)
            check_spectators(spectators, players, session, seed)
        assert session.game.is_over
        for person in players + spectators:
            person.page.wait_for_function("document.body.dataset.phase === 'over'", timeout=WAIT)
            assert person.page.locator("#status").inner_text().startswith("Game over")
            assert person.page.locator("#end").is_visible()
        for person, name in ((alice, "end-1280"), (bob, "end-375"), (watcher, "spectator-end-1280")):
            person.shoot(f"{ruleset}-{name}", prefix="people-")
        states = [json.loads(f) for f in watcher.frames if isinstance(f, str) and '"type": "state"' in f]
        assert states and all(m["seat"] is None and not m["options"] for m in states)
    finally:
        for person in everybody:
            person.close()
