"""Catastrophic at the table, in a real browser (Playwright driving the system's Chromium;
issue 22): a three-player game, a person in seat 1 and two random agents. Another player
has answered an Event or an Interaction with an Interaction (on the stack); the person is
asked whether to answer it, sees the prompt naming what it answers and the stack drawn, and
answers by clicking the card in its hand. The answer goes on the stack and resolves first
(last in, first out): the rulebook's "Reactions" (CAT-RB Interaction Cards).

Screenshots at 1280×720 and 375×812 of the community pyramid and of the response prompt go
to ``docs/screenshots/catastrophic-*.png``. Skips, saying why, without the ``table`` extra,
Playwright or Chromium.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from support.browser_people import WAIT, Person
from support.catastrophic_positions import ANSWER, play_to_a_response
from support.table_support import RunningTable, need_table_extra

need_table_extra()
pytest.importorskip("playwright.sync_api", reason="browser tests need Playwright: bash scripts/setup")

from speciation.table.session import TableGame  # noqa: E402

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture(scope="module")
def running():
    """The table with agents that take a moment per decision, as a person sees them: the
    page shows the stack with the person's answer on it before the agents pass."""
    server = RunningTable(agent_delay=0.6)
    yield server
    server.stop()


def a_game_at_a_response() -> tuple[TableGame, object]:
    """A table game (person, random, random) whose person is asked to answer a stacked
    Interaction and holds Cheating ("cancel what it answers")."""
    for seed in range(2, 40):
        session = TableGame.new(f"cat-{seed}", "catastrophic", 3, ["human", "random", "random"], seed=seed,
                                hotseat=False)

        def apply(seat, action, session=session):
            assert session._apply(seat, action) is None
        option = play_to_a_response(session.game, apply, seed)
        if option is not None:
            return session, option
    raise AssertionError("no seed led to a response window with Cheating in the first player's hand")


def shoot(person: Person, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    person.page.mouse.move(1, 1)  # no hover text left over the picture by the last click
    person.page.screenshot(path=str(SHOTS / f"catastrophic-{name}.png"))


def show(person: Person, entity: str, zoom: int = 0) -> None:
    """Zoom in *zoom* steps (as a person on a phone does) and scroll the board so that the
    drawn *entity* is in view (the page fits the picture's width; a tall picture scrolls)."""
    for _ in range(zoom):
        person.page.click("#zoom-in")
    person.page.locator(f'#board [data-entity="{entity}"]').first.scroll_into_view_if_needed()
    if zoom:  # the bands' left edge (names, level labels) in view
        person.page.evaluate("for (const n of [document.getElementById('board'), document.querySelector('.board-box')])"
                             " if (n) n.scrollLeft = 0")


def test_a_person_answers_a_reaction_by_clicking_the_card_in_hand(browser, running):
    session, option = a_game_at_a_response()
    game = session.game
    card, name = option.value, game.state["ent"][option.value]["name"]
    answered = game.state["ent"]["game"]["stack"][-1][0]
    answered_name = game.label(answered)
    url = running.seat_url(session, 0)
    person, phone = Person(browser), Person(browser, "375")
    try:
        for someone in (person, phone):
            someone.page.goto(url)
            someone.wait(0)
        page = person.page
        # The prompt names what is answered; the stack is drawn; the card in hand is clickable.
        assert person.phase() == "yours"
        prompt = page.locator("#prompt").inner_text()
        assert ANSWER in prompt and answered_name in prompt
        board = page.locator("#board")
        assert board.locator(".stacked").count() == 1
        assert answered_name in (board.locator(".stacked").first.text_content() or "")
        hand_card = board.locator(f'[data-entity="{card}"].card')
        assert hand_card.count() == 1 and "choosable" in (hand_card.get_attribute("class") or "")
        labels = page.locator("#options button.option").all_inner_texts()
        assert any(name in label for label in labels) and any("pass" in label for label in labels)
        # the other players' hands are card backs: none of their cards is named on this page
        others = [c for p in game.state["players"][1:] for c in game.state["ent"][p]["hand"]]
        assert others and not any(board.locator(f'[data-entity="{c}"]').count() for c in others)
        species = [r["id"] for r in game.state["ent"].values()
                   if r.get("kind") == "species" and r["owner"] == "p1" and not r["extinct"]]
        assert species and all(board.locator(f'[data-entity="{s}"]').count() == 1 for s in species)
        shoot(person, "respond-1280")
        show(phone, card, zoom=3)
        shoot(phone, "respond-375")
        show(person, species[0], zoom=2)
        shoot(person, "community-1280")
        page.click("#zoom-fit")
        show(phone, species[0])
        shoot(phone, "community-375")
        phone.close()

        # The person clicks the card in its hand: it goes on the stack above what it answers.
        log_before = len(game.state["log"])
        before = person.received()
        hand_card.click()
        person.wait(before)
        played = [line for line in game.state["log"][log_before:] if isinstance(line, str)]
        assert f"Player 1 plays {name} in answer to {answered_name}" in played
        # on the stack, on top of what it answers: drawn first (it resolves first)
        stacked = board.locator(".stacked")
        assert stacked.count() == 2
        assert f"1. {name}" in (stacked.nth(0).text_content() or "")
        assert f"answering {answered_name}" in (stacked.nth(0).text_content() or "")
        assert f"2. {answered_name}" in (stacked.nth(1).text_content() or "")
        shoot(person, "stacked-1280")
        # The agents (and the person, passing) are asked until the window closes.
        for _ in range(60):
            if not any(entry[0] == answered or entry[0] == card for entry in game.state["ent"]["game"]["stack"]) \
                    and "yours" != person.phase():
                break
            if person.phase() == "yours" and ANSWER in page.locator("#prompt").inner_text():
                before = person.received()
                page.locator("#options button.option", has_text="pass").first.click()
                person.wait(before)
            else:
                page.wait_for_timeout(100)
        lines = [line for line in game.state["log"][log_before:] if isinstance(line, str)]
        mine = lines.index(f"Player 1's {name} resolves")
        # last in, first out: the person's answer resolved first, and cancelled what it answered
        assert f"{answered_name} is countered" in lines[mine:]
        # (what it answers may be another copy of the same card: the person's own line aside)
        assert not any(line.endswith(f"{answered_name} resolves") for line in lines[:mine])
        assert not any(line.endswith(f"{answered_name} resolves") for line in lines if line != lines[mine])
        page.wait_for_function("document.body.dataset.phase !== 'sent'", timeout=WAIT)
        assert "is countered" in page.locator("#log").inner_text()
    finally:
        person.close()
        if not phone.page.is_closed():
            phone.close()
