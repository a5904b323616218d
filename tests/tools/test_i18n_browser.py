"""A Polish Marine game in the browser (Playwright + the system's Chromium), as a reader whose
browser asks for Polish: the new-game page, a turn, late in the game and the end, each at
1280×720, with no English template word in what the page shows. Screenshots go to
``build/screenshots/`` (the current set is in ``docs/screenshots/``, see docs/table.md).

Skips, saying why, without the ``table`` extra (Playwright, Starlette, uvicorn) or Chromium.
"""
from __future__ import annotations

import random

import pytest
from test_i18n_polish import english_in, english_words

from speciation import load_ruleset
from speciation.interpreter.ruleset import available_rulesets
from support.table_support import SCREENSHOTS, advance, need_table_extra

need_table_extra()
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need Playwright: bash scripts/setup")

from speciation.table.session import TableGame  # noqa: E402

WAIT = 30_000  # ms


@pytest.fixture
def polish(browser):
    """A page of a browser that asks for Polish (Accept-Language: pl-PL), at 1280×720."""
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="pl-PL")
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, f"the page's script failed: {errors}"


def shoot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"table-pl-{name}.png"))


def settled(page, after: int) -> None:
    page.wait_for_function(
        f"Number(document.body.dataset.received || 0) > {after} && "
        "['yours', 'over', 'handover'].includes(document.body.dataset.phase)", timeout=WAIT)


def shown(page) -> list[tuple[str, str]]:
    """What the page shows: its text, its hover titles and the picture's texts."""
    texts = [("page", page.inner_text("body"))]
    texts += [("title", t) for t in page.eval_on_selector_all(  # (a one-word title is an id: a variant's)
        "[title]", "nodes => nodes.map(n => n.getAttribute('title'))") if t and " " in t.strip()]
    texts += [("picture", t) for t in page.eval_on_selector_all(
        "svg text, svg title", "nodes => nodes.map(n => n.textContent)") if t.strip()]
    return texts


def test_a_polish_marine_game_in_the_browser(polish, running, tmp_path):
    ruleset = load_ruleset("marine")
    english = english_words(ruleset)
    # A game's title is a proper name: the new-game page lists every built-in ruleset by its
    # published title (Marine's has a Polish edition, "Władcy Oceanu"; the others have none here).
    names = tuple(load_ruleset(name).title for name in available_rulesets())

    polish.goto(running.url + "/")
    polish.wait_for_selector("body[data-ready='1']", timeout=WAIT)
    assert polish.evaluate("document.documentElement.lang") == "pl"
    assert polish.evaluate("window.I18N_LANG") == "pl" and polish.evaluate("_('Game over')") == "Koniec gry"
    polish.select_option("#ruleset", "marine")
    assert polish.locator("#lang").input_value() == "pl"  # the game's language follows the page's
    shoot(polish, "new-game")
    assert english_in(shown(polish), english, names) == []
    # A file is chosen with the page's own button, in Polish (the browser's file input would
    # say "Choose File" / "No file chosen" in the browser's language).
    chooser = polish.locator("#load-game .file-button")
    assert chooser.inner_text() == "Wybierz plik"
    assert polish.locator(".file-name[data-for='save-file']").inner_text() == "nie wybrano pliku"
    (tmp_path / "zapis.json").write_text("{}", encoding="utf-8")
    with polish.expect_file_chooser() as opened:
        chooser.click()
    opened.value.set_files(str(tmp_path / "zapis.json"))
    assert polish.locator(".file-name[data-for='save-file']").inner_text() == "zapis.json"
    polish.click("#resume")   # not a save: said in Polish (the engine's own words are English)
    polish.wait_for_function("document.getElementById('load-error').textContent !== ''", timeout=WAIT)
    assert polish.locator("#load-error").inner_text() == "ten plik nie jest zapisem gry, który ten stół potrafi wczytać"

    polish.fill("#players", "2")
    polish.dispatch_event("#players", "change")
    polish.select_option("#seats select[data-seat='1']", "random")
    polish.click("#start")
    polish.wait_for_url("**/play/*", timeout=WAIT)
    settled(polish, 0)
    clicks = random.Random(3)
    for _ in range(4):  # the secret trait, then the first turns
        if polish.evaluate("document.body.dataset.phase") != "yours":
            break
        before = int(polish.evaluate("Number(document.body.dataset.received)"))
        options = polish.locator("#options button.option")
        options.nth(clicks.randrange(options.count())).click()
        settled(polish, before)
    shoot(polish, "marine-turn")
    assert polish.locator("#status").inner_text().startswith("Twoja decyzja")
    assert english_in(shown(polish), english, names) == []

    # Late in a game, then its end (started by random play, to keep the test short).
    session = TableGame.new("pl-end", "marine", 2, ["human", "random"], seed=4, variants=["short"], lang="pl")
    probe, rng, length = session.game.clone(), random.Random(4), 0
    while not probe.is_over:
        probe.apply(rng.choice(probe.legal_actions()))
        length += 1
    advance(session, lambda game: len(session.decisions) >= length - 30, random.Random(4))
    polish.goto(running.add(session))
    settled(polish, 0)
    shoot(polish, "marine-late")
    assert english_in(shown(polish), english, names) == []
    for _ in range(600):
        if polish.evaluate("document.body.dataset.phase") == "over":
            break
        before = int(polish.evaluate("Number(document.body.dataset.received)"))
        options = polish.locator("#options button.option")
        options.nth(clicks.randrange(options.count())).click()
        settled(polish, before)
    assert polish.locator("#status").inner_text().startswith("Koniec gry")
    shoot(polish, "marine-end")
    assert english_in(shown(polish), english, names) == []


def test_a_page_in_polish_by_its_address_is_answered_in_polish(browser, running, tmp_path):
    """A browser that asks for English opens the new-game page with ?lang=pl: the page's
    requests say so (Accept-Language), so the server's errors are Polish too."""
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(running.url + "/?lang=pl")
        page.wait_for_selector("body[data-ready='1']", timeout=WAIT)
        (tmp_path / "notes.json").write_text("{}", encoding="utf-8")
        with page.expect_file_chooser() as opened:
            page.click("#load-game .file-button")
        opened.value.set_files(str(tmp_path / "notes.json"))
        page.click("#resume")
        page.wait_for_function("document.getElementById('load-error').textContent !== ''", timeout=WAIT)
        assert page.locator("#load-error").inner_text() == "ten plik nie jest zapisem gry, który ten stół potrafi wczytać"
    finally:
        context.close()
