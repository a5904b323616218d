"""Collect a ruleset's definitions from its files, layer by layer.

Layers, from first to last: the rulesets a ruleset ``extends`` (base first),
the ruleset's own files, each chosen variant, each mod. Inside one layer a
name may be defined once; a later layer replaces definitions by name (and
merges kinds and entities attribute by attribute), so an edition, a variant
or a mod states only what differs. Compiling what is collected is
:mod:`speciation.interpreter.ruleset`'s job (the back end).
"""
from __future__ import annotations

import hashlib
import re
from importlib import resources
from pathlib import Path
from typing import Any, cast

from . import cache
from . import mods as mods_
from .errors import CompileError, LoadError, RuleError, RuleErrors, SchemaError, Span, did_you_mean, msg, reset_suggestions
from .offers import add_offers
from .responses import add_responses
from .loader import Node, load_file
from .reserved import check_fields
from .schema import _kind_word, check, kind_of

IMPLICIT_KINDS = ("game", "player", "cell", "corner", "card")
_SINGULAR = {"symbols": msg("symbol list"), "tables": msg("table"), "entities": msg("entity"),
             "functions": msg("function"), "macros": msg("macro"), "decks": msg("deck"), "cards": msg("card")}
_CARD_CORE = {"card", "deck", "text", "provenance", "effect"}  # a card wrong in these is not compiled
SIGNATURE = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?:\(([^)]*)\))?\s*$")


def builtin_root() -> Path:
    return Path(str(resources.files("speciation.rulesets")))


def available_rulesets() -> list[str]:
    root = builtin_root()
    return sorted(p.name for p in root.iterdir() if (p / "ruleset.yaml").is_file())


def find_ruleset(name_or_path: str) -> Path:
    path = Path(name_or_path)
    if (path / "ruleset.yaml").is_file():
        return path
    if path.name == "ruleset.yaml" and path.is_file():
        return path.parent
    candidate = builtin_root() / name_or_path
    if (candidate / "ruleset.yaml").is_file():
        return candidate
    hint = did_you_mean(name_or_path, available_rulesets())
    raise RuleErrors([LoadError(msg("no ruleset named '{name}'", name=name_or_path), Span(name_or_path, 0, 0), hint)])


def _digest(files) -> str:
    """A content digest of named texts: the file names (relative) and their text."""
    h = hashlib.sha256()
    for name, text in files:
        h.update(name.encode() + b"\0" + text.encode("utf-8", "surrogatepass") + b"\0")
    return h.hexdigest()[:16]


def slug(name: str) -> str:
    """The file-name form of a name: ``"Cold Snap"`` → ``"cold_snap"``."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def variant_files(root: Path) -> dict[str, Path]:
    """Variant name → file, over a ruleset and those it extends (nearest wins)."""
    found: dict[str, Path] = {}
    for directory in reversed(_chain(root)):
        for path in sorted((directory / "variants").glob("*.yaml")):
            found[path.stem] = path
    return found


def _chain(root: Path) -> list[Path]:
    """The ruleset folder and the ones it extends, nearest first."""
    chain, seen = [root], {root.resolve()}
    while True:
        try:
            manifest, _ = load_file(str(chain[-1] / "ruleset.yaml"))
        except LoadError as error:
            raise RuleErrors([error]) from None
        parent = manifest.get("extends") if isinstance(manifest, dict) else None
        if not parent:
            return chain
        nxt = _parent_ruleset(str(parent), manifest.where("extends"))
        if nxt.resolve() in seen:
            raise RuleErrors([LoadError(msg("ruleset extends itself"), manifest.where("extends"))])
        seen.add(nxt.resolve())
        chain.append(nxt)


def _parent_ruleset(name: str, where: Span) -> Path:
    """The built-in ruleset an ``extends:`` names (never a path: a shared ruleset must not
    make us read folders outside it)."""
    candidate = builtin_root() / name
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) and (candidate / "ruleset.yaml").is_file():
        return candidate
    raise RuleErrors([LoadError(msg("extends: no built-in ruleset named '{name}'", name=name[:80]), where,
                                did_you_mean(name, available_rulesets()))])


class Definitions:
    """Everything the files of a ruleset define, with where they define it."""

    def __init__(self) -> None:
        self.errors: list[RuleError] = []
        self.sources: dict[str, str] = {}
        # Rule text the engine writes for a section (a responses window, an offer): part of the
        # rules as compiled, so the ruleset's digest covers it (a save made before the engine
        # wrote it otherwise is replayed, not resumed on statements that moved).
        self.generated: list[str] = []
        self.symbols: dict[str, tuple[list[str], Span]] = {}
        self.tables: dict[str, tuple[Any, Span]] = {}
        self.kinds: dict[str, dict[str, Any]] = {k: {} for k in IMPLICIT_KINDS}
        self.kind_spans: dict[str, Span] = {}
        self.kind_max: dict[str, int] = {}
        self.entities: dict[str, dict[str, Any]] = {}
        self.entity_spans: dict[str, Span] = {}
        self.cells: list[tuple[int, int]] = []
        self.functions: dict[str, tuple[list[str], str, Span]] = {}
        self.macros: dict[str, tuple[list[str], str, Span]] = {}
        self.triggers: list[tuple[Node, str | None]] = []
        self.checks: list[Node] = []   # state checks, layer after layer
        self.modifiers: list[tuple[Node, str | None]] = []
        self.decks: dict[str, Node] = {}
        self.cards: dict[str, tuple[Node, str]] = {}
        self.layer_names: dict[tuple[str, str], tuple[int, Span]] = {}
        self.layer = 0
        self.manifest: Node | None = None
        self.variant_titles: dict[str, str] = {}
        self.player_limits: dict[str, int] = {}
        self.in_mod = False
        self.mod_layers: set[int] = set()                 # the layers that are mods
        self.mod_is_folder = False                        # the mod being read is a folder (a package)
        self.labels: dict[str, dict[str, str]] = {}
        self.card_texts: dict[str, dict[str, str]] = {}  # language -> card id -> card text
        self.phrases: dict[str, dict[str, str]] = {}   # language -> English template -> translation
        self.mod_digests: list[str] = []
        self.presentation: dict[str, Any] = {}
        self.presentation_spans: dict[tuple, Span] = {}
        self.hidden: dict[str, Any] = {}                  # the merged 'hidden' section
        self.hidden_spans: dict[tuple, Span] = {}
        self.mod_infos: list[dict[str, Any]] = []   # per mod: name, version, author, targets, brings

    # ---- reading ------------------------------------------------------------------

    def load(self, path: Path) -> tuple[Any, str]:
        """A file's document and text (an editor's language server gives unsaved text here)."""
        return load_file(str(path))

    def read(self, path: Path, expect: str | None = None) -> Any:
        try:
            document, text = self.load(path)
        except LoadError as error:
            self.errors.append(error)
            return None
        self.sources[str(path)] = text
        kind = kind_of(document)
        if expect and kind != expect:
            self.errors.append(SchemaError(msg("expected a {expected} file here, found a {kind} file", expected=_kind_word(expect),
                                               kind=_kind_word(kind)),
                                           Span(str(path), 1, 1)))
            return None
        problems, bad = cache.schema_check(str(path), text, kind, lambda: check(document, kind, Span(str(path), 1, 1)))
        self.errors.extend(problems)
        if None in bad or (bad and kind == "manifest") or (kind == "card" and bad & _CARD_CORE):
            return None
        for key in bad:  # keep checking the rest of the file
            document.pop(key, None)
        return document

    def build(self, root: Path, variants: list[str], mods: list[str]) -> Any:
        """Collect every layer, then compile (see the subclass in :mod:`.ruleset`)."""
        reset_suggestions()  # each load (or language-server check) has its own did-you-mean budget
        chain = _chain(root)
        for directory in reversed(chain):
            self.layer += 1
            manifest = self.read(directory / "ruleset.yaml", "manifest")
            if manifest is not None:
                self.manifest = manifest
            self.add_layer([(path, self.read(path)) for path in _rule_files(directory)])
        known = variant_files(root)
        for name in variants:
            self.layer += 1
            path = known.get(name) or _variant_path(name)
            if path is None:
                self.errors.append(LoadError(msg("no variant named '{name}' in ruleset '{ruleset}'", name=name, ruleset=root.name),
                                             Span(str(root / "variants"), 0, 0),
                                             did_you_mean(name, known) or msg("a variant file elsewhere is given by its "
                                                                              "path, e.g. --variant my/variant.yaml")))
                continue
            document = self.read(path, "variant")
            if document is not None:
                self.variant_titles[name] = str(document["title"])
                if "players" in document:
                    self.player_limits.update(plain_value(document["players"]))
                self.add_layer([(path, document)])
        for mod in mods:
            self.layer += 1
            self.mod_layers.add(self.layer)
            self.mod_infos.append(mods_.new_info(mod))
            paths = self.mod_files(Path(mod))
            self.in_mod, self.mod_is_folder = True, Path(mod).is_dir()
            self.add_layer([(path, self.read(path)) for path in paths])
            self.mod_digests.append(_digest((path.relative_to(mod).as_posix() if path != Path(mod) else path.name,
                                             self.sources.get(str(path), "")) for path in paths))
        return self.compile(root, variants, mods)

    def mod_files(self, mod: Path) -> list[Path]:
        """A mod's rule files: the file itself, or every ``*.yaml`` under the folder. A
        symbolic link is refused (a shared mod must not make us read files outside it)."""
        if mod.is_symlink():
            self.errors.append(LoadError(msg("a mod may not be a symbolic link"), Span(str(mod), 0, 0)))
            return []
        if not mod.is_dir():
            return [mod]
        found = []
        for path in sorted(mod.rglob("*")):
            if path.is_symlink():
                self.errors.append(LoadError(msg("symbolic link in a mod folder refused (a mod's files must "
                                                 "be its own)"), Span(str(path), 0, 0)))
            elif path.relative_to(mod).parts[0] == "scenarios":
                continue  # the mod's own tests, not its rules
            elif path.suffix == ".yaml" and path.is_file() and not any(
                    parent.is_symlink() for parent in path.relative_to(mod).parents if parent != Path(".")):
                found.append(path)
        return found

    def compile(self, root: Path, variants: list[str], mods: list[str]) -> Any:
        raise NotImplementedError

    def add_layer(self, documents: list[tuple[Path, Any]]) -> None:
        """Add one layer's documents: removals first, then kinds, so file order never matters."""
        for _path, doc in documents:
            if doc is not None and "remove" in doc:
                self.remove(doc["remove"])
        for _path, doc in documents:
            if doc is not None and "kinds" in doc:
                self.add_kinds(doc["kinds"], doc)
        for path, doc in documents:
            self.add_document(path, doc)

    def add_document(self, path: Path, doc: Any) -> None:
        if doc is None:
            return
        if "card" in doc:
            self.add_card(path, doc)
            return
        if self.in_mod and "mod" in doc:
            mods_.note_manifest(self.mod_infos[-1], doc)
        if "cards" in doc:
            mods_.change_cards(self, doc["cards"], self.mod_infos[-1] if self.in_mod else None)
        for key in ("symbols", "tables", "entities", "board", "functions", "macros",
                    "triggers", "modifiers", "checks", "responses", "offers", "decks", "labels", "texts", "phrases",
                    "presentation", "hidden"):
            if key in doc:
                getattr(self, "add_" + key)(doc[key], doc)

    def remove(self, section: Node) -> None:
        """Take away definitions of earlier layers (an edition or mod declaring what differs)."""
        tables: dict[str, dict] = {"entities": self.entities, "cards": self.cards, "decks": self.decks,
                                   "macros": self.macros, "functions": self.functions, "tables": self.tables,
                                   "symbols": self.symbols}
        for key, names in section.items():
            if key == "entity_kinds":
                doomed = [i for i, r in self.entities.items() if r["kind"] in names]
                for ident in doomed:
                    del self.entities[ident]
                continue
            for name, span in zip(names, names.item_spans):
                if name not in tables[key]:
                    self.errors.append(CompileError(msg("cannot remove {what} '{name}': no earlier layer defines it",
                                                        what=_SINGULAR.get(key, key), name=name), span,
                                                    did_you_mean(str(name), tables[key])))
                    continue
                del tables[key][name]
                self.layer_names.pop((key, name), None)

    def claim(self, section: str, name: str, span: Span) -> None:
        """Note a definition; a second one in the same layer is an error."""
        previous = self.layer_names.get((section, name))
        if previous and previous[0] == self.layer:
            self.errors.append(CompileError(msg("{what} '{name}' is defined twice (first at {first})",
                                                what=_SINGULAR.get(section, section), name=name, first=previous[1]), span))
        else:
            self.note_change(section, name, span)
        self.layer_names[(section, name)] = (self.layer, span)
        if self.in_mod and self.mod_infos:
            self.mod_infos[-1]["brings"].append(f"{_SINGULAR.get(section, section)} {name}")

    def note_change(self, section: str, name: str, span: Span) -> None:
        """Note that a mod replaces or changes a definition; one another mod replaced or
        changed already is an error naming both files (else the last would silently win)."""
        if not self.in_mod:
            return
        previous = self.layer_names.get((section, name))
        if previous and previous[0] in self.mod_layers and previous[0] != self.layer:
            self.errors.append(CompileError(msg("two mods replace {what} '{name}': {first} and {second} (the last would "
                                                "silently win)", what=_SINGULAR.get(section, section), name=name,
                                                first=previous[1].path, second=span.path),
                                            span, msg("the other is at {where}", where=previous[1])))
        self.layer_names[(section, name)] = (self.layer, span)

    def add_symbols(self, section: Node, doc: Node) -> None:
        for category, names in section.items():
            self.claim("symbols", category, section.where_key(category))
            self.symbols[category] = ([str(n) for n in names], section.where_key(category))

    def add_tables(self, section: Node, doc: Node) -> None:
        for name, value in section.items():
            self.claim("tables", name, section.where_key(name))
            self.tables[name] = (plain_value(value), section.where_key(name))

    def add_kinds(self, section: Node, doc: Node) -> None:
        for kind, spec in section.items():
            self.kind_spans.setdefault(kind, section.where_key(kind))
            if "max" in spec:  # entities of the kind may be created in play, this many at once
                self.kind_max[kind] = int(spec["max"])
            attributes = spec.get("attributes", {})
            self.errors.extend(check_fields(attributes, kind, getattr(attributes, "where_key", lambda k, spec=spec: spec.span)))
            self.kinds.setdefault(kind, {}).update(plain_value(spec.get("attributes", {})))

    def add_entities(self, section: Node, doc: Node) -> None:
        for kind, records in section.items():
            if kind not in self.kinds:
                self.errors.append(CompileError(msg("unknown kind '{kind}'", kind=kind), section.where_key(kind),
                                                did_you_mean(kind, self.kinds)))
                continue
            for record, span in zip(records, records.item_spans):
                ident = str(record["id"])
                self.claim("entities", ident, span)
                self.errors.extend(check_fields([k for k in record if k != "id"], kind,
                                                getattr(record, "where_key", lambda k, span=span: span)))
                existing = self.entities.get(ident)
                if existing is not None and existing["kind"] != kind:
                    self.errors.append(CompileError(msg("'{name}' is already a {kind}", name=ident, kind=existing['kind']), span))
                    continue
                merged = existing or {"kind": kind, "id": ident}
                merged.update({k: plain_value(v) for k, v in record.items() if k != "id"})
                self.entities[ident] = merged
                self.entity_spans.setdefault(ident, span)

    def add_board(self, section: Node, doc: Node) -> None:
        self.cells = [(int(q), int(r)) for q, r in section["cells"]]

    def _add_signatures(self, section: Node, table: dict, kind: str) -> None:
        for key, text in section.items():
            match = SIGNATURE.match(str(key))
            assert match is not None  # the schema's pattern for these keys
            name = match.group(1)
            params = [p.strip() for p in (match.group(2) or "").split(",") if p.strip()]
            self.claim(kind, name, section.where_key(key))
            table[name] = (params, text, section.where(key))

    def add_functions(self, section: Node, doc: Node) -> None:
        self._add_signatures(section, self.functions, "functions")

    def add_macros(self, section: Node, doc: Node) -> None:
        self._add_signatures(section, self.macros, "macros")

    def add_triggers(self, section: list, doc: Node, owner: str | None = None) -> None:
        self.triggers.extend((t, owner) for t in section)

    def add_checks(self, section: list, doc: Node) -> None:
        self.checks.extend(section)

    def add_responses(self, section: Node, doc: Node) -> None:
        add_responses(self, section)

    def add_offers(self, section: Node, doc: Node) -> None:
        add_offers(self, section)

    def add_modifiers(self, section: list, doc: Node, owner: str | None = None) -> None:
        self.modifiers.extend((m, owner) for m in section)

    def add_labels(self, section: Node, doc: Node) -> None:
        """Display names by language: {lang: {name or id: text}}; later layers add or replace."""
        for lang, names in section.items():
            self.labels.setdefault(str(lang), {}).update({str(k): str(v) for k, v in names.items()})

    def add_texts(self, section: Node, doc: Node) -> None:
        """Card texts by language: {lang: {card id: text}}; later layers add or replace."""
        for lang, texts in section.items():
            self.card_texts.setdefault(str(lang), {}).update({str(k): str(v) for k, v in texts.items()})

    def add_phrases(self, section: Node, doc: Node) -> None:
        """The rule files' sentences by language: {lang: {template as written: translation}}.
        A translation keeps the template's placeholders: as many ``{}``, or numbered ones
        (``{1}``, ``{2}``: the template's first, second value) in any order."""
        for lang, phrases in section.items():
            mine = self.phrases.setdefault(str(lang), {})
            for key, text in phrases.items():
                wanted, problem = str(key).count("{}"), _placeholder_problem(str(key), str(text))
                if problem:
                    span = phrases.where(key) if isinstance(phrases, Node) else Span("", 0, 0)
                    self.errors.append(CompileError(msg("the {lang} phrase for '{key}' {problem} (the template has "
                                                        "{wanted} {{}})", lang=lang, key=key, problem=problem,
                                                        wanted=wanted), span))
                    continue
                mine[str(key)] = str(text)

    def add_presentation(self, section: Node, doc: Node) -> None:
        """How the state looks: merged key by key into earlier layers' (lists replace; a
        null value removes an inherited entry)."""
        _merge(self.presentation, section, (), self.presentation_spans)

    def add_hidden(self, section: Node, doc: Node) -> None:
        """What a seat may not see: merged key by key, as a presentation is."""
        _merge(self.hidden, section, (), self.hidden_spans)

    def add_decks(self, section: Node, doc: Node) -> None:
        for name, spec in section.items():
            self.claim("decks", name, section.where_key(name))
            self.decks[name] = spec

    def add_card(self, path: Path, doc: Node) -> None:
        ident = slug(str(doc["card"]))
        if path.stem != ident and (not self.in_mod or self.mod_is_folder):  # a one-file mod is named as the mod
            self.errors.append(SchemaError(msg("card file should be named '{name}.yaml' after its card", name=ident),
                                           doc.where("card")))
        self.claim("cards", ident, doc.where("card"))
        self.cards[ident] = (doc, str(path))

    # ---- compiling ------------------------------------------------------------------


def _variant_path(name: str) -> Path | None:
    """A variant given by the path of its file (not a symbolic link), or None."""
    path = Path(name)
    if path.suffix in (".yaml", ".yml") and path.is_file() and not path.is_symlink():
        return path
    return None


def _rule_files(directory: Path) -> list[Path]:
    skip = {"ruleset.yaml"}
    out = []
    for path in sorted(directory.rglob("*.yaml")):
        relative = path.relative_to(directory)
        if relative.parts[0] in ("variants", "scenarios") or path.name in skip:
            continue
        out.append(path)
    return out


def _merge(into: dict, section: Node, path: tuple, spans: dict) -> None:
    """Merge a mapping into *into*, mappings key by key, noting where each value was set."""
    for key, value in section.items():
        here = path + (str(key),)
        spans[here] = section.where(key)
        if value is None:  # a later layer takes an inherited entry away
            into.pop(str(key), None)
            continue
        if isinstance(value, dict) and isinstance(into.get(str(key)), dict):
            _merge(into[str(key)], cast(Node, value), here, spans)  # a mapping read from a file
            continue
        into[str(key)] = plain_value(value)
        for i, item_span in enumerate(getattr(value, "item_spans", [])):
            spans[here + (i,)] = item_span
            item = value[i]
            if isinstance(item, Node):
                for k in item:
                    spans[here + (i, str(k))] = item.where(k)
        if isinstance(value, Node):
            _note_spans(value, here, spans)


def _note_spans(node: Node, path: tuple, spans: dict) -> None:
    for key, value in node.items():
        spans[path + (str(key),)] = node.where(key)
        if isinstance(value, Node):
            _note_spans(value, path + (str(key),), spans)


def plain_value(value: Any) -> Any:
    """A loaded value as plain data: maps and lists without positions, texts as str."""
    if isinstance(value, dict):
        return {(str(k) if not isinstance(k, int) else k): plain_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_value(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value


def _placeholder_problem(template: str, text: str) -> str:
    """What is wrong with a translation's placeholders ("" when nothing is)."""
    wanted = template.count("{}")
    numbered = [int(n) for n in re.findall(r"\{(\d+)\}", text)]
    plain = text.count("{}")
    if numbered and plain:
        return msg("mixes {{}} with numbered placeholders")
    if numbered:
        bad = sorted({n for n in numbered if not 1 <= n <= wanted})
        return msg("names a value the template does not have ({{{number}}})", number=bad[0]) if bad else ""
    return "" if plain == wanted else msg("has {count} {{}}", count=plain)
