"""Several seats deciding at once at the table (issue 22, "Simultaneous decisions"), over a
real server with websocket clients (no browser).

The fixture ruleset ``sealed`` (tests/support/fixtures/sealed) has every seat seal a stone
and a way to play it, all at the same time and privately; the stones are revealed together
once every seat has sealed. The tests check: each deciding seat's page gets its own options
at the same time and acts only for its own decision; two seats answer in either order and
the third seat's page, a spectator's, their saves (seat records), replays and the lobby's
listing never show either stone before the reveal (they do after it: the check can fail);
a stale, repeated or foreign action is refused with the game unchanged; hot-seat hands the
screen over between the seats that must decide; the lobby says "your turn" to every deciding
seat; agents answer their parts without waiting on the people; a replay steps through the
seats' answers one by one; a kept game (its database record) resumes mid-step.
"""
from __future__ import annotations

import asyncio
import json
import time
import urllib.request

import pytest

from support.ruleset_builder import FIXTURES
from support.table_support import RunningTable, drain, need_table_extra, recv

need_table_extra()

from websockets.sync.client import connect  # noqa: E402

from speciation.table.session import TableGame  # noqa: E402

SEALED = str(FIXTURES / "sealed")
STONES = ("amethyst", "basalt", "cobalt")
STYLES = ("boldly", "quietly")


@pytest.fixture(scope="module")
def running():
    server = RunningTable()
    yield server
    server.stop()


def get(running, path: str, body: dict | None = None) -> str:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(running.url + path, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.read().decode()




def new_game(seats=("human", "human", "human"), hotseat=False, seed=11) -> TableGame:
    return TableGame.new(f"sim-{time.monotonic_ns()}", SEALED, len(seats), list(seats), seed=seed, hotseat=hotseat)


def without_own_options(message: dict) -> str:
    """A message's text without the seat's own options (which list every stone to choose)."""
    return json.dumps({k: v for k, v in message.items() if k != "options"})


def choose(socket, state: dict, label: str) -> None:
    index = next(o["index"] for o in state["options"] if o["label"] == label)
    socket.send(json.dumps({"type": "choose", "decision": state["decision"], "index": index}))


def seal(socket, stone: str, style: str, state: dict | None = None) -> None:
    """A seat's whole part: its stone, then how to play it (*state*: the page's latest
    state message, if it was read already)."""
    state = state or recv(socket)
    while not (state["yours"] and state["prompt"] == "seal a stone"):
        state = recv(socket)
    choose(socket, state, stone)
    state = recv(socket)
    while not (state["yours"] and state["prompt"] == "how to play it"):
        state = recv(socket)
    choose(socket, state, style)


def record_text(running, session, token=None, seat=None) -> dict:
    query = f"?token={token}&seat={seat}" if token else ""
    return json.loads(get(running, f"/api/games/{session.ident}/save{query}"))


def replay_steps(running, session, token, seat) -> list[dict]:
    """Every step of the replay a seat's page may open now (only what that seat saw)."""
    running.table.sessions[session.ident] = session
    url = json.loads(get(running, f"/api/games/{session.ident}/replay", {"token": token, "seat": seat}))["url"]
    out = []
    with connect(running.url.replace("http", "ws", 1) + f"/ws/replay/{url.rsplit('/', 1)[1]}") as socket:
        out.append(recv(socket))
        for step in range(1, len(session.decisions) + 1):
            socket.send(json.dumps({"type": "step", "to": step}))
            out.append(recv(socket))
    return out


@pytest.mark.parametrize("first", [0, 1])
def test_two_seats_answer_in_either_order_and_the_third_sees_no_choice_before_the_reveal(running, first):
    session = new_game()
    tokens = [session.seating.invite(seat) for seat in range(3)]
    other = 1 - first
    stones = {0: "cobalt", 1: "basalt"}
    with connect(running.ws(session, tokens[0])) as seat0, connect(running.ws(session, tokens[1])) as seat1, \
            connect(running.ws(session, tokens[2])) as third, connect(running.ws(session)) as spectator:
        pages = {0: seat0, 1: seat1}
        # Every deciding seat has its own options at the same time, with its own decision id.
        states = [recv(seat0), recv(seat1), recv(third)]
        assert all(s["yours"] and s["deciders"] == [0, 1, 2] and s["prompt"] == "seal a stone" for s in states)
        assert all([o["label"] for o in s["options"]] == list(STONES) for s in states)
        assert len({s["decision"] for s in states}) == 3
        watching = recv(spectator)
        assert not watching["yours"] and watching["options"] == [] and watching["deciders"] == [0, 1, 2]
        assert watching["prompt"] == ""   # only that the seats decide, not what they are asked
        assert "seal a stone" not in watching["svg"]   # nor in the picture's heading
        assert watching["decision"] is None   # nor a seat's decision id (it says when its part asked)
        # The two seats answer, in the order given; each goes on with its own part at once.
        seal(pages[first], stones[first], "quietly", states[first])
        seal(pages[other], stones[other], "quietly", states[other])
        time.sleep(0.3)
        assert session.deciders == [2] and len(session.decisions) == 4
        heard, watched = drain(third), drain(spectator)
        seen = heard + watched
        assert heard and watched, "the third seat's page and the spectator's heard of the others' answers"
        last = [m for m in heard if m["type"] == "state"][-1]
        assert last["deciders"] == [2] and last["decider_names"] == [last["players"][2]["name"]]
        assert last["yours"] and last["prompt"] == "seal a stone"
        assert [m["decision"] for m in watched if m["type"] == "state"] == [None] * len(watched)
        # Before the reveal, nothing any other page may read holds either sealed stone.
        third_record = record_text(running, session, tokens[2], 2)
        watcher_record = record_text(running, session)
        own = third_record["view"]["pending"]
        assert own["options"] == list(STONES) and third_record["view"]["ent"]["p1"]["sealed"] == "?"
        third_record["view"]["pending"] = {k: v for k, v in own.items() if k != "options"}
        mine = json.loads(get(running, "/api/mine", {"games": [{"game": session.ident, "token": t} for t in tokens]}))
        texts = ([without_own_options(m) for m in seen + states[2:]] + [json.dumps(third_record),
                 json.dumps(watcher_record), json.dumps(mine)]
                 + [json.dumps(m) for m in replay_steps(running, session, tokens[2], 2)]
                 + [json.dumps(m) for m in replay_steps(running, session, None, None)])
        for text in texts:
            for word in (stones[0], stones[1], "quietly"):
                assert word not in text, f"{word!r} reached a page before the reveal: {text[:300]}"
        # The third seat seals: the stones are revealed to every page together.
        seal(third, "amethyst", "boldly", last)
        after = recv(third)
        while "cobalt" not in json.dumps(after["log"]):
            after = recv(third)
        log = "\n".join(after["log"])
        assert "reveals cobalt" in log and "reveals basalt" in log and "reveals amethyst" in log
        assert "quietly" not in json.dumps({**after, "options": []})  # the others' ways stay theirs
        assert after["deciders"] == [0] and after["prompt"] == "take a point"  # an ordinary decision again


def test_a_page_acts_only_for_its_own_decision_and_stale_or_double_actions_are_refused(running):
    session = new_game()
    tokens = [session.seating.invite(seat) for seat in range(3)]
    with connect(running.ws(session, tokens[0])) as seat0, connect(running.ws(session, tokens[1])) as seat1:
        mine, theirs = recv(seat0), recv(seat1)
        digest = session.game.digest()
        # Seat 1's decision id sent by seat 0's page: not its decision.
        seat0.send(json.dumps({"type": "choose", "decision": theirs["decision"], "index": 0}))
        assert recv(seat0, "error")["text"] == "it is not your decision"
        for decision in ("nonsense", mine["decision"].split("/")[0] + "/99:0", None):
            seat0.send(json.dumps({"type": "choose", "decision": decision, "index": 0}))
            assert recv(seat0, "error")
        assert session.game.digest() == digest and session.decisions == []
        # A double click: the second names a decision already taken.
        seat0.send(json.dumps({"type": "choose", "decision": mine["decision"], "index": 2}))
        seat0.send(json.dumps({"type": "choose", "decision": mine["decision"], "index": 1}))
        error = recv(seat0, "error")
        assert "already taken" in error["text"]
        assert len(session.decisions) == 1 and session.decisions[0][1] == "cobalt"
        # Seat 1's own decision is untouched: its id still works.
        seat1.send(json.dumps({"type": "choose", "decision": theirs["decision"], "index": 0}))
        while len(session.decisions) < 2:
            recv(seat1)
        assert [d[1] for d in session.decisions] == ["cobalt", "amethyst"]


def test_hot_seat_hands_over_between_the_seats_that_must_decide(running):
    session = new_game(hotseat=True)
    url = running.add(session)
    creator = url.split("#t=", 1)[1]
    with connect(running.ws(session, creator)) as page:
        shown = []
        for seat, stone in ((0, "cobalt"), (1, "basalt"), (2, "amethyst")):
            handover = recv(page, "handover")
            assert handover["seat"] == seat   # the next person who must decide, nothing else shown
            assert set(handover) == {"type", "seat", "seat_name"}
            page.send(json.dumps({"type": "ready"}))
            state = recv(page)
            assert state["seat"] == seat and state["yours"] and state["prompt"] == "seal a stone"
            shown.append(without_own_options(state))
            choose(page, state, stone)
            state = recv(page)
            assert state["seat"] == seat and state["prompt"] == "how to play it"   # its own part goes on
            shown.append(without_own_options(state))
            choose(page, state, "quietly")
        # Each person saw none of the stones sealed before their turn at the screen.
        assert "cobalt" not in shown[2] + shown[3] and "basalt" not in shown[4] + shown[5]
        assert "cobalt" not in shown[4] + shown[5]
        handover = recv(page, "handover")   # the reveal, then an ordinary decision of seat 1
        assert handover["seat"] == 0


def test_the_lobby_says_your_turn_to_every_seat_that_must_decide(running):
    session = new_game()
    tokens = [session.seating.invite(seat) for seat in range(3)]

    def mine(seat):   # each seat's browser asks about its games
        body = {"games": [{"game": session.ident, "token": tokens[seat]}]}
        [game] = json.loads(get(running, "/api/mine", body))["games"]
        assert game["mine"] == [seat]
        return game

    running.table.sessions[session.ident] = session
    assert all(mine(seat)["yours"] and mine(seat)["deciding"] == [0, 1, 2] for seat in range(3))
    with connect(running.ws(session, tokens[1])) as seat1:
        seal(seat1, "basalt", "boldly")
        while session.deciders != [0, 2]:
            recv(seat1)
    listed = [mine(seat) for seat in range(3)]
    assert [g["yours"] for g in listed] == [True, False, True]
    assert all(g["deciding"] == [0, 2] and "basalt" not in json.dumps(g) for g in listed)


def test_agents_answer_their_parts_without_waiting_on_the_person(running):
    session = new_game(seats=("human", "random", "random"))
    token = session.seating.invite(0)
    with connect(running.ws(session, token)) as page:
        state = recv(page)
        assert state["yours"]
        deadline = time.monotonic() + 30
        while state["deciders"] != [0] and time.monotonic() < deadline:
            state = recv(page)   # the page hears of each agent's answer
        assert session.deciders == [0] and len(session.decisions) == 4   # two agents, two answers each
        assert state["yours"] and state["prompt"] == "seal a stone" and session.agent_to_move() is False
        seal(page, "cobalt", "boldly", state)
        while not any("reveals" in line for line in recv(page)["log"]):
            pass


def test_a_replay_steps_through_each_seats_answer(running):
    session = new_game()
    for seat, stone, style in ((2, "amethyst", "boldly"), (0, "cobalt", "quietly"), (1, "basalt", "boldly")):
        for value in (stone, style):
            decision = next(d for d in session.game.decisions() if d.player == seat)
            assert session.choose(seat, decision.id, [a.value for a in decision.legal_actions()].index(value)) is None
    assert session.deciders == [0]
    steps = replay_steps(running, session, None, None)   # a spectator's replay, mid-game
    assert [s["answered"] for s in steps] == [None, 2, 2, 0, 0, 1, 1]
    assert [s["deciders"] for s in steps] == [[0, 1, 2], [0, 1, 2], [0, 1], [0, 1], [1], [1], [0]]
    assert not any(stone in json.dumps(s) for s in steps[:6] for stone in STONES)
    assert "reveals cobalt" in "\n".join(steps[6]["log"])


def test_a_kept_game_resumes_in_the_middle_of_a_simultaneous_step(tmp_path):
    from speciation.table.persist import catch_up, record_of, restore
    from speciation.table.store import Store, database_url

    session = new_game()
    session.origin = SEALED
    for seat, value in ((1, "basalt"), (1, "quietly"), (0, "cobalt")):
        decision = next(d for d in session.game.decisions() if d.player == seat)
        session._apply(seat, value, decision.id)
    record = record_of(session)
    assert record.deciding == [0, 2] and record.turn == 0

    async def kept():
        store = Store(database_url(data=tmp_path))
        await store.open()
        await store.save(record)
        store.forget(record.ident)
        loaded = await store.load(record.ident)
        await store.close()
        return loaded

    loaded = asyncio.run(kept())
    assert loaded.deciding == [0, 2]
    again = restore(loaded, lambda name: name, lambda name: name)
    assert again.game.digest() == session.game.digest() and again.deciders == [0, 2]
    # Another process took seat 2's stone meanwhile: this one catches up in place.
    decision = next(d for d in session.game.decisions() if d.player == 2)
    session._apply(2, "amethyst", decision.id)
    assert catch_up(again, record_of(session)) and again.game.digest() == session.game.digest()


def test_an_older_database_gets_the_new_column(tmp_path):
    """A database made before the table kept every deciding seat is given the column."""
    import sqlite3

    from speciation.table.store import Store, database_url

    url = database_url(data=tmp_path)
    path = url.split("///", 1)[1]
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE games (ident VARCHAR(64) PRIMARY KEY, ruleset VARCHAR(200) NOT NULL, "
                       "title VARCHAR(200) NOT NULL, variants JSON NOT NULL, mods JSON NOT NULL, players INTEGER "
                       "NOT NULL, seed BIGINT NOT NULL, chance JSON NOT NULL, lang VARCHAR(20), seating JSON NOT "
                       "NULL, claimed JSON NOT NULL, listed BOOLEAN NOT NULL, turn INTEGER, decided INTEGER NOT "
                       "NULL, finished BOOLEAN NOT NULL, version INTEGER NOT NULL, created DATETIME NOT NULL, "
                       "updated DATETIME NOT NULL)")
    connection.commit()
    connection.close()
    session = new_game()
    session.origin = SEALED

    async def kept():
        store = Store(url)
        await store.open()
        from speciation.table.persist import record_of
        await store.save(record_of(session))
        store.forget(session.ident)
        loaded = await store.load(session.ident)
        await store.close()
        return loaded

    assert asyncio.run(kept()).deciding == [0, 1, 2]


def test_a_page_in_another_language_follows_each_seats_answer(running):
    """A Polish page reads the game in Polish (the game's history replayed in that language,
    each recorded answer applied to its seat's decision) and answers with the game's own id."""
    session = new_game()
    table = running.table
    for seat, value in ((1, "basalt"), (0, "cobalt")):
        decision = next(d for d in session.game.decisions() if d.player == seat)
        assert session._apply(seat, value, decision.id) is None
        for shown in (0, 1, 2):
            message = table.state_for(session, shown, "pl")
            own = next((d for d in session.game.decisions() if d.player == shown), None)
            assert message["decision"] == (own.id if own else session.game.decision_id)
            assert message["players"][0]["name"].startswith("Gracz 1")
    assert "kobalt" in json.dumps(table.state_for(session, 0, "pl")["log"])       # its own, in Polish
    assert "kobalt" not in without_own_options(table.state_for(session, 2, "pl"))  # not another's
    message = table.state_for(session, 0, "pl")
    assert session.choose(0, message["decision"], 0) is None   # the Polish page's id is the game's
