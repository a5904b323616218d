"""Load a ruleset: find its files, check them, overlay variants and mods, compile.

Layers, from first to last: the rulesets a ruleset ``extends`` (base first),
the ruleset's own files, each chosen variant, each mod. Inside one layer a
name may be defined once; a later layer replaces definitions by name (and
merges kinds and entities attribute by attribute), so an edition, a variant
or a mod states only what differs.
"""
from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ..interpreter.board import HexGrid, cell_id
from . import graph as g
from .compiler import Compiler, compile_expression_text
from .errors import CompileError, LoadError, RuleError, RuleErrors, SchemaError, Span, did_you_mean
from .loader import Node, load_file
from .schema import check, kind_of

IMPLICIT_KINDS = ("game", "player", "cell", "corner", "card")
_SINGULAR = {"symbols": "symbol list", "tables": "table", "entities": "entity", "functions": "function",
             "macros": "macro", "decks": "deck", "cards": "card"}
SIGNATURE = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?:\(([^)]*)\))?\s*$")


@dataclass
class CardInfo:
    id: str
    name: str
    deck: str
    text: str
    provenance: dict
    path: str


@dataclass
class Ruleset:
    """A compiled ruleset: the effect graph and the initial entities."""

    name: str
    title: str
    version: str
    min_players: int
    max_players: int
    variants: list[str]
    mods: list[str]
    constants: dict[str, Any]
    entities: dict[str, dict]
    kind_members: dict[str, list[str]]
    player_defaults: dict[str, Any]
    grid: HexGrid
    functions: dict[str, g.Function]
    macros: dict[str, g.Macro]
    triggers: dict[str, list[g.Trigger]]
    effects: dict[str, tuple[g.Block, list[str]]]
    nodes: list[g.Stmt]
    cards: dict[str, CardInfo]
    variant_titles: dict[str, str]
    digest: str
    sources: dict[str, str] = field(default_factory=dict, repr=False)
    compiler: Compiler | None = field(default=None, repr=False)

    def compile_program(self, text: str, origin: Span, params: list[str] = ()) -> g.Block:
        """Compile extra statements (a scenario's setup, say) in this ruleset's names."""
        return self._checked(lambda c: c.program(text, origin, list(params)))

    def compile_expression(self, text: str, origin: Span, params: list[str] = ()) -> g.Expr:
        """Compile one extra expression in this ruleset's names."""
        return self._checked(lambda c: compile_expression_text(c, text, origin, list(params)))

    def _checked(self, build):
        assert self.compiler is not None
        before = len(self.compiler.errors)
        result = build(self.compiler)
        mark_static(self.functions, self.compiler.written, {})
        errors = self.compiler.errors[before:]
        del self.compiler.errors[before:]
        if errors:
            raise RuleErrors(errors, self.sources)
        return result

    def __repr__(self) -> str:
        extra = "".join(f", variant={v!r}" for v in self.variants)
        return f"<Ruleset {self.name} {self.version}{extra}>"


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
    raise RuleErrors([LoadError(f"no ruleset named '{name_or_path}'", Span(name_or_path, 0, 0), hint)])


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
        nxt = find_ruleset(str(parent))
        if nxt.resolve() in seen:
            raise RuleErrors([LoadError("ruleset extends itself", manifest.where("extends"))])
        seen.add(nxt.resolve())
        chain.append(nxt)


def load_ruleset(name_or_path: str, variants: list[str] | tuple = (), mods: list[str] | tuple = ()) -> Ruleset:
    """Load, check and compile a ruleset; raises :class:`RuleErrors` with every problem."""
    return _Builder().build(find_ruleset(name_or_path), list(variants), list(mods))


class _Builder:
    def __init__(self) -> None:
        self.errors: list[RuleError] = []
        self.sources: dict[str, str] = {}
        self.symbols: dict[str, tuple[list[str], Span]] = {}
        self.tables: dict[str, tuple[Any, Span]] = {}
        self.kinds: dict[str, dict[str, Any]] = {k: {} for k in IMPLICIT_KINDS}
        self.kind_spans: dict[str, Span] = {}
        self.entities: dict[str, dict[str, Any]] = {}
        self.entity_spans: dict[str, Span] = {}
        self.cells: list[tuple[int, int]] = []
        self.functions: dict[str, tuple[list[str], str, Span]] = {}
        self.macros: dict[str, tuple[list[str], str, Span]] = {}
        self.triggers: list[tuple[Node, str | None]] = []
        self.modifiers: list[tuple[Node, str | None]] = []
        self.decks: dict[str, Node] = {}
        self.cards: dict[str, tuple[Node, str]] = {}
        self.layer_names: dict[tuple[str, str], tuple[int, Span]] = {}
        self.layer = 0
        self.manifest: Node | None = None
        self.variant_titles: dict[str, str] = {}
        self.player_limits: dict[str, int] = {}
        self.in_mod = False

    # ---- reading ------------------------------------------------------------------

    def read(self, path: Path, expect: str | None = None) -> Any:
        try:
            document, text = load_file(str(path))
        except LoadError as error:
            self.errors.append(error)
            return None
        self.sources[str(path)] = text
        kind = kind_of(document)
        if expect and kind != expect:
            self.errors.append(SchemaError(f"expected a {expect} file here, found a {kind} file",
                                           Span(str(path), 1, 1)))
            return None
        problems, bad = check(document, kind, Span(str(path), 1, 1))
        self.errors.extend(problems)
        if None in bad or (bad and kind in ("card", "manifest")):
            return None
        for key in bad:  # keep checking the rest of the file
            document.pop(key, None)
        return document

    def build(self, root: Path, variants: list[str], mods: list[str]) -> Ruleset:
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
            if name not in known:
                self.errors.append(LoadError(f"no variant named '{name}' in ruleset '{root.name}'", Span(str(root / "variants"), 0, 0),
                                             did_you_mean(name, known)))
                continue
            document = self.read(known[name], "variant")
            if document is not None:
                self.variant_titles[name] = str(document["title"])
                if "players" in document:
                    self.player_limits.update(_plain(document["players"]))
                self.add_layer([(known[name], document)])
        for mod in mods:
            self.layer += 1
            paths = sorted(Path(mod).rglob("*.yaml")) if Path(mod).is_dir() else [Path(mod)]
            self.in_mod = True
            self.add_layer([(path, self.read(path)) for path in paths])
        return self.compile(root, variants, mods)

    def add_layer(self, documents: list[tuple[Path, Any]]) -> None:
        """Add one layer's documents: kinds first, so any file may use any kind."""
        for path, doc in documents:
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
        for key in ("symbols", "tables", "entities", "board", "functions", "macros",
                    "triggers", "modifiers", "decks"):
            if key in doc:
                getattr(self, "add_" + key)(doc[key], doc)

    def claim(self, section: str, name: str, span: Span) -> None:
        """Note a definition; a second one in the same layer is an error."""
        previous = self.layer_names.get((section, name))
        if previous and previous[0] == self.layer:
            self.errors.append(CompileError(f"{_SINGULAR.get(section, section)} '{name}' is defined twice (first at {previous[1]})", span))
        self.layer_names[(section, name)] = (self.layer, span)

    def add_symbols(self, section: Node, doc: Node) -> None:
        for category, names in section.items():
            self.claim("symbols", category, section.where_key(category))
            self.symbols[category] = ([str(n) for n in names], section.where_key(category))

    def add_tables(self, section: Node, doc: Node) -> None:
        for name, value in section.items():
            self.claim("tables", name, section.where_key(name))
            self.tables[name] = (_plain(value), section.where_key(name))

    def add_kinds(self, section: Node, doc: Node) -> None:
        for kind, spec in section.items():
            self.kind_spans.setdefault(kind, section.where_key(kind))
            self.kinds.setdefault(kind, {}).update(_plain(spec.get("attributes", {})))

    def add_entities(self, section: Node, doc: Node) -> None:
        for kind, records in section.items():
            if kind not in self.kinds:
                self.errors.append(CompileError(f"unknown kind '{kind}'", section.where_key(kind),
                                                did_you_mean(kind, self.kinds)))
                continue
            for record, span in zip(records, records.item_spans):
                ident = str(record["id"])
                self.claim("entities", ident, span)
                existing = self.entities.get(ident)
                if existing is not None and existing["kind"] != kind:
                    self.errors.append(CompileError(f"'{ident}' is already a {existing['kind']}", span))
                    continue
                merged = existing or {"kind": kind, "id": ident}
                merged.update({k: _plain(v) for k, v in record.items() if k != "id"})
                self.entities[ident] = merged
                self.entity_spans.setdefault(ident, span)

    def add_board(self, section: Node, doc: Node) -> None:
        self.cells = [(int(q), int(r)) for q, r in section["cells"]]

    def _add_signatures(self, section: Node, table: dict, kind: str) -> None:
        for key, text in section.items():
            match = SIGNATURE.match(str(key))
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

    def add_modifiers(self, section: list, doc: Node, owner: str | None = None) -> None:
        self.modifiers.extend((m, owner) for m in section)

    def add_decks(self, section: Node, doc: Node) -> None:
        for name, spec in section.items():
            self.claim("decks", name, section.where_key(name))
            self.decks[name] = spec

    def add_card(self, path: Path, doc: Node) -> None:
        ident = slug(str(doc["card"]))
        if path.stem != ident and not self.in_mod:
            self.errors.append(SchemaError(f"card file should be named '{ident}.yaml' after its card",
                                           doc.where("card")))
        self.claim("cards", ident, doc.where("card"))
        self.cards[ident] = (doc, str(path))

    # ---- compiling ------------------------------------------------------------------

    def compile(self, root: Path, variants: list[str], mods: list[str]) -> Ruleset:
        manifest = self.manifest or Node()
        constants: dict[str, Any] = {"game": "game"}
        for kind in self.kinds:
            constants[kind] = kind
        for category, (names, span) in self.symbols.items():
            constants[category] = list(names)
            for name in names:
                constants[name] = name
        for name, (value, span) in self.tables.items():
            constants[name] = value
        for ident in self.entities:
            constants[ident] = ident
        card_entities = self.card_entities()
        for ident in card_entities:
            constants[ident] = ident
        attributes = {"kind", "id", "name", "deck", "q", "r"}
        for attrs in self.kinds.values():
            attributes |= set(attrs)
        for record in list(self.entities.values()) + list(card_entities.values()):
            attributes |= set(record)
        compiler = Compiler(constants, attributes)
        compiler.macro_params = {name: params for name, (params, _, _) in self.macros.items()}
        functions = {name: g.Function(name, params, span) for name, (params, _, span) in self.functions.items()}
        compiler.functions = functions
        for name, (params, text, span) in self.functions.items():
            compiler.reads, compiler.calls = functions[name].reads, functions[name].calls
            functions[name].expr = compile_expression_text(compiler, text, span, params)
        compiler.reads = compiler.calls = None
        macros = {name: g.Macro(name, params, compiler.program(text, span, params), span)
                  for name, (params, text, span) in self.macros.items()}
        if "main" not in macros:
            compiler.error("the ruleset has no 'main' macro (the game's flow)", Span(str(root / "ruleset.yaml"), 1, 1))
        for required in ("score",):
            if required not in functions:
                compiler.error(f"the ruleset has no '{required}(player)' function", Span(str(root / "ruleset.yaml"), 1, 1))
        decks = {name: spec for name, spec in self.decks.items()}
        effects, cards = self.compile_cards(compiler, decks)
        triggers = self.compile_triggers(compiler, decks)
        modifiers = self.compile_modifiers(compiler, functions, decks)
        for function in functions.values():
            function.call = _caller(function, modifiers.get(function.name, []))
        mark_static(functions, compiler.written, modifiers)
        self.check_events(compiler, triggers)
        for error in compiler.errors:
            self.errors.append(error)
        if self.errors:
            raise RuleErrors(self.errors, self.sources)
        entities = dict(self.initial_entities(constants))
        entities.update(card_entities)
        members: dict[str, list[str]] = {}
        for ident, record in entities.items():
            members.setdefault(record["kind"], []).append(ident)
        players = {**manifest.get("players", {"min": 1, "max": 1}), **self.player_limits}
        return Ruleset(
            name=str(manifest.get("ruleset", root.name)), title=str(manifest.get("title", "")),
            version=str(manifest.get("version", "0")), min_players=int(players["min"]),
            max_players=int(players["max"]), variants=list(variants), mods=list(mods),
            constants=constants, entities=entities, kind_members=members,
            player_defaults=dict(self.kinds.get("player", {})), grid=HexGrid.build(self.cells),
            functions=functions, macros=macros, triggers=triggers, effects=effects,
            nodes=compiler.nodes, cards=cards, variant_titles=self.variant_titles,
            digest=self.digest(), sources=self.sources, compiler=compiler)

    def card_entities(self) -> dict[str, dict]:
        out = {}
        for ident, (doc, path) in self.cards.items():
            record = {"kind": "card", "id": ident, **self.kinds.get("card", {})}
            record.update(name=str(doc["card"]), deck=str(doc["deck"]))
            record.update(_plain(doc.get("attributes", {})))
            out[ident] = record
        return out

    def compile_cards(self, compiler: Compiler, decks: dict) -> tuple[dict, dict]:
        effects, cards = {}, {}
        for ident, (doc, path) in self.cards.items():
            deck = str(doc["deck"])
            if deck not in decks:
                compiler.error(f"unknown deck '{deck}'", doc.where("deck"), did_you_mean(deck, decks))
                continue
            params = ["self"] + [str(p) for p in decks[deck].get("params", [])]
            effects[ident] = (compiler.program(doc["effect"], doc.where("effect"), params), params)
            cards[ident] = CardInfo(ident, str(doc["card"]), deck, str(doc["text"]),
                                    _plain(doc["provenance"]), path)
            self.triggers.extend((t, ident) for t in doc.get("triggers", []))
            self.modifiers.extend((m, ident) for m in doc.get("modifiers", []))
        return effects, cards

    def _activity(self, compiler: Compiler, owner: str | None, decks: dict) -> g.Expr | None:
        if owner is None:
            return None
        deck = decks.get(self.cards[owner][0]["deck"]) if owner in self.cards else None
        if deck is None or "active_while" not in deck:
            return None
        return compile_expression_text(compiler, deck["active_while"], deck.where("active_while"), ["self"])

    def compile_triggers(self, compiler: Compiler, decks: dict) -> dict[str, list[g.Trigger]]:
        out: dict[str, list[g.Trigger]] = {}
        for node, owner in self.triggers:
            match = SIGNATURE.match(str(node["on"]))
            if not match:
                compiler.error("a trigger's 'on' must look like event(a, b)", node.where("on"))
                continue
            event = match.group(1)
            params = [p.strip() for p in (match.group(2) or "").split(",") if p.strip()] + ["self"]
            test = compile_expression_text(compiler, node["if"], node.where("if"), params) if "if" in node else None
            body = compiler.program(node["effect"], node.where("effect"), params)
            out.setdefault(event, []).append(g.Trigger(event, params, owner, test,
                                                       self._activity(compiler, owner, decks), body, node.span))
        return out

    def check_events(self, compiler: Compiler, triggers: dict[str, list[g.Trigger]]) -> None:
        """Each trigger must listen for an event some rule emits, with as many values."""
        emitted: dict[str, int] = {}
        for node in compiler.nodes:
            if isinstance(node, g.Emit):
                emitted[node.event] = len(node.args)
        for event, listeners in triggers.items():
            for trigger in listeners:
                if event not in emitted:
                    compiler.error(f"no rule emits the event '{event}'", trigger.span, did_you_mean(event, emitted))
                elif len(trigger.params) - 1 != emitted[event]:
                    compiler.error(f"event '{event}' carries {emitted[event]} values, but this trigger names "
                                   f"{len(trigger.params) - 1}", trigger.span)

    def compile_modifiers(self, compiler: Compiler, functions: dict, decks: dict) -> dict[str, list[g.Modifier]]:
        out: dict[str, list[g.Modifier]] = {}
        for node, owner in self.modifiers:
            name = str(node["function"])
            if name not in functions:
                compiler.error(f"a modifier names unknown function '{name}'", node.where("function"),
                               did_you_mean(name, functions))
                continue
            params = functions[name].params + ["self", "base"]
            active = self._activity(compiler, owner, decks)
            if "while" in node:
                extra = compile_expression_text(compiler, node["while"], node.where("while"), params)
                active = extra if active is None else (lambda a, b: lambda rt, env: a(rt, env) and b(rt, env))(active, extra)
            value = compile_expression_text(compiler, node["value"], node.where("value"), params)
            out.setdefault(name, []).append(g.Modifier(name, owner, active, value, node.span))
        return out

    def initial_entities(self, constants: dict) -> dict[str, dict]:
        out = {"game": {"kind": "game", "id": "game", **self.kinds.get("game", {})}}
        for q, r in self.cells:
            ident = cell_id(q, r)
            out[ident] = {"kind": "cell", "id": ident, "q": q, "r": r, **self.kinds.get("cell", {})}
        grid = HexGrid.build(self.cells)
        for corner in grid.cells_at:
            out[corner] = {"kind": "corner", "id": corner, **self.kinds.get("corner", {})}
        for ident, record in self.entities.items():
            defaults = self.kinds.get(record["kind"], {})
            out[ident] = {**defaults, **record}
        return {k: _plain(v) for k, v in out.items()}

    def digest(self) -> str:
        h = hashlib.sha256()
        for path in sorted(self.sources):
            h.update(os.path.basename(path).encode())
            h.update(self.sources[path].encode())
        return h.hexdigest()[:16]


def _rule_files(directory: Path) -> list[Path]:
    skip = {"ruleset.yaml"}
    out = []
    for path in sorted(directory.rglob("*.yaml")):
        relative = path.relative_to(directory)
        if relative.parts[0] in ("variants", "scenarios") or path.name in skip:
            continue
        out.append(path)
    return out


def mark_static(functions: dict[str, g.Function], written: set[str], modifiers: dict) -> None:
    """Mark the functions that read no attribute any statement writes (nor call one that
    does, nor have modifiers): their value cannot change during a game."""
    for function in functions.values():
        function.modified = function.modified or function.name in modifiers
        function.static = not (function.reads & written) and not function.modified
    changed = True
    while changed:
        changed = False
        for function in functions.values():
            if function.static and any(not functions[c].static for c in function.calls):
                function.static, changed = False, True


def _caller(function: g.Function, modifiers: list[g.Modifier]):
    """The call of a rule function: memoised until the state next changes.

    Rule functions are pure, so within one statement a repeated call (say, matching
    inside a comprehension) is looked up; the machine clears ``rt.memo`` after every
    statement that may change the state.
    """
    params, name = function.params, function.name

    def evaluate(rt, args):
        env = dict(zip(params, args))
        value = function.expr(rt, env)
        for modifier in modifiers:
            env["self"] = modifier.owner
            if modifier.active is None or modifier.active(rt, env):
                env["base"] = value
                value = modifier.value(rt, env)
        return value

    def call(rt, args):
        memo = rt.static_memo if function.static else rt.memo
        try:
            key = (name, *args)
            return memo[key]
        except KeyError:
            value = memo[key] = evaluate(rt, args)
            return value
        except TypeError:  # an argument that cannot be a key (a list): no memo
            return evaluate(rt, args)
    return call


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {(str(k) if not isinstance(k, int) else k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value
