"""A rule author's errors in the page's language (issue 21, deliverable 6): every error a rule
file can cause is a catalogue template with named values (``dsl.errors.msg``), the ``rules``
catalogue has each in Polish with the same values, and a Polish page that uploads broken mods
reads every error in Polish, while an English page reads exactly what the tools always said.
"""
from __future__ import annotations

import ast
import copy
import pickle
import string
from pathlib import Path

import pytest

from speciation import rulemessages
from speciation.dsl import errors as dsl_errors
from speciation.dsl.errors import CompileError, RuleErrors, Span, msg
from test_i18n_polish import english_in, words

FRONT = Path(dsl_errors.__file__).parent
BACK = rulemessages.sources()[1]
ERRORS = {"RuleError", "LoadError", "SchemaError", "ParseError", "CompileError"}
PO = rulemessages.LOCALE / "pl" / "LC_MESSAGES" / "rules.po"


# ---- every message is a template ------------------------------------------------------------------

def _templated(node: ast.AST | None, function: ast.AST | None, functions: dict, hint: bool = False,
               passed: bool = True) -> bool:
    """Is *node* (a message or hint given to a rule error) a catalogue template: ``msg("...")``
    with a literal, a choice between templates, a hint of ``did_you_mean``, a call of a function
    of the file that returns only templates, or a name that is only ever given templates in its
    *function* (or is its parameter, and *passed* says its callers give templates)?"""
    if node is None:
        return True
    if isinstance(node, ast.Call):
        name = ast.unparse(node.func)
        if name in ("msg", "Message"):
            return bool(node.args) and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
        if hint and name == "did_you_mean":
            return True
        if name in functions:
            given = all(_templated(arg, function, functions, hint, passed) for arg in node.args)
            returned = [r.value for r in ast.walk(functions[name]) if isinstance(r, ast.Return)]
            return bool(returned) and all(_templated(value, functions[name], functions, hint, given)
                                          for value in returned)
        return False
    if isinstance(node, ast.IfExp):
        return all(_templated(n, function, functions, hint, passed) for n in (node.body, node.orelse))
    if isinstance(node, ast.BoolOp):
        return all(_templated(value, function, functions, hint, passed) for value in node.values)
    if isinstance(node, ast.Constant):
        return node.value in ("", None)      # no message at all (a hint left out)
    if isinstance(node, ast.Name) and function is not None:
        if node.id in {a.arg for a in function.args.args + function.args.kwonlyargs}:
            return passed
        given = []
        for assign in ast.walk(function):
            if isinstance(assign, ast.AnnAssign) and isinstance(assign.target, ast.Name) \
                    and assign.target.id == node.id and assign.value is not None:
                given.append(assign.value)
            if not isinstance(assign, ast.Assign):
                continue
            for target in assign.targets:
                if isinstance(target, ast.Name) and target.id == node.id:
                    given.append(assign.value)
                elif isinstance(target, ast.Tuple) and isinstance(assign.value, ast.Tuple):
                    given += [v for t, v in zip(target.elts, assign.value.elts)
                              if isinstance(t, ast.Name) and t.id == node.id]
        return bool(given) and all(_templated(value, function, functions, hint, passed) for value in given)
    return False


def untemplated(path: Path) -> list[str]:
    """The rule errors of one source file whose message or hint is not a catalogue template:
    a call of a rule error's class, or of a function that hands its message on to one (a
    compiler's ``error(message, span, hint)``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    functions = {node.name: node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
                 and node.name not in ERRORS | {"error"}}

    def function_of(node: ast.AST) -> ast.AST | None:
        while node in parents:
            node = parents[node]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return node
        return None

    callers = set(ERRORS) | {"error"}   # the compilers' error(message, span, hint), by their name
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        if name not in callers:
            continue
        function = function_of(node)
        message = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "message"), None)
        hint = node.args[2] if len(node.args) > 2 else next((k.value for k in node.keywords if k.arg == "hint"), None)
        if not _templated(message, function, functions) or not _templated(hint, function, functions, hint=True):
            found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)[:100]}")
    return found


def test_every_rule_error_of_the_front_and_back_end_is_a_catalogue_template():
    found = [bad for folder in (FRONT, BACK) for path in sorted(folder.rglob("*.py")) for bad in untemplated(path)]
    assert found == []


def test_the_check_finds_an_english_message():
    source = ("def f(self, name, span):\n"
              "    self.error(f\"unknown name '{name}'\", span)\n"
              "    raise CompileError('no such thing', span, f'did you mean {name}?')\n"
              "    raise CompileError(msg(\"ok '{n}'\", n=name), span, 'a bare hint')\n"
              "    said = 'English'\n"
              "    self.error(said, span)\n"
              "    self.error(msg(\"unknown name '{name}'\", name=name), span, did_you_mean(name, []))\n")
    path = Path(__file__).parent / "_untemplated_sample.py"
    try:
        path.write_text(source, encoding="utf-8")
        assert [line.split(":")[1] for line in untemplated(path)] == ["2", "3", "4", "6"]
    finally:
        path.unlink()


# ---- the catalogue --------------------------------------------------------------------------------

def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def test_every_template_has_a_polish_translation_with_the_same_values_and_the_catalogue_is_current():
    babel = pytest.importorskip("babel.messages.pofile")
    from babel.messages.mofile import write_mo
    import io

    with PO.open("rb") as source:
        catalogue = babel.read_po(source)
    translated = {m.id: m.string for m in catalogue if m.id}
    templates = rulemessages.extract()
    assert sorted(set(templates) - set(translated)) == []       # run: python -m speciation.i18n extract
    assert sorted(set(translated) - set(templates)) == []       # a template no code uses any more
    wrong = [(t, translated[t]) for t in templates if not translated[t] or fields(translated[t]) != fields(t)]
    assert wrong == []
    compiled = io.BytesIO()
    write_mo(compiled, catalogue)
    assert PO.with_suffix(".mo").read_bytes() == compiled.getvalue(), "run: python -m speciation.i18n compile"


def test_a_message_keeps_its_english_and_says_it_in_polish():
    polish = rulemessages.gettext_of("pl")
    said = msg("cannot remove {what} '{name}': no earlier layer defines it", what=msg("card"), name="aquatic")
    assert said == "cannot remove card 'aquatic': no earlier layer defines it"
    assert said.translated(polish) == "nie można usunąć (karta) 'aquatic': żadna wcześniejsza warstwa tego nie definiuje"
    assert said.translated(None) == said
    for again in (pickle.loads(pickle.dumps(said)), copy.deepcopy(said)):   # the loader's cache pickles errors
        assert again == said and again.template == said.template and again.translated(polish) == said.translated(polish)
    error = CompileError(said, Span("mod.yaml", 3, 5), dsl_errors.did_you_mean("aquatik", ["aquatic"]))
    assert error.message == said and error.format() == (
        "mod.yaml:3:5: error: cannot remove card 'aquatic': no earlier layer defines it (did you mean 'aquatic'?)")
    assert RuleErrors([error]).format(polish) == ("mod.yaml:3:5: błąd: nie można usunąć (karta) 'aquatic': żadna "
                                                  "wcześniejsza warstwa tego nie definiuje (czy chodziło o 'aquatic'?)")
    assert rulemessages.gettext_of("en") is None and rulemessages.gettext_of(None) is None


def test_the_language_of_the_command_line_follows_the_environment(monkeypatch):
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    assert rulemessages.from_environment() is None
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    assert rulemessages.from_environment() == "pl_PL"
    monkeypatch.setenv("LANGUAGE", "en_GB:pl")
    assert rulemessages.from_environment() is None
    monkeypatch.setenv("LANGUAGE", "de:pl")
    assert rulemessages.from_environment() == "pl"


# ---- the table: a Polish page uploads broken mods -----------------------------------------------

BROKEN_YAML = "mod: zlamany\ntitle: Zepsuty nawias\ncards:\n  aquatic: {text: [nieskonczone\n"
BROKEN_RULES = """mod: pomylki
tittle: Kilka pomyłek
cards:
  aquatik:
    text: Tekst.
functions:
  punkty_x(p): p.punktyy + niewiadoma
macros:
  ruch(p): |
    if p.punkty = 3:
      pass
"""
UPLOADS = [{"name": "zlamany.yaml", "text": BROKEN_YAML}, {"name": "pomylki.yaml", "text": BROKEN_RULES}]
# What an English page was sent for these mods before the errors had templates (4961880; the
# files in the order of their private folders, named by content).
ENGLISH = (
    "zlamany.yaml:5:1: error: malformed YAML: expected ',' or ']', but got '<stream end>'\n"
    "pomylki.yaml:2:1: error: unknown key 'tittle' (did you mean 'title'?)\n    tittle: Kilka pomyłek\n    ^\n"
    "pomylki.yaml:4:3: error: cannot change card 'aquatik': no earlier layer defines it (did you mean 'aquatic'?)\n"
    "      aquatik:\n      ^\n"
    "pomylki.yaml:7:18: error: no kind of entity has an attribute 'punktyy'\n"
    "      punkty_x(p): p.punktyy + niewiadoma\n                     ^\n"
    "pomylki.yaml:7:28: error: unknown name 'niewiadoma'\n"
    "      punkty_x(p): p.punktyy + niewiadoma\n                               ^\n"
    "pomylki.yaml:10:17: error: unexpected '='; expected ')', '*', '//' or '%', '+' or '-', ',', '.', ':', ... "
    "(did you mean '=='? A single '=' gives a value (let x = 3))\n        if p.punkty = 3:\n                    ^")


def english_of_the_rule_errors() -> set[str]:
    """The words of the rule errors' English templates that no Polish translation uses."""
    babel = pytest.importorskip("babel.messages.pofile")
    with PO.open("rb") as source:
        catalogue = babel.read_po(source)
    english, polish = set(), set()
    for message in catalogue:
        if message.id:
            english |= words(message.id)
            polish |= words(message.string)
    return english - polish


def test_a_polish_page_reads_an_uploaded_mods_errors_in_polish_and_an_english_page_as_before():
    from support.table_support import RunningTable, need_table_extra, request

    need_table_extra()
    running = RunningTable()
    try:
        said = {}
        for lang in ("pl", "en"):
            for path in ("/api/mods", "/api/games"):
                status, answer = request(running, f"{path}?lang={lang}",
                                         {"ruleset": "original", "players": 2, "uploads": UPLOADS})
                assert status == 400, answer
                said[lang, path] = answer["error"]
    finally:
        running.stop()
    assert said["en", "/api/mods"] == said["en", "/api/games"] == ENGLISH
    polish = said["pl", "/api/mods"]
    assert said["pl", "/api/games"] == polish
    names = ("zlamany", "pomylki", "tittle", "aquatik", "aquatic", "punkty_x", "punktyy", "niewiadoma", "punkty",
             "Kilka pomyłek", "title", "let")
    english = english_of_the_rule_errors()
    assert english_in([("upload", polish)], english, names) == [], polish
    assert polish.count(": błąd: ") == 6 and "error" not in polish
    assert "pomylki.yaml:2:1: błąd: nieznany klucz 'tittle' (czy chodziło o 'title'?)" in polish
    assert "zlamany.yaml:5:1: błąd: błędny YAML: oczekiwano ',' lub ']', a jest koniec pliku" in polish
    # ... and the check would find the English
    assert english_in([("upload", ENGLISH)], english, names)


def test_speciation_check_speaks_the_language_of_the_environment(tmp_path, monkeypatch, capsys):
    from speciation.cli import main

    mod = tmp_path / "pomylki.yaml"
    mod.write_text(BROKEN_RULES, encoding="utf-8")
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    said = {}
    for lang in ("C.UTF-8", "pl_PL.UTF-8"):
        monkeypatch.setenv("LANG", lang)
        assert main(["check", "--mod", str(mod), "original"]) == 1
        said[lang] = capsys.readouterr().err
    assert f"{mod}:4:3: error: cannot change card 'aquatik': no earlier layer defines it" in said["C.UTF-8"]
    assert f"{mod}:4:3: błąd: nie można zmienić karty 'aquatik'" in said["pl_PL.UTF-8"]
    assert said["pl_PL.UTF-8"].count(": błąd: ") == said["C.UTF-8"].count(": error: ") == 5
    assert main(["check", "--ruleset", "original", str(mod)]) == 1   # a lone mod file
    lone = capsys.readouterr().err
    assert f"{mod}:4:3: błąd (original): nie można zmienić karty 'aquatik'" in lone and "error" not in lone
