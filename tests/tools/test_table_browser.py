"""The table in a real browser (Playwright driving the system's Chromium), used as a person
would: start a game on the new-game page, choose by clicking the board (a tile, a corner,
an action space, a card) and through the buttons, undo, save, resume, replay, hot-seat,
and play both editions to the end against agents. Screenshots of the board go to
``build/screenshots/`` for a reviewer.

Skips, saying why, without the ``table`` extra (Playwright, Starlette, uvicorn) or Chromium.
"""
from __future__ import annotations

import json
import random

import pytest

from support.table_support import SCREENSHOTS, advance, need_table_extra

need_table_extra()
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need Playwright: bash scripts/setup")

from speciation.table.session import TableGame  # noqa: E402

WAIT = 30_000  # ms


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1440, "height": 980}, accept_downloads=True)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, f"the page's script failed: {errors}"


def received(page) -> int:
    return int(page.evaluate("Number(document.body.dataset.received || 0)"))


def settled(page, after: int) -> None:
    """Wait for a message after number *after* that leaves the page for a person to act
    (their decision, a hand-over, or the end)."""
    page.wait_for_function(
        f"Number(document.body.dataset.received || 0) > {after} && "
        "['yours', 'over', 'handover'].includes(document.body.dataset.phase)", timeout=WAIT)


def log_size(page) -> int:
    return page.locator("#log li").count()


def shoot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"table-{name}.png"), full_page=True)


def start_from_new_game_page(page, running, ruleset: str, seats: list[str], lang: str = "") -> None:
    page.goto(running.url + "/")
    page.wait_for_selector("body[data-ready='1']", timeout=WAIT)
    page.select_option("#ruleset", ruleset)
    page.fill("#players", str(len(seats)))
    page.dispatch_event("#players", "change")
    for seat, kind in enumerate(seats):
        page.select_option(f"#seats select[data-seat='{seat}']", kind)
    if lang:
        page.select_option("#lang", lang)
    page.click("#start")
    page.wait_for_url("**/play/*", timeout=WAIT)
    settled(page, 0)


# ---- the new-game page, buttons, undo --------------------------------------------------------

def test_start_a_game_choose_by_button_and_undo(page, running):
    page.goto(running.url + "/")
    page.wait_for_selector("body[data-ready='1']", timeout=WAIT)
    shoot(page, "new-game")
    start_from_new_game_page(page, running, "original", ["human", "random"])
    assert page.locator("#status").inner_text().startswith("Your decision")
    assert page.locator("#board svg").count() == 1
    prompt, lines = page.locator("#prompt").inner_text(), log_size(page)
    options = page.locator("#options button.option")
    assert options.count() > 3
    first = options.first.inner_text()
    before = received(page)
    options.first.click()
    settled(page, before)
    assert log_size(page) > lines
    assert any(first in line for line in page.locator("#log li").all_inner_texts())
    assert page.locator("#undo").is_enabled()
    before = received(page)
    page.click("#undo")
    settled(page, before)
    assert log_size(page) == lines and page.locator("#prompt").inner_text() == prompt
    assert not page.locator("#undo").is_enabled()
    shoot(page, "original")


# ---- clicking what an option names on the board -----------------------------------------------

# Every kind of entity the editions' decisions offer (counted over random games): Marine's
# turn places a pawn on a space (["basic", space]; "space+" is a special pawn and a space,
# clicked on the space), its setup keeps a trait card dealt to the seat (cards in its panel),
# Pack Hunters and Domination take a special pawn (its row), Wanderlust takes a stack's tile,
# Competition eliminates an animal (its panel).
BOARD_KINDS = [("original", "space"), ("original", "cell"), ("original", "corner"), ("original", "card"),
               ("marine", "space"), ("marine", "space+"), ("marine", "cell"), ("marine", "corner"),
               ("marine", "card"), ("marine", "stack"), ("marine", "faction"), ("marine", "special")]


def names(game, value) -> list[str]:
    """The entities an option's value names."""
    return [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str) and v in game.state["ent"]]


@pytest.mark.parametrize("ruleset,kind", BOARD_KINDS)
def test_choose_by_clicking_the_board(page, running, ruleset, kind):
    """Click an entity of *kind* that an option names (*kind*+: one named with another
    entity, a piece placed on it); a menu when several options name it."""
    session = TableGame.new(f"click-{ruleset}-{kind}", ruleset, 2, ["human", "human"], seed=4)
    together, kind = kind.endswith("+"), kind.rstrip("+")

    def wanted(game, value) -> list[str]:
        named = names(game, value)
        return [v for v in named if game.state["ent"][v]["kind"] == kind and (len(named) > 1 or not together)]

    advance(session, lambda game: any(wanted(game, a.value) for a in game.legal_actions()), random.Random(8))
    seat = session.decider
    url = running.seat_url(session, seat)  # the seat's invite link
    page.goto(url)
    settled(page, 0)
    offered = {v for a in session.game.legal_actions() for v in wanted(session.game, a.value)}
    entities = [e for e in page.evaluate(
        "[...document.querySelectorAll('#board [data-entity].choosable')].map(n => n.dataset.entity)")
        if e in offered]
    assert entities, f"no {kind} of the options is clickable on the board"
    entity = entities[0]
    target = page.locator(f"#board [data-entity='{entity}']").first
    if kind == "card":  # hovering a card shows its text
        target.hover()
        page.wait_for_selector("#tip:not([hidden])", timeout=WAIT)
        assert session.game.label(entity) in page.locator("#tip").inner_text()
    shoot(page, f"click-{ruleset}-{kind}{'-with-a-piece' if together else ''}")  # what may be chosen, highlighted
    naming = [a.value for a in session.game.legal_actions() if entity in names(session.game, a.value)]
    pick = next(i for i, value in enumerate(naming) if entity in wanted(session.game, value))
    history = len(session.decisions)
    before = received(page)
    target.click()
    if len(naming) > 1:  # several options name this entity: a menu of them all
        sync_api.expect(page.locator("#menu button")).to_have_count(len(naming))
        page.locator("#menu button").nth(pick).click()
    page.wait_for_function(f"Number(document.body.dataset.received || 0) > {before}", timeout=WAIT)
    assert len(session.decisions) == history + 1
    assert session.decisions[-1][1] == naming[pick]


# ---- save, resume, replay ---------------------------------------------------------------------

def act(page) -> None:
    """Accept a hand-over if one is shown, then take the first option."""
    if page.evaluate("document.body.dataset.phase") == "handover":
        before = received(page)
        page.click("#ready")
        settled(page, before)
    before = received(page)
    page.locator("#options button.option").first.click()
    settled(page, before)


def test_save_resume_and_replay(page, running, tmp_path):
    """All people at one screen: the creator's page saves the whole game mid-game."""
    start_from_new_game_page(page, running, "marine", ["human", "human"])
    for _ in range(3):
        act(page)
    if page.evaluate("document.body.dataset.phase") == "handover":
        before = received(page)
        page.click("#ready")
        settled(page, before)
    lines = log_size(page)
    with page.expect_download() as download:
        page.click("#save")
    saved = tmp_path / "game.json"
    download.value.save_as(saved)
    data = json.loads(saved.read_text())
    decisions = len(data["history"]["decisions"])
    assert decisions >= 3 and data["ruleset"]["name"] == "marine" and data["table"]["seats"] == ["human", "human"]

    page.goto(running.url + "/")
    page.wait_for_selector("body[data-ready='1']", timeout=WAIT)
    page.set_input_files("#save-file", str(saved))
    page.click("#resume")
    page.wait_for_url("**/play/*", timeout=WAIT)
    settled(page, 0)
    assert page.evaluate("document.body.dataset.phase") == "handover"  # before the first person, too
    before = received(page)
    page.click("#ready")
    settled(page, before)
    assert log_size(page) == lines
    assert page.locator("#status").inner_text().startswith("Your decision")

    page.goto(running.url + "/")
    page.wait_for_selector("body[data-ready='1']", timeout=WAIT)
    page.set_input_files("#save-file", str(saved))
    page.click("#replay")
    page.wait_for_url("**/replay/*", timeout=WAIT)
    step = page.locator("#step")
    sync_api.expect(step).to_have_text(f"decision 0 of {decisions}", timeout=WAIT)
    start_lines = log_size(page)
    page.click("#forward")
    page.click("#forward")
    sync_api.expect(step).to_have_text(f"decision 2 of {decisions}", timeout=WAIT)
    assert log_size(page) > start_lines
    shoot(page, "replay")
    page.click("#last")
    sync_api.expect(step).to_have_text(f"decision {decisions} of {decisions}", timeout=WAIT)
    assert log_size(page) == lines
    page.click("#back")
    sync_api.expect(step).to_have_text(f"decision {decisions - 1} of {decisions}", timeout=WAIT)


def test_against_an_agent_save_gives_what_the_seat_has_seen(page, running, tmp_path):
    start_from_new_game_page(page, running, "marine", ["human", "random"])
    act(page)
    with page.expect_download() as download:
        page.click("#save")
    saved = tmp_path / "record.json"
    download.value.save_as(saved)
    record = json.loads(saved.read_text())
    assert record["seat"] == 0 and "state" not in record and "history" not in record and record["log"]


# ---- hot-seat ----------------------------------------------------------------------------------

def test_hot_seat_hands_the_screen_over(page, running):
    start_from_new_game_page(page, running, "original", ["human", "human"])
    overlay = page.locator("#handover")
    sync_api.expect(overlay).to_be_visible()  # before the first person's first decision too
    assert page.locator("#options button").count() == 0
    before = received(page)
    page.click("#ready")
    settled(page, before)
    first = page.locator("#seat-name").inner_text()
    before = received(page)
    page.locator("#options button.option").first.click()
    settled(page, before)
    sync_api.expect(overlay).to_be_visible()
    assert page.locator("#board svg").count() == 0 and page.locator("#options button").count() == 0
    name = page.locator("#handover-name").inner_text()
    assert name and name not in first
    shoot(page, "handover")
    before = received(page)
    page.click("#ready")
    settled(page, before)
    sync_api.expect(overlay).to_be_hidden()
    assert name in page.locator("#seat-name").inner_text()
    assert page.locator("#status").inner_text().startswith("Your decision")


# ---- a whole game against agents, to the end -----------------------------------------------------

@pytest.mark.parametrize("ruleset,variants,lang", [("original", [], ""), ("marine", ["short"], "pl"), ("evolution", [], "")])
def test_play_to_the_end_against_agents(page, running, ruleset, variants, lang):
    """The person's seat clicks its buttons until the game is over (the game is started near
    its end by random play, to keep the test short)."""
    session = TableGame.new(f"end-{ruleset}", ruleset, 2, ["human", "random"], seed=2, variants=variants,
                          lang=lang or None)
    probe = session.game.clone()
    rng = random.Random(2)
    length = 0
    while not probe.is_over:
        probe.apply(rng.choice(probe.legal_actions()))
        length += 1
    advance(session, lambda game: len(session.decisions) >= length - 30, random.Random(2))
    page.goto(running.add(session))
    settled(page, 0)
    shoot(page, ruleset + ("-" + lang if lang else "") + "-late")
    clicks = random.Random(1)
    for _ in range(600):
        if page.evaluate("document.body.dataset.phase") == "over":
            break
        options = page.locator("#options button.option")
        before = received(page)
        options.nth(clicks.randrange(options.count())).click()
        settled(page, before)
    assert page.locator("#status").inner_text().startswith("Game over")
    assert "wins" in page.locator("#prompt").inner_text()
    assert session.game.is_over
    shoot(page, ruleset + ("-" + lang if lang else "") + "-end")

