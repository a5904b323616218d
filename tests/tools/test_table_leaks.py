"""No hidden information reaches a seat's page: every message the table sends to a seat is
read and searched for what that seat may not see (both editions).

A game is played over the table's websocket by seat 1 (the person; agents in the other
seats). Hidden are: the RNG state; the order of lists whose order is secret (poisoned
with a known order here); the contents of secret lists and of other seats' private
attributes (Marine's deck, trait pool, the traits others hold and keep secretly), unless
the seat's own view shows them at some point of the game; other seats' options.
"""
from __future__ import annotations

import json
import random
import re

import pytest

from support.table_support import RunningTable, need_table_extra

need_table_extra()

from speciation.interpreter.game import Game  # noqa: E402
from speciation.table.session import TableGame  # noqa: E402
from speciation.api import determinize  # noqa: E402

HUMAN_DECISIONS = 25


@pytest.fixture(scope="module")
def running():
    server = RunningTable()
    yield server
    server.stop()


def _strings(value, out: set) -> set:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, list):
        for item in value:
            _strings(item, out)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, out)
    return out


def _secret_values(game: Game, seat: int) -> set[str]:
    """Strings that sit where seat *seat* may not look (secret lists, others' private attributes)."""
    hidden = game.ruleset.hidden
    me = game.state["players"][seat]
    found: set[str] = set()
    for record in game.state["ent"].values():
        owner = record["id"] if record.get("kind") == "player" else record.get("player")
        for attr in sorted(hidden.contents):
            if isinstance(record.get(attr), list):
                _strings(record[attr], found)
        if owner != me:
            for attr in sorted(hidden.private):
                if attr in record:
                    _strings(record[attr], found)
    return found - {"?"}


def _poison_order(game: Game) -> list[list[str]]:
    """Put every list whose order is secret into a known order that is not the sorted one
    (the order a view shows); returns those orders."""
    orders = []
    for record in game.state["ent"].values():
        for attr in sorted(game.ruleset.hidden.order):
            items = record.get(attr)
            if isinstance(items, list) and len(set(map(str, items))) >= 3:
                record[attr] = sorted(items, key=str, reverse=True)
                orders.append([str(x) for x in record[attr]])
    game.state_edited()
    return orders


def _play_as(running, session: TableGame, seat: int) -> list[str]:
    """Seat *seat* plays at its page (random picks) while agents play the others; the text
    of every message the page received."""
    from websockets.sync.client import connect
    ws_url = running.ws(session, session.seating.invite(seat))
    received: list[str] = []
    rng = random.Random(5)
    decisions = 0
    with connect(ws_url, open_timeout=20) as socket:
        while decisions < HUMAN_DECISIONS:
            text = socket.recv(timeout=60)
            received.append(text)
            message = json.loads(text)
            if message.get("type") == "state" and message["over"]:
                break
            if message.get("type") == "state" and message["yours"]:
                socket.send(json.dumps({"type": "choose", "decision": message["decision"],
                                        "index": rng.randrange(len(message["options"]))}))
                decisions += 1
    return received


def _shown(view: dict, out: set) -> set:
    """The strings a view shows somewhere (a card's own record, which every view has, does
    not count: where the card is, is what may be hidden)."""
    for record in view["ent"].values():
        _strings({k: v for k, v in record.items() if k not in ("id", "name", "kind")}, out)
    return _strings({k: v for k, v in view.items() if k != "ent"}, out)


@pytest.fixture
def resampled(monkeypatch):
    """Check every seat message as it is built: built again from a copy of the game whose
    hidden parts are resampled (``Game.determinize``), it must come out the same."""
    from speciation.table import messages
    built = messages.seat_state
    differences: list[str] = []
    rng = random.Random(3)

    def checked(game, seat, seats, lang):
        message = built(game, seat, seats, lang)
        _shown(game.view(seat), SHOWN)
        other = built(determinize(game, seat, rng), seat, seats, lang)
        # (The seat's own options are labelled by the rules from the game: a label may name
        # what this seat does see but the view does not model, e.g. a face-up tile on a pile.)
        for key in set(message) - {"options"}:
            if message[key] != other[key]:
                differences.append(f"{key}: {str(message[key])[:200]} / {str(other[key])[:200]}")
        return message

    monkeypatch.setattr(messages, "seat_state", checked)
    SHOWN.clear()
    return differences


SHOWN: set[str] = set()   # every string the seat's view showed when a message was built


@pytest.mark.parametrize("ruleset", ["original", "marine"])
def test_no_message_to_a_seat_holds_what_it_may_not_see(running, resampled, ruleset):
    session = TableGame.new(f"leak-{ruleset}", ruleset, 3, ["human", "random", "random"], seed=11)
    orders = _poison_order(session.game)
    hidden_start = _secret_values(session.game, 0)
    running.add(session)
    rng_state = json.dumps(session.game.state["rng"])
    texts = _play_as(running, session, 0)
    assert len(texts) > HUMAN_DECISIONS, "the page was sent a message after each decision"
    messages = [json.loads(t) for t in texts]
    # Another seat's options never reach this page.
    assert all(not m.get("options") for m in messages if m.get("type") == "state" and not m["yours"])
    # The RNG state, and any list in its secret (poisoned) order, never appear.
    everything = "\n".join(texts)
    assert rng_state not in everything
    for order in orders:
        assert json.dumps(order[:4]) not in everything and ", ".join(order[:4]) not in everything
    # Each message is the same when what the seat cannot see is changed.
    assert not resampled, "a message depends on what the seat cannot see: " + resampled[0]
    # Secret contents and others' private values never appear: by id anywhere, by name in
    # the text parts (the picture may draw every card's own spaces, wherever the card is).
    leaks = _leak_candidates(session, hidden_start | _secret_values(session.game, 0))
    if ruleset == "marine":
        assert leaks, "Marine hides other seats' traits: the test must have something to look for"
    for ident, names in leaks.items():
        for word in names:
            pattern = re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])")
            found = [t for t, m in zip(texts, messages)
                     if pattern.search(t if word == ident else json.dumps({**m, "svg": ""}))]
            assert not found, f"the hidden value {ident!r} ({word!r}) reached seat 1's page: {found[0][:300]}"


def _leak_candidates(session: TableGame, secret: set[str]) -> dict[str, set[str]]:
    """Hidden values the seat never saw, with the words that name them (id and names)."""
    public = set(SHOWN)
    ruleset = session.game.ruleset
    out = {}
    for ident in secret - public:
        names = {ident}
        record = session.game.state["ent"].get(ident, {})
        if isinstance(record.get("name"), str):
            names.add(record["name"])
        for labels in ruleset.labels.values():
            if isinstance(labels.get(ident), str):
                names.add(labels[ident])
        out[ident] = {n for n in names if len(n) >= 4 and n not in public}
    return {k: v for k, v in out.items() if v}
