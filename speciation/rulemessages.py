"""A rule author's errors in the reader's language: the ``rules`` gettext domain.

Every error a rule file can cause (``dsl/``: LoadError, SchemaError, ParseError,
CompileError; the back end's compile errors) is made from a catalogue template with named
values (``dsl.errors.msg``); its English text is what ``RuleError.message`` holds and what the
CLI, the language server and ``RuleErrors.format()`` print. The translations are standard
gettext: ``locale/<lang>/LC_MESSAGES/rules.po`` (what a translator edits) and ``rules.mo``
beside it (compiled by ``python -m speciation.i18n compile``, with the tools' own catalogue;
committed, so the standard library's :mod:`gettext` reads it with no extra package); the
template ``locale/rules.pot`` is written by ``python -m speciation.i18n extract`` (Babel's
extractor over the ``msg(...)`` calls of ``dsl/`` and ``interpreter/``).

A page of the table is sent the errors of the mods it uploaded in its own language
(:func:`rule_errors`: a text that :func:`speciation.i18n.translate` says again in another
language); ``speciation check`` follows ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG`` as
gettext does (:func:`from_environment`).
"""
from __future__ import annotations

import gettext
from collections.abc import Callable
from functools import cache
from pathlib import Path

from . import catalogues
from .dsl import errors as dsl_errors
from .dsl.errors import RuleErrors

DOMAIN = "rules"
LOCALE = Path(__file__).parent / "locale"
DEFAULT = "en"


@cache
def translation(lang: str | None) -> gettext.NullTranslations | None:
    """The ``rules`` catalogue of *lang* (None for English or a language without one)."""
    if not lang or lang.split("_")[0].split("-")[0] == DEFAULT:
        return None
    found = gettext.translation(DOMAIN, LOCALE, [lang, lang.replace("-", "_").split("_")[0]], fallback=True)
    return found if type(found) is not gettext.NullTranslations else None


def gettext_of(lang: str | None) -> Callable[[str], str] | None:
    """The ``gettext`` to pass to ``RuleError.format`` for *lang* (None: English)."""
    found = translation(lang)
    return found.gettext if found is not None else None


class RuleErrorsText(str):
    """Every error of a batch as text: the English (``RuleErrors.format()``, a ``str``) that
    :func:`speciation.i18n.translate` says in another language (``in_language``). *clean*
    is applied to either (the table takes its private folders out of the paths)."""

    errors: RuleErrors
    clean: Callable[[str], str]

    def __new__(cls, errors: RuleErrors, clean: Callable[[str], str] = str) -> RuleErrorsText:
        made = super().__new__(cls, clean(errors.format()))
        made.errors, made.clean = errors, clean
        return made

    def in_language(self, lang: str | None) -> str:
        gettext_ = gettext_of(lang)
        return str(self) if gettext_ is None else self.clean(self.errors.format(gettext_))


def rule_errors(errors: RuleErrors, clean: Callable[[str], str] = str) -> RuleErrorsText:
    """*errors* as a text a page reads in its own language (see :class:`RuleErrorsText`)."""
    return RuleErrorsText(errors, clean)


def from_environment() -> str | None:
    """The language gettext would choose from ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` and
    ``LANG`` that has a ``rules`` catalogue (None: English)."""
    import os

    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable)
        if not value:
            continue
        for lang in value.split(":"):
            lang = lang.split(".")[0].split("@")[0]
            if lang in ("C", "POSIX") or lang.split("_")[0] == DEFAULT:
                return None
            if translation(lang) is not None:
                return lang
        return None
    return None


# ---- maintenance (needs Babel): the template -----------------------------------------------------

def sources() -> list[Path]:
    """The folders whose ``msg(...)`` calls are the catalogue: the front end and the back end."""
    from . import interpreter

    return [Path(dsl_errors.__file__).parent, Path(interpreter.__file__).parent]


def extract() -> list[str]:
    """Every template of the rule errors: the ``msg("...")`` (and ``N_("...")``) calls of ``dsl/`` and
    ``interpreter/``, and how an error is framed (``path:line:col: error: ...``)."""
    from babel.messages.extract import extract_from_dir

    ids: dict[str, None] = {dsl_errors.FRAME: None, dsl_errors.HINT: None}
    for folder in sources():
        for _file, _line, message, _comments, _context in extract_from_dir(
                folder, method_map=[("**.py", "python")], keywords={"msg": None, "Message": None, "N_": None}):
            if isinstance(message, str):
                ids.setdefault(message)
    return list(ids)


def write_template() -> Path:
    """Write ``locale/rules.pot`` from :func:`extract`."""
    return catalogues.write_template(LOCALE, DOMAIN, extract())
