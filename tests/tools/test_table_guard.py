"""What the table refuses (issue 21, deliverables 8 and 9), beyond test_table_seats.py: mods
brought as uploaded content (size-limited, checked as untrusted rule files, errors in the
uploaded file's own name, never a server file), foreign and tampered saves, and bad
messages on the replay socket and from a creator's page; each a clear error (a 4xx with a
JSON error, or an error message on an open socket), the game unchanged."""
from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from support.table_support import RunningTable, need_table_extra

need_table_extra()

from websockets.sync.client import connect  # noqa: E402

from speciation.table.uploads import MAX_MOD, file_name  # noqa: E402

NOTHING = "mod: nothing\ntitle: Nothing at all\n"
SHORTER = ("mod: shorter\ntitle: A shorter Aquatic text\ncards:\n  aquatic:\n"
           "    text: Place up to 4 species on one tile.\n")
BROKEN = "mod: broken\nfunctions:\n  lucky(f): len(occupied_by(f)) +* 2\n"


@pytest.fixture(scope="module")
def running():
    server = RunningTable()
    yield server
    server.stop()


def request(running, path, body=None, method=None):
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    req = urllib.request.Request(running.url + path, data=data, method=method or ("POST" if data is not None else "GET"),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=120) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def recv(socket, kind, timeout=30):
    while True:
        message = json.loads(socket.recv(timeout=timeout))
        if message["type"] == kind:
            return message


# ---- mods as uploaded content ------------------------------------------------------------------

def test_an_uploaded_mod_is_checked_and_a_game_plays_with_it(running):
    status, answer = request(running, "/api/mods", {"ruleset": "original",
                                                    "uploads": [{"name": "shorter.yaml", "text": SHORTER}]})
    assert status == 200, answer
    (mod,) = answer["mods"]
    assert mod["name"] == "shorter.yaml" and mod["title"] == "A shorter Aquatic text" and mod["digest"]
    assert "path" not in mod and "/" not in json.dumps(answer).replace("/api", "")
    games = len(running.table.sessions)
    status, links = request(running, "/api/games", {"ruleset": "original", "players": 2,
                                                    "uploads": [{"name": "shorter.yaml", "text": SHORTER}]})
    assert status == 200, links
    session = running.table.sessions[links["game"]]
    assert len(running.table.sessions) == games + 1
    assert session.game.ruleset.mod_digests == [mod["digest"]]   # the game records the mod by content
    assert session.game.ruleset.cards["aquatic"].text == "Place up to 4 species on one tile."


def test_an_uploaded_mods_errors_are_positioned_in_its_own_name(running):
    status, answer = request(running, "/api/mods", {"ruleset": "original",
                                                    "uploads": [{"name": "lucky.yaml", "text": BROKEN}]})
    assert status == 400
    error = answer["error"]
    assert error.startswith("lucky.yaml:3:") and "speciation-uploads" not in error and "/tmp" not in error
    games = len(running.table.sessions)
    status, answer = request(running, "/api/games", {"ruleset": "original", "players": 2,
                                                     "uploads": [{"name": "lucky.yaml", "text": BROKEN}]})
    assert status == 400 and answer["error"].startswith("lucky.yaml:3:")
    assert len(running.table.sessions) == games


@pytest.mark.parametrize("name,text", [
    ("../../../etc/passwd", NOTHING + "extends: /etc/passwd\n"),
    ("/proc/self/environ", "mod: x\nextends: ../../../../proc/self\n"),
    ("x.yaml", "card: Stolen\ndeck: dominance\ntext: !!python/object/apply:os.system ['true']\n"),
    ("x.yaml", "a: &a [1, 2]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b]\n"),
])
def test_an_uploaded_mod_reads_no_server_file(running, name, text):
    status, answer = request(running, "/api/mods", {"ruleset": "original", "uploads": [{"name": name, "text": text}]})
    assert status == 400, answer
    error = answer["error"]
    assert "root:" not in error and "PATH=" not in error and "Traceback" not in error
    assert "/etc" not in error.split(":", 1)[0] and "speciation-uploads" not in error


def test_uploaded_names_are_plain_file_names():
    assert file_name("../../etc/passwd") == "passwd.yaml"
    assert file_name("C:\\mods\\fast mod.yml") == "fast_mod.yaml"
    assert file_name("") == file_name("...") == "mod.yaml"


@pytest.mark.parametrize("body,status,says", [
    ({"ruleset": "original", "uploads": [{"name": "big.yaml", "text": "#" * (MAX_MOD + 1)}]}, 413, "larger than"),
    ({"ruleset": "original", "uploads": "mod: x"}, 400, "must be a list"),
    ({"ruleset": "original", "uploads": [{"name": "x.yaml"}]}, 400, "must be {"),
    ({"ruleset": "original", "uploads": [{"name": "x.yaml", "text": 5}]}, 400, "must be {"),
    ({"ruleset": "original", "uploads": [{"text": NOTHING}] * 9}, 400, "at most 8"),
    ({"ruleset": "original"}, 400, "upload at least one mod"),
    ({"ruleset": "/etc/passwd", "uploads": [{"text": NOTHING}]}, 400, "no ruleset named"),
])
def test_bad_uploads_are_a_4xx(running, body, status, says):
    got, answer = request(running, "/api/mods", body)
    assert got == status and says in answer["error"], answer


# ---- saves from elsewhere ------------------------------------------------------------------------

def a_save(running) -> dict:
    status, links = request(running, "/api/games", {"ruleset": "marine", "players": 2, "seats": ["human", "human"]})
    session = running.table.sessions[links["game"]]
    for _ in range(4):
        assert session.choose(session.decider, session.game.decision_id, 0) is None
    return json.loads(session.save_json())


@pytest.mark.parametrize("change,says", [
    (lambda s: s["ruleset"].update(name="/etc/passwd"), "ruleset"),
    (lambda s: s["ruleset"].update(name="original"), ""),             # a foreign game under other rules
    (lambda s: s["ruleset"].update(mods=["feedfacefeedface"]), "mod"),  # made with a mod this server lacks
    (lambda s: s["history"]["decisions"].append(["nobody", 3]), ""),
    (lambda s: s["history"].update(seed=s["history"]["seed"] + 1), ""),
    (lambda s: s["history"]["decisions"].__setitem__(0, [True, False]), ""),
    (lambda s: s.update(state=[]), ""),
    (lambda s: s.update(format="something-else"), ""),
])
def test_a_foreign_or_tampered_save_is_refused(running, change, says):
    save = a_save(running)
    assert request(running, "/api/resume", json.dumps(save).encode())[0] == 200
    games = len(running.table.sessions)
    change(save)
    status, answer = request(running, "/api/resume", json.dumps(save).encode())
    assert status == 400 and says in answer["error"], answer
    assert "root:" not in answer["error"] and "Traceback" not in answer["error"]
    assert len(running.table.sessions) == games


# ---- bad messages on the other sockets -----------------------------------------------------------

def test_a_creators_bad_messages_get_errors_and_change_nothing(running):
    status, links = request(running, "/api/games", {"ruleset": "original", "players": 2, "seats": ["human", "human"],
                                                    "hotseat": False})
    session = running.table.sessions[links["game"]]
    kinds = list(session.seats)
    url = running.url.replace("http", "ws", 1) + f"/ws/play/{session.ident}?token={links['url'].split('#t=')[1]}"
    with connect(url, max_size=None) as page:
        recv(page, "state")
        for message, says in [({"type": "invite", "seat": True}, "no such seat"),
                              ({"type": "invite", "seat": "0"}, "no such seat"),
                              ({"type": "invite", "seat": 7}, "no such seat"),
                              ({"type": "replace", "seat": 0, "agent": 5}, "unknown agent"),
                              ({"type": "replace", "seat": 0, "agent": "/bin/sh"}, "unknown agent"),
                              ({"type": "choose", "decision": session.game.decision_id, "index": 0}, "watches")]:
            page.send(json.dumps(message))
            assert says in recv(page, "error")["text"], message
    assert session.seats == kinds and session.decisions == []


def test_the_replay_socket_refuses_bad_messages_and_stays_open(running):
    save = a_save(running)
    status, answer = request(running, "/api/replay", json.dumps(save).encode())
    assert status == 200, answer
    url = running.url.replace("http", "ws", 1) + "/ws" + answer["url"]
    with connect(url, max_size=None) as page:
        assert recv(page, "state")["step"] == 0
        for message, says in [("{", "must be JSON"), ('{"type": "step", "to": true}', "whole number"),
                              ('{"type": "step", "to": -1}', "whole number"), ('{"type": "seat", "seat": 9}', "whole number"),
                              ('{"type": "fly"}', "unknown message type 'fly'")]:
            page.send(message)
            assert says in recv(page, "error")["text"], message
        page.send('{"type": "step", "to": 2}')
        assert recv(page, "state")["step"] == 2


def test_a_message_is_measured_in_utf8_bytes_before_it_is_parsed():
    """The 64 KiB limit counts a message's UTF-8 bytes, not its characters (a letter such as
    ż is two bytes), whether or not its length alone settles it."""
    from speciation.table.guard import MAX_MESSAGE, Refused, parse_message

    def padded(letter: str, count: int) -> str:
        return json.dumps({"type": "ready", "pad": letter * count}, ensure_ascii=False)

    assert parse_message(padded("ż", MAX_MESSAGE // 2 - 40))["type"] == "ready"   # under 64 KiB in bytes
    for text in (padded("ż", MAX_MESSAGE // 2 + 10), padded("x", MAX_MESSAGE), padded("😀", MAX_MESSAGE // 4)):
        with pytest.raises(Refused, match="larger than 64 KiB"):
            parse_message(text)
