"""Seats that belong to people (issue 21): invite links with secret tokens, spectators,
decision ids on every action, and input a page may send that the server refuses with a
clear error and the game unchanged (HTTP routes: a 4xx with a JSON error, never a 500;
the websocket: an error message, the socket open). Over a real server, without a browser."""
from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from support.table_support import RunningTable, drain, need_table_extra, recv

need_table_extra()

from websockets.sync.client import connect  # noqa: E402

from speciation.table.seats import token_hash  # noqa: E402
from speciation.table.session import TableGame  # noqa: E402


@pytest.fixture(scope="module")
def running():
    server = RunningTable()
    yield server
    server.stop()


def request(running, path, body=None, method=None, headers=None):
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    req = urllib.request.Request(running.url + path, data=data, method=method or ("POST" if data is not None else "GET"),
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=60) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def new_game(running, **body):
    status, text = request(running, "/api/games", {"ruleset": "marine", "players": 2, "seats": ["human", "human"],
                                                   "hotseat": False, **body})
    assert status == 200, text
    data = json.loads(text)
    return running.table.sessions[data["game"]], data


def token_of(url: str) -> str:
    return url.split("#t=", 1)[1]




# ---- credentials -----------------------------------------------------------------------------

def test_a_new_game_gives_an_invite_per_person_and_keeps_only_hashes(running):
    session, data = new_game(running, seats=["human", "random", "human"], players=3)
    assert [i["seat"] for i in data["invites"]] == [0, 2]  # an agent's seat cannot be opened
    assert data["spectator"] == f"/play/{session.ident}" and "#t=" in data["url"]
    tokens = [token_of(i["url"]) for i in data["invites"]] + [token_of(data["url"])]
    assert len(set(tokens)) == 3 and all(len(t) >= 30 for t in tokens)
    kept = json.dumps(session.seating.to_dict())
    assert not any(t in kept for t in tokens) and token_hash(tokens[0]) in kept
    assert session.seating.seats_of(tokens[0]) == [0] and session.seating.seats_of(tokens[1]) == [2]
    assert session.seating.seats_of(token_of(data["url"])) == []  # not hot-seat: the creator only watches
    assert session.seating.seats_of("made-up") == [] and session.seating.seats_of(None) == []


def test_a_page_acts_only_for_its_seat_and_sees_only_its_view(running):
    session, data = new_game(running)
    decider = session.decider
    mine, other = (token_of(data["invites"][s]["url"]) for s in (decider, 1 - decider))
    with connect(running.ws(session, other)) as socket:
        state = recv(socket)
        assert state["seat"] == 1 - decider and not state["yours"] and state["options"] == []
        socket.send(json.dumps({"type": "choose", "decision": state["decision"], "index": 0}))
        assert recv(socket, "error")["text"] == "it is not your decision"
    assert session.decisions == []
    with connect(running.ws(session, mine)) as socket:
        state = recv(socket)
        assert state["seat"] == decider and state["yours"] and state["options"]
        socket.send(json.dumps({"type": "choose", "decision": state["decision"], "index": 0}))
        recv(socket)
    assert len(session.decisions) == 1


def test_without_a_token_a_page_is_a_spectator_even_asking_for_a_seat(running):
    session, _ = new_game(running)
    for query in ("", "?seat=0", "?seat=1"):
        with connect(running.ws(session) + query) as socket:
            state = recv(socket)
            assert state["seat"] is None and state["seat_name"] == "a spectator"
            assert not state["yours"] and state["options"] == []
            socket.send(json.dumps({"type": "choose", "decision": state["decision"], "index": 0}))
            assert "watches the game" in recv(socket, "error")["text"]
    with connect(running.ws(session, "not-a-token")) as socket:
        assert "not (or no longer) valid" in recv(socket, "error")["text"]
        assert recv(socket)["seat"] is None
    assert session.decisions == []


def test_hot_seat_the_creator_page_plays_every_person_after_a_hand_over(running):
    session, data = new_game(running, hotseat=True)
    creator = token_of(data["url"])
    assert session.seating.seats_of(creator) == [0, 1]
    with connect(running.ws(session, creator)) as socket:
        first = json.loads(socket.recv(timeout=30))
        assert first["type"] == "handover" and first["seat"] == session.decider  # the first included
        socket.send(json.dumps({"type": "ready"}))
        state = recv(socket)
        assert state["yours"] and state["creator"]
        socket.send(json.dumps({"type": "ready"}))
        assert recv(socket, "error")["text"] == "there is no hand-over to accept"


def test_the_creator_hands_out_new_links_and_replaces_a_person_by_an_agent(running):
    session, data = new_game(running)
    creator, old = token_of(data["url"]), token_of(data["invites"][1]["url"])
    with connect(running.ws(session, old)) as socket:
        socket.send(json.dumps({"type": "invite", "seat": 1}))
        assert recv(socket, "error")["text"] == "only the page of the game's creator may hand out seats"
    with connect(running.ws(session, creator)) as socket:
        assert recv(socket)["creator"]
        socket.send(json.dumps({"type": "invite", "seat": 1}))
        new = token_of(recv(socket, "invite")["url"])
        assert session.seating.seats_of(new) == [1] and session.seating.seats_of(old) == []
        socket.send(json.dumps({"type": "replace", "seat": 1, "agent": "nobody"}))
        assert recv(socket, "error")["text"].startswith("unknown agent 'nobody'")
        socket.send(json.dumps({"type": "replace", "seat": 1, "agent": "random"}))
        while recv(socket)["players"][1]["kind"] != "random":  # the refusal's state may come first
            pass
    assert session.seats == ["human", "random"] and session.seating.seats_of(new) == []


# ---- decision ids ---------------------------------------------------------------------------

def test_a_repeated_or_late_action_is_refused_and_changes_nothing(running):
    session, data = new_game(running)
    token = token_of(data["invites"][session.decider]["url"])
    with connect(running.ws(session, token)) as socket:
        state = recv(socket)
        click = json.dumps({"type": "choose", "decision": state["decision"], "index": 0})
        socket.send(click)
        socket.send(click)  # a double click: the second answers a decision already taken
        texts = [m.get("text") for m in drain(socket, 1.0) if m["type"] == "error"]
        assert texts == ["that decision was already taken (or is not this game's): nothing was changed"]
        assert len(session.decisions) == 1
        digest = session.game.digest()
        for decision in ("other-game/0", None, 5, ""):
            socket.send(json.dumps({"type": "choose", "decision": decision, "index": 0}))
            assert recv(socket, "error")["text"]
        assert session.game.digest() == digest and len(session.decisions) == 1


@pytest.mark.parametrize("message,says", [
    ("{", "must be JSON"), ("[1, 2]", "JSON object"), ('{"kind": "choose"}', "name its type"),
    ('{"type": "shout"}', "unknown message type 'shout'"), ('{"type": 7}', "name its type"),
    ("x" * (70 * 1024), "larger than 64 KiB"),
])
def test_bad_messages_get_an_error_and_the_socket_stays_open(running, message, says):
    session, data = new_game(running)
    token = token_of(data["invites"][session.decider]["url"])
    digest = session.game.digest()
    with connect(running.ws(session, token)) as socket:
        recv(socket)
        socket.send(message)
        assert says in recv(socket, "error")["text"]
        socket.send(b"\x00binary")
        assert recv(socket, "error")["text"] == "send messages as JSON text"
        socket.send(json.dumps({"type": "ready"}))
        assert recv(socket, "error")  # still open, still answering
    assert session.game.digest() == digest


@pytest.mark.parametrize("index,says", [(True, "not true"), (False, "not false"), ("0", 'not "0"'),
                                        (1.5, "not 1.5"), (-1, "no option -1"), (10**6, "no option 1000000")])
def test_option_numbers_are_whole_numbers_in_range(running, index, says):
    session, data = new_game(running)
    token = token_of(data["invites"][session.decider]["url"])
    with connect(running.ws(session, token)) as socket:
        state = recv(socket)
        socket.send(json.dumps({"type": "choose", "decision": state["decision"], "index": index}))
        assert says in recv(socket, "error")["text"]
    assert session.decisions == []


# ---- HTTP routes: bad input is a 4xx with a JSON error ------------------------------------------

BAD_NEW = [b"{nope", b"[1]", b'"text"', {}, {"ruleset": 3}, {"ruleset": "/etc/passwd"},
           {"ruleset": "../rulesets/original"}, {"ruleset": "original", "mods": ["/usr/share"]},
           {"ruleset": "original", "mods": "x"}, {"ruleset": "original", "players": True},
           {"ruleset": "original", "players": "2"}, {"ruleset": "original", "players": 1000},
           {"ruleset": "original", "seed": -1}, {"ruleset": "original", "seed": 1.5},
           {"ruleset": "original", "seats": ["robot"]}, {"ruleset": "original", "seats": "human"},
           {"ruleset": "original", "variants": ["no-such-variant"]}, {"ruleset": "original", "hotseat": "yes"},
           {"ruleset": "original", "lang": ["pl"]}, {"ruleset": "original", "players": 9}]


@pytest.mark.parametrize("body", BAD_NEW, ids=[str(b)[:40] for b in BAD_NEW])
def test_a_bad_new_game_request_is_a_4xx_with_a_json_error(running, body):
    games = len(running.table.sessions)
    status, text = request(running, "/api/games", body)
    assert 400 <= status < 500, text
    error = json.loads(text)["error"]
    assert error and "root:" not in error and "Traceback" not in error
    assert len(running.table.sessions) == games


def test_other_routes_refuse_bad_input_with_a_4xx(running, tmp_path):
    session, _ = new_game(running)
    cases = [("/api/games/nope/save", None, "GET"), ("/api/games/nope/replay", {}, "POST"),
             (f"/api/games/{session.ident}/replay", b"{", "POST"),
             (f"/api/games/{session.ident}/replay", {"token": 5}, "POST"),
             ("/api/resume", b"{", "POST"), ("/api/resume", b"\xff\xfe", "POST"), ("/api/resume", b"[]", "POST"),
             ("/api/replay", b"{}", "POST")]
    for path, body, method in cases:
        status, text = request(running, path, body, method)
        assert 400 <= status < 500 and json.loads(text)["error"], (path, body, status, text[:200])
    # A body announced larger than the limit is refused before it is read.
    import http.client
    connection = http.client.HTTPConnection(running.url.split("//")[1], timeout=30)
    connection.putrequest("POST", "/api/resume")
    connection.putheader("Content-Length", str(5 * 2**20))
    connection.endheaders()
    response = connection.getresponse()
    assert response.status == 413 and "larger than 4 MB" in json.loads(response.read())["error"]
    connection.close()


def test_resume_refuses_an_edited_save_and_one_without_its_history(running):
    session, data = new_game(running, seats=["human", "human"], hotseat=True)
    for _ in range(6):
        session.choose(session.decider, session.game.decision_id, 0)
    status, text = request(running, f"/api/games/{session.ident}/save?token={token_of(data['url'])}")
    save = json.loads(text)
    assert status == 200 and "state" in save and "history" in save  # all people at one screen: the whole save
    assert request(running, "/api/resume", json.dumps(save).encode())[0] == 200
    player = save["state"]["players"][0]
    save["state"]["ent"][player]["vp"] = save["state"]["ent"][player].get("vp", 0) + 500
    status, text = request(running, "/api/resume", json.dumps(save).encode())
    assert status == 400 and "not the one its recorded decisions lead to" in json.loads(text)["error"]
    del save["history"]
    status, text = request(running, "/api/resume", json.dumps(save).encode())
    assert status == 400 and "no decision history" in json.loads(text)["error"]


def test_pages_of_other_origins_are_refused(running):
    session, data = new_game(running)
    evil = {"Origin": "http://evil.example"}
    assert request(running, "/api/games", {"ruleset": "original"}, headers=evil)[0] == 403
    rebinding = {"Origin": "http://evil.example:1234", "Host": "evil.example:1234"}
    assert request(running, "/api/games", {"ruleset": "original"}, headers=rebinding)[0] == 403
    port = running.url.rsplit(":", 1)[1]
    assert request(running, "/api/rulesets", headers={"Origin": f"http://127.0.0.1:{port}"})[0] == 200
    with pytest.raises(Exception) as refused:
        with connect(running.ws(session, token_of(data["url"])), origin="http://evil.example") as socket:
            socket.recv(timeout=5)
    assert "403" in str(refused.value)
    with connect(running.ws(session), origin=f"http://127.0.0.1:{port}") as socket:
        assert recv(socket)["seat"] is None


def test_a_listed_folder_is_offered_by_name_and_a_listed_mod_is_the_only_mod(tmp_path):
    mod = tmp_path / "nothing.yaml"
    mod.write_text("mod: nothing\ntitle: Nothing\n")
    server = RunningTable(rulesets={"mine": str(__import__("speciation").__path__[0] + "/../rulesets/original")},
                          mods={"nothing": str(mod)})
    try:
        status, text = request(server, "/api/rulesets")
        catalogue = json.loads(text)
        assert "mine" in [r["name"] for r in catalogue["rulesets"]] and catalogue["mods"] == ["nothing"]
        status, text = request(server, "/api/games", {"ruleset": "mine", "players": 2})
        assert status == 200, text
        status, text = request(server, "/api/games", {"ruleset": "original", "players": 2, "mods": [str(mod)]})
        # Refused, and the server reads nothing of the file it names: no line of it comes back (the
        # name the page sent may be echoed, cut to 60 characters: it is the page's own text).
        error = json.loads(text)["error"]
        assert status == 400 and "mod: nothing" not in error and "Nothing" not in error
    finally:
        server.stop()


# ---- saves and replays during a game --------------------------------------------------------

def test_a_seat_saves_and_replays_only_what_it_has_seen(running):
    session = TableGame.new("seen", "marine", 2, ["human", "random"], seed=7)
    running.add(session)
    token = session.seating.invite(0)
    status, text = request(running, f"/api/games/seen/save?token={token}")
    record = json.loads(text)
    assert status == 200 and record["seat"] == 0 and "state" not in record and "history" not in record
    assert not {"seed", "rng", "chance"} & record["view"].keys() and record["log"] == session.game.log_for(0)
    status, text = request(running, "/api/games/seen/save")
    assert json.loads(text)["seat"] is None  # a spectator's record
    status, text = request(running, "/api/games/seen/replay", {"token": token})
    replay = running.table.replays[json.loads(text)["url"].rsplit("/", 1)[1]]
    assert replay.only == 0
    status, text = request(running, "/api/games/seen/replay", {"token": token, "seat": 1})
    assert running.table.replays[json.loads(text)["url"].rsplit("/", 1)[1]].only == 0
    status, text = request(running, "/api/games/seen/replay", {})
    assert running.table.replays[json.loads(text)["url"].rsplit("/", 1)[1]].only is None
