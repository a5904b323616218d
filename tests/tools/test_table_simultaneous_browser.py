"""Several seats deciding at once, in a real browser (Playwright driving the system's
Chromium; issue 22): two people on their own devices (browser contexts) and a spectator at a
game of the fixture ``sealed``. Both people's pages say *Your turn* (title and favicon) and
offer their own options at the same time; one answers, and its page waits for the others
while the other's still offers its own; the spectator's page says who decides and nothing of
what they are asked; neither stone shows on another page before the reveal. Screenshots at
1280×720 go to ``build/screenshots/`` (table-simultaneous-*.png).

Skips, saying why, without the ``table`` extra or Chromium.
"""
from __future__ import annotations

import pytest

from support.browser_people import WAIT, Person
from support.ruleset_builder import FIXTURES
from support.table_support import CHROMIUM_ARGS, RunningTable, chromium, need_table_extra

need_table_extra()
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need Playwright: bash scripts/setup")

from speciation.table.session import TableGame  # noqa: E402


def option_labels(person: Person) -> list[str]:
    return person.page.locator("#options button.option").all_inner_texts()


def status(person: Person) -> str:
    return person.page.locator("#status").inner_text()


def test_two_people_decide_at_once_in_their_browsers():
    running = RunningTable(agent_delay=0.0)
    session = TableGame.new("simultaneous-browser", str(FIXTURES / "sealed"), 3, ["human", "human", "random"],
                            seed=21, hotseat=False)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        first, second, watcher = Person(browser), Person(browser), Person(browser)
        try:
            first.page.goto(running.seat_url(session, 0))
            second.page.goto(running.seat_url(session, 1))
            watcher.page.goto(f"{running.url}/play/{session.ident}")
            for person in (first, second):
                person.page.wait_for_function("document.body.dataset.phase === 'yours'", timeout=WAIT)
                assert person.page.title().startswith("● ")   # "Your turn", in the tab
                assert person.page.locator("#favicon").get_attribute("data-phase") == "yours"
                assert [label.split("\n")[-1] for label in option_labels(person)] == ["amethyst", "basalt", "cobalt"]
            watcher.page.wait_for_selector("body[data-role='spectator']", timeout=WAIT)
            watcher.page.wait_for_function("document.querySelectorAll('#players tr.deciding').length >= 2",
                                           timeout=WAIT)
            assert "decide at the same time" in status(watcher) and "seal a stone" not in status(watcher)
            first.shoot("simultaneous-both-decide")
            # The first person seals cobalt and how to play it: their page then waits.
            first.page.locator("#options button.option", has_text="cobalt").click()
            first.page.wait_for_function("document.querySelector('#prompt').textContent === 'how to play it'",
                                         timeout=WAIT)
            first.page.locator("#options button.option", has_text="quietly").click()
            first.page.wait_for_function("document.body.dataset.phase === 'waiting'", timeout=WAIT)
            assert "Waiting for" in first.page.locator("#options").inner_text()
            assert not first.page.title().startswith("● ")
            first.shoot("simultaneous-waiting")
            # The second person still decides, and sees nothing of the first's choice.
            assert second.phase() == "yours" and "seal a stone" in status(second)
            for part in ("#log", "#status", "#players"):   # its own options list every stone
                assert "cobalt" not in second.page.locator(part).inner_text()
            assert "cobalt" not in watcher.page.locator("body").inner_text()
            assert "quietly" not in watcher.page.locator("body").inner_text()
            second.shoot("simultaneous-still-deciding")
            second.page.locator("#options button.option", has_text="basalt").click()
            second.page.wait_for_function("document.querySelector('#prompt').textContent === 'how to play it'",
                                          timeout=WAIT)
            second.page.locator("#options button.option", has_text="boldly").click()
            # The reveal: every page's log shows the stones.
            watcher.page.wait_for_function("document.querySelector('#log').textContent.includes('reveals cobalt')",
                                           timeout=WAIT)
            watcher.shoot("simultaneous-revealed")
        finally:
            for person in (first, second, watcher):
                person.close()
            browser.close()
            running.stop()
