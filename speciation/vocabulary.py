"""A ruleset's own vocabulary: every function, macro, deck, kind and attribute, symbol list
and table its files define (after layering), each with its doc comment and position.

Read straight from the rule files (nothing is compiled), so it also works on a ruleset
with errors. Used by ``speciation list RULESET vocabulary``, the generated pages
``docs/vocabulary-*.md``, ``speciation explain`` and the language server.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Iterable

from .dsl.errors import Span
from .dsl.layers import Definitions, find_ruleset
from .dsl.loader import Node

SECTIONS = ("function", "macro", "event", "deck", "kind", "attribute", "symbols", "table", "card")
EXAMPLE = re.compile(r"\s*\bExample:\s*")


@dataclass
class Entry:
    """One name a ruleset defines."""

    section: str        # one of SECTIONS
    name: str           # "gain_vp", "player.vp", "elements", ...
    signature: str      # "gain_vp(f, n)", "dominance(you, tile)", "player.vp = 0", ...
    doc: str
    span: Span
    text: str = ""      # a function's or macro's body as written
    examples: list[str] = field(default_factory=list)   # "Example:" parts of the doc comment

    def __post_init__(self) -> None:
        parts = EXAMPLE.split(self.doc)
        self.doc = parts[0].strip()
        self.examples = self.examples or [part.strip() for part in parts[1:] if part.strip()]


@dataclass
class Vocabulary:
    name: str
    entries: list[Entry] = field(default_factory=list)
    definitions: Definitions | None = None

    def by_name(self) -> dict[str, Entry]:
        """Name → entry (a kind's attributes also by their bare name, first kind wins)."""
        out: dict[str, Entry] = {}
        for entry in self.entries:
            out.setdefault(entry.name, entry)
            if entry.section == "attribute":
                out.setdefault(entry.name.split(".", 1)[1], entry)
        return out

    def section(self, section: str) -> list[Entry]:
        return [e for e in self.entries if e.section == section]


class _Collector(Definitions):
    """Collects a ruleset's definitions like the compiler does, without compiling them."""

    def __init__(self) -> None:
        super().__init__()
        self.attribute_spans: dict[tuple[str, str], Span] = {}

    def add_kinds(self, section: Node, doc: Node) -> None:
        super().add_kinds(section, doc)
        for kind, spec in section.items():
            attributes = spec.get("attributes", {}) if isinstance(spec, dict) else {}
            for attr in attributes:
                where = attributes.where_key(attr) if isinstance(attributes, Node) else section.where_key(kind)
                self.attribute_spans[(kind, attr)] = where

    def compile(self, root: Path, variants: list[str], mods: list[str]) -> _Collector:
        return self


def collect(ruleset: str, variants: Iterable[str] = (), mods: Iterable[str] = ()) -> Definitions:
    """The definitions of *ruleset* (a name or folder) with its variants and mods, uncompiled.
    Raises :class:`RuleErrors` only when the ruleset itself cannot be found or read."""
    return _Collector().build(find_ruleset(ruleset), list(variants), list(mods))


def vocabulary(ruleset: str, variants: Iterable[str] = (), mods: Iterable[str] = ()) -> Vocabulary:
    defs = collect(ruleset, variants, mods)
    manifest: dict = defs.manifest or {}
    vocab = Vocabulary(str(manifest.get("ruleset", ruleset)), definitions=defs)
    sources = defs.sources
    add = vocab.entries.append
    for name, (params, text, span) in sorted(defs.functions.items()):
        add(Entry("function", name, f"{name}({', '.join(params)})", doc_at(sources, span, name), span, str(text)))
    for name, (params, text, span) in sorted(defs.macros.items()):
        add(Entry("macro", name, f"{name}({', '.join(params)})", doc_at(sources, span, name), span, str(text)))
    for name, (signature, doc, span) in sorted(events(defs).items()):
        add(Entry("event", name, signature, doc, span))
    for name, spec in sorted(defs.decks.items()):
        params = [str(p) for p in spec.get("params", [])]
        span = defs.layer_names.get(("decks", name), (0, spec.span))[1]
        doc = " ".join(str(spec.get("doc", "")).split()) or doc_at(sources, span, name)
        add(Entry("deck", name, f"{name}({', '.join(['self'] + params)})", doc, span))
    for kind in sorted(defs.kinds):
        span = defs.kind_spans.get(kind, Span("(built in)", 0, 0))
        members = sum(1 for r in defs.entities.values() if r["kind"] == kind)
        doc = doc_at(sources, span, kind) or ("an implicit kind" if span.line == 0 else "")
        count = f" ({members} entities)" if members else ""
        add(Entry("kind", kind, kind + count, doc, span))
        for attr, default in sorted(defs.kinds[kind].items()):
            aspan = getattr(defs, "attribute_spans", {}).get((kind, attr), span)
            add(Entry("attribute", f"{kind}.{attr}", f"{kind}.{attr} = {_short(default)}",
                      doc_at(sources, aspan, attr), aspan))
    for name, (names, span) in sorted(defs.symbols.items()):
        add(Entry("symbols", name, f"{name}: {', '.join(names)}", doc_at(sources, span, name), span))
    for name, (value, span) in sorted(defs.tables.items()):
        add(Entry("table", name, f"{name} = {_short(value)}", doc_at(sources, span, name), span))
    return vocab


EMIT = re.compile(r"^(\s*)emit\s+([A-Za-z_]\w*)\s*\(([^)]*)\)")
LISTEN = re.compile(r"^\s*-?\s*on:\s*([A-Za-z_]\w*)\s*\(([^)]*)\)")


def events(defs: Definitions) -> dict[str, tuple[str, str, Span]]:
    """Every event the rule files ``emit``: name -> (signature, doc, span of its first emit).
    The signature names the values as a trigger listening for it names them (else as the
    ``emit`` passes them); the doc is the ``#`` comment right above an ``emit`` of it."""
    found: dict[str, tuple[str, str, Span]] = {}
    params: dict[str, str] = {}
    for path, text in sorted(defs.sources.items()):
        lines = text.splitlines()
        for number, line in enumerate(lines):
            listen = LISTEN.match(line)
            if listen:
                params.setdefault(listen.group(1), ", ".join(a.strip() for a in listen.group(2).split(",")))
            emit = EMIT.match(line)
            if not emit:
                continue
            name = emit.group(2)
            above = number
            while above > 0 and lines[above - 1].strip().startswith("#"):
                above -= 1
            doc = " ".join(x.strip().lstrip("#").strip() for x in lines[above:number])
            args = ", ".join(a.strip() for a in emit.group(3).split(","))
            span = Span(path, number + 1, len(emit.group(1)) + 1)
            if name not in found or (doc and not found[name][1]):
                found[name] = (args, doc, span)
    return {name: (f"{name}({params.get(name, args)})", doc, span)
            for name, (args, doc, span) in found.items()}


def _short(value, limit: int = 60) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[:limit - 3] + "..."


BLOCK_KEY = re.compile(r"^\s*-?\s*[A-Za-z_]\w*\s*:\s*[|>][-+]?\s*(#.*)?$")


def doc_at(sources: dict[str, str], span: Span, name: str) -> str:
    """The doc comment of the definition of *name* near *span*: the ``#`` lines right above
    its key and a comment at the end of the key's line, or "" (the rulesets' convention)."""
    lines = sources.get(span.path, "").splitlines()
    at = span.line - 1
    if not 0 <= at < len(lines):
        return ""
    pattern = re.compile(rf"^\s*-?\s*{re.escape(name)}\s*[(:]")
    key = next((i for i in range(at, max(at - 4, -1), -1) if pattern.match(lines[i])), at)
    if key == at and at > 0 and BLOCK_KEY.match(lines[at - 1]):   # a block text's span is its first line:
        key = at - 1                                                # its key is the line above
    above = key
    while above > 0 and lines[above - 1].strip().startswith("#"):
        above -= 1
    trailing = re.search(r"\s#\s*(.*)$", _without_strings(lines[key]))
    parts = [line.strip().lstrip("#").strip() for line in lines[above:key]]
    if trailing:   # a comment on the key's line is part of the doc, before any "Example:"
        cut = next((i for i, part in enumerate(parts) if part.startswith("Example:")), len(parts))
        parts.insert(cut, lines[key][trailing.start(1):].strip())
    return " ".join(parts)


def _without_strings(line: str) -> str:
    return re.sub(r'"[^"]*"|\'[^\']*\'', lambda m: "_" * len(m.group(0)), line)


# ---- printing -------------------------------------------------------------------------

TITLES = {"function": "Functions", "macro": "Macros", "event": "Events (what triggers can listen to)", "deck": "Decks (effect parameters)",
          "kind": "Kinds", "attribute": "Attributes", "symbols": "Symbol lists", "table": "Tables"}


def relative(span: Span) -> str:
    """A span with its path from the rulesets folder (``original/rules/pieces.yaml:7:5``)."""
    path = span.path.replace("\\", "/")
    cut = path.rfind("/rulesets/")
    shown = path[cut + len("/rulesets/"):] if cut >= 0 else path
    return f"{shown}:{span.line}" if span.line else shown


def text_lines(vocab: Vocabulary) -> list[str]:
    out = []
    for section, title in TITLES.items():
        entries = vocab.section(section)
        out.append(f"{title.lower()} ({len(entries)}):")
        for entry in entries:
            out.append(f"  {entry.signature}  [{relative(entry.span)}]")
            if entry.doc:
                out.append(f"      {entry.doc}")
            for example in entry.examples:
                out.append(f"      example: {example}")
    return out


def markdown(vocab: Vocabulary, title: str) -> str:
    out = [f"# Vocabulary of `{vocab.name}`", "",
           f"Every name the rule files of *{title}* define (after layering), with its doc comment and",
           "where it is defined. Generated by `python docs/gen_vocabulary.py`; a test keeps it current.",
           "Builtins (`len`, `tiles`, `choose`, ...) are in [the language reference](language.md).", ""]
    for section, heading in TITLES.items():
        entries = vocab.section(section)
        out += [f"## {heading} ({len(entries)})", "", "| name | doc | defined in |", "|---|---|---|"]
        for entry in entries:
            doc = entry.doc.replace("|", "\\|")
            doc += "".join(f"<br>Example: `{e}`".replace("|", "\\|") for e in entry.examples)
            sig = entry.signature.replace("|", "\\|")
            out.append(f"| `{sig}` | {doc} | `{relative(entry.span)}` |")
        out.append("")
    return "\n".join(out)
