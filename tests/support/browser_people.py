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

    def shoot(self, name: str, full_page: bool = False, prefix: str = "table-") -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SCREENSHOTS / f"{prefix}{name}.png"), full_page=full_page)

    def reload(self) -> None:
        """Open the page again (after moves made on the server behind its back)."""
        self.page.reload()
        self.wait(0)

    def text(self, titles: bool = False) -> str:
        """What the page shows as text: its own, the board's drawn texts, and (*titles*) the
        board's hover texts."""
        drawn = "svg text" + (", svg title" if titles else "")
        return self.page.inner_text("body") + "\n" + "\n".join(self.page.locator("#board").evaluate_all(
            f"(nodes) => nodes.flatMap(n => [...n.querySelectorAll('{drawn}')].map(t => t.textContent))"))

    def click_drawn(self, entity: str, inside: str | None = None, menu: str | None = None) -> None:
        """Click the drawn *entity* (within the drawn *inside*, e.g. a face of one card) as a
        person would, and, when that opens the menu of the options naming it, the entry
        labelled *menu*; then wait for the answer."""
        where = f"#board [data-entity='{inside}'] " if inside else "#board "
        before = self.received()
        self.page.locator(where + f"[data-entity='{entity}'].choosable").first.click()
        if menu is not None:
            self.page.wait_for_selector("#menu:not([hidden])", timeout=WAIT)
            entries = self.page.locator("#menu button")
            labels = entries.evaluate_all("nodes => nodes.map(n => n.textContent)")
            assert menu in labels, f"the menu offers {labels}, not {menu!r}"
            entries.nth(labels.index(menu)).click()
        self.wait(before)

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


def secrets_of(session, seat: int) -> set[str]:
    """The labels of what seat *seat* holds secretly (its private attributes' values) that a
    spectator's view does not show."""
    from speciation.interpreter.views import public_view
    game = session.game
    me = game.state["players"][seat]
    view = public_view(game)  # what a spectator sees (not each card's own record: every view has those)
    public = json.dumps([{k: v for k, v in r.items() if k not in ("id", "name", "kind")}
                         for r in view["ent"].values()] + [view["log"]])
    found = set()
    for record in game.state["ent"].values():
        if me in (record.get("player"), record["id"]):
            for attr in game.ruleset.hidden.private:
                for value in record.get(attr) or []:
                    if isinstance(value, str) and value != "?" and f'"{value}"' not in public:
                        found.add(game.label(value))
    return found


def hidden_ids(game) -> set[str]:
    """The entities in a secret place (a face-down stack, a seat's private list) that no
    seat's public view shows: none may be drawn on a spectator's page."""
    from speciation.interpreter.views import public_view
    view = public_view(game)
    shown = json.dumps([{k: v for k, v in r.items() if k not in ("id", "name", "kind")} for r in view["ent"].values()])
    hidden = game.ruleset.hidden
    found: set[str] = set()
    for record in game.state["ent"].values():
        for attr in sorted(hidden.contents | hidden.private):
            for value in record.get(attr) or [] if isinstance(record.get(attr), list) else []:
                if isinstance(value, str) and value in game.state["ent"] and f'"{value}"' not in shown:
                    found.add(value)
    return found
