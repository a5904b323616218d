"""What a card, function or macro does, from its rule text: the text as written, what it
reads and changes, the functions and macros it reaches, the decisions it asks and of
whom. Static: nothing runs. Used by ``speciation explain`` and the language server.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from lark import Token, Tree

from .dsl.errors import ParseError, Span
from .dsl.parser import parse_effect
from .dsl.signatures import FUNCTIONS, VERBS
from .vocabulary import Vocabulary, relative

_MUTATING = {"append", "clear", "extend", "insert", "remove", "swap"}


@dataclass
class Decision:
    prompt: str
    actor: str
    optional: bool
    span: Span
    via: str = ""          # the macro it is asked in, when reached through one


@dataclass
class Facts:
    """What one piece of rule text reads, changes, calls and asks."""

    reads: set[str] = field(default_factory=set)
    writes: set[str] = field(default_factory=set)
    calls: list[str] = field(default_factory=list)      # rule functions and macros, first use order
    builtins: set[str] = field(default_factory=set)
    decisions: list[Decision] = field(default_factory=list)
    emits: set[str] = field(default_factory=set)
    performs: bool = False
    error: str = ""


def analyse(text: str, origin: Span, expression: bool = False) -> Facts:
    """The facts of one program (or, with *expression*, one expression) found at *origin*."""
    facts = Facts()
    source = text if text.endswith("\n") else text + "\n"
    try:
        tree = parse_effect(text, origin, "expr_start" if expression else "start")
    except ParseError as error:
        facts.error = str(error)
        return facts
    _walk(tree, facts, source, origin)
    return facts


def _slice(tree, source: str) -> str:
    meta = tree if isinstance(tree, Token) else tree.meta
    start, end = getattr(meta, "start_pos", None), getattr(meta, "end_pos", None)
    return " ".join(source[start:end].split()) if start is not None else "?"


def _note_call(name: str, facts: Facts) -> None:
    if name in FUNCTIONS or name in VERBS:
        facts.builtins.add(name)
    elif name not in facts.calls:
        facts.calls.append(name)


def _walk(tree, facts: Facts, source: str, origin: Span) -> None:
    if not isinstance(tree, Tree):
        return
    kind = tree.data
    if kind == "attr":
        facts.reads.add(str(tree.children[1]))
    elif kind in ("target_attr", "target_index"):
        base = tree.children[1] if kind == "target_attr" else tree.children[0]
        if kind == "target_attr":
            facts.writes.add(str(base))
        elif isinstance(base, Tree) and base.data == "attr":
            facts.writes.add(str(base.children[1]))
    elif kind in ("call", "call_stmt"):
        name = str(tree.children[0])
        _note_call(name, facts)
        args = tree.children[1]
        if name in _MUTATING and isinstance(args, Tree) and args.children:
            first = args.children[0]
            if isinstance(first, Tree) and first.data == "attr":
                facts.writes.add(str(first.children[1]))
    elif kind == "emit_stmt":
        facts.emits.add(str(tree.children[0]))
    elif kind == "perform_stmt":
        facts.performs = True
    elif kind == "choose_stmt":
        _decision(tree, facts, source, origin)
    for child in tree.children:
        _walk(child, facts, source, origin)


def _decision(tree: Tree, facts: Facts, source: str, origin: Span) -> None:
    children = list(tree.children)
    optional = isinstance(children[0], Token) and children[0].type == "MAY"
    prompt, actor = "", "you"
    for opt in children:
        if isinstance(opt, Tree) and opt.data == "choose_by":
            actor = _slice(opt.children[-1], source)
        elif isinstance(opt, Tree) and opt.data == "choose_prompt":
            prompt = _slice(opt.children[-1], source)
    line, col = tree.meta.line, tree.meta.column
    facts.decisions.append(Decision(prompt, actor, optional, origin.shifted(line, col)))


# ---- following calls ------------------------------------------------------------------------

def reach(facts: Facts, vocab: Vocabulary) -> tuple[list[str], Facts]:
    """Every rule function and macro *facts* reaches (directly or through others), and the
    union of what they read, change and ask (each decision tagged with its macro)."""
    defs = vocab.definitions
    assert defs is not None  # the vocabulary of a ruleset (vocabulary() gives one)
    seen: list[str] = []
    total = Facts()
    queue = list(facts.calls)
    while queue:
        name = queue.pop(0)
        if name in seen:
            continue
        seen.append(name)
        table = defs.functions if name in defs.functions else defs.macros if name in defs.macros else None
        if table is None:
            continue
        params, text, span = table[name]
        sub = analyse(str(text), span, expression=table is defs.functions)
        total.reads |= sub.reads
        total.writes |= sub.writes
        total.emits |= sub.emits
        for decision in sub.decisions:
            decision.via = name
            total.decisions.append(decision)
        queue.extend(sub.calls)
    return seen, total


# ---- printing ----------------------------------------------------------------------------

def _kind_of_name(name: str, vocab: Vocabulary) -> str:
    defs = vocab.definitions
    assert defs is not None  # the vocabulary of a ruleset (vocabulary() gives one)
    return "function" if name in defs.functions else "macro" if name in defs.macros else "unknown name"


def _facts_lines(facts: Facts, vocab: Vocabulary) -> list[str]:
    out = []
    if facts.error:
        return [f"cannot analyse it: {facts.error}"]
    reached, deeper = reach(facts, vocab)
    direct = set(facts.calls)
    out.append("reads: " + (", ".join(sorted(facts.reads)) or "(no attribute)"))
    out.append("changes: " + (", ".join(sorted(facts.writes)) or "(no attribute)"))
    out.append("calls: " + (", ".join(f"{n} ({_kind_of_name(n, vocab)})" for n in facts.calls) or "(none)"))
    if facts.builtins:
        out.append("builtins: " + ", ".join(sorted(facts.builtins)))
    further = [n for n in reached if n not in direct]
    if further:
        out.append("reaches through them: " + ", ".join(further))
        out.append("  which read: " + (", ".join(sorted(deeper.reads - facts.reads)) or "(nothing more)"))
        out.append("  and change: " + (", ".join(sorted(deeper.writes - facts.writes)) or "(nothing more)"))
    elif reached:
        out.append("through them it also reads: " + (", ".join(sorted(deeper.reads - facts.reads)) or "(nothing more)"))
        out.append("  and changes: " + (", ".join(sorted(deeper.writes - facts.writes)) or "(nothing more)"))
    emits = facts.emits | deeper.emits
    if emits:
        out.append("emits: " + ", ".join(sorted(emits)))
    if facts.performs:
        out.append("performs a card's effect (perform)")
    decisions = facts.decisions + deeper.decisions
    out.append(f"decisions ({len(decisions)}):" if decisions else "decisions: none (it asks nobody anything)")
    for d in decisions:
        how = "may choose" if d.optional else "chooses"
        via = f" in {d.via}" if d.via else ""
        out.append(f"  {d.actor} {how}: {d.prompt or '(no prompt)'}  [{relative(d.span)}{via}]")
    return out


def explain_lines(name: str, vocab: Vocabulary) -> list[str] | None:
    """The explanation of the card (by id or name), function or macro *name*; None if the
    ruleset defines no such thing."""
    defs = vocab.definitions
    assert defs is not None  # the vocabulary of a ruleset (vocabulary() gives one)
    from .dsl.layers import slug
    ident = slug(name)
    if ident in defs.cards:
        return _card_lines(ident, vocab)
    for table, what, expression in ((defs.functions, "function", True), (defs.macros, "macro", False)):
        if name in table:
            params, text, span = table[name]
            entry = vocab.by_name().get(name)
            out = [f"{what} {name}({', '.join(params)})  [{relative(span)}]"]
            if entry and entry.doc:
                out.append(f"doc: {entry.doc}")
            out += ["as written:"] + ["    " + line for line in str(text).rstrip().splitlines()]
            return out + _facts_lines(analyse(str(text), span, expression), vocab)
    return None


def _card_lines(ident: str, vocab: Vocabulary) -> list[str]:
    defs = vocab.definitions
    assert defs is not None  # the vocabulary of a ruleset (vocabulary() gives one)
    doc, path = defs.cards[ident]
    deck_name = str(doc.get("deck", "?"))
    for name, spec in defs.decks.items():
        if ident in spec.get("adopt", []):
            deck_name = name
    deck: dict = defs.decks.get(deck_name, {})
    params = ["self"] + [str(p) for p in deck.get("params", [])]
    provenance = doc.get("provenance", {}) or {}
    out = [f"card {doc['card']} ({ident}), deck {deck_name}  [{relative(doc.where('card'))}]",
           "text: " + " ".join(str(doc.get("text", "")).split()),
           f"provenance: {provenance.get('confidence', '?')}; " + "; ".join(map(str, provenance.get("sources", [])))]
    if provenance.get("note"):
        out.append(f"note: {provenance['note']}")
    if deck.get("doc"):
        out.append(f"parameters: {', '.join(params)} — " + " ".join(str(deck['doc']).split()))
    else:
        out.append(f"parameters: {', '.join(params)}")
    effect = str(doc.get("effect", ""))
    out += [f"effect as written [{relative(doc.where('effect'))}]:"]
    out += ["    " + line for line in effect.rstrip().splitlines()]
    out += _facts_lines(analyse(effect, doc.where("effect")), vocab)
    answers = [("trigger", t) for t in doc.get("triggers", []) or []]
    answers += [(f"ability {name}", a) for name, a in (doc.get("abilities") or {}).items()]
    for what, trigger in answers:
        timing = next((t for t in ("on", "before", "instead") if t in trigger), None)
        when = f" {timing} {trigger.get(timing)}" if timing else " (perform c.name)"
        out += [f"{what}{when} [{relative(trigger.where('effect'))}]"
                + (f" if {trigger['if']}" if "if" in trigger else "") + ":"]
        out += ["    " + line for line in str(trigger.get("effect", "")).rstrip().splitlines()]
        out += ["  " + line for line in _facts_lines(analyse(str(trigger.get("effect", "")),
                                                              trigger.where("effect")), vocab)]
    for modifier in doc.get("modifiers", []) or []:
        cond = f" while {modifier['while']}" if "while" in modifier else ""
        out.append(f"modifies {modifier.get('function')}: {modifier.get('value')}{cond}"
                   f"  [{relative(modifier.where('value'))}]")
    return out
