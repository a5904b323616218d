"""Card assembly of what answers events: triggers (``on:``, ``before:``, ``instead:``) of rule
files and cards, a card's named ``abilities``, and the triggers of cards with copies (``self``
each copy of the card, found in the game when the trigger fires). Used by :mod:`.ruleset`; run by :mod:`.machine` and :mod:`.triggers`.
"""
from __future__ import annotations

from typing import Any

from ..dsl import graph as g
from ..dsl.errors import Span, did_you_mean, msg
from ..dsl.layers import SIGNATURE
from ..dsl.reserved import check_params
from .compiler import Compiler, compile_expression_text
from .triggers import ORDER_PROMPT

TIMINGS = ("on", "before", "instead")


def activated_names(cards: dict) -> frozenset:
    """The names of the cards' abilities without a timing (``perform c.name`` runs them)."""
    return frozenset(str(name) for doc, _ in cards.values() for name, spec in (doc.get("abilities") or {}).items()
                     if isinstance(spec, dict) and not any(t in spec for t in TIMINGS))


def compile_abilities(compiler: Compiler, ident: str, doc: Any, params: list[str], attributes: set[str],
                      triggers: list, named: dict, out: dict) -> None:
    """A card's abilities: each with a timing joins *triggers* (its name kept in *named*, by
    the node's id); each without is compiled into *out* under (card, name)."""
    for name, spec in (doc.get("abilities") or {}).items():
        where = doc["abilities"].where_key(name) if hasattr(doc["abilities"], "where_key") else doc.where("abilities")
        if str(name) in attributes:
            compiler.error(msg("ability '{name}' has the name of an attribute, so 'perform c.{name}' would be "
                               "ambiguous", name=name), where, msg("rename the ability"))
        timings = [t for t in TIMINGS if t in spec]
        if len(timings) > 1:
            both: str = timings[0]
            for timing in timings[1:]:
                both = msg("{first} and {second}", first=both, second=timing)
            compiler.error(msg("ability '{name}' has {timings}: give it one timing", name=name, timings=both), where)
        if timings:
            triggers.append((spec, ident))
            named[id(spec)] = str(name)
        else:
            out[(ident, str(name))] = (compiler.program(spec["effect"], spec.where("effect"), params), params)


def compile_triggers(builder, compiler: Compiler, decks: dict, copies: dict[str, tuple],
                     named: dict) -> tuple[dict, dict, list]:
    """Every trigger: (event -> ``on:`` triggers, event -> ``before:``/``instead:`` triggers,
    all of them by index). A card with copies (*copies*: card -> the ids of its deck's
    copies) has one trigger, whose ``self`` is found when it fires: each copy that is that
    card in the game at hand (:func:`.triggers.holders`), wherever a new game dealt it."""
    on: dict[str, list[g.Trigger]] = {}
    before: dict[str, list[g.Trigger]] = {}
    everything: list[g.Trigger] = []
    for node, owner in builder.triggers:
        timings = [t for t in TIMINGS if t in node]
        if len(timings) != 1:
            compiler.error(msg("a trigger needs exactly one of 'on:', 'before:' or 'instead:' (the event it answers)"),
                           node.span)
            continue
        timing = timings[0]
        match = SIGNATURE.match(str(node[timing]))
        if not match:
            compiler.error(msg("a trigger's '{timing}' must look like event(a, b)", timing=timing), node.where(timing))
            continue
        event = match.group(1)
        params = [p.strip() for p in (match.group(2) or "").split(",") if p.strip()]
        compiler.errors.extend(check_params(params, "trigger", node.where(timing)))
        params = params + ["self"]
        test = compile_expression_text(compiler, node["if"], node.where("if"), params) if "if" in node else None
        start = len(compiler.nodes)
        compiler.timing = timing
        try:
            body = compiler.program(node["effect"], node.where("effect"), params)
        finally:
            compiler.timing = None
        stops = any(type(n) is g.Simple and n.text == "stop_stmt" for n in compiler.nodes[start:])
        active = builder._activity(compiler, owner, decks)
        trigger = g.Trigger(event, params, owner, test, active, body, node.span, timing=timing,
                            index=len(everything), ability=named.get(id(node)), stops=stops,
                            copies=copies.get(owner, ()) if owner is not None else ())
        everything.append(trigger)
        (on if timing == "on" else before).setdefault(event, []).append(trigger)
    return on, before, everything


def check_events(compiler: Compiler, on: dict, before: dict, macros: dict) -> None:
    """Each trigger must listen for an event some rule emits (or a macro some rule may call),
    with as many values."""
    emitted: dict[str, int] = {}
    for node in compiler.nodes:
        if isinstance(node, g.Emit):
            emitted[node.event] = len(node.args)
    for name, macro in macros.items():
        emitted.setdefault(name, len(macro.params))
    for table in (on, before):
        for event, listeners in table.items():
            for trigger in listeners:
                if event not in emitted:
                    compiler.error(msg("no rule emits the event '{event}'", event=event), trigger.span,
                                   did_you_mean(event, emitted))
                elif len(trigger.params) - 1 != emitted[event]:
                    compiler.error(msg("event '{event}' carries {count} values, but this trigger names {named}",
                                       event=event, count=emitted[event], named=len(trigger.params) - 1), trigger.span)


def order_choice(compiler: Compiler, origin: Span) -> g.Choose:
    """The decision "which of your triggers next" (see :func:`.triggers._pick`)."""
    node = g.Choose(origin, var="next", options=lambda rt, env: [], optional=False)
    node.actor = lambda rt, env: env["seat"]
    node.prompt = lambda rt, env: ORDER_PROMPT
    return compiler._add(node)
