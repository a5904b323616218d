"""Simultaneous decisions: ``simultaneously for p in ITEMS: BODY`` runs BODY once per item,
each run a *fiber* that decides for its own seat only, all of them pending at once.

The statement's frame on the machine's stack is ``[node id, 0, fibers, env frame]``;
*fibers* is a list, one record per item, in the items' order::

    {"actor": p, "seat": seat index, "stack": [frames...], "pending": None | {...}}

Each fiber has a stack of its own, whose first frame is BODY with a copy of the local
names of the block that holds the statement (and ``p``): a fiber binds nothing outside
itself. What a seat commits to, the rules keep in the state (a private or face-down
attribute) and reveal when they choose; the statement ends when every fiber has ended.

The machine runs a fiber by putting its stack and pending decision in the state's
``stack`` and ``pending`` for the time of the run (:func:`inside`), so the machine's
steps are the same as everywhere. While fibers wait, ``state["pending"]`` holds the
pending decision of the first waiting fiber by seat (the one ``legal_actions()`` and
``decision_id`` of the game API refer to); each fiber's own is in its record. A fiber's
pending decision carries ``"fiber": [k, asked]``: its fiber's index and the step count
when it was asked (its decision id is ``token/asked:k``, see interpreter/pending.py).
Everything is plain data: a game saves, clones and resumes with fibers waiting.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any

from ..dsl import graph as g
from ..dsl.errors import RuleRuntimeError
from .limits import check_sequence


def copy_plain(value: Any) -> Any:
    """A deep copy of plain data (a fiber's names never share a list with another's)."""
    if isinstance(value, dict):
        return {k: copy_plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_plain(v) for v in value]
    return value


def enter(machine, stmt: g.Simultaneously, frame: list, env: dict) -> bool:
    """Start the statement: one fiber per item (none: nothing to do)."""
    items = list(stmt.items(machine, env))
    check_sequence(machine.limits, len(items), "a simultaneous statement")
    if not items:
        return False
    if any(type(machine.nodes[f[0]]) is g.Simultaneously for f in machine.state["stack"]):
        raise ValueError("'simultaneously' inside a seat's part of another 'simultaneously'")
    fibers, seats = [], set()
    for item in items:
        seat = _seat_of(machine, item)
        if seat in seats:
            raise ValueError(f"'simultaneously for {stmt.var}' lists seat {seat + 1} twice "
                             f"({machine.label(item)}): each seat decides once at a time")
        seats.add(seat)
        local = copy_plain(env)
        local[stmt.var] = copy_plain(item)
        fibers.append({"actor": item, "seat": seat, "stack": [[stmt.body.id, 0, local, 0]], "pending": None})
    machine.state["stack"].append([stmt.id, 0, fibers, frame[3]])
    return True


def _seat_of(machine, item: Any) -> int:
    players = machine.state["players"]
    if item in players:
        return players.index(item)
    owner = machine.ent.get(item, {}).get("player") if isinstance(item, str) else None
    if owner not in players:
        raise ValueError(f"{machine.label(item)} is not a player and no player controls it, so it "
                         "cannot decide in 'simultaneously'")
    return players.index(owner)


@contextmanager
def inside(machine, fiber: dict):
    """The state as the fiber sees it (its stack and pending decision), for the time of the
    block; what the fiber's run changed is kept in its record afterwards."""
    state = machine.state
    outer_stack, outer_pending = state["stack"], state["pending"]
    state["stack"], state["pending"] = fiber["stack"], fiber["pending"]
    log, start = state["log"], len(state["log"])
    try:
        yield
    finally:
        fiber["stack"], fiber["pending"] = state["stack"], state["pending"]
        state["stack"], state["pending"] = outer_stack, outer_pending
        if len(log) > start:
            _own_lines(log, start, state["players"][fiber["seat"]])


def _own_lines(log: list, start: int, owner: str) -> None:
    """What a seat's part writes in the log is for that seat alone until the rules reveal
    it: a line for everyone becomes the seat's; a line for another seat (or spectators)
    goes."""
    lines = [line if line.__class__ is not str else [owner, line] for line in log[start:]]
    log[start:] = [line for line in lines if line[0] == owner]


def step(machine, node: g.Simultaneously, frame: list) -> None:
    """The statement's frame is on top: run each fiber that can run until it asks or ends;
    then either every fiber has ended (the frame goes) or some wait (state["pending"])."""
    fibers = frame[2]
    for k, fiber in enumerate(fibers):
        if fiber["pending"] is None and fiber["stack"]:
            _run_fiber(machine, fibers, k)
    waiting(machine, frame)


def _run_fiber(machine, fibers: list, k: int) -> None:
    """Run fiber *k* within the run that reached the statement: on its budget of work (a
    rules loop around a 'simultaneously' with nothing to decide still ends in a budget error)."""
    meter = machine.meter
    left, deadline = meter.left, meter.deadline
    with inside(machine, fibers[k]):
        machine._run()  # a run of its own: it starts with a full budget...
    meter.left = left - (meter.limits.work - meter.left)  # ... charged to the run that reached it
    meter.deadline = deadline if deadline is not None else meter.deadline
    meter.next_check = meter.left  # the next step looks at the budget and the clock
    if fibers[k]["pending"] is not None:
        _mark(machine, fibers, k)


def _owner(machine, actor: Any) -> Any:
    players = machine.state["players"]
    if actor in players:
        return actor
    owner = machine.ent.get(actor, {}).get("player") if isinstance(actor, str) else None
    if owner not in players:
        raise ValueError(f"{machine.label(actor)} is not a player and no player controls it")
    return owner


def waiting(machine, frame: list) -> None:
    """Set the state's pending decision to the first waiting fiber's (by seat), or end the
    statement when every fiber has ended."""
    first = None
    for fiber in frame[2]:
        if fiber["pending"] is not None and (first is None or fiber["seat"] < first["seat"]):
            first = fiber
    if first is not None:
        machine.state["pending"] = first["pending"]
    elif all(not fiber["stack"] for fiber in frame[2]):
        machine.state["stack"].pop()
    # else: a fiber can run on (the machine steps the frame again)


def frame_of(state: dict) -> list | None:
    """The frame of the simultaneous statement whose fibers wait, or None."""
    pending = state["pending"]
    if pending is None or "fiber" not in pending:
        return None
    return state["stack"][-1]


def pendings(state: dict) -> list[tuple[int | None, dict]]:
    """Every pending decision as ``(fiber index or None, pending)``, in seat order."""
    frame = frame_of(state)
    if frame is None:
        pending = state["pending"]
        return [] if pending is None else [(None, pending)]
    waiting_ = [(fiber["seat"], k, fiber["pending"]) for k, fiber in enumerate(frame[2])
                if fiber["pending"] is not None]
    return [(k, pending) for _, k, pending in sorted(waiting_, key=lambda w: w[0])]


def resolve(machine, k: int, value: Any) -> None:
    """Bind fiber *k*'s pending choice, run that fiber on, then the game on."""
    state = machine.state
    frame = state["stack"][-1]
    fiber = frame[2][k]
    with inside(machine, fiber):
        stack = state["stack"]
        stack[stack[-1][3]][2][state["pending"]["var"]] = value
        state["pending"] = None
        state["steps"] += 1
        machine._run()
    if fiber["pending"] is not None:
        _mark(machine, frame[2], k)
    state["pending"] = None
    waiting(machine, frame)
    if state["pending"] is None:
        machine.run()


def _mark(machine, fibers: list, k: int) -> None:
    """Fiber *k* asks a decision: its seat's own (else a rule error), marked as a fiber's."""
    fiber = fibers[k]
    pending = fiber["pending"]
    seat = machine.state["players"].index(_owner(machine, pending["actor"]))
    if seat != fiber["seat"]:
        raise RuleRuntimeError(f"a decision by {machine.label(pending['actor'])} inside seat {fiber['seat'] + 1}'s "
                               f"part of 'simultaneously' ({machine.label(fiber['actor'])}): each seat's part "
                               "decides for that seat only", machine.nodes[pending["node"]].span)
    pending["fiber"] = [k, machine.state["steps"]]
