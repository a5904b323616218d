"""The table as a person meets it (issue 21, deliverable 7), in a real browser (Playwright
driving the system's Chromium): a phone-sized page has no sideways scroll and its board pans
and zooms; number keys choose; the log names places, never ids; one name per seat; card
texts fit their boxes; a placeholder card shows its provenance on hover; the title and the
favicon say whose turn it is; the end screen ranks the seats with their scores, the cards
they took, the final scoring and how the game ended, and Undo is disabled after the end.
Screenshots at 1280x720 and 375x812 go to ``build/screenshots/``.

Skips, saying why, without the ``table`` extra (Playwright, Starlette, uvicorn) or Chromium.
"""
from __future__ import annotations

import random
import re

import pytest

from support.table_support import SCREENSHOTS, advance, need_table_extra

need_table_extra()
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need Playwright: bash scripts/setup")

from speciation import Game, load_ruleset  # noqa: E402
from speciation.render import Scene, render_svg  # noqa: E402
from speciation.table.session import TableGame  # noqa: E402

WAIT = 30_000  # ms
DESKTOP = {"width": 1280, "height": 720}
PHONE = {"width": 375, "height": 812}


def open_page(browser, url: str, size: dict, phone: bool = False):
    options = {"viewport": size}
    if phone:
        options.update(is_mobile=True, has_touch=True, device_scale_factor=2)
    context = browser.new_context(**options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    settled(page, 0)
    return context, page, errors


def received(page) -> int:
    return int(page.evaluate("Number(document.body.dataset.received || 0)"))


def settled(page, after: int) -> None:
    page.wait_for_function(
        f"Number(document.body.dataset.received || 0) > {after} && "
        "['yours', 'over', 'handover'].includes(document.body.dataset.phase)", timeout=WAIT)


def shoot(page, name: str, full: bool = False) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"table-ux-{name}.png"), full_page=full)


def sideways_scroll(page) -> int:
    """How far the page itself could scroll sideways (0: it fits the screen's width)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def mid_game(ident: str, ruleset: str = "original", decisions: int = 40, seed: int = 3, options: int = 1) -> TableGame:
    """A game after *decisions* random ones, at a decision of seat 0 with *options* or more."""
    session = TableGame.new(ident, ruleset, 2, ["human", "random"], seed=seed)
    advance(session, lambda game: len(session.decisions) >= decisions and game.current_player == 0
            and len(game.legal_actions()) >= options, random.Random(seed))
    return session


# ---- a phone ------------------------------------------------------------------------------------

def test_a_phone_page_fits_the_screen_and_its_board_pans_and_zooms(browser, running):
    session = mid_game("ux-phone")
    context, page, errors = open_page(browser, running.seat_url(session, 0), PHONE, phone=True)
    try:
        shoot(page, "phone-375-start")
        assert sideways_scroll(page) <= 0
        board = page.locator("#board")
        fit = page.evaluate("document.querySelector('#board svg').getBoundingClientRect().width")
        assert fit <= PHONE["width"]
        for _ in range(4):
            page.click("#zoom-in")
        zoomed = page.evaluate("document.querySelector('#board svg').getBoundingClientRect().width")
        assert zoomed > 2 * fit and page.locator("#zoom-level").inner_text().endswith("%")
        # the board pans inside its box; the page still does not scroll sideways
        page.evaluate("document.getElementById('board').scrollLeft = 300; document.getElementById('board').scrollTop = 200")
        assert board.evaluate("b => b.scrollLeft") > 0 and board.evaluate("b => b.scrollTop") > 0
        assert sideways_scroll(page) <= 0
        shoot(page, "phone-375-zoomed")
        # the options are reachable: scrolled to and tapped
        option = page.locator("#options button.option").first
        option.scroll_into_view_if_needed()
        before, taken = received(page), len(session.decisions)
        option.tap()
        page.wait_for_function(f"Number(document.body.dataset.received || 0) > {before}", timeout=WAIT)
        assert len(session.decisions) > taken
        page.click("#zoom-fit")
        assert page.locator("#zoom-level").inner_text() == "fit"
    finally:
        context.close()
    assert not errors, errors


# ---- keys, names, the log, the title, the cards -----------------------------------------------

def test_number_keys_choose_and_the_title_says_whose_turn(browser, running):
    session = mid_game("ux-keys", options=12)
    context, page, errors = open_page(browser, running.seat_url(session, 0), DESKTOP)
    try:
        assert page.title().startswith("● ")
        assert page.evaluate("document.getElementById('favicon').dataset.phase") == "yours"
        count = page.locator("#options button.option").count()
        assert count >= 12, count
        label = page.locator("#options button.option[data-index='11']").inner_text()
        decisions = len(session.decisions)
        before = received(page)
        page.keyboard.press("1")
        page.keyboard.press("2")  # typed at once: option 12, not option 1
        page.wait_for_function(f"Number(document.body.dataset.received || 0) > {before}", timeout=WAIT)
        assert len(session.decisions) > decisions
        echo = f"{session.game.label(session.game.state['players'][0])}"
        lines = page.locator("#log li").all_inner_texts()
        assert any(line.endswith("→ " + label) for line in lines), (label, lines[-8:])
        settled(page, before)
        # a number no option has is refused and nothing is sent
        assert page.evaluate("document.body.dataset.phase") == "yours" and session.game.current_player == 0
        decisions = len(session.decisions)
        page.keyboard.press("0")
        page.locator("#toast").wait_for(state="visible", timeout=WAIT)
        assert page.locator("#toast").inner_text().startswith("no option 0")
        page.wait_for_timeout(900)
        assert len(session.decisions) == decisions, echo
    finally:
        context.close()
    assert not errors, errors


def test_one_name_per_seat_and_a_log_without_ids(browser, running):
    session = mid_game("ux-names", decisions=120)
    context, page, errors = open_page(browser, running.seat_url(session, 0), DESKTOP)
    try:
        shoot(page, "1280-mid-game")
        scene = Scene.of(session.game, 0)
        mine = scene.player_name(0)
        assert re.fullmatch(r"[A-Z][a-z]+ \(Player 1\)", mine)
        assert mine in page.locator("#seat-name").inner_text()
        names = [n.strip() for n in page.locator("#players tr td:first-child").all_inner_texts()]
        assert names == [scene.player_name(0), scene.player_name(1)]
        log = "\n".join(page.locator("#log li").all_inner_texts())
        assert "|" not in log  # no corner is named by its id
        terrains = {scene.label(t) for t in scene.presentation["palettes"]["terrain"]} | {"hex"}  # "blank hex"
        places = re.findall(r"(\S+) (-?\d+,-?\d+)", log)
        assert len(places) > 10
        for word, place in places:  # every place named by its terrain, then its coordinates
            assert word in terrains, (word, place)
    finally:
        context.close()
    assert not errors, errors


def card_boxes(page) -> list[dict]:
    """Each drawn card of a row: its box and the boxes of the text drawn in it."""
    return page.evaluate("""() => [...document.querySelectorAll('#board g.card')].filter(g => g.querySelector('rect').getAttribute('width') > 100)
      .map(g => { const box = g.querySelector('rect').getBBox();
                  return { id: g.dataset.entity, box: [box.x, box.y, box.width, box.height],
                           texts: [...g.querySelectorAll(':scope > text')].map(t => { const b = t.getBBox(); return [b.x, b.y, b.width, b.height]; }) }; })""")


@pytest.mark.parametrize("ruleset", ["original", "marine"])
def test_card_texts_fit_their_boxes(browser, running, ruleset):
    session = mid_game(f"ux-cards-{ruleset}", ruleset, decisions=30)
    context, page, errors = open_page(browser, running.seat_url(session, 0), DESKTOP)
    try:
        cards = card_boxes(page)
        assert len(cards) >= 4
        for card in cards:
            x, y, w, h = card["box"]
            text = " ".join(Scene.of(session.game, 0).card_text(card["id"]).split())
            assert len(card["texts"]) >= 2 and sum(len(t) for t in card["texts"]) > 0
            for tx, ty, tw, th in card["texts"]:
                assert x <= tx and tx + tw <= x + w + 0.5 and y <= ty and ty + th <= y + h + 0.5, (card["id"], text)
        # the whole text is drawn (nothing cut off with an ellipsis)
        drawn = page.evaluate("""id => [...document.querySelector(`#board g.card[data-entity="${id}"]`).querySelectorAll(':scope > text')]
                                 .slice(1).map(t => t.textContent).join(' ')""", cards[0]["id"])
        assert drawn == " ".join(Scene.of(session.game, 0).card_text(cards[0]["id"]).split())
    finally:
        context.close()
    assert not errors, errors


def placeholder_game() -> tuple[TableGame, int, str]:
    """A Marine game in which the deciding seat sees a card whose effect is not confirmed."""
    marine = load_ruleset("marine")
    unsure = {i for i, c in marine.cards.items() if (c.provenance or {}).get("confidence") == "unknown"}
    for seed in range(60):
        game = Game.new(marine, 2, seed=seed)
        seat = game.current_player
        seen = set(re.findall(r'data-entity="([^"]+)"', render_svg(game, seat)))
        shown = sorted(unsure & seen)
        if shown:
            return TableGame.new(f"ux-placeholder-{seed}", "marine", 2, ["human", "human"], seed=seed), seat, shown[0]
    raise AssertionError("no seed shows a placeholder card")


def test_a_placeholder_card_shows_its_provenance_on_hover(browser, running):
    session, seat, card = placeholder_game()
    note = " ".join(load_ruleset("marine").cards[card].provenance["note"].split())
    context, page, errors = open_page(browser, running.seat_url(session, seat), DESKTOP)
    try:
        drawn = page.locator(f"#board g.card[data-entity='{card}']").first
        assert drawn.locator(".provenance").count() == 1  # marked on the card itself
        drawn.hover()
        tip = page.locator("#tip")
        tip.wait_for(state="visible", timeout=WAIT)
        text = tip.inner_text()
        assert "provenance: unknown" in text and note[:60] in " ".join(text.split())
        shoot(page, "1280-placeholder-tooltip")
    finally:
        context.close()
    assert not errors, errors


# ---- the end --------------------------------------------------------------------------------------

def near_the_end(ident: str, ruleset: str, seed: int) -> TableGame:
    session = TableGame.new(ident, ruleset, 2, ["human", "random"], seed=seed)
    probe = session.game.clone()
    rng = random.Random(seed)
    length = 0
    while not probe.is_over:
        probe.apply(rng.choice(probe.legal_actions()))
        length += 1
    advance(session, lambda game: len(session.decisions) >= length - 12 and game.current_player == 0,
            random.Random(seed))
    return session


def play_on_to_the_end(page, session) -> None:
    clicks = random.Random(1)
    for _ in range(300):
        if page.evaluate("document.body.dataset.phase") == "over":
            return
        options = page.locator("#options button.option")
        before = received(page)
        options.nth(clicks.randrange(options.count())).click()
        settled(page, before)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("ruleset", ["original", "marine"])
def test_the_end_screen_ranks_scores_and_says_how_the_game_ended(browser, running, ruleset):
    session = near_the_end(f"ux-end-{ruleset}", ruleset, seed=5)
    url = running.seat_url(session, 0)
    context, page, errors = open_page(browser, url, DESKTOP)
    try:
        play_on_to_the_end(page, session)
        game = session.game
        assert game.is_over and page.title().startswith("Game over")
        end = page.locator("#end")
        assert end.is_visible()
        rows = page.locator("#ranking tr")
        assert rows.count() == 2
        scene = Scene.of(game, 0)
        ranked = sorted(range(2), key=lambda s: (s != game.winner, -game.scores[s]))
        for place, seat in enumerate(ranked):
            cells = rows.nth(place).locator("td")
            assert cells.nth(0).inner_text() == f"{place + 1}."
            assert cells.nth(1).inner_text().startswith(scene.player_name(seat))
            assert cells.nth(2).inner_text() == str(game.scores[seat])
        reason = game.evaluate(game.ruleset.conventions["end_reason"])
        assert page.locator("#end-reason").inner_text().endswith(reason)
        taken = game.evaluate(game.ruleset.conventions["cards_taken"])
        for seat in range(2):
            mine = [game.label(card) for who, card in taken if game.player_of(who) == seat]
            if mine:
                assert f"({len(mine)}): {', '.join(mine)}" in page.locator("#ranking").inner_text()
        # the final scoring as the rules logged it, places named
        breakdown = page.locator("#breakdown li").all_inner_texts()
        assert breakdown and all("|" not in line for line in breakdown)
        assert any(line.endswith(f"{game.scores[ranked[0]]} VP") for line in breakdown)
        # Undo is disabled, and the server refuses it too: the finished game stays finished
        assert not page.locator("#undo").is_enabled()
        assert page.locator("#undo").get_attribute("title") == "the game is over"
        assert session.undo(0) == "the game is over" and session.game.is_over
        shoot(page, f"1280-{ruleset}-end")
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(200)
        assert sideways_scroll(page) <= 0
        page.locator("#end").scroll_into_view_if_needed()
        shoot(page, f"phone-375-{ruleset}-end")
    finally:
        context.close()
    assert not errors, errors
