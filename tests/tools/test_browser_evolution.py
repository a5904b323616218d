"""Evolution: New World at the table, played by clicking what is drawn (issue 20): two people
on their own browser contexts (Playwright driving the system's Chromium; one at 1280×720, one
on a 375×812 phone) click a card in the hand and the empty "new animal" place after their
animals, a card and one of its faces (Main or Short), an animal, an Area (whose feed and
shelter options share it: a menu of the two) and a paired trait's target (whose middle animal
two targets share: a menu of those, read "animal 1 and animal 3"). What they read is asserted
too: the menus' words, each player's panel ("passed" or nothing, never "Passed false") and the
Areas (no rule file identifier). The positions between are reached
by random moves on the server (steered to play paired traits and to make animals), then the
pages are opened again; screenshots of the start, a mid-game position and the end go to
``build/screenshots/evolution-*.png``.

Skips, saying why, without the ``table`` extra or Chromium.
"""
from __future__ import annotations

import collections
import random

import pytest

from support.browser_people import Person
from support.table_support import need_table_extra

need_table_extra()
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need Playwright: bash scripts/setup")

from speciation.table.session import TableGame  # noqa: E402


def steer(game, rng: random.Random):
    """A random move, but a paired trait is played when one may be, and a card becomes a new
    animal while its owner has fewer than three (so paired traits find neighbours)."""
    actions = list(game.legal_actions())
    if game.prompt.startswith("Play the card"):
        ent = game.state["ent"]
        paired = [a for a in actions if isinstance(a.value, str) and ent.get(a.value, {}).get("paired")]
        if paired:
            return paired[0]
        if len(ent[game.state["players"][game.current_player]]["row"]) < 3:
            return actions[0]
    return rng.choice(actions)


def advance(session, until, rng: random.Random, limit: int = 3000) -> None:
    for _ in range(limit):
        if session.game.is_over or until(session.game):
            return
        assert session._apply(session.game.current_player, steer(session.game, rng)) is None
    raise AssertionError("the position was not reached")


def values(game) -> list:
    return [a.value for a in game.legal_actions()]


def face_to_play(game) -> tuple[str, str] | None:
    """At a Development decision: a card of the hand and a face of it (Main or Short) that
    may be played under one of several animals, if any."""
    if not game.prompt.startswith("Development"):
        return None
    for card in values(game):
        if card not in game.state["ent"]:
            continue
        probe = game.clone()
        probe.apply(card, decision=probe.decision_id)
        if not probe.prompt.startswith("Play the card"):
            continue
        for face in [v for v in values(probe) if v != "new animal"]:
            target = probe.clone()
            target.apply(face, decision=target.decision_id)
            if target.current_player == game.current_player and "on which animal" in target.prompt:
                return card, face   # then a target is chosen (not taken at once: there are several)
    return None


def new_animal_to_play(game) -> str | None:
    """At a Development decision: a card of the hand that is then asked how to be played
    (as a new animal or with a trait: not taken at once as a new animal), if any."""
    if not game.prompt.startswith("Development"):
        return None
    for card in values(game):
        if card in game.state["ent"]:
            probe = game.clone()
            probe.apply(card, decision=probe.decision_id)
            if probe.prompt.startswith("Play the card") and "new animal" in values(probe):
                return card
    return None


def shared_middle(game) -> str | None:
    """An animal that two targets of a paired trait share (the middle of three), if any."""
    options = values(game)
    if len(options) < 2 or not all(isinstance(v, list) and len(v) == 2 for v in options):
        return None
    if not all(isinstance(x, str) and game.state["ent"].get(x, {}).get("kind") == "animal" for v in options for x in v):
        return None
    counts = collections.Counter(x for v in options for x in v)
    return next((a for a, n in counts.items() if n >= 2), None)


def feed_or_shelter(game) -> tuple[str, str] | None:
    """At 'Feeding: choose an animal': an animal whose next options feed it from an Area and
    shelter it in the same Area (both name the Area), and that Area."""
    if not game.prompt.startswith("Feeding: choose an animal"):
        return None
    for animal in values(game):
        if animal is None:
            continue
        probe = game.clone()
        probe.apply(animal, decision=probe.decision_id)
        verbs = collections.defaultdict(set)
        for v in values(probe):
            if isinstance(v, list) and len(v) == 3:
                verbs[v[2]].add(v[0])
        area = next((r for r, found in verbs.items() if {"feed", "shelter"} <= found), None)
        if area:
            return animal, area
    return None


def label(session, value) -> str:
    """The label the page shows an option by (the menu's entries)."""
    from speciation.render import Scene, label_of
    game = session.game
    scene = Scene.of(game.view(game.current_player), game.current_player, game.lang, game.ruleset)
    return next(label_of(scene, a) for a in game.legal_actions() if a.value == value)


def drawn_words(person, selector: str) -> list[list[str]]:
    """The drawn texts (not the hover texts) of each board group *selector* finds."""
    return person.page.locator(f"#board {selector}").evaluate_all(
        "nodes => nodes.map(n => [...n.querySelectorAll('text')].map(t => t.textContent))")


def reads_in_words(person, game) -> None:
    """What a person reads on the board: each player's panel is its name, and 'passed' while
    it has passed (never 'Passed false'); no Area shows a rule file's identifier."""
    for player in game.state["players"]:
        record = game.state["ent"][player]
        assert drawn_words(person, f"g.panel[data-entity='{player}']") == \
            [[record["name"]] + (["passed"] if record["passed"] else [])]
    areas = drawn_words(person, "g.place")
    assert areas and not any("_" in words for area in areas for words in area), areas


def test_evolution_is_played_by_clicking_animals_faces_areas_and_paired_targets(browser, running):
    session = TableGame.new("evo-clicks", "evolution", 2, ["human", "human"], seed=3, hotseat=False)
    people = [Person(browser), Person(browser, "375")]
    rng = random.Random(3)
    try:
        def open_pages() -> None:
            for seat, person in enumerate(people):
                person.page.goto(running.seat_url(session, seat))
                person.wait(0)

        open_pages()
        people[0].shoot("start-1280", prefix="evolution-")
        people[1].shoot("start-375", prefix="evolution-")

        # A card in the hand, then the empty "new animal" place after the seat's own animals
        # (each person once: at 1280 and on the phone).
        for person in people:
            seat = people.index(person)
            advance(session, lambda game, seat=seat: game.current_player == seat and new_animal_to_play(game), rng)
            for each in people:
                each.reload()
            card = new_animal_to_play(session.game)
            row = list(session.game.state["ent"][session.game.state["players"][seat]]["row"])
            person.click_drawn(card)
            assert session.decisions[-1][1] == card
            assert person.page.locator("#board g.slot[data-entity='new animal'].choosable").count() == 1
            assert drawn_words(person, "g.slot") == [["+ new animal"]]
            assert people[1 - seat].page.locator("#board g.slot").count() == 0   # the other's page: none
            person.page.mouse.move(1, 1)   # the card's hover text off the picture
            person.shoot("new-animal-" + ("1280" if seat == 0 else "375"), prefix="evolution-")
            person.click_drawn("new animal")
            assert session.decisions[-1][1] == "new animal"
            after = session.game.state["ent"][session.game.state["players"][seat]]["row"]
            assert len(after) == len(row) + 1 and person.page.locator("#board g.slot").count() == 0
            reads_in_words(person, session.game)

        # A card in the hand, then one of its faces (drawn inside that card), then an animal.
        advance(session, face_to_play, rng)
        for person in people:
            person.reload()
        card, face = face_to_play(session.game)
        person = people[session.decider]
        made = len(session.decisions)
        person.click_drawn(card)
        assert session.decisions[-1][1] == card and person.phase() == "yours"
        clickable = person.page.evaluate("[...document.querySelectorAll('#board .choosable')].map(n => n.dataset.entity)")
        assert face in clickable and card not in clickable
        person.page.mouse.move(1, 1)   # the card's hover text off the picture
        person.shoot("face-" + ("1280" if person is people[0] else "375"), prefix="evolution-")
        person.click_drawn(face, inside=card)   # the face on the card just chosen
        assert session.decisions[-1][1] == face
        target = values(session.game)[0]
        animal = target[0] if isinstance(target, list) else target
        named = [v for v in values(session.game) if animal in (v if isinstance(v, list) else [v])]
        person.click_drawn(animal, menu=label(session, named[0]) if len(named) > 1 else None)
        assert session.decisions[-1][1] == named[0] and len(session.decisions) == made + 3

        # A paired trait: its target's middle animal is in two targets, so a click on it
        # offers both; the second is taken.
        advance(session, shared_middle, rng)
        for person in people:
            person.reload()
        middle = shared_middle(session.game)
        both = [v for v in values(session.game) if middle in v]
        person = people[session.decider]
        person.page.locator(f"#board [data-entity='{middle}'].choosable").first.click()
        person.page.wait_for_selector("#menu:not([hidden])")
        entries = person.page.locator("#menu button").evaluate_all("nodes => nodes.map(n => n.textContent)")
        assert entries == [label(session, v) for v in both]
        names = {a: session.game.state["ent"][a]["name"] for v in both for a in v}
        assert entries == [f"{names[v[0]]} and {names[v[1]]}" for v in both]   # never "[animal 1, animal 3]"
        person.shoot("paired-menu-" + ("1280" if person is people[0] else "375"), prefix="evolution-")
        before = person.received()
        person.page.locator("#menu button").nth(1).click()
        person.wait(before)
        assert session.decisions[-1][1] == both[1]

        # Feeding: an animal, then an Area whose feed and shelter options both name it.
        advance(session, feed_or_shelter, rng)
        for person in people:
            person.reload()
        animal, area = feed_or_shelter(session.game)
        person = people[session.decider]
        person.click_drawn(animal)
        assert session.decisions[-1][1] == animal
        shelter = next(v for v in values(session.game) if v[0] == "shelter" and v[2] == area)
        person.page.locator(f"#board [data-entity='{area}'].choosable").first.click()
        person.page.wait_for_selector("#menu:not([hidden])")
        entries = person.page.locator("#menu button").evaluate_all("nodes => nodes.map(n => n.textContent)")
        assert sorted(entries) == sorted(label(session, v) for v in values(session.game) if v[2] == area)
        place = session.game.state["ent"][area]["name"]
        assert all(e.split()[0] in ("feed", "store", "shelter") and e.endswith(f" from {place}") for e in entries), entries
        reads_in_words(person, session.game)
        people[0].shoot("mid-1280", prefix="evolution-")
        people[1].shoot("mid-375", prefix="evolution-")
        before = person.received()
        person.page.locator("#menu button").nth(entries.index(label(session, shelter))).click()
        person.wait(before)
        assert session.decisions[-1][1] == shelter

        # To the end.
        advance(session, lambda game: False, rng)
        assert session.game.is_over
        for person in people:
            person.reload()
            assert person.phase() == "over"
            assert person.page.locator("#status").inner_text().startswith("Game over")
            reads_in_words(person, session.game)
        people[0].shoot("end-1280", prefix="evolution-")
        people[0].page.locator("#board g.panel").first.scroll_into_view_if_needed()
        people[0].shoot("end-panels-1280", prefix="evolution-")   # "passed" in each player's panel
        people[1].shoot("end-375", prefix="evolution-")
    finally:
        for person in people:
            person.close()
