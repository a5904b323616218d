"""``speciation list RULESET [WHAT]``: a ruleset's cards, actions, variants, vocabulary, mods."""
from __future__ import annotations

import argparse
import re
import unicodedata
from collections.abc import Callable

from ..dsl.errors import SpeciationError
from ..dsl.loader import load_file
from ..interpreter.ruleset import Ruleset, find_ruleset, variant_files
from ..examples import run_examples
from ..vocabulary import text_lines, vocabulary
from .common import lang_option, load_for, ruleset_options

LIST_SECTIONS = ("cards", "actions", "variants")
LIST_EXTRA = ("vocabulary", "examples", "mods")   # listed only when asked for (mods: also when there are some)


def register(commands) -> None:
    lister = commands.add_parser("list", help="list a ruleset's cards, actions or variants")
    lister.add_argument("ruleset", metavar="RULESET", help="ruleset folder or builtin name")
    lister.add_argument("what", nargs="?", choices=LIST_SECTIONS + LIST_EXTRA,
                        help="what to list (default: cards, actions and variants)")
    ruleset_options(lister)
    lang_option(lister, "card names")
    lister.set_defaults(handler=cmd_list)


def cmd_list(args: argparse.Namespace) -> int:
    ruleset = load_for(args)
    if isinstance(ruleset, int):
        return ruleset
    sections = [args.what] if args.what else list(LIST_SECTIONS) + (["mods"] if ruleset.mod_infos else [])
    makers: dict[str, Callable[[Ruleset, argparse.Namespace], list[str]]] = {
        "cards": _card_lines, "actions": _action_lines, "variants": _variant_lines,
        "vocabulary": _vocabulary_lines, "examples": _example_lines, "mods": _mod_lines}
    failed = False
    for number, section in enumerate(sections):
        lines = makers[section](ruleset, args)
        failed = failed or (section == "examples" and any(line.startswith("FAIL") for line in lines))
        if len(sections) > 1:
            print(("\n" if number else "") + f"{section} ({len(lines)}):")
            lines = ["  " + line for line in lines]
        for line in lines:
            print(line)
    return 1 if failed else 0


def _table(rows: list[list[str]]) -> list[str]:
    """Rows as left-aligned columns."""
    if not rows:
        return []
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]


def _card_lines(ruleset: Ruleset, args: argparse.Namespace) -> list[str]:
    """Every card of every deck (e.g. Marine's evolution and trait cards), deck by deck in
    the order the decks first appear, by name within a deck. With ``--lang``, the name in
    that language, followed by the rule files' name in brackets when the two differ."""
    names = ruleset.labels.get(args.lang, {}) if args.lang else {}
    decks: list[str] = []
    for card in ruleset.cards.values():
        if card.deck not in decks:
            decks.append(card.deck)
    rows = []
    for card in ruleset.cards.values():
        shown = names.get(card.id, card.name)
        if shown != card.name:
            shown = f"{shown} ({card.name})"
        provenance = card.provenance or {}
        sources = "; ".join(str(s) for s in provenance.get("sources", []))
        row = [shown, card.deck, str(provenance.get("confidence", "?")), sources]
        if ruleset.mod_infos:
            row.append(_brought_by(ruleset, card.id))
        rows.append((decks.index(card.deck), _sort_key(shown), row))
    return _table([row for *_, row in sorted(rows, key=lambda r: (r[0], r[1]))])


def _brought_by(ruleset: Ruleset, card: str) -> str:
    """"mod NAME" for the mods that brought or changed *card*, "" otherwise."""
    names = [m["name"] for m in ruleset.mod_infos
             if any(b == f"card {card}" or b.startswith(f"card {card} (") for b in m["brings"])]
    return "".join(f"[mod {n}]" for n in names)


def _mod_lines(ruleset: Ruleset, args: argparse.Namespace) -> list[str]:
    """One line per mod: name, version, author, title, path and targets, what it brings."""
    lines = []
    for mod in ruleset.mod_infos:
        head = mod["name"] + (f" {mod['version']}" if mod["version"] else "")
        head += (f" by {mod['author']}" if mod["author"] else "") + (f" ({mod['title']})" if mod["title"] else "")
        where = mod["path"] + (f", for {', '.join(mod['targets'])}" if mod["targets"] else "")
        lines.append(f"{head} [{where}]: brings " + (", ".join(mod["brings"]) or "nothing"))
    return lines


def _sort_key(text: str) -> str:
    """Alphabetical order that puts accented letters (ł, ś, ż, ...) beside their base letter."""
    plain = unicodedata.normalize("NFKD", text.casefold().replace("ł", "l"))
    return "".join(c for c in plain if not unicodedata.combining(c)) + "\0" + text


def _action_lines(ruleset: Ruleset, args: argparse.Namespace) -> list[str]:
    rows = []
    for macro in ruleset.macros.values():
        if macro.name.startswith("action_"):
            signature = f"{macro.name}({', '.join(macro.params)})"
            rows.append([signature, macro_doc(ruleset, macro)])
    return _table(rows)


def macro_doc(ruleset: Ruleset, macro) -> str:
    """The first line of a macro's doc: the ``#`` comment lines right above its
    key (the rulesets' convention), else a comment its text starts with; or ""."""
    lines = ruleset.sources.get(macro.span.path, "").splitlines()
    value = macro.span.line - 1
    if not 0 <= value < len(lines):
        return ""
    key = next((i for i in range(value, max(value - 4, -1), -1)
                if re.match(rf"\s*{re.escape(macro.name)}\s*[(:]", lines[i])), value)
    above = key
    while above > 0 and lines[above - 1].strip().startswith("#"):
        above -= 1
    if above < key:
        return lines[above].strip().lstrip("#").strip()
    first = lines[value][macro.span.col - 1:].strip()
    return first.lstrip("#").strip() if first.startswith("#") else ""


def _vocabulary_lines(ruleset: Ruleset, args: argparse.Namespace) -> list[str]:
    return text_lines(vocabulary(args.ruleset, args.variant, args.mod))


def _example_lines(ruleset: Ruleset, args: argparse.Namespace) -> list[str]:
    """Every example of the vocabulary, run (speciation/examples.py): ok or FAIL with why."""
    results = run_examples(args.ruleset, args.variant, args.mod)
    failed = sum(not r.passed for r in results)
    return [r.line() for r in results] + [f"{len(results) - failed} passed, {failed} failed"]


def _variant_lines(ruleset: Ruleset, args: argparse.Namespace) -> list[str]:
    rows = []
    for variant, path in variant_files(find_ruleset(args.ruleset)).items():
        try:
            document, _ = load_file(str(path))
            title = str(document.get("title", "")) if isinstance(document, dict) else ""
        except SpeciationError as error:
            title = f"(unreadable: {error})"
        rows.append([variant, title])
    return _table(rows)
