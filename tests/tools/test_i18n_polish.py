"""A Polish game's pages and messages hold no English template text (issue 21, deliverable 6).

A game of each edition is played at the table in Polish (a person's seat answered at random,
the others random agents, through the table's session API); every message a seat or a
spectator gets along the way (the prompt, the options, the players, the log, every text of the
picture, the winner) and both pages as served in Polish (their static texts and the texts the
scripts show, through the catalog the page is given) are searched for English words: the
words of the English templates, card texts, names and page strings that no Polish text uses.
"""
from __future__ import annotations

import json
import random
import re
from html import unescape
from pathlib import Path

import pytest

from speciation import i18n, load_ruleset, rulesets
from speciation.table import messages
from speciation.table.session import TableGame

WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[a-z]")
TEMPLATE = re.compile(r'\b(?:log_to|log|format)\(\s*(?:[^,"()]+(?:\([^()]*\))?,\s*)?"((?:[^"\\]|\\.)*)"'
                      r'|\bprompt\s+"((?:[^"\\]|\\.)*)"|"([^"{}]*)" if |\belse "([^"{}]*)"|choose \w+ from \["([^"{}]*)"'
                      r'|showing "([^"{}]*)"|^title: "?([^"\n]*?)"?$', re.M)


def words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text) if len(w) >= 3}


def english_templates(ruleset) -> set[str]:
    """Every sentence the rule files write for players: log, log_to and format templates, prompts
    and quoted texts a label shows, in every file of the ruleset's folder and the folders it
    extends (variants included)."""
    folders = {Path(path).parent for path in ruleset.sources}
    roots = {folder for folder in (Path(rulesets.__file__).parent / name for name in ("original", "marine"))
             if any(f == folder or folder in f.parents for f in folders)}
    found = set()
    for path in sorted(p for root in roots for p in root.rglob("*.yaml") if not p.name.startswith("labels_")):
        text = path.read_text(encoding="utf-8").replace('\\"', '"')
        for match in TEMPLATE.finditer(text):
            found.add(next(group for group in match.groups() if group is not None))
    return found


def english_words(ruleset) -> set[str]:
    """Words of the English texts a player may be shown that no Polish text of the ruleset uses."""
    english, polish = set(), set()
    for template in english_templates(ruleset):
        english |= words(template)
    for card in ruleset.cards.values():
        english |= words(card.text) | words(card.name)
    for record in ruleset.entities.values():
        english |= words(str(record.get("name", "")))
    names = ruleset.labels["pl"]
    for key, value in names.items():
        english |= words(key.replace("_", " "))
        polish |= words(value)
    for value in ruleset.phrases["pl"].values():
        polish |= words(value)
    for value in ruleset.texts["pl"].values():
        polish |= words(value)
    for msgid, msgstr in i18n.catalog("pl").items():
        english |= words(msgid)
        polish |= words(msgstr)
    # The engine's own words in the log and labels.
    english |= {"passes", "none", "true", "false", "roll", "player", "spectator", "wins", "decides"}
    return english - polish


def texts_of(message: dict, ui: str | None = "pl") -> list[tuple[str, str]]:
    """The texts of a state message as a page of language *ui* gets it (its own words
    translated as ``app.Table.state_for`` does)."""
    message = dict(message, seat_name=i18n.translate(ui, message["seat_name"]))
    out = [(key, str(message[key])) for key in ("seat_name", "prompt", "decider_name", "winner") if message.get(key)]
    out += [("option", o["label"]) for o in message.get("options", [])]
    out += [("player", p["name"] + " " + p["plays"]) for p in message.get("players", [])]
    out += [("log", line if isinstance(line, str) else line[1]) for line in message.get("log", [])]
    out += [("picture", unescape(t)) for t in re.findall(r">([^<>]+)<", message.get("svg", "")) if t.strip()]
    return out


def english_in(found: list[tuple[str, str]], english: set[str], names: tuple[str, ...] = ()) -> list[str]:
    """The English words in *found* (each with where it was), leaving out the proper *names*
    (a game's title)."""
    bad: dict[str, str] = {}
    for where, text in found:
        for word in words(re.sub("|".join(map(re.escape, names)) or "$^", "", text)) & english:
            bad.setdefault(word, f"{word!r} in the {where}: {text[:120]!r}")
    return sorted(bad.values())


def play_polish(ruleset_name: str, players: int, seed: int) -> tuple[list[tuple[str, str]], TableGame]:
    """A whole Polish game at the table; the texts of the messages every seat and a spectator
    get: at each of the first 60 decisions, every 60th after (each message carries the last
    400 log lines, so every log line is seen) and at the end."""
    session = TableGame.new("pl", ruleset_name, players, ["human"] + ["random"] * (players - 1), seed=seed,
                            lang="pl")
    rng = random.Random(seed)
    found: list[tuple[str, str]] = []
    step = 0
    while True:
        if step < 60 or step % 60 == 0 or session.game.is_over:
            for seat in [None, *range(players)]:
                found += texts_of(messages.seat_state(session.game, seat, session.seats, "pl"))
        if session.game.is_over:
            return found, session
        if session.agent_to_move():
            session.agent_step()
        else:
            seat = session.decider
            assert seat is not None
            message = messages.seat_state(session.game, seat, session.seats, "pl")
            assert session.choose(seat, message["decision"], rng.randrange(len(message["options"]))) is None
        step += 1


@pytest.mark.parametrize(("ruleset_name", "players", "seed"), [("marine", 3, 5), ("original", 3, 2)])
def test_a_polish_game_shows_no_english(ruleset_name, players, seed):
    ruleset = load_ruleset(ruleset_name)
    found, session = play_polish(ruleset_name, players, seed)
    assert session.game.is_over
    assert any(where == "log" for where, _ in found) and any(where == "option" for where, _ in found)
    assert english_in(found, english_words(ruleset), (ruleset.title,)) == []


def test_the_check_finds_english():
    """The check above can fail: an English game's messages are full of English words."""
    ruleset = load_ruleset("marine")
    session = TableGame.new("en", "marine", 2, ["random", "random"], seed=1)
    for _ in range(60):
        session.agent_step()
    found = texts_of(messages.seat_state(session.game, 0, session.seats, None), None)
    assert len(english_in(found, english_words(ruleset))) > 10


def test_every_phrase_is_a_sentence_of_the_rules_and_every_sentence_has_one():
    """Each Polish phrase translates a template the rule files write, and each template the
    rule files write (both editions, every variant's file) has its Polish phrase."""
    for name in ("original", "marine"):
        ruleset = load_ruleset(name)
        templates = english_templates(ruleset)
        phrases = ruleset.phrases["pl"]
        names = ruleset.labels["pl"]  # a text that is an option's value is named like any value
        assert sorted(t for t in templates if t not in phrases and t not in names) == [], name
        assert sorted(p for p in phrases if p not in templates and p.strip() != "roll → {}") == [], name
        assert sorted(c for c in ruleset.cards if c not in ruleset.texts["pl"]) == [], name


def test_the_pages_in_polish_have_no_english(tmp_path):
    """Both pages as a Polish reader gets them: every static text and every string a script
    shows has its translation in the page's catalog, and the translations are Polish."""
    from speciation.table.app import create_app

    english = set()
    for name in ("original", "marine"):
        english |= english_words(load_ruleset(name))
    app = create_app()
    page = get(app, "/", "", "pl-PL,pl;q=0.9,en;q=0.5")
    assert '<html lang="pl"' in page and "window.I18N" in page
    assert '<html lang="en"' in get(app, "/", "", "en-GB")
    assert '<html lang="pl"' in get(app, "/", "lang=pl", "en-GB")
    catalog = i18n.catalog("pl")
    shown = []
    for html in sorted(i18n.STATIC.glob("*.html")):
        shown += i18n.page_texts(html.read_text(encoding="utf-8"))
    for script in sorted(i18n.STATIC.glob("*.js")):
        shown += i18n.script_texts(script.read_text(encoding="utf-8"))
    missing = [text for text in shown if text not in catalog]
    assert missing == []
    assert english_in([("page", catalog[text]) for text in shown], english) == []


def get(app, path: str, query: str, accept_language: str) -> str:
    """The text of a GET of *path* from the ASGI *app* (no HTTP client needed)."""
    import asyncio

    scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(), "query_string": query.encode(),
             "headers": [(b"host", b"127.0.0.1:8000"), (b"accept-language", accept_language.encode())],
             "scheme": "http", "server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 5000), "root_path": "",
             "http_version": "1.1"}
    body: list[bytes] = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        if message["type"] == "http.response.body":
            body.append(message.get("body", b""))

    asyncio.run(app(scope, receive, send))
    return b"".join(body).decode()


def test_every_msgid_has_a_polish_translation_and_the_compiled_catalog_is_current():
    babel = pytest.importorskip("babel.messages.pofile")
    with (i18n.LOCALE / "pl" / "LC_MESSAGES" / "speciation.po").open("rb") as source:
        catalog = babel.read_po(source)
    translated = {m.id: m.string for m in catalog if m.id}
    assert sorted(m for m in i18n.extract() if not translated.get(m)) == []
    assert i18n.catalog("pl") == {k: v for k, v in translated.items() if v}, "run: python -m speciation.i18n compile"


def test_a_page_language_is_its_query_then_its_browser_then_english():
    assert i18n.choose("pl", "en-US") == "pl"
    assert i18n.choose(None, "de-DE,pl;q=0.8,en;q=0.5") == "pl"
    assert i18n.choose(None, "de-DE,en;q=0.5") == "en"
    assert i18n.choose("xx", None) == "en"
    assert i18n.translate("pl", "{name} wins", name="Gracz 1") == "Wygrywa: Gracz 1"
    assert i18n.translate(None, "{name} wins", name="Player 1") == "Player 1 wins"


def test_each_page_reads_the_game_in_its_own_language():
    """An English game read by a Polish page (and a Polish game by an English one): the same
    position, the rules' texts in the page's language, the game's own decision id, and a
    choice made through it is the game's; after an undo the page follows the game back."""
    from speciation.table.app import Table
    from speciation.table.languages import game_in

    table = Table()
    english = TableGame.new("en", "marine", 2, ["human", "random"], seed=7)
    polish = TableGame.new("pl", "marine", 2, ["human", "random"], seed=7, lang="pl")
    rng = random.Random(7)
    for _ in range(40):
        for session in (english, polish):
            if session.agent_to_move():
                session.agent_step()
            else:
                index = rng.randrange(len(session.game.legal_actions()))
                message = table.state_for(session, session.decider, "pl" if session is english else "en")
                assert message["decision"] == session.game.decision_id
                assert session.choose(session.decider, message["decision"], index) is None
    read = game_in(english, "pl")
    assert read is not english.game and read.lang == "pl"
    assert read.state["ent"] == english.game.state["ent"] and len(read.log) == len(english.game.log)
    assert game_in(english, "pl") is read  # kept, and brought up to date
    message = table.state_for(english, 0, "pl")
    assert english_in(texts_of(message), english_words(load_ruleset("marine")), ("Dominant Species: Marine",)) == []
    back = table.state_for(polish, 0, "en")
    assert game_in(polish, "en").lang is None and "Gracz" not in back["seat_name"]
    assert english_in(texts_of(back, None), {"gracz", "dodają", "gatunki"}) == []
    assert game_in(english, "en") is english.game and game_in(english, None) is english.game


def test_a_page_in_another_language_follows_an_undo():
    from speciation.table.languages import game_in

    session = TableGame.new("undo", "original", 2, ["human", "random"], seed=3)
    rng = random.Random(3)
    undone = 0
    for _ in range(30):
        if session.agent_to_move():
            session.agent_step()
            continue
        before = game_in(session, "pl").decision_number
        assert session.choose(session.decider, session.game.decision_id,
                              rng.randrange(len(session.game.legal_actions()))) is None
        assert game_in(session, "pl").decision_number > before
        if session.undo(0) is None:
            undone += 1
            read = game_in(session, "pl")
            assert read.decision_number == session.game.decision_number
            assert read.state["ent"] == session.game.state["ent"]
    assert undone > 0


def test_a_phrase_with_other_placeholders_is_a_positioned_error(tmp_path):
    """A translation must keep its template's values: as many {} or numbered ones in range."""
    from speciation.dsl.errors import RuleErrors

    mod = tmp_path / "pl.yaml"
    mod.write_text('phrases:\n  pl:\n    "{} adds {} species to {}": "{1} dodają gatunki"\n'
                   '    "{} adapts: {}": "{1} – Adaptacja: {3}"\n    "== Turn {} ==": "== Tura {} {} =="\n'
                   '    "{} glaciates {}": "{2}: {1}"\n', encoding="utf-8")
    with pytest.raises(RuleErrors) as raised:
        load_ruleset("original", mods=[str(mod)])
    text = raised.value.format()
    assert "pl.yaml:4:" in text and "names a value the template does not have ({3})" in text
    assert "pl.yaml:5:" in text and "has 2 {}" in text
    assert "pl.yaml:6:" not in text  # numbered placeholders in another order are fine
    assert text.count("error") == 2  # '{1} dodają gatunki' leaves values out: allowed


def test_the_table_refuses_in_polish():
    """The refusals a Polish page is sent, over a real server (the websocket's errors and the
    HTTP API's ``error``), are Polish: undo refused (the reason too, which used to come back
    as English inside the Polish 'nie można cofnąć: ...'), a token no longer valid, no such
    game, a lobby join refused, a seat handed to an unknown agent, a replay's other seat, a file
    that is no save, options the rules refuse."""
    from support.table_support import RunningTable, need_table_extra, recv, request

    need_table_extra()
    connect = pytest.importorskip("websockets.sync.client").connect
    english = english_words(load_ruleset("marine")) | english_words(load_ruleset("original"))
    running = RunningTable()
    try:
        session = TableGame.new("pl-refusals", "marine", 2, ["human", "human"], seed=3, variants=["short"], lang="pl",
                                hotseat=False)
        creator = running.add(session).split("#t=", 1)[1]
        ws = running.url.replace("http", "ws", 1)
        said: list[tuple[str, str]] = []
        with connect(f"{ws}/ws/play/{session.ident}?token={running.invites[0]}&lang=pl") as page:
            recv(page)
            page.send(json.dumps({"type": "undo"}))
            said.append(("undo", recv(page, "error")["text"]))
            page.send(json.dumps({"type": "replace", "seat": 1, "agent": "random"}))
            said.append(("replace", recv(page, "error")["text"]))
        with connect(f"{ws}/ws/play/{session.ident}?token={creator}&lang=pl") as page:
            recv(page)
            page.send(json.dumps({"type": "replace", "seat": 0, "agent": "zzz"}))
            said.append(("unknown agent", recv(page, "error")["text"].split("(")[0]))  # (then the agents' ids)
            page.send(json.dumps({"type": "replace", "seat": 7, "agent": "random"}))
            said.append(("no seat", recv(page, "error")["text"]))
        with connect(f"{ws}/ws/play/{session.ident}?token=not-a-token&lang=pl") as page:
            said.append(("token", recv(page, "error")["text"]))
        with connect(f"{ws}/ws/play/no-such-game?lang=pl") as page:
            said.append(("no game", recv(page, "error")["text"]))
        for path in (f"/api/games/{session.ident}/join?lang=pl", "/api/games/no-such-game/join?lang=pl"):
            status, answer = request(running, path, {})
            assert status in (403, 404)
            said.append((path, answer["error"]))
        status, answer = request(running, "/api/games?lang=pl", {"ruleset": "no-such-rules"})
        assert status == 400
        said.append(("ruleset", answer["error"].split("(")[0]))   # (the rulesets offered are names)
        # the engine's errors (English words) as what went wrong, in Polish
        for path, body in (("/api/games?lang=pl", {"ruleset": "marine", "players": 9}),
                           ("/api/resume?lang=pl", {"not": "a save"})):
            status, answer = request(running, path, body)
            assert status == 400
            said.append((path, answer["error"]))
        status, answer = request(running, f"/api/games/{session.ident}/replay?lang=pl", {"token": running.invites[0]})
        with connect(f"{ws}{answer['url'].replace('/replay/', '/ws/replay/')}?lang=pl") as page:
            recv(page)
            page.send(json.dumps({"type": "seat", "seat": 1}))
            said.append(("replay", recv(page, "error")["text"]))
        rng = random.Random(3)
        while not session.game.is_over:
            session._apply(session.game.current_player, rng.choice(session.game.legal_actions()))
        with connect(f"{ws}/ws/play/{session.ident}?token={running.invites[0]}&lang=pl") as page:
            recv(page)
            page.send(json.dumps({"type": "undo"}))
            said.append(("undo when over", recv(page, "error")["text"]))
    finally:
        running.stop()
    assert said[0][1] == "nie można cofnąć: nie ma twojej decyzji do cofnięcia"
    assert said[-1][1] == "nie można cofnąć: gra się zakończyła"
    assert english_in(said, english) == [], said
    # ... and the check would find the English ones
    assert english_in([("undo", "nie można cofnąć: there is no decision of yours to undo"),
                       ("join", "every seat of this game is taken: you can watch it")], english)


def test_every_refusal_of_the_table_is_a_message_of_the_catalogue():
    """What the table refuses with (``Refused(...)``, ``error(page, ...)``, a connection's
    ``close(code, reason)``, an ``{"type": "error", "text": ...}`` message it builds) is an
    ``i18n.Text`` (said in the page's language), a translation, a rule file's errors
    (``rulemessages.rule_errors``, said in the page's language too) or a value passed on, never a
    bare English string or f-string."""
    import ast

    from speciation.table import app

    found = []
    for path in sorted(Path(app.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):   # an error message built as a dict: its text
                keys = [k.value if isinstance(k, ast.Constant) else None for k in node.keys]
                if "text" in keys and any(isinstance(v, ast.Constant) and v.value == "error" for v in node.values):
                    said = node.values[keys.index("text")]
                    if isinstance(said, (ast.Constant, ast.JoinedStr, ast.BinOp)):
                        found.append(f"{path.name}: {ast.unparse(said)[:80]}")
                continue
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            said = node.args[1] if name in ("error", "close") and len(node.args) > 1 \
                else node.args[0] if name == "Refused" else None
            if name == "close" and isinstance(said, ast.Constant) and said.value == "":
                continue   # a close without a reason
            if isinstance(said, (ast.Constant, ast.JoinedStr, ast.BinOp)):
                found.append(f"{path.name}: {ast.unparse(said)[:80]}")
            elif isinstance(said, ast.Call) and name != "close" \
                    and ast.unparse(said.func) not in ("Text", "i18n.Text", "rule_errors"):
                found.append(f"{path.name}: {ast.unparse(said)[:80]}")
    assert found == []
