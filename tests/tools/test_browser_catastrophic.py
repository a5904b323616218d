"""Catastrophic at the table, in a real browser (Playwright driving the system's Chromium;
issue 22): a three-player game, a person in seat 1 and two random agents. Another player
has answered an Event or an Interaction with an Interaction (on the stack); the person is
asked whether to answer it, sees the prompt naming what it answers and the stack drawn, and
answers by clicking the card in its hand. The answer goes on the stack and resolves first
(last in, first out): the rulebook's "Reactions" (CAT-RB Interaction Cards).

A person also clicks *hold priority off* (issue 22) and is not asked again in a window until
the rules say (its turn, an Event on its community, a card answering one of its cards),
read from the page.

Screenshots at 1280×720 and 375×812 of the community pyramid, of the response prompt and of
the hold go to ``docs/screenshots/catastrophic-*.png``. Skips, saying why, without the ``table`` extra,
Playwright or Chromium.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.browser_people import WAIT, Person
from support.catastrophic_positions import ANSWER, play_to_a_response, play_to_a_window
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


def a_game_at(play_to, name: str) -> tuple[TableGame, object]:
    """A table game (person, random, random) played by *play_to* (from
    support/catastrophic_positions.py) to the position it looks for, with the option it found;
    the first seed from 2 that leads there."""
    for seed in range(2, 40):
        session = TableGame.new(f"{name}-{seed}", "catastrophic", 3, ["human", "random", "random"], seed=seed,
                                hotseat=False)

        def apply(seat, action, session=session):
            assert session._apply(seat, action) is None
        option = play_to(session.game, apply, seed)
        if option is not None:
            return session, option
    raise AssertionError(f"no seed led to the position {play_to.__name__} looks for")


def a_game_at_a_response() -> tuple[TableGame, object]:
    """The person is asked to answer a stacked Interaction and holds Cheating ("cancel what it
    answers")."""
    return a_game_at(play_to_a_response, "cat")


def at_the_window(running, session: TableGame, person: Person, phone: Person) -> str:
    """Open the first seat's page at 1280 and on the phone; it is the person's decision, a
    window's question: its prompt."""
    url = running.seat_url(session, 0)
    for someone in (person, phone):
        someone.page.goto(url)
        someone.wait(0)
    assert person.phase() == "yours"
    prompt = person.page.locator("#prompt").inner_text()
    assert ANSWER in prompt
    return prompt


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
    person, phone = Person(browser), Person(browser, "375")
    try:
        prompt = at_the_window(running, session, person, phone)
        page = person.page
        # The prompt names what is answered; the stack is drawn; the card in hand is clickable.
        assert answered_name in prompt
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


def a_game_at_a_window() -> tuple[TableGame, object]:
    """The person is asked in a response window on the third player's turn (the second player
    is still to be asked after it)."""
    return a_game_at(play_to_a_window, "hold")


def states(person: Person, start: int) -> list[dict]:
    """The state messages the page's websocket received since frame *start*."""
    found = []
    for frame in person.frames[start:]:
        message = json.loads(frame) if isinstance(frame, str) else None
        if message and message.get("type") == "state":
            found.append(message)
    return found


def test_a_person_holds_priority_off_and_is_not_asked_again_until_the_rules_say(browser, running):
    """Issue 22: *hold priority off* clicked at the table. The rules (responses.hold,
    docs/catastrophic.md): a held player is not asked again in a window until an Event is
    played on their community or a card answers one of theirs (then they are asked, and the
    hold ends), and the hold ends as their turn begins. Read from the page: the choice in the
    log for everyone, the others asked in windows while the person is not, and the first time
    it is asked again, one of those reasons in the page's log."""
    session, hold = a_game_at_a_window()
    label = str(hold.value)
    person, phone = Person(browser), Person(browser, "375")
    try:
        prompt = at_the_window(running, session, person, phone)
        page = person.page
        answered = prompt.split(ANSWER, 1)[1].strip().rstrip("?").strip()
        labels = page.locator("#options button.option").all_inner_texts()
        assert any(label in text for text in labels) and any("pass" in text for text in labels)
        shoot(person, "hold-1280")
        phone.page.locator("#options button.option", has_text=label).scroll_into_view_if_needed()
        shoot(phone, "hold-375")
        phone.close()

        start = len(person.frames)
        before = person.received()
        page.locator("#options button.option", has_text=label).click()
        person.wait(before)
        held = f"Player 1: play an Interaction in answer to {answered}? → {label}"
        page.wait_for_function(f"document.getElementById('log').innerText.includes({json.dumps(held)})",
                               timeout=WAIT)
        # The others are asked in this window (the second player after the person), the person
        # not (asserted below from every screen the page was sent: the page may have moved on).
        asked = f"state && !state.yours && (state.prompt || '').includes({json.dumps(ANSWER)})"
        if page.evaluate(asked):
            shoot(person, "held-1280")

        # The agents play on; the person answers what it is asked outside windows (its first
        # option), until it is asked in a window again or its turn begins.
        reason = None
        for _ in range(80):
            page.wait_for_function("['yours', 'over'].includes(document.body.dataset.phase)", timeout=WAIT * 4)
            assert person.phase() == "yours", "the game ended before the hold did"
            state = page.evaluate("state")
            lines = [(line if isinstance(line, str) else line[1]).strip() for line in state["log"]]
            since = lines[max(i for i, line in enumerate(lines) if line == held) + 1:]
            if "== Player 1's turn ==" in since:
                before_turn = since[:since.index("== Player 1's turn ==")]
                # an Event on its community before then would have asked it (unless cancelled first)
                aimed = [line.split(" plays ", 1)[1].split(" on Player 1's community")[0] for line in before_turn
                         if line.endswith(" on Player 1's community")]
                assert all(f"{event} is cancelled" in before_turn or f"{event} is countered" in before_turn
                           for event in aimed), before_turn
                reason = "its turn began"
                break
            if ANSWER in state["prompt"]:
                top = state["prompt"].split(ANSWER, 1)[1].strip().rstrip("?").strip()
                aimed = any(line.endswith(f"plays {top} on Player 1's community") for line in since)
                mine = [line.split(" plays ", 1)[1].split(" in answer to")[0] for line in since
                        if line.startswith("Player 1 plays ")]
                answers_mine = any(line.endswith(f"plays {top} in answer to {card}") for card in mine
                                   for line in since)
                assert aimed or answers_mine, f"asked in a window on {top!r} while holding: {since[-8:]}"
                reason = "an Event on its community" if aimed else "a card answering one of its cards"
                break
            before = person.received()
            page.locator("#options button.option").first.click()
            person.wait(before)
        assert reason is not None
        shoot(person, "hold-ended-1280")
        asked_others = {(m["decider"], m["prompt"]) for m in states(person, start)
                        if not m["yours"] and ANSWER in (m.get("prompt") or "")}
        assert asked_others, "the others were asked in windows while the person held priority off"
    finally:
        person.close()
        if not phone.page.is_closed():
            phone.close()
