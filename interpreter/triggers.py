"""Dispatched events: triggers that run before an event and may prevent it, an event's own
body, handlers that stop the rest, triggers ordered by the seats that control them, and
calls of a macro that triggers listen for.

A plain ``emit`` (no body, no ``before:`` trigger, no handler that stops, no ordering) is
the machine's own quick step (machine.py ``_emit``). Any other event (``Emit.dispatch``, or
a call of a macro some trigger listens for, ``Call.hooked``) runs here, in a frame of its
own ``[node id, 0, data, own index]`` whose ``data`` is plain data (saves, clones and
resumes are unchanged):

- ``args``: the event's values; ``phase``: 0 the ``before:``/``instead:`` handlers, 1 the
  event itself, 2 the ``on:`` handlers' conditions, 3 the ``on:`` handlers;
- ``queue``: the handlers still to run in this phase, each ``[trigger index, its names,
  seat]`` (its conditions were tested when the phase began);
- ``prevented``/``stopped``: set by ``prevent`` (or an ``instead:`` trigger) and ``stop``;
- ``next``/``seat``: the answer to, and the seat asked, "which of your triggers next";
- ``owner``: the frame whose names an ``emit ...:`` block uses; ``env``: a hooked macro's
  names until its body starts.
"""
from __future__ import annotations

from typing import Any

from ..dsl import graph as g
from .limits import BudgetError

ORDER_PROMPT = "which of your triggers next?"


def _own(value: Any) -> Any:
    return list(value) if isinstance(value, list) else dict(value) if isinstance(value, dict) else value


def _deep(rt) -> None:
    if len(rt.state["stack"]) >= rt.limits.stack_depth:
        raise BudgetError(f"calls nested more than {rt.limits.stack_depth} deep (a macro, "
                          "effect or trigger that calls or emits itself without end?)")


def signal(rt, flag: str) -> None:
    """``prevent`` ("prevented") or ``stop`` ("stopped"): mark the event being dispatched,
    the nearest dispatch frame under the handler running."""
    nodes = rt.nodes
    for frame in reversed(rt.state["stack"]):
        kind = type(nodes[frame[0]])
        if (kind is g.Emit or kind is g.Call) and isinstance(frame[2], dict) and "queue" in frame[2]:
            frame[2][flag] = True
            return
    word = "prevent" if flag == "prevented" else "stop"
    raise ValueError(f"'{word}' ran outside the handlers of an event")


def enter(rt, stmt: g.Emit | g.Call, frame: list, env: dict) -> bool:
    """Start a dispatched event (an Emit) or a hooked macro call (a Call): its frame."""
    _deep(rt)
    stack = rt.state["stack"]
    args = [a(rt, env) for a in stmt.args]
    data: dict = {"args": args, "phase": 0, "queue": [], "prevented": False, "stopped": False,
                  "next": None, "seat": None, "owner": frame[3]}
    if isinstance(stmt, g.Call):
        macro = rt.ruleset.macros[stmt.name]
        data["env"] = dict(zip(macro.params, [_own(a) for a in args]))
        event = stmt.name
    else:
        event = stmt.event
    data["queue"] = firings(rt, rt.ruleset.before.get(event, ()), args)
    stack.append([stmt.id, 0, data, len(stack)])
    return True


INDEX = ("copies",)  # where the machine's static memo keeps holders' index (no function's name)


def holders(rt, owned) -> list:
    """The copies a trigger or modifier of a card with copies belongs to in this game: the
    ids of its deck's copies whose record says it is that card (``card``, ``owned.owner``),
    in id order. A new game deals the ids out anew (``machine.deal_copies``) and a
    determinized copy may deal faces anew, so it is looked up here, never bound at load:
    in an index of every copy by its card, kept with the values of static functions (it is
    forgotten with them when the state is edited by hand, and after a deal) unless some
    statement writes ``card``."""
    index = rt.static_memo.get(INDEX)
    if index is None:
        index = {}
        ent = rt.ent
        for ids in rt.ruleset.copies.values():
            for ident in ids:
                record = ent.get(ident)
                if record is not None:
                    index.setdefault(record.get("card"), []).append(ident)
        compiler = rt.ruleset.compiler
        if compiler is None or "card" not in compiler.written:
            rt.static_memo[INDEX] = index
    return index.get(owned.owner, [])


def firings(rt, triggers, args: list) -> list:
    """The triggers that answer now (active, their ``if`` true), each with its own names,
    in the order they run: rule files' first in definition order; then, if the ruleset
    orders triggers by controller, each seat's in turn order; then the rest."""
    out = []
    for trigger in triggers:
        for who in holders(rt, trigger) if trigger.copies else (trigger.owner,):
            env = dict(zip(trigger.params, [_own(a) for a in args]))
            env["self"] = who
            if trigger.active is not None and not trigger.active(rt, env):
                continue
            if trigger.test is not None and not trigger.test(rt, env):
                continue
            out.append([trigger.index, env, None])
    conventions = rt.ruleset.conventions
    if "trigger_controller" not in conventions or len(out) < 2:
        return out
    controller = rt.ruleset.functions[conventions["trigger_controller"]]
    for firing in out:
        if firing[1]["self"] is not None:
            firing[2] = controller.call(rt, [firing[1]["self"]])
    if "turn_order" in conventions:
        seats = list(rt.ruleset.functions[conventions["turn_order"]].call(rt, []))
    else:
        seats = [ident for ident, record in rt.ent.items() if record["kind"] == "player"]
    rank = {seat: n for n, seat in enumerate(seats) if isinstance(seat, str)}
    last = len(rank)
    for firing in out:
        if firing[2] not in rank:
            firing[2] = None
    return sorted(out, key=lambda f: -1 if f[1]["self"] is None else rank.get(f[2], last))


def _pick(rt, data: dict) -> int | None:
    """Which handler of the queue runs next: the first, unless its seat has two or more of
    different cards waiting; then the seat is asked (None: a choice is pending)."""
    queue = data["queue"]
    seat = queue[0][2]
    if seat is None:
        return 0
    cards = []
    for _, env, other in queue:
        if other == seat and env["self"] not in cards:
            cards.append(env["self"])
    if len(cards) < 2:
        return 0
    chosen, data["next"] = data["next"], None
    if chosen is not None:
        for n, (_, env, other) in enumerate(queue):
            if other == seat and env["self"] == chosen:
                return n
    data["seat"] = seat
    rt.ask(rt.ruleset.order_choice, data, cards)
    return None


def step(rt, node: g.Stmt, frame: list) -> None:
    """Go on with the dispatched event on top of the stack."""
    stack = rt.state["stack"]
    data = frame[2]
    while True:
        phase = data["phase"]
        if phase in (0, 3):
            queue = data["queue"]
            if queue and not data["stopped"]:
                at = _pick(rt, data)
                if at is None:
                    return
                index, env, _ = queue.pop(at)
                trigger = rt.ruleset.trigger_list[index]
                if trigger.timing == "instead":
                    data["prevented"] = True
                _deep(rt)
                stack.append([trigger.body.id, 0, env, len(stack)])
                return
            if phase == 3:
                stack.pop()
                return
            data["phase"], data["queue"], data["stopped"] = 1, [], False
        elif phase == 1:
            if data["prevented"]:
                stack.pop()
                return
            data["phase"] = 2
            if type(node) is g.Call:
                body = rt.ruleset.macros[node.name].body
                stack.append([body.id, 0, data.pop("env"), len(stack)])
                return
            if node.body is not None:  # type: ignore[attr-defined]
                stack.append([node.body.id, 0, None, data["owner"]])  # type: ignore[attr-defined]
                return
        else:
            event = node.name if type(node) is g.Call else node.event  # type: ignore[attr-defined]
            data["phase"] = 3
            data["queue"] = firings(rt, rt.ruleset.triggers.get(event, ()), data["args"])


def ability(rt, target: Any, name: str) -> tuple[g.Block, list[str]]:
    """The body and names of card *target*'s ability *name* (a copy's: its card's)."""
    abilities = rt.ruleset.abilities
    found = abilities.get((target, name))
    if found is None and isinstance(target, str) and target in rt.ent:
        found = abilities.get((rt.ent[target].get("card"), name))
    if found is None:
        raise ValueError(f"{rt.label(target)} has no ability '{name}'")
    return found


def mark_dispatch(ruleset) -> None:
    """Mark the emits and macro calls that must be dispatched here (see the module's doc)."""
    before = ruleset.before
    ordered = "trigger_controller" in ruleset.conventions
    rich = set(before)
    for event, listeners in ruleset.triggers.items():
        owned = sum(2 if t.copies else 1 for t in listeners if t.owner is not None)  # copies: maybe several
        if any(t.stops for t in listeners) or (ordered and owned > 1):
            rich.add(event)
    for event, listeners in before.items():
        if any(t.stops for t in listeners):
            rich.add(event)
    hooked = (set(ruleset.triggers) | set(before)) & set(ruleset.macros)
    for node in ruleset.nodes:
        kind = type(node)
        if kind is g.Emit and node.event in rich:
            node.dispatch = True
        elif kind is g.Call and node.name in hooked:
            node.hooked = True
