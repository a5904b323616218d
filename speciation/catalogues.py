"""Writing a gettext template (``.pot``) with Babel, for each of the project's two domains: the
table's words (:mod:`speciation.i18n`) and the rule errors (:mod:`speciation.rulemessages`).
It imports neither, so both can use it."""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def write_template(locale: Path, domain: str, messages: Iterable[str]) -> Path:
    """Write ``<locale>/<domain>.pot`` holding *messages* (sorted), and return its path."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    template = Catalog(project="speciation", domain=domain)
    for message in messages:
        template.add(message)
    path = locale / f"{domain}.pot"
    with path.open("wb") as out:
        write_po(out, template, omit_header=False, sort_output=True, width=100)
    return path
