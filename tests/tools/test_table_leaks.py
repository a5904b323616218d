"""No hidden information reaches a page that may not see it: everything the table sends to
a seat's page, and to a spectator's, is read and searched for what it may not see (both
editions): every state message, the errors it is sent, its save and its replay (every
step) during the game, the catalogue of rulesets.

A game is played over the table's websocket by seat 1 (the person, holding its invite
token; agents in the other seats) while a spectator (no token) watches. Hidden are: the
seed and the RNG state; the order of lists whose order is secret (in the order the seed gave); the contents of secret lists and of other seats' private attributes
(Marine's deck, trait pool, the traits others hold and keep secretly), unless the page's
own view shows them at some point of the game; other seats' options. A spectator sees
what every seat sees: no private attribute at all. ``test_an_injected_leak_is_found``
shows the check fails when a leak is put in a message, a save, or the spectator's view.
"""
from __future__ import annotations

import json
import random
import re
import time
import urllib.request

import pytest

from support.ruleset_builder import FIXTURES
from support.table_support import RunningTable, need_table_extra

need_table_extra()

from speciation.interpreter.game import Game  # noqa: E402
from speciation.interpreter.views import public_view  # noqa: E402
from speciation.table.session import TableGame  # noqa: E402
from speciation.api import determinize  # noqa: E402
from speciation.interpreter.visibility import hidden_face, owner_of, sees  # noqa: E402

HUMAN_DECISIONS = 25
SEED = 987_654_321_987

# Every ruleset this test plays, as a built-in name or a folder, with what it must hide
# ('order': lists in a secret order; 'values': secret contents, private attributes or faces
# the page never sees). A new ruleset is one line here.
RULESETS = {
    "original": {"order": False, "values": False},
    "marine": {"order": True, "values": True},
    "evolution": {"order": False, "values": False},
    "catastrophic": {"order": False, "values": True},   # hands; a response window asks only one seat
    str(FIXTURES / "faces"): {"order": False, "values": False, "faces": True},  # revealed to one seat, to all
    str(FIXTURES / "sealed"): {"order": False, "values": False},  # seats commit at once, revealed together
    # (every sealed value is revealed by the end; test_table_simultaneous.py looks before the reveal)
}


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


def _secret_values(game: Game, seat: int | None) -> set[str]:
    """Strings that sit where seat *seat* may not look (secret lists, others' private
    attributes; None: a spectator, for whom every private attribute is another's)."""
    hidden = game.ruleset.hidden
    me = game.state["players"][seat] if seat is not None else None
    found: set[str] = set()
    for record in game.state["ent"].values():
        for attr in sorted(hidden.contents):
            if isinstance(record.get(attr), list):
                _strings(record[attr], found)
        if not sees(hidden, record, me) if "seen_by" in record or hidden_face(hidden, record, me) \
                else owner_of(record) != me:
            for attr in sorted(hidden.private | hidden_face(hidden, record, me)):
                if attr in record:
                    _strings(record[attr], found)
    return found - {"?"}


def _secret_orders(game: Game) -> list[list[str]]:
    """Every list whose order is secret, in its real order, where its first items are not
    those of the sorted order (the order a view shows). (Not put in a known order by hand:
    the game must keep its history, for the replays.)"""
    orders = []
    for record in game.state["ent"].values():
        for attr in sorted(game.ruleset.hidden.order):
            items = record.get(attr)
            if isinstance(items, list) and len(set(map(str, items))) >= 3:
                order = [str(x) for x in items]
                if order[:4] != sorted(order)[:4]:
                    orders.append(order)
    return orders


def _get(running, path: str, body: dict | None = None) -> str:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(running.url + path, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.read().decode()


def _play_as(running, session: TableGame, seat: int) -> tuple[list[str], list[str]]:
    """Seat *seat* plays at its page (random picks, and some refused messages) while agents
    play the others and a spectator watches; the text of everything seat *seat*'s page and
    the spectator's page received (messages, errors, saves, replays)."""
    from websockets.sync.client import connect
    token = session.seating.invite(seat)
    received: list[str] = [_get(running, "/api/rulesets")]
    watched: list[str] = []
    rng = random.Random(5)
    decisions = 0
    with connect(running.ws(session, token), open_timeout=20) as socket, \
            connect(running.ws(session) + f"?seat={1 - seat}", open_timeout=20) as spectator:
        while decisions < HUMAN_DECISIONS:
            text = socket.recv(timeout=60)
            received.append(text)
            message = json.loads(text)
            if message.get("type") == "state" and message["over"]:
                break
            if message.get("type") == "state" and message["yours"]:
                if decisions % 8 == 3:  # refused ones: their errors are read too
                    socket.send(json.dumps({"type": "choose", "decision": message["decision"], "index": 10**6}))
                    socket.send(json.dumps({"type": "choose", "decision": "x/1", "index": 0}))
                    socket.send(json.dumps({"type": "ready"}))
                    socket.send("{")
                socket.send(json.dumps({"type": "choose", "decision": message["decision"],
                                        "index": rng.randrange(len(message["options"]))}))
                decisions += 1
        try:
            while True:
                watched.append(spectator.recv(timeout=0.5))
        except TimeoutError:
            pass
    for _ in range(600):  # the agents move on until it is the person's turn again
        if not session.agent_to_move():
            break
        time.sleep(0.05)
    for who, out, key in ((token, received, seat), (None, watched, None)):
        query = f"?token={token}&seat={seat}" if who else ""
        out.append(_get(running, f"/api/games/{session.ident}/save{query}"))
        record = json.loads(out[-1])
        if session.game.is_over:  # once the game is over, anyone may have the whole save (issue 21)
            assert {"state", "history"} <= set(record)
            out.pop()  # it holds everything by design: not a leak
        else:
            # A seat's record holds its own view now: what it holds counts as seen, once checked.
            now = session.game.view(key) if key is not None else public_view(session.game)
            assert set(record) >= {"view", "log"} and not {"state", "history"} & set(record), \
                f"more than the seat's record reached {'the spectator' if key is None else 'the seat'}: {sorted(record)}"
            assert json.loads(json.dumps(record["view"])) == json.loads(json.dumps(now))
            _shown(now, SHOWN.setdefault(key, set()))
        over = session.game.is_over
        url = json.loads(_get(running, f"/api/games/{session.ident}/replay", {"token": who, "seat": seat}))["url"]
        steps = _replay_all(running, url.rsplit("/", 1)[1], len(session.decisions))
        if not over:
            out.extend(steps)
        # once the game is over, its replay may show any seat's view (as its save holds
        # everything): by design, not a leak (a short game, such as 'sealed', ends in the test)
    return received, watched


def _replay_all(running, ident: str, steps: int) -> list[str]:
    """Every step of a replay as its page is sent it (and the refusal to show another seat)."""
    from websockets.sync.client import connect
    out = []
    with connect(running.url.replace("http", "ws", 1) + f"/ws/replay/{ident}?seat=1", open_timeout=20) as socket:
        out.append(socket.recv(timeout=60))
        socket.send(json.dumps({"type": "seat", "seat": 1}))
        out.append(socket.recv(timeout=60))
        # Every step of a short game; of a long one, 60 spread over it and the last. Paced as a
        # person steps: a page may send 20 messages a second (bursts of 40; connections.py).
        shown = sorted(set(range(1, steps + 1, max(1, steps // 60))) | {steps}) if steps else []
        for number, step in enumerate(shown):
            if number >= 30:
                time.sleep(0.05)
            socket.send(json.dumps({"type": "step", "to": step}))
            out.append(socket.recv(timeout=60))
    return out


def _shown(view: dict, out: set) -> set:
    """The strings a view shows somewhere (a card's own record, which every view has, does
    not count: where the card is, is what may be hidden; but a name a view shows where it
    may hide it, on an entity with a face, does)."""
    for record in view["ent"].values():
        faced = "seen_by" in record or record.get("name") == "?"
        _strings({k: v for k, v in record.items() if k not in ("id", "kind") and (faced or k != "name")}, out)
    return _strings({k: v for k, v in view.items() if k != "ent"}, out)


@pytest.fixture
def resampled(monkeypatch):
    """Check every seat message as it is built: built again from a copy of the game whose
    hidden parts are resampled (``Game.determinize``), it must come out the same. Records
    what each seat's view (and the spectators', None) showed."""
    from speciation.table import messages
    built = messages.seat_state
    differences: list[str] = []
    rng = random.Random(3)

    def checked(game, seat, seats, lang, view=None):
        message = built(game, seat, seats, lang, view)   # (the seat's view, when the table made it already)
        _shown(game.view(seat) if seat is not None else public_view(game), SHOWN.setdefault(seat, set()))
        # The faces this page does not see now and has never seen are in no text of it.
        unseen = _unseen_faces(game, seat) - SHOWN[seat]
        FACES_LOOKED_FOR[seat] = FACES_LOOKED_FOR.get(seat, 0) + len(unseen)
        text = json.dumps({**message, "svg": ""})
        differences.extend(f"the unseen face {word!r} is in a message: {text[:300]}" for word in sorted(unseen)
                           if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text))
        if seat is None:
            return message
        other = built(determinize(game, seat, rng), seat, seats, lang)
        # (The seat's own options are labelled by the rules from the game: a label may name
        # what this seat does see but the view does not model, e.g. a face-up tile on a pile.)
        for key in set(message) - {"options"}:
            if message[key] != other[key]:
                differences.append(f"{key}: {str(message[key])[:200]} / {str(other[key])[:200]}")
        return message

    monkeypatch.setattr(messages, "seat_state", checked)
    SHOWN.clear()
    FACES_LOOKED_FOR.clear()
    return differences


SHOWN: dict[int | None, set[str]] = {}   # the strings each seat's views showed when messages were built
FACES_LOOKED_FOR: dict[int | None, int] = {}  # how many unseen faces were looked for in its messages


def _unseen_faces(game: Game, seat: int | None) -> set[str]:
    """The values of the faces seat *seat* (None: a spectator) does not see, of 4 letters
    or more (the words that would name them)."""
    me = game.state["players"][seat] if seat is not None else None
    hidden = game.ruleset.hidden
    found: set[str] = set()
    for record in game.state["ent"].values():
        for attr in sorted(hidden_face(hidden, record, me)):
            _strings(record[attr], found)
    return {word for word in found if len(word) >= 4}


def _check_game(running, resampled, ruleset: str) -> None:
    """Play a game of *ruleset* as seat 1 with a spectator watching; assert nothing either
    page received holds what it may not see."""
    session = TableGame.new(f"leak-{random.random()}", ruleset, 3, ["human", "random", "random"],
                            seed=SEED, hotseat=False)
    orders = _secret_orders(session.game)
    assert orders or not RULESETS[ruleset]["order"], "the ruleset's bags are in a secret order"
    hidden = {0: _secret_values(session.game, 0), None: _secret_values(session.game, None)}
    rng_state = json.dumps(session.game.state["rng"])
    texts, watched = _play_as(running, session, 0)
    assert len(texts) > min(HUMAN_DECISIONS, len(session.decisions) // 3), \
        "the page was sent a message after each decision"
    assert any('"type": "error"' in t for t in texts)
    assert session.game.is_over or any('"speciation_seat_record"' in t for t in watched)
    for seat, pages in ((0, texts), (None, watched)):
        messages = [_parsed(t) for t in pages]
        # Another seat's options never reach this page.
        assert all(not m.get("options") for m in messages if m.get("type") == "state" and not m["yours"])
        # The seed, the RNG state, and any list in its secret order, never appear.
        everything = "\n".join(pages)
        assert rng_state not in everything and str(SEED) not in everything
        for order in orders:
            assert json.dumps(order[:4]) not in everything and ", ".join(order[:4]) not in everything
        # Secret contents and others' private values never appear: by id anywhere, by name in
        # the text parts (the picture may draw every card's own spaces, wherever the card is).
        leaks = _leak_candidates(session, hidden[seat] | _secret_values(session.game, seat), SHOWN.get(seat, set()))
        if RULESETS[ruleset]["values"]:
            assert leaks, "the ruleset hides values from this page: the test must have something to look for"
        for ident, names in leaks.items():
            for word in names:
                pattern = re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])")
                found = [t for t, m in zip(pages, messages) if pattern.search(_searchable(t, m, word == ident))]
                who = "the spectator's" if seat is None else "seat 1's"
                assert not found, f"the hidden value {ident!r} ({word!r}) reached {who} page: {found[0][:300]}"
    if RULESETS[ruleset].get("faces"):
        assert FACES_LOOKED_FOR.get(0) and FACES_LOOKED_FOR.get(None), "the test must have faces to look for"
    # Each message is the same when what the seat cannot see is changed.
    assert not resampled, "a message depends on what the seat cannot see: " + resampled[0]


def _searchable(text: str, message: dict, by_id: bool) -> str:
    """Where to look for a hidden value: a message's whole text for an id, its text parts
    (not the picture) for a name; in a seat's record, its view without the entities' own
    keys (every view has every card's record: where the card is, is what may be hidden)."""
    if "view" in message:
        view = message["view"]
        records = [{k: v for k, v in r.items() if k not in ("id", "name", "kind")} for r in view["ent"].values()]
        return json.dumps({**message, "view": {**view, "ent": records}})
    return text if by_id else json.dumps({**message, "svg": ""})


def _parsed(text: str) -> dict:
    data = json.loads(text)
    return data if isinstance(data, dict) else {"list": data}


@pytest.mark.parametrize("ruleset", list(RULESETS), ids=lambda r: r.rsplit("/", 1)[-1])
def test_nothing_a_page_receives_holds_what_it_may_not_see(running, resampled, ruleset):
    _check_game(running, resampled, ruleset)


@pytest.mark.parametrize("leak", ["message", "save", "spectator", "face"])
def test_an_injected_leak_is_found(running, resampled, monkeypatch, leak):
    """The check above fails when a leak is put in: another seat's secret traits in a state
    message, the whole save handed to a seat mid-game, the spectator shown seat 2's view, a
    log line naming a card to every seat that does not see it (faces)."""
    if leak == "face":
        from speciation.interpreter import visibility
        monkeypatch.setattr(visibility, "log_lines", lambda rt, values, render: None)
        with pytest.raises(AssertionError, match="the unseen face"):
            _check_game(running, resampled, str(FIXTURES / "faces"))
        return
    from speciation.table import messages, session as session_module
    if leak == "message":
        built = messages.seat_state

        def leaky(game, seat, seats, lang, view=None):
            message = built(game, seat, seats, lang, view)
            other = game.state["players"][1]
            held = [str(r[a]) for r in game.state["ent"].values() if other in (r.get("player"), r["id"])
                    for a in sorted(game.ruleset.hidden.private) if r.get(a)]
            message["log"] = message["log"] + held
            return message
        monkeypatch.setattr(messages, "seat_state", leaky)
    elif leak == "save":
        monkeypatch.setattr(session_module.TableGame, "seat_record", lambda self, seat: self.save_json())
    else:   # the spectator's view of a position (table/views.py) is seat 2's
        from speciation.table.views import PositionViews
        made = PositionViews.view
        monkeypatch.setattr(PositionViews, "view", lambda self, seat: made(self, 1 if seat is None else seat))
    with pytest.raises(AssertionError, match="reached"):
        _check_game(running, resampled, "marine")


def _leak_candidates(session: TableGame, secret: set[str], public: set[str]) -> dict[str, set[str]]:
    """Hidden values the page never saw, with the words that name them (id and names)."""
    ruleset = session.game.ruleset
    ent = session.game.state["ent"]
    # a card with copies: a copy the page saw names the hidden copies of the same card too
    seen_names = {ent[i].get("name") for i in public if i in ent}
    out = {}
    for ident in secret - public:
        names = {ident}
        record = session.game.state["ent"].get(ident, {})
        if isinstance(record.get("name"), str):
            names.add(record["name"])
        for labels in ruleset.labels.values():
            if isinstance(labels.get(ident), str):
                names.add(labels[ident])
        out[ident] = {n for n in names if len(n) >= 4 and n not in public and n not in seen_names}
    return {k: v for k, v in out.items() if v}
