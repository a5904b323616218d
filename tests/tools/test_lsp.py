"""The language server, driven over stdio as an editor would: initialize, open a broken
card, receive its diagnostics at the right place, ask completion, hover, definition."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

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
        pieces = (Path(where["uri"].removeprefix("file://"))).read_text(encoding="utf-8").splitlines()
        assert where["range"]["start"]["line"] == pieces.index("  gain_vp(f, n): |") + 1  # its text
    finally:
        client.close()


# ---- each file checked for what it is ---------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
MOD = ROOT / "tests" / "support" / "fixtures" / "mods" / "windfall"


def _shipped_files() -> list[Path]:
    return [p for folder in (ROOT / "rulesets", ROOT / "tests" / "scenarios", MOD) for p in sorted(folder.rglob("*.yaml"))]


def test_no_diagnostics_on_any_shipped_rule_file_scenario_or_sample_mod():
    from speciation.lsp import analysis
    files = _shipped_files()
    assert len(files) > 300 and any("scenarios" in p.parts for p in files) and MOD / "mod.yaml" in files
    found = {str(p.relative_to(ROOT)): analysis.diagnostics(str(p), p.read_text(encoding="utf-8")) for p in files}
    assert {name: problems for name, problems in found.items() if problems} == {}


def _copy_mod(tmp_path) -> Path:
    import shutil
    return Path(shutil.copytree(MOD, tmp_path / "windfall"))


def test_a_card_in_a_mod_folder_is_checked_with_its_mod(tmp_path):
    from speciation.lsp import analysis
    folder = _copy_mod(tmp_path)
    card = folder / "cards" / "windfall.yaml"
    text = card.read_text(encoding="utf-8")
    assert analysis.diagnostics(str(card), text) == []   # the mod's own function and macro resolve
    broken = text.replace("take_windfall(you)", "take_windfal(you)")
    assert analysis.diagnostics(str(card), broken) == [
        analysis.Problem(6, 6, "unknown verb or macro 'take_windfal' (did you mean 'take_windfall'?)")]
    hover = analysis.hover(str(card), text, 5, 6)
    assert "windfall_vp(f)" in hover and "one per tile the faction occupies" in hover and "mod.yaml:8" in hover
    where = analysis.definition(str(card), text, 6, 8)
    assert (Path(where.path).resolve(), where.line) == ((folder / "rules.yaml").resolve(), 4)
    # the manifest itself, edited: its own error is shown in it
    manifest = (folder / "mod.yaml").read_text(encoding="utf-8")
    assert analysis.diagnostics(str(folder / "mod.yaml"), manifest.replace("len(occupied_by(f))", "len(occupied(f))")) == [
        analysis.Problem(7, 29, "unknown function 'occupied' (did you mean 'occupied_by'?)")]


def test_a_scenario_is_checked_against_the_ruleset_it_names():
    from speciation.lsp import analysis
    path = ROOT / "tests" / "scenarios" / "original" / "cards" / "habitat.yaml"
    text = path.read_text(encoding="utf-8")
    cases = {("cell(1, 0).terrain = desert", "cell(1, 0).terrain = desrt"):
             [analysis.Problem(7, 23, "unknown name 'desrt' (did you mean 'desert'?)")],
             ("players: 2", "players: 9"): [analysis.Problem(3, 9, "Dominant Species takes 2 to 6 players, not 9")],
             ("game.bag == [grub, meat]", "game.bagg == [grub, meat]"):
             [analysis.Problem(17, 15, "no kind of entity has an attribute 'bagg' (did you mean 'bag'?)")],
             ("choices:", "choicess:"): [analysis.Problem(12, 0, "unknown key 'choicess' (did you mean 'choices'?)")]}
    for (old, new), expected in cases.items():
        assert analysis.diagnostics(str(path), text.replace(old, new)) == expected, new


def test_a_lone_variant_is_checked_as_a_variant(tmp_path):
    from speciation.lsp import analysis
    variant = tmp_path / "quick.yaml"
    text = 'variant: quick\ntitle: Quick\ntables:\n  bonus: {1: 9}\n'
    variant.write_text(text, encoding="utf-8")
    assert analysis.diagnostics(str(variant), text) == []
    assert analysis.diagnostics(str(variant), text + "targets: [original]\n") == [
        analysis.Problem(4, 0, "unknown key 'targets' (a variant cannot name the rulesets it targets; "
                               "'targets' belongs in a mod's manifest: make it a mod, 'mod: NAME')")]


# ---- the editor's language --------------------------------------------------------------------

def test_diagnostics_in_the_language_the_rule_errors_catalogue_has(tmp_path):
    from speciation.lsp import analysis
    card = _copy_mod(tmp_path) / "cards" / "windfall.yaml"
    broken = card.read_text(encoding="utf-8").replace("take_windfall(you)", "take_windfal(you)")
    english = [analysis.Problem(6, 6, "unknown verb or macro 'take_windfal' (did you mean 'take_windfall'?)")]
    polish = [analysis.Problem(6, 6, "nieznany czasownik lub makro 'take_windfal' (czy chodziło o 'take_windfall'?)")]
    assert analysis.diagnostics(str(card), broken) == english
    assert analysis.diagnostics(str(card), broken, "pl") == analysis.diagnostics(str(card), broken, "pl-PL") == polish
    # English, and a language with no catalogue, read the English text
    assert analysis.diagnostics(str(card), broken, "en-US") == analysis.diagnostics(str(card), broken, "de") == english


def test_an_editor_that_says_polish_reads_the_diagnostics_in_polish(tmp_path):
    from test_i18n_polish import english_in
    from test_rule_errors_polish import english_of_the_rule_errors
    card = tmp_path / "windfall.yaml"
    card.write_text(CARD, encoding="utf-8")
    client = Client()
    try:
        client.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {},
                                      "locale": "pl"})
        client.send("initialized", {}, request=False)
        client.send("textDocument/didOpen", {"textDocument": {"uri": card.resolve().as_uri(), "languageId": "yaml",
                                                              "version": 1, "text": CARD}}, request=False)
        published = client.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]
    finally:
        client.close()
    messages = sorted((d["range"]["start"]["line"], d["message"]) for d in published["diagnostics"])
    assert [line for line, _ in messages] == [5, 6]
    assert "'gain_vp'" in messages[0][1] and "'vpp'" in messages[1][1]
    # (the paths of rule files a message names are not words of it)
    texts = [("diagnostic", re.sub(r"\S*/\S*", "", message)) for _, message in messages]
    assert english_in(texts, english_of_the_rule_errors()) == []
