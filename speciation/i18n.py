"""The tools' own words in the reader's language: gettext catalogs (``speciation/locale``).

The catalogs are standard gettext: ``locale/<lang>/LC_MESSAGES/speciation.po`` is what a
translator edits, ``speciation.mo`` beside it is its compiled form (committed, so the
standard library's :mod:`gettext` reads it with no extra package; ``python -m
speciation.i18n compile`` rebuilds it with Babel, and a test fails when it is stale). The
template ``locale/speciation.pot`` lists every msgid: the Python strings marked with
``_()`` (or ``N_()``), the table's JavaScript ``_("...")`` calls and the static pages' texts
(``python -m speciation.i18n extract``).

What the rule files say (names, prompts, log sentences, card texts) is not here: it comes
from the rulesets' own ``labels``, ``phrases`` and ``texts`` (docs/language.md, "Names shown
to players"), so a mod is translated with the mod.
"""
from __future__ import annotations

import gettext
import re
import sys
from functools import cache
from pathlib import Path

from . import catalogues

LOCALE = Path(__file__).parent / "locale"
DOMAIN = "speciation"
DEFAULT = "en"


def N_(message: str) -> str:
    """Mark *message* for extraction without translating it here (it is translated where shown)."""
    return message


# The agents' names as pages show them (a seat's kind; speciation/agents/registry.py).
AGENTS = (N_("random"), N_("greedy"), N_("mcts"))


@cache
def translation(lang: str | None) -> gettext.NullTranslations:
    """The catalog of *lang* (English, the msgids themselves, when there is none)."""
    if not lang or lang == DEFAULT:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE, [lang], fallback=True)


def languages() -> list[str]:
    """The languages with a catalog, English first."""
    return [DEFAULT] + sorted(p.parent.parent.name for p in LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))


class Text(str):
    """A message of the tools that a page may show in its own language: the English text (it
    is a ``str``, usable as one anywhere) that remembers its msgid and values, so
    :func:`translate` can say it again in another language. ``Text("no option {n}", n=3)``."""

    msgid: str
    params: dict

    def __new__(cls, msgid: str, **params) -> Text:
        made = super().__new__(cls, msgid.format(**params) if params else msgid)
        made.msgid, made.params = msgid, params
        return made


def translate(lang: str | None, message: str, **params) -> str:
    """*message* in *lang*, its ``{name}`` placeholders filled from *params* (a :class:`Text`
    brings its own; values that are Texts are translated too). A text that is no msgid is
    returned as it is; a text that knows how to say itself (``in_language``: a rule file's
    errors, ``rulemessages.RuleErrorsText``) says itself."""
    if hasattr(message, "in_language"):
        return message.in_language(lang)
    if isinstance(message, Text):
        params = {**message.params, **params}
        message = message.msgid
    text = translation(lang).gettext(message)
    if not params:
        return text
    values = {k: translate(lang, v) if isinstance(v, Text) else v for k, v in params.items()}
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError):  # a translation that names other values: the English
        return message.format(**values)


def catalog(lang: str | None) -> dict[str, str]:
    """Every translated msgid of *lang* and its translation (for a page's script)."""
    found = translation(lang)
    return {k: v for k, v in getattr(found, "_catalog", {}).items() if isinstance(k, str) and k}


def choose(asked: str | None, accept_language: str | None) -> str:
    """A page's language: the one it asks for (``?lang=pl``) if there is a catalog for it,
    else the best of the browser's ``Accept-Language`` header, else English."""
    known = languages()
    if asked:
        base = asked.strip().lower().replace("_", "-").split("-")[0]
        if base in known:
            return base
    for tag, _ in sorted(_accepted(accept_language or ""), key=lambda pair: -pair[1]):
        base = tag.split("-")[0]
        if base in known:
            return base
    return DEFAULT


def _accepted(header: str) -> list[tuple[str, float]]:
    """The tags of an Accept-Language header with their weights (``pl-PL,pl;q=0.9,en;q=0.8``)."""
    out = []
    for part in header.split(",")[:20]:
        tag, _, rest = part.strip().partition(";")
        match = re.search(r"q=([0-9.]+)", rest)
        try:
            weight = float(match.group(1)) if match else 1.0
        except ValueError:
            weight = 0.0
        if tag and tag != "*" and weight > 0:
            out.append((tag.lower(), weight))
    return out


def page(html: str, lang: str) -> str:
    """A static page for a reader of *lang*: its ``lang`` attribute, and its catalog for
    ``static/i18n.js`` (``window.I18N``) before the page's first script."""
    import json

    data = json.dumps({"lang": lang, "messages": catalog(lang)}, ensure_ascii=False).replace("</", "<\\/")
    html = re.sub(r'<html lang="[^"]*"', f'<html lang="{lang}"', html, count=1)
    return html.replace("<script", f"<script>window.I18N = {data};</script>\n  <script", 1)


# ---- maintenance: extract the template, compile the catalogs (needs Babel) ------------------------

STATIC = Path(__file__).parent / "table" / "static"
_JS_CALL = re.compile(r"""\b_\(\s*(["'`])((?:\\.|(?!\1).)*)\1""")


def page_texts(html: str) -> list[str]:
    """The words a static page shows: its text nodes and its title, alt, placeholder and
    aria-label attributes (i18n.js translates exactly these when the page loads)."""
    from html.parser import HTMLParser

    found: list[str] = []

    class Reader(HTMLParser):
        skip = 0

        def handle_starttag(self, tag, attrs):
            if tag in ("script", "style", "code"):
                self.skip += 1
            for name, value in attrs:
                if name in ("title", "alt", "placeholder", "aria-label") and value and value.strip():
                    found.append(" ".join(value.split()))

        def handle_endtag(self, tag):
            if tag in ("script", "style", "code"):
                self.skip -= 1

        def handle_data(self, data):
            text = " ".join(data.split())
            if text and not self.skip and re.search(r"[A-Za-z]", text):
                found.append(text)

    Reader().feed(html)
    return found


def script_texts(source: str) -> list[str]:
    """The msgids of a script's ``_("...")`` calls."""
    import json

    out = []
    for match in _JS_CALL.finditer(source):
        try:
            out.append(json.loads('"' + match.group(2).replace('"', '\\"') + '"'))
        except ValueError:
            out.append(match.group(2))
    return out


def extract() -> list[str]:
    """Every msgid of the tools: Python ``_()``/``N_()`` calls, scripts, static pages."""
    from babel.messages.extract import extract_from_dir

    ids: dict[str, None] = {}
    root = Path(__file__).parent
    for _file, _line, message, _comments, _context in extract_from_dir(
            root, method_map=[("**.py", "python")], keywords={"_": None, "N_": None, "Text": None}):
        if isinstance(message, str):
            ids.setdefault(message)
    for path in sorted(STATIC.glob("*.js")):
        for message in script_texts(path.read_text(encoding="utf-8")):
            ids.setdefault(message)
    for path in sorted(STATIC.glob("*.html")):
        for message in page_texts(path.read_text(encoding="utf-8")):
            ids.setdefault(message)
    return list(ids)


def compile_catalogs() -> list[Path]:
    """Write each ``.po``'s ``.mo`` (Babel's compiler): ``speciation.po``, and ``rules.po``
    (a rule author's errors, ``speciation.rulemessages``)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as source:
            catalog_ = read_po(source)
        with po.with_suffix(".mo").open("wb") as out:
            write_mo(out, catalog_)
        written.append(po.with_suffix(".mo"))
    translation.cache_clear()
    from . import rulemessages
    rulemessages.translation.cache_clear()
    return written


def write_template() -> Path:
    """Write ``locale/speciation.pot`` from :func:`extract`."""
    return catalogues.write_template(LOCALE, DOMAIN, extract())


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    if command == "extract":
        from . import rulemessages
        print(write_template())
        print(rulemessages.write_template())
    elif command == "compile":
        for path in compile_catalogs():
            print(path)
    else:
        print("usage: python -m speciation.i18n extract|compile", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
