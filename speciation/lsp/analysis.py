"""What the language server knows about one open rule file: its errors (as the command
that checks such a file reports them, from the unsaved text), the names it may use,
their docs and where they are defined. Editor-independent; :mod:`.server` speaks the protocol."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .. import rulemessages
from ..dsl.errors import Span, SpeciationError, translated
from ..dsl.loader import load_text
from ..dsl.signatures import FUNCTIONS, VERBS
from ..vocabulary import Entry, Vocabulary, vocabulary
from . import files

KEYWORDS = ("let", "choose", "may", "from", "by", "prompt", "showing", "privately", "draw", "shuffle",
            "emit", "perform", "with", "break", "return", "pass", "settle", "prevent", "stop", "if", "elif",
            "else", "for", "in", "while", "repeat", "and", "or", "not", "none", "true", "false", "reveal", "to",
            "hide")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass
class Problem:
    line: int      # 0-based, as the protocol counts
    col: int
    message: str


def diagnostics(path: str, text: str, lang: str | None = None) -> list[Problem]:
    """The errors the command that checks such a file would report in it, from its unsaved
    *text*: each file is checked for what it is (see :mod:`.files`); in the language *lang*
    where the rule errors' catalogue has it (:mod:`speciation.rulemessages`; None: English)."""
    errors, how, fit = files.errors_in(path, text)
    if how is not None and fit is not None:
        _FIT[str(Path(path).resolve())] = (fit, how.variants, how.mods)
    gettext = rulemessages.gettext_of(lang)
    out = []
    for error in errors:
        message = translated(error.message, gettext)
        if error.hint:
            message += f" ({translated(error.hint, gettext)})"
        out.append(Problem(max(error.span.line - 1, 0), max(error.span.col - 1, 0), message))
    return out


# ---- names ------------------------------------------------------------------------------

_VOCAB: dict[tuple, Vocabulary] = {}
_FIT: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {}   # file -> ruleset, variants, mods


def context(path: str) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The ruleset, variants and mods whose names a file may use: as its last check found
    them, else as its saved text says (see :func:`.files.setting`)."""
    key = str(Path(path).resolve())
    if key not in _FIT:
        try:
            document = load_text(Path(path).read_text(encoding="utf-8"), path)
        except (OSError, SpeciationError):
            document = {}
        how = files.setting(path, document if isinstance(document, dict) else {})
        _FIT[key] = (how.candidates[0], how.variants, how.mods)
    return _FIT[key]


def vocabulary_for(path: str, fresh: bool = False) -> Vocabulary | None:
    key = context(path)
    if fresh or key not in _VOCAB:
        try:
            _VOCAB[key] = vocabulary(key[0], variants=key[1], mods=key[2])
        except SpeciationError:
            return None
    return _VOCAB[key]


def word_at(text: str, line: int, col: int) -> tuple[str, str]:
    """The name under (line, col) (0-based), and the character just before it."""
    lines = text.splitlines()
    if line >= len(lines):
        return "", ""
    row = lines[line]
    for match in WORD.finditer(row):
        if match.start() <= col <= match.end():
            before = row[match.start() - 1] if match.start() > 0 else ""
            return match.group(0), before
    return "", row[col - 1] if 0 < col <= len(row) else ""


def completions(path: str, text: str, line: int, col: int) -> list[tuple[str, str, str]]:
    """(label, kind, detail) of every name that fits at (line, col): after a '.', the
    attributes; elsewhere the ruleset's functions, macros, symbols, tables, kinds, the
    builtins and the language's keywords and verbs."""
    vocab = vocabulary_for(path)
    row = text.splitlines()[line] if line < len(text.splitlines()) else ""
    prefix_match = re.search(r"([A-Za-z_][A-Za-z0-9_]*)?$", row[:col])
    assert prefix_match is not None  # the pattern matches the empty string at the end
    prefix = prefix_match.group(1) or ""
    start = col - len(prefix)
    after_dot = start > 0 and row[start - 1] == "."
    items: list[tuple[str, str, str]] = []
    entries = vocab.entries if vocab else []
    if after_dot:
        seen = set()
        for entry in entries:
            if entry.section == "attribute":
                attr = entry.name.split(".", 1)[1]
                if attr not in seen:
                    seen.add(attr)
                    items.append((attr, "attribute", entry.signature))
    else:
        for entry in entries:
            if entry.section in ("function", "macro", "symbols", "table", "kind", "deck"):
                items.append((entry.name, entry.section, entry.signature))
            if entry.section == "symbols":
                items += [(n, "symbol", entry.name) for n in entry.signature.split(": ", 1)[1].split(", ")]
        items += [(n, "builtin function", "") for n in FUNCTIONS]
        items += [(n, "builtin verb", "") for n in VERBS]
        items += [(k, "keyword", "") for k in KEYWORDS]
    return [i for i in items if i[0].startswith(prefix)]


def _entry(path: str, name: str, before: str) -> Entry | None:
    vocab = vocabulary_for(path)
    if vocab is None or not name:
        return None
    if before == ".":
        return next((e for e in vocab.entries if e.section == "attribute" and e.name.endswith("." + name)), None)
    return next((e for e in vocab.entries if e.name == name and e.section != "attribute"), None)


def hover(path: str, text: str, line: int, col: int) -> str | None:
    """Markdown for the name under the cursor: its signature, doc and where it is defined."""
    name, before = word_at(text, line, col)
    entry = _entry(path, name, before)
    if entry is not None:
        where = f"{entry.span.path}:{entry.span.line}"
        return f"**{entry.section}** `{entry.signature}`\n\n{entry.doc}\n\n*defined in* `{where}`".strip()
    builtin = FUNCTIONS.get(name) or VERBS.get(name)
    if builtin is not None:
        return f"**builtin** {builtin.doc}"
    return None


def definition(path: str, text: str, line: int, col: int) -> Span | None:
    """Where the name under the cursor is defined (in whichever layer defines it last)."""
    name, before = word_at(text, line, col)
    entry = _entry(path, name, before)
    return entry.span if entry is not None and entry.span.line > 0 else None
