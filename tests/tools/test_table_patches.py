"""A page that takes patches (``?patch=1``, as static/table.js asks) is sent a state's picture
as the lines that changed since the picture it was sent last, and its log as the lines after
those it keeps of the log it was sent last (``messages.patched``): made again as the page
does, every picture and log is the one sent whole to a page that does not take them, and the
patches are smaller than the pictures."""
from __future__ import annotations

import json
import random

from support.table_support import RunningTable, need_table_extra

need_table_extra()

from websockets.sync.client import connect  # noqa: E402

from speciation.table.messages import patched  # noqa: E402
from speciation.table.session import TableGame  # noqa: E402


def made_again(picture: str, message: dict) -> str:
    """What static/table.js makes of a state: its picture, whole or from the last one."""
    if "svg_patch" not in message:
        return message["svg"]
    patch = message["svg_patch"]
    lines = picture.split("\n")[:patch["length"]]
    lines += [""] * (patch["length"] - len(lines))
    for number, line in patch["lines"].items():
        lines[int(number)] = line
    return "\n".join(lines)


def log_again(log: list[str], message: dict) -> list[str]:
    """What static/table.js makes of a state's log: whole, or the last lines it showed and the new."""
    if "log_patch" not in message:
        return message["log"]
    keep = message["log_patch"]["keep"]
    return log[len(log) - keep:] + message["log_patch"]["add"]


def test_a_log_patch_keeps_the_lines_shown_that_begin_the_new_log():
    old = [f"line {i}" for i in range(10)] + ["passes", "passes"]
    for new, keep in ((old + ["passes", "new"], 12),                 # lines added
                      (old[3:] + ["more"], 9),                        # the window moved on, a line added
                      (["passes", "passes", "passes", "x"], 2),       # repeated lines: the most that fit
                      (["other"], 0), ([], 0)):                        # nothing kept: the log whole
        message = patched({"type": "state", "log": new}, None, old)
        assert ("log" in message) == (keep == 0) and message.get("log_patch", {}).get("keep", 0) == keep, (new, message)
        assert log_again(old, json.loads(json.dumps(message))) == new
    assert patched({"type": "state", "log": ["a"]}, None, None) == {"type": "state", "log": ["a"]}   # nothing shown yet


def test_a_patch_makes_the_picture_again_and_only_a_state_is_patched():
    cells = "\n".join(f"<g>cell {i}</g>" for i in range(20))
    old = f"<svg>\n{cells}\n<g>b</g>\n</svg>"
    new = f"<svg>\n{cells}\n<g>c</g>\n<g>d</g>\n</svg>"
    message = patched({"type": "state", "svg": new, "yours": True}, old)
    assert "svg" not in message and message["yours"] is True
    assert message["svg_patch"] == {"length": 24, "lines": {21: "<g>c</g>", 22: "<g>d</g>", 23: "</svg>"}}
    assert made_again(old, json.loads(json.dumps(message))) == new
    assert patched({"type": "state", "svg": new}, None) == {"type": "state", "svg": new}   # nothing shown yet
    assert "svg" in patched({"type": "state", "svg": new}, "x\ny")   # most of it changed: whole
    assert patched({"type": "handover", "seat": 1}, old) == {"type": "handover", "seat": 1}


def test_a_page_taking_patches_makes_every_picture_it_was_sent_exactly():
    running = RunningTable()
    running.table.record = True   # every state built for a page, whole
    try:
        session = TableGame.new("patches", "original", 3, ["human", "random", "random"], seed=5)
        url = running.ws(session, session.seating.invite(0))
        pick = random.Random(5)
        picture, sizes, log, logs_patched = "", [], [], 0
        with connect(url + "&patch=1", max_size=None) as page:
            for _ in range(40):
                message = json.loads(page.recv(timeout=30))
                if message["type"] != "state":
                    continue
                picture, log = made_again(picture, message), log_again(log, message)
                built = [m for seat, m in list(running.table.sent) if seat == 0 and m["decision"] ==
                         message["decision"] and m["log"] == log]
                assert built and all(m["svg"] == picture for m in built)
                assert {k: v for k, v in message.items() if k not in ("svg", "svg_patch", "log_patch")} | {"log": log} \
                    == {k: v for k, v in built[-1].items() if k != "svg"}
                logs_patched += "log_patch" in message
                sizes.append((len(json.dumps(message)), len(json.dumps(built[-1]))))
                if message["over"]:
                    break
                if message["yours"]:
                    page.send(json.dumps({"type": "choose", "decision": message["decision"],
                                          "index": pick.randrange(len(message["options"]))}))
        assert len(sizes) >= 10 and sizes[0][0] == sizes[0][1]   # the first picture whole
        assert logs_patched >= len(sizes) // 2, (logs_patched, len(sizes))
        patches = [(small, big) for small, big in sizes[1:] if small < big]
        assert len(patches) >= len(sizes) // 2, sizes   # most pictures sent as patches, most of them small
        assert sorted(small / big for small, big in patches)[len(patches) // 2] < 0.2, sizes
    finally:
        running.stop()


def test_after_a_hand_over_the_next_picture_comes_whole():
    import asyncio

    from speciation.table.connections import Connection

    class Socket:
        def __init__(self):
            self.texts: list[dict] = []

        async def send_text(self, text):
            self.texts.append(json.loads(text))

    cells = "\n".join(f"<g>cell {i}</g>" for i in range(20))

    async def scenario():
        socket = Socket()
        conn = Connection(socket, patches=True)  # type: ignore[arg-type]
        conn.start()
        for message in ({"type": "state", "svg": cells + "\n<g>a</g>", "log": ["1"]},
                        {"type": "state", "svg": cells + "\n<g>b</g>", "log": ["1", "2"]},
                        {"type": "handover", "seat": 1}, {"type": "state", "svg": cells + "\n<g>c</g>", "log": ["1", "2"]}):
            conn.send(message)
            await asyncio.sleep(0.05)
        await conn.finish()
        return socket.texts

    first, patch, handover, after = asyncio.run(scenario())
    assert "svg" in first and patch["svg_patch"]["lines"] == {"20": "<g>b</g>"} and handover["type"] == "handover"
    assert patch["log_patch"] == {"keep": 1, "add": ["2"]}
    assert after["svg"] == cells + "\n<g>c</g>" and after["log"] == ["1", "2"]   # the hand-over emptied the page: whole again
