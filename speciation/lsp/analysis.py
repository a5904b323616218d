"""What the language server knows about one open rule file: its errors (the same as
``speciation check``, from the unsaved text), the names it may use, their docs and
where they are defined. Editor-independent; :mod:`.server` speaks the protocol."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..dsl.errors import RuleError, RuleErrors, Span, SpeciationError
from ..dsl.layers import available_rulesets, find_ruleset
from ..dsl.loader import load_text
from ..interpreter.ruleset import RulesetBuilder
from ..dsl.signatures import FUNCTIONS, VERBS
from ..lonefile import _containing_ruleset, _targets
from ..vocabulary import Entry, Vocabulary, vocabulary

KEYWORDS = ("let", "choose", "may", "from", "by", "prompt", "showing", "privately", "draw", "shuffle",
            "emit", "perform", "with", "break", "return", "pass", "if", "elif", "else", "for", "in",
            "while", "repeat", "and", "or", "not", "none", "true", "false")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass
class Problem:
    line: int      # 0-based, as the protocol counts
    col: int
    message: str


class _LiveBuilder(RulesetBuilder):
    """Builds a ruleset with some files' text taken from the editor instead of the disk."""

    def __init__(self, texts: dict[str, str]):
        super().__init__()
        self.texts = texts

    def load(self, path: Path) -> tuple[Any, str]:
        key = str(Path(path).resolve())
        if key in self.texts:
            return load_text(self.texts[key], str(path)), self.texts[key]
        return super().load(path)


def context(path: str) -> tuple[str, list[str]]:
    """The ruleset a rule file belongs to and the mods to add for it: the ruleset folder
    it lives in; else (a lone card or mod) its manifest's first target or the first
    built-in ruleset, with the file as a mod."""
    file = Path(path)
    home = _containing_ruleset(file)
    if home is not None:
        return str(home), []
    targets = _targets(file) if file.exists() else []
    return (targets[0] if targets else available_rulesets()[0]), [str(file)]


def _errors(ruleset: str, mods: list[str], texts: dict[str, str]) -> list[RuleError]:
    try:
        _LiveBuilder(texts).build(find_ruleset(ruleset), [], mods)
    except RuleErrors as errors:
        return list(errors.errors)
    except SpeciationError as error:
        return [RuleError(str(error))]
    return []


def diagnostics(path: str, text: str) -> list[Problem]:
    """The errors ``check`` would report in this file, with its unsaved *text*. A lone file
    is checked against each ruleset it may belong to; the one it fits best is used."""
    key = str(Path(path).resolve())
    ruleset, mods = context(path)
    candidates = [ruleset]
    if mods and not _targets(Path(path)):
        candidates = available_rulesets()
    best: list[RuleError] | None = None
    for name in candidates:
        found = [e for e in _errors(name, mods, {key: text}) if _same(e.span, key)]
        if best is None or _weight(found) < _weight(best):
            best = found
        if not found:
            break
    out = []
    for error in best or []:
        message = error.message + (f" ({error.hint})" if error.hint else "")
        out.append(Problem(max(error.span.line - 1, 0), max(error.span.col - 1, 0), message))
    return out


def _weight(errors: list[RuleError]) -> int:
    """How badly a file fits a ruleset: an unknown deck (the card is not of this edition)
    weighs more than any number of other mistakes."""
    return sum(100 if e.message.startswith("unknown deck") else 1 for e in errors)


def _same(span: Span, key: str) -> bool:
    try:
        return str(Path(span.path).resolve()) == key
    except (OSError, ValueError):
        return False


# ---- names ------------------------------------------------------------------------------

_VOCAB: dict[tuple[str, tuple[str, ...]], Vocabulary] = {}


def vocabulary_for(path: str, fresh: bool = False) -> Vocabulary | None:
    ruleset, mods = context(path)
    key = (ruleset, tuple(mods))
    if fresh or key not in _VOCAB:
        try:
            _VOCAB[key] = vocabulary(ruleset, mods=mods)
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
