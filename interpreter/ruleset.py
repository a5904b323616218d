"""Load a ruleset: collect its definitions (:mod:`speciation.dsl.layers`), compile them
(:mod:`.compiler`, then :mod:`.codegen`), and build the initial entities. The result, :class:`Ruleset`, is the effect graph
plus everything a game needs to start.
"""
from __future__ import annotations

import hashlib
from difflib import get_close_matches
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .invalidation import link_invalidation, mark_static

from ..dsl import cache
from ..dsl import graph as g
from ..dsl.errors import RuleErrors, SchemaError, Span, did_you_mean, msg
from ..dsl.layers import Definitions, plain_value, find_ruleset
from ..dsl.layers import available_rulesets, slug, variant_files  # public here too
from ..dsl.loader import Node
from ..dsl.presentation import check_presentation
from ..dsl.reserved import check_fields, check_params
from ..dsl.types import check_types
from .board import HexGrid, cell_id
from .codegen import generate, generate_code, generate_function
from .abilities import activated_names, check_events, compile_abilities, compile_triggers, order_choice
from .compiler import Compiler, compile_expression_text, returns_value
from .decisions import compile_checks
from .triggers import holders, mark_dispatch
from .errors import note_function
from .limits import BudgetError
from ..dsl.declarations import Hidden, check_conventions, hidden_of

__all__ = ["CardInfo", "Ruleset", "available_rulesets", "find_ruleset", "load_ruleset", "slug", "variant_files"]
@dataclass
class CardInfo:
    id: str
    name: str
    deck: str
    text: str
    provenance: dict
    path: str
    labels: dict = field(default_factory=dict)   # language → name


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
    labels: dict[str, dict[str, str]]
    digest: str
    texts: dict[str, dict[str, str]] = field(default_factory=dict)    # language -> card id -> card text
    phrases: dict[str, dict[str, str]] = field(default_factory=dict)  # language -> template -> translation
    presentation: dict[str, Any] = field(default_factory=dict)   # how the state looks (plain data)
    mod_digests: list[str] = field(default_factory=list)         # content digest of each mod, in order
    sources: dict[str, str] = field(default_factory=dict, repr=False)
    mod_infos: list[dict] = field(default_factory=list)   # each mod: name, version, author, targets, path, brings
    compiler: Compiler | None = field(default=None, repr=False)
    conventions: dict[str, str] = field(default_factory=lambda: {"score": "score"})  # role -> function
    hidden: Hidden = field(default_factory=Hidden)   # what a seat may not see (the 'hidden' section)
    source: str = ""  # what load_ruleset was given (a folder made absolute): reloads the same rules
    copies: dict[str, list[str]] = field(default_factory=dict)  # deck -> the ids of its copies (deck#1, ...)
    # kinds with a 'max': kind -> (ids of its declared entities, the ids it may create: kind#1 ...)
    creatable: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)
    kind_defaults: dict[str, dict] = field(default_factory=dict)  # the attributes of a created entity
    # kind with a 'max' -> each id it may create -> its place among them (Steps.created)
    created_rank: dict[str, dict[str, int]] = field(default_factory=dict)
    checks: list[g.Check] = field(default_factory=list)  # state checks (interpreter/decisions.py)
    settle_id: int | None = None  # the node id of the machine's Settle marker (with checks)
    before: dict[str, list[g.Trigger]] = field(default_factory=dict)  # event -> its before:/instead: triggers
    trigger_list: list[g.Trigger] = field(default_factory=list)  # every trigger, by its index
    abilities: dict[tuple[str, str], tuple[g.Block, list[str]]] = field(default_factory=dict)  # (card, name)
    order_choice: g.Choose | None = None  # "which of your triggers next" (interpreter/triggers.py)

    def compile_program(self, text: str, origin: Span, params: Sequence[str] = ()) -> g.Block:
        """Compile extra statements (a scenario's setup, say) in this ruleset's names."""
        return self._checked(lambda c: c.program(text, origin, list(params)))

    def compile_expression(self, text: str, origin: Span, params: Sequence[str] = ()) -> g.Expr:
        """Compile one extra expression in this ruleset's names."""
        return self._checked(lambda c: compile_expression_text(c, text, origin, list(params)))

    def _checked(self, build):
        assert self.compiler is not None
        before = len(self.compiler.errors)
        result = build(self.compiler)
        mark_static(self.functions, self.compiler.written, {})
        self.compiler.keyed_writes = link_invalidation(self.functions, self.compiler.nodes, self.checks)
        mark_dispatch(self)
        generate_code(self)
        errors = self.compiler.errors[before:]
        del self.compiler.errors[before:]
        if errors:
            raise RuleErrors(errors, self.sources)
        return result

    def __repr__(self) -> str:
        extra = "".join(f", variant={v!r}" for v in self.variants)
        return f"<Ruleset {self.name} {self.version}{extra}>"


def load_ruleset(name_or_path: str, variants: list[str] | tuple = (), mods: list[str] | tuple = ()) -> Ruleset:
    """Load, check and compile a ruleset; raises :class:`RuleErrors` with every problem."""
    root = find_ruleset(name_or_path)
    ruleset = RulesetBuilder().build(root, list(variants), list(mods))
    mark_dispatch(ruleset)
    generate_code(ruleset)
    ruleset.source = str(root.resolve()) if Path(name_or_path).exists() else str(name_or_path)
    return ruleset


class RulesetBuilder(Definitions):
    """Compiles what :class:`Definitions` collected."""

    def compile(self, root: Path, variants: list[str], mods: list[str]) -> Ruleset:
        manifest = self.manifest or Node()
        constants: dict[str, Any] = {"game": "game"}
        for kind in self.kinds:
            constants[kind] = kind
        for category, (names, _span) in self.symbols.items():
            constants[category] = list(names)
            for name in names:
                constants[name] = name
        for name, (value, _span) in self.tables.items():
            constants[name] = value
        for ident in self.entities:
            constants[ident] = ident
        card_entities = self.card_entities()
        copies = self.copy_ids()
        for ident in card_entities:
            if card_entities[ident].get("card") is None:  # (a copy's id is no name: deck#1)
                constants[ident] = ident
        for ident in copies:  # a card with copies: its id is a word (each copy's 'card'), not an entity
            constants[ident] = ident
        attributes = {"kind", "id", "name", "deck", "q", "r"} | ({"card"} if copies else set())
        for attrs in self.kinds.values():
            attributes |= set(attrs)
        for record in list(self.entities.values()) + list(card_entities.values()):
            attributes |= set(record)
        compiler = Compiler(constants, attributes)
        compiler.generate = generate  # each expression checked without a mistake is also code
        compiler.macro_params = {name: params for name, (params, _, _) in self.macros.items()}
        compiler.creatable = set(self.kind_max)
        compiler.abilities = activated_names(self.cards)
        compiler.macro_returns = {name for name, (_, text, span) in self.macros.items() if returns_value(text, span)}
        functions = {name: g.Function(name, params, span) for name, (params, _, span) in self.functions.items()}
        for params, _, span in self.functions.values():
            compiler.errors.extend(check_params(params, "function", span))
        for spec in self.decks.values():
            compiler.errors.extend(check_params([str(p) for p in spec.get("params", [])], "deck",
                                                spec.where("params")))
        compiler.functions = functions
        for name, (params, text, span) in self.functions.items():
            compiler.reads, compiler.calls = functions[name].reads, functions[name].calls
            functions[name].expr = compile_expression_text(compiler, text, span, params)
        compiler.reads = compiler.calls = None
        macros = {name: g.Macro(name, params, compiler.program(text, span, params), span)
                  for name, (params, text, span) in self.macros.items()}
        if "main" not in macros:
            compiler.error(msg("the ruleset has no 'main' macro (the game's flow)"), Span(str(root / "ruleset.yaml"), 1, 1))
        conventions, found = check_conventions(manifest, self.functions, Span(str(root / "ruleset.yaml"), 1, 1))
        compiler.errors.extend(found)
        decks = {name: spec for name, spec in self.decks.items()}
        abilities: dict = {}
        effects, cards = self.compile_cards(compiler, decks, attributes, abilities)
        compiler.errors.extend(cache.type_errors(self.sources, variants, mods, lambda: check_types(
            self, constants, {i: p for i, (_, p) in effects.items()})))
        held = self.held_by(copies)
        triggers, before, trigger_list = compile_triggers(self, compiler, decks, held, self.ability_names)
        modifiers = self.compile_modifiers(compiler, functions, decks, held)
        checks, settle_id = compile_checks(compiler, self.checks)
        mark_static(functions, compiler.written, modifiers)  # first: generated calls inline by it
        for function in functions.values():
            function.call = _caller(function, modifiers.get(function.name, []), compiler)
        compiler.keyed_writes = link_invalidation(functions, compiler.nodes, checks)
        check_events(compiler, triggers, before, macros)
        choice = order_choice(compiler, Span(str(root / "ruleset.yaml"), 1, 1))
        card_kinds = {**self.entities, **card_entities}
        self.errors.extend(check_presentation(self.presentation, self.presentation_spans, self.kinds, card_kinds,
                                              {k: v for k, (v, _) in self.symbols.items()},
                                              Span(str(root / "ruleset.yaml"), 1, 1),
                                              {name: params for name, (params, _, _) in self.functions.items()}))
        hidden, found = hidden_of(self.hidden, self.hidden_spans, attributes, Span(str(root / "ruleset.yaml"), 1, 1),
                                  self.tables, set(self.kinds) | {"card", "player", "game"}, set(decks))
        compiler.errors.extend(found)
        for error in compiler.errors:
            self.errors.append(error)
        players = {**manifest.get("players", {"min": 1, "max": 1}), **self.player_limits}
        if isinstance(players.get("min"), int) and isinstance(players.get("max"), int) \
                and players["min"] > players["max"]:
            self.errors.append(SchemaError(msg("players: min ({min}) is more than max ({max})", min=players['min'], max=players['max']),
                                           manifest.where("players") if "players" in manifest
                                           else Span(str(root / "ruleset.yaml"), 1, 1)))
        if self.errors:
            raise RuleErrors(self.errors, self.sources)
        entities = dict(self.initial_entities(constants))
        entities.update(card_entities)
        members: dict[str, list[str]] = {}
        for ident, record in entities.items():
            members.setdefault(record["kind"], []).append(ident)
        creatable = {kind: (members.pop(kind, []), [f"{kind}#{i + 1}" for i in range(n)])
                     for kind, n in self.kind_max.items()}
        return Ruleset(
            name=str(manifest.get("ruleset", root.name)), title=str(manifest.get("title", "")),
            version=str(manifest.get("version", "0")), min_players=int(players["min"]),
            max_players=int(players["max"]), variants=list(variants), mods=list(mods),
            constants=constants, entities=entities, kind_members=members,
            player_defaults=dict(self.kinds.get("player", {})), grid=HexGrid.build(self.cells),
            functions=functions, macros=macros, triggers=triggers, effects=effects,
            nodes=compiler.nodes, cards=cards, variant_titles=self.variant_titles, labels=self.all_labels(cards),
            texts={lang: dict(t) for lang, t in self.card_texts.items()},
            phrases={lang: dict(p) for lang, p in self.phrases.items()},
            digest=self.digest(), presentation=self.presentation, mod_digests=list(self.mod_digests), sources=self.sources,
            compiler=compiler, mod_infos=self.mod_infos, conventions=conventions, hidden=hidden,
            copies=_by_deck(copies, card_entities), creatable=creatable,
            created_rank={kind: {ident: n for n, ident in enumerate(ids)} for kind, (_, ids) in creatable.items()},
            kind_defaults={kind: plain_value(self.kinds.get(kind, {})) for kind in creatable},
            before=before, trigger_list=trigger_list, abilities=abilities, order_choice=choice,
            checks=checks, settle_id=settle_id)

    def all_labels(self, cards: dict[str, CardInfo]) -> dict[str, dict[str, str]]:
        labels = {lang: dict(names) for lang, names in self.labels.items()}
        for lang in [*self.card_texts, *self.phrases]:
            labels.setdefault(lang, {})  # a language with sentences but no names is still a language
        for card in cards.values():
            for lang, text in card.labels.items():
                labels.setdefault(lang, {})[card.id] = text
        return labels

    def provenance_of(self, ident: str, doc: Node, deck: str) -> dict:
        """A card's provenance; an adopting deck may say what the card rests on in its edition
        (its own sources first, then the card file's)."""
        own = plain_value(doc["provenance"])
        spec: dict = self.decks.get(deck, {})
        if ident not in spec.get("adopt", []) or "adopt_provenance" not in spec:
            return own
        adopted = plain_value(spec["adopt_provenance"])
        return {**adopted, "sources": adopted["sources"] + own["sources"]}

    def deck_of(self, ident: str, doc: Node) -> str:
        """A card's deck: its own, unless a deck of a later layer adopted it."""
        for name, spec in self.decks.items():
            if ident in spec.get("adopt", []):
                return name
        return str(doc["deck"])

    def card_entities(self) -> dict[str, dict]:
        """One entity per card file; a card with 'copies: n' gives n entities instead, whose
        ids (deck#1, deck#2, ... over the deck's cards in file order) a new game deals out
        to the copies in an order drawn from its generator (see copy_ids and Game.new)."""
        out, copies = {}, self.copy_ids()
        for ident, (doc, _path) in self.cards.items():
            record = {"kind": "card", "id": ident, **self.kinds.get("card", {})}
            record.update(name=str(doc["card"]), deck=self.deck_of(ident, doc))
            record.update(plain_value(doc.get("attributes", {})))
            if "copies" not in doc:
                out[ident] = record
                continue
            for copy in copies[ident]:
                out[copy] = {**record, "id": copy, "card": ident}
        return out

    def copy_ids(self) -> dict[str, list[str]]:
        """card id -> the ids of its copies, numbered per deck (only cards with copies)."""
        out: dict[str, list[str]] = {}
        counts: dict[str, int] = {}
        for ident, (doc, _path) in sorted(self.cards.items()):
            if "copies" in doc:
                deck, n = self.deck_of(ident, doc), int(doc["copies"])
                out[ident] = [f"{deck}#{counts.get(deck, 0) + i + 1}" for i in range(n)]
                counts[deck] = counts.get(deck, 0) + n
        return out

    def held_by(self, copies: dict[str, list[str]]) -> dict[str, tuple]:
        """card id -> the ids of every copy of its deck (cards with copies only): a new game
        deals the ids out anew, so which of them are the card is looked up when its trigger
        fires or its modifier applies (``interpreter/triggers.py``, ``holders``)."""
        decks: dict[str, list[str]] = {}
        for ident, ids in copies.items():
            decks.setdefault(self.deck_of(ident, self.cards[ident][0]), []).extend(ids)
        ordered = {deck: tuple(sorted(ids, key=lambda i: int(i.rsplit("#", 1)[1]))) for deck, ids in decks.items()}
        return {ident: ordered[self.deck_of(ident, self.cards[ident][0])] for ident in copies}

    def compile_cards(self, compiler: Compiler, decks: dict, attributes: set, abilities: dict) -> tuple[dict, dict]:
        effects, cards = {}, {}
        self.ability_names: dict[int, str] = {}
        for ident, (doc, path) in self.cards.items():
            deck = self.deck_of(ident, doc)
            if deck not in decks:  # say so, and still check the card as if in the likeliest deck
                compiler.error(msg("unknown deck '{deck}'", deck=deck), doc.where("deck"), did_you_mean(deck, decks))
                compiler.program(doc["effect"], doc.where("effect"), _guessed_params(deck, decks))
                self.triggers.extend((t, ident) for t in doc.get("triggers", []))
                self.modifiers.extend((m, ident) for m in doc.get("modifiers", []))
                continue
            params = ["self"] + [str(p) for p in decks[deck].get("params", []) if str(p) != "self"]
            attributes = doc.get("attributes", {})
            compiler.errors.extend(check_fields(attributes, "card", getattr(attributes, "where_key",
                                                                            lambda k, doc=doc: doc.where("attributes"))))
            effects[ident] = (compiler.program(doc["effect"], doc.where("effect"), params), params)
            cards[ident] = CardInfo(ident, str(doc["card"]), deck, str(doc["text"]),
                                    self.provenance_of(ident, doc, deck), path, plain_value(doc.get("labels", {})))
            self.triggers.extend((t, ident) for t in doc.get("triggers", []))
            self.modifiers.extend((m, ident) for m in doc.get("modifiers", []))
            compile_abilities(compiler, ident, doc, params, attributes, self.triggers, self.ability_names, abilities)
        return effects, cards

    def _activity(self, compiler: Compiler, owner: str | None, decks: dict) -> g.Expr | None:
        if owner is None:
            return None
        deck = decks.get(self.deck_of(owner, self.cards[owner][0])) if owner in self.cards else None
        if deck is None or "active_while" not in deck:
            return None
        return compile_expression_text(compiler, deck["active_while"], deck.where("active_while"), ["self"])

    def compile_modifiers(self, compiler: Compiler, functions: dict, decks: dict,
                          copies: dict) -> dict[str, list[g.Modifier]]:
        out: dict[str, list[g.Modifier]] = {}
        for node, owner in self.modifiers:
            name = str(node["function"])
            if name not in functions:
                compiler.error(msg("a modifier names unknown function '{name}'", name=name), node.where("function"),
                               did_you_mean(name, functions))
                continue
            params = functions[name].params + ["self", "base"]
            compiler.reads, compiler.calls = functions[name].reads, functions[name].calls
            active = self._activity(compiler, owner, decks)
            if "while" in node:
                extra = compile_expression_text(compiler, node["while"], node.where("while"), params)
                active = extra if active is None else (lambda a, b: lambda rt, env: a(rt, env) and b(rt, env))(active, extra)
            value = compile_expression_text(compiler, node["value"], node.where("value"), params)
            compiler.reads = compiler.calls = None
            out.setdefault(name, []).append(g.Modifier(name, owner, active, value, node.span,
                                                       copies=copies.get(owner, ()) if owner is not None else ()))
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
        return {k: plain_value(v) for k, v in out.items()}

    def digest(self) -> str:
        h = hashlib.sha256()
        for path in sorted(self.sources):
            h.update(os.path.basename(path).encode())
            h.update(self.sources[path].encode())
        for text in self.generated:  # (none in most rulesets: their digest is their files')
            h.update(b"\0generated")
            h.update(text.encode())
        return h.hexdigest()[:16]


def _by_deck(copies: dict[str, list[str]], records: dict[str, dict]) -> dict[str, list[str]]:
    """deck -> the ids of its copies, in order."""
    out: dict[str, list[str]] = {}
    for ids in copies.values():
        for ident in ids:
            out.setdefault(records[ident]["deck"], []).append(ident)
    return {deck: sorted(ids, key=lambda i: int(i.rsplit("#", 1)[1])) for deck, ids in out.items()}


def _guessed_params(deck: str, decks: dict) -> list[str]:
    """The effect parameters of the deck a misspelled *deck* most likely means (every deck's
    when none is close), so the card's own mistakes are reported in the same run."""
    close = get_close_matches(deck, list(decks), n=1)
    chosen = [decks[close[0]]] if close else list(decks.values())
    return ["self"] + sorted({str(p) for spec in chosen for p in spec.get("params", [])})


def _caller(function: g.Function, modifiers: list[g.Modifier], compiler=None):
    """The call of a rule function: memoised until the state next changes.

    Rule functions are pure, so within one statement a repeated call (say, matching
    inside a comprehension) is looked up; the machine clears ``rt.memo`` after every
    statement that may change the state.
    """
    params, name = function.params, function.name
    fast = generate_function(compiler, function, getattr(function.expr, "tree", None), modifiers)
    if fast is not None:
        function.fast = fast
        return lambda rt, args: function.fast(rt, *args)

    def evaluate(rt, args):
        meter = rt.meter
        meter.left -= 1
        if meter.left < meter.next_check:
            meter.check()
        if meter.calls >= rt.limits.call_depth:
            raise BudgetError(f"rule functions nested more than {rt.limits.call_depth} deep "
                              f"(in {name}: a function that calls itself without end?)")
        meter.calls += 1
        env = dict(zip(params, args))
        try:
            value = function.expr(rt, env)
            for modifier in modifiers:
                for who in holders(rt, modifier) if modifier.copies else (modifier.owner,):
                    env["self"] = who
                    if modifier.active is None or modifier.active(rt, env):
                        env["base"] = value
                        value = modifier.value(rt, env)
        except Exception as exc:
            note_function(exc, function)
            raise
        finally:
            meter.calls -= 1
        return value

    def call(rt, args):
        memo = rt.static_memo if function.static else rt.memo
        table = memo.get(name)
        if table is None:
            table = memo[name] = {}
        try:
            key = tuple(args)
            return table[key]
        except KeyError:
            value = table[key] = evaluate(rt, args)
            return value
        except TypeError:  # an argument that cannot be a key (a list): no memo
            return evaluate(rt, args)
    function.fast = lambda rt, *args: call(rt, args)
    return call
