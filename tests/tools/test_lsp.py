"""The language server, driven over stdio as an editor would: initialize, open a broken
card, receive its diagnostics at the right place, ask completion, hover, definition."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytest.importorskip("pygls")

CARD = """\
card: Windfall
deck: dominance
text: Gain two VP.
provenance: {confidence: unknown, sources: [a test]}
effect: |
  gain_vp(you, "two")
  you.vpp += 1
"""


class Client:
    def __init__(self):
        self.process = subprocess.Popen([sys.executable, "-m", "speciation", "lsp"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0

    def send(self, method: str, params: dict, request: bool = True) -> int | None:
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()
        return message.get("id")

    def receive(self) -> dict:
        length = 0
        while True:
            line = self.process.stdout.readline()
            assert line, "the server closed its output"
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.process.stdout.read(length))

    def wait_for(self, predicate) -> dict:
        for _ in range(50):
            message = self.receive()
            if predicate(message):
                return message
        raise AssertionError("no such message")

    def request(self, method: str, params: dict) -> dict:
        ident = self.send(method, params)
        return self.wait_for(lambda m: m.get("id") == ident)["result"]

    def close(self):
        try:
            self.request("shutdown", {})
            self.send("exit", {}, request=False)
            self.process.wait(timeout=10)
        finally:
            if self.process.poll() is None:
                self.process.kill()


def test_language_server_over_stdio(tmp_path):
    card = tmp_path / "windfall.yaml"
    card.write_text(CARD, encoding="utf-8")
    uri = card.resolve().as_uri()
    client = Client()
    try:
        result = client.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
        capabilities = result["capabilities"]
        assert capabilities["hoverProvider"] and capabilities["definitionProvider"]
        assert "." in capabilities["completionProvider"]["triggerCharacters"]
        client.send("initialized", {}, request=False)
        client.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1,
                                                              "text": CARD}}, request=False)
        published = client.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]
        assert published["uri"] == uri
        found = sorted((d["range"]["start"]["line"], d["range"]["start"]["character"], d["message"])
                       for d in published["diagnostics"])
        assert found[0][:2] == (5, 15) and "'gain_vp' parameter 'n' needs a number, not a text" in found[0][2]
        assert found[1][:2] == (6, 6) and "no kind of entity has an attribute 'vpp'" in found[1][2]

        # fix it as you type: the diagnostics go away
        fixed = CARD.replace('"two"', "2").replace("vpp", "vp")
        client.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                               "contentChanges": [{"text": fixed}]}, request=False)
        published = client.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]
        assert published["diagnostics"] == []

        position = {"textDocument": {"uri": uri}, "position": {"line": 5, "character": 7}}
        items = client.request("textDocument/completion", {**position, "position": {"line": 5, "character": 7}})
        labels = {i["label"] for i in items["items"]}
        assert "gain_vp" in labels and "gain_bonus" in labels and "len" not in labels
        items = client.request("textDocument/completion", {**position, "position": {"line": 6, "character": 6}})
        assert "vp" in {i["label"] for i in items["items"]}

        hover = client.request("textDocument/hover", {**position, "position": {"line": 5, "character": 4}})
        assert "gain_vp(f, n)" in hover["contents"]["value"] and "pieces.yaml" in hover["contents"]["value"]

        where = client.request("textDocument/definition", {**position, "position": {"line": 5, "character": 4}})
        assert where["uri"].endswith("rulesets/original/rules/pieces.yaml")
        assert where["range"]["start"]["line"] == 6
    finally:
        client.close()
