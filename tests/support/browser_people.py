"""People at the table in a real browser (Playwright): one browser context each (a person's
own device), and playing by clicking the first option offered. Shared by the browser tests of
seats, of a restarted server and of the lobby."""
from __future__ import annotations

import json
from collections.abc import Callable

from support.table_support import SCREENSHOTS

WAIT = 30_000  # ms
SIZES = {"1280": {"width": 1280, "height": 720}, "375": {"width": 375, "height": 812}}


class Person:
    """One browser context: its page, the frames its websocket received, its script errors."""

    def __init__(self, browser, size: str = "1280"):
        self.context = browser.new_context(viewport=SIZES[size])
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: self.frames.append(frame)))

    def received(self) -> int:
        return int(self.page.evaluate("Number(document.body.dataset.received || 0)"))

    def phase(self) -> str:
        return self.page.evaluate("document.body.dataset.phase || ''")

    def decision(self) -> str:
        """The number of the decision the page shows (its id's second part)."""
        return self.page.evaluate("state && state.decision ? state.decision.split('/')[1] : ''")

    def wait(self, after: int, phases=("yours", "waiting", "over", "handover")) -> None:
        self.page.wait_for_function(
            f"Number(document.body.dataset.received || 0) > {after} && "
            f"{json.dumps(list(phases))}.includes(document.body.dataset.phase)", timeout=WAIT)

    def shoot(self, name: str, full_page: bool = False) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SCREENSHOTS / f"table-{name}.png"), full_page=full_page)

    def close(self) -> None:
        self.context.close()
        assert not self.errors, f"the page's script failed: {self.errors}"


def play_first_options(people: list[Person], made: Callable[[], int], decisions: int,
                       over: Callable[[], bool] = lambda: False) -> None:
    """Whoever's turn it is clicks their first option, until *decisions* more are made (as
    *made* counts them) or the game is *over*."""
    start = made()
    for _ in range(200):
        if made() >= start + decisions or over():
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
