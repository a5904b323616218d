"""Source positions and the error classes of every pipeline stage.

Every error a rule author can cause is a :class:`RuleError` carrying a
:class:`Span`; all of them print as ``path:line:col: error: message`` followed
by the source line and a caret, so that a whole batch reads like a compiler's.

Their messages (and hints) are :class:`Message` objects: the English text, which is what
``.message`` holds and prints, keeping the catalogue template it was made from and the
values filled in (the names and words the rule author wrote are values, never translated),
so that ``format(gettext=...)`` can say the same in another language (the ``rules``
gettext domain: ``speciation/locale/<lang>/LC_MESSAGES/rules.po``).
"""
from __future__ import annotations

from dataclasses import dataclass
from collections import Counter
from difflib import get_close_matches
from functools import lru_cache
from collections.abc import Callable, Iterable
from typing import Any


class Message(str):
    """A rule error's message: the English text (a ``str``, usable as one anywhere) made
    from the catalogue *template* and its named *values*. ``msg("unknown name '{name}'",
    name=name)``; its braces are format fields, ``{{`` and ``}}`` literal ones, values or not.
    A value that is a Message (a word of the tools, such as 'card') is
    translated with the template; any other value is shown as it is."""

    template: str
    values: dict[str, Any]

    def __new__(cls, template: str, **values: Any) -> Message:
        made = super().__new__(cls, template.format(**values))
        made.template, made.values = template, values
        return made

    def __reduce__(self) -> tuple:   # pickled (the loader's cache) and copied with its template
        return _message, (self.template, self.values)

    def translated(self, gettext: Callable[[str], str] | None) -> str:
        """The message in the language of *gettext* (the English text without one)."""
        if gettext is None:
            return str(self)
        template = gettext(self.template)
        values = {k: v.translated(gettext) if isinstance(v, Message) else v for k, v in self.values.items()}
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):   # a translation naming other values: the English
            return self.template.format(**values)


def _message(template: str, values: dict[str, Any]) -> Message:
    return Message(template, **values)


msg = Message      # the catalogue's keyword (extraction: ``speciation.rulemessages``)


def N_(template: str) -> str:
    """Mark *template* for the catalogue where its values are filled in later (``Message(template, ...)``)."""
    return template


def translated(text: str | None, gettext: Callable[[str], str] | None) -> str:
    """*text* in the language of *gettext* when it is a :class:`Message`, else as it is."""
    if text is None:
        return ""
    return text.translated(gettext) if isinstance(text, Message) else text


@dataclass(frozen=True, slots=True)
class Span:
    """A place in a rule file: 1-based line and column."""

    path: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}" if self.line > 0 else self.path

    def shifted(self, line: int, col: int) -> Span:
        """The span of (line, col), 1-based, inside text that starts here."""
        return Span(self.path, self.line + line - 1, self.col + col - 1)


UNKNOWN = Span("<unknown>", 0, 0)


class SpeciationError(Exception):
    """Base of every error this package raises on purpose."""


class RuleError(SpeciationError):
    """A mistake in a rule file, reported with its position."""

    stage = "error"

    def __init__(self, message: str, span: Span = UNKNOWN, hint: str | None = ""):
        super().__init__(message)
        self.message = message
        self.span = span
        self.hint = hint

    def format(self, sources: dict[str, str] | None = None, gettext: Callable[[str], str] | None = None) -> str:
        """``path:line:col: error: message (hint)``, the source line and a caret; with
        *gettext* (a catalogue's ``gettext`` of the ``rules`` domain) in its language."""
        if gettext is None:
            text = f"{self.span}: error: {self.message}"
            if self.hint:
                text += f" ({self.hint})"
        else:
            text = gettext(FRAME).format(where=self.span, message=translated(self.message, gettext))
            if self.hint:
                text += gettext(HINT).format(hint=translated(self.hint, gettext))
        line = _source_line(self.span, sources)
        if line is not None:
            caret = " " * (max(self.span.col, 1) - 1) + "^"
            text += f"\n    {line}\n    {caret}"
        return text

    def __str__(self) -> str:
        return f"{self.span}: {self.message}" + (f" ({self.hint})" if self.hint else "")


# How format() frames a message: its place, then the message, then its hint in parentheses.
FRAME = "{where}: error: {message}"
HINT = " ({hint})"


class LoadError(RuleError):
    """Malformed YAML, or a file that cannot be read."""


class SchemaError(RuleError):
    """A rule file whose structure does not fit its schema."""


class ParseError(RuleError):
    """Effect text that does not fit the grammar."""


class CompileError(RuleError):
    """Unknown names, wrong arities, clashing definitions."""


class RuleErrors(SpeciationError):
    """Every static error found in one run, reported together."""

    def __init__(self, errors: Iterable[RuleError], sources: dict[str, str] | None = None):
        self.errors = sorted(errors, key=lambda e: (e.span.path, e.span.line, e.span.col))
        self.sources = sources or {}
        super().__init__(self.format())

    def format(self, gettext: Callable[[str], str] | None = None) -> str:
        return "\n".join(e.format(self.sources, gettext) for e in self.errors)


class RuleRuntimeError(SpeciationError):
    """A rule that went wrong while running (a bug in the rules, not an illegal action)."""

    def __init__(self, message: str, span: Span | None = UNKNOWN, chain: list | None = None):
        """*chain*: [(span, what)] of the calls in progress, outermost first (see
        ``interpreter/errors.py``); shown when there is more than the failing statement."""
        self.chain = list(chain or [])
        text = f"{span}: {message}"
        if len(self.chain) > 1:
            text += "\n  through (innermost last):" + "".join(
                f"\n    {s}: {what}" if s is not None else f"\n    {what}" for s, what in self.chain)
        super().__init__(text)
        self.message = message
        self.span = span


class IllegalActionError(SpeciationError):
    """An action that is not among the legal ones now; the game is unchanged."""


class SaveFileError(SpeciationError):
    """A saved game that cannot be read, or belongs to another ruleset or version."""


class ReplayError(SaveFileError):
    """A recorded decision that is no longer legal when a game's history is replayed (the
    rules changed since). ``number`` is the decision's index in the history (0-based),
    ``prompt`` and ``value`` what it was, ``game`` the game replayed up to just before it."""

    def __init__(self, message: str, number: int, prompt: str, value: object, game: Any):  # game: a Game
        super().__init__(message)
        self.number, self.prompt, self.value, self.game = number, prompt, value, game


class ArgumentError(SpeciationError, ValueError):
    """A bad argument to the game API (a seat number, a seed, a player count)."""


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """A 'did you mean' hint, or '' when nothing is close. Fast on long lists of
    candidates (thousands of unknown names among thousands of known ones): only the
    candidates sharing the most letter pairs with *word* are compared in full."""
    global _considered
    if _considered > SUGGESTION_BUDGET:
        return ""
    names = candidates if isinstance(candidates, list) else list(candidates)
    _considered += len(names)
    if len(names) > _SHORTLIST:
        names = _shortlist(str(word), names)
    close = get_close_matches(str(word), names, n=3, cutoff=0.6)
    if not close:
        return ""
    if len(close) == 1:
        return msg("did you mean '{first}'?", first=close[0])
    if len(close) == 2:
        return msg("did you mean '{first}' or '{second}'?", first=close[0], second=close[1])
    return msg("did you mean '{first}' or '{second}' or '{third}'?", first=close[0], second=close[1], third=close[2])


_SHORTLIST = 60
_INDEXES: dict[tuple[str, ...], dict[str, list[int]]] = {}
# Candidates looked through since the last reset_suggestions(): past this many, no more
# suggestions, so that a file with thousands of unknown names, each with its own long list
# (a scope growing with each 'let'), is reported in seconds. A ruleset with a few hundred
# mistakes stays far below it.
SUGGESTION_BUDGET = 1_000_000
_considered = 0


def reset_suggestions() -> None:
    """Refill did_you_mean's budget (each load of a ruleset starts with a full one)."""
    global _considered
    _considered = 0


def _pairs(text: str) -> set[str]:
    return {text[i:i + 2] for i in range(len(text) - 1)} or {text}


def _shortlist(word: str, names: list[str]) -> list[str]:
    """The candidates that share the most letter pairs with *word* (an index of the
    candidates' pairs is kept for the last few candidate lists)."""
    key = tuple(names)
    index = _INDEXES.get(key)
    if index is None:
        if len(_INDEXES) >= 8:
            _INDEXES.pop(next(iter(_INDEXES)))
        index = _INDEXES[key] = {}
        for number, name in enumerate(names):
            for pair in _pairs(name):
                index.setdefault(pair, []).append(number)
    shared: Counter[int] = Counter()
    for pair in _pairs(word):
        shared.update(index.get(pair, ()))
    return [names[number] for number, _ in shared.most_common(_SHORTLIST)]


@lru_cache(maxsize=16)
def _lines_of(text: str) -> list[str]:
    return text.splitlines()


def _source_line(span: Span, sources: dict[str, str] | None) -> str | None:
    if span.line <= 0:
        return None
    text = (sources or {}).get(span.path)
    if text is None:
        try:
            with open(span.path, encoding="utf-8", errors="replace") as handle:
                text = handle.read(4 * 1024 * 1024)
        except (OSError, ValueError):
            return None
    lines = _lines_of(text)
    if span.line > len(lines):
        return None
    return lines[span.line - 1]
