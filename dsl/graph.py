"""The effect graph: compiled statements, each with an id and a source span.

Expressions are compiled to Python closures ``fn(rt, env) -> value`` once, at
load time. Statements are small records; the interpreter's frame machine walks
them, so a game can stop at any choice and be saved as plain data (a stack of
``[node id, counter, extra, env frame]`` lists).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import Span

Expr = Callable[[Any, dict], Any]


@dataclass(slots=True, eq=False)
class Stmt:
    span: Span
    id: int = field(default=-1, init=False)
    # generated run(rt, env) for a statement or body that can never stop for a choice
    # (interpreter/codegen/statements.py); None: not considered yet, False: left to the machine
    fast: Any = field(default=None, init=False)


@dataclass(slots=True, eq=False)
class Simple(Stmt):
    """A statement that runs to completion at once (let, assignment, verbs)."""

    run: Callable[[Any, dict], None] = None  # type: ignore[assignment]
    text: str = ""
    changes: bool = True  # may change the state (not just local names or the log)
    writes: frozenset = frozenset()  # the attributes it may change
    invalidates: frozenset = frozenset()  # rule functions whose remembered values it may make stale
    tree: Any = None  # its parse tree and local names, for generated code (interpreter/codegen/simple.py)
    names: Any = None


@dataclass(slots=True, eq=False)
class Block(Stmt):
    body: list[Stmt] = field(default_factory=list)
    # generated runner(rt, frame, env) -> paused? for the frame machine (interpreter/codegen/runner.py)
    runner: Any = None


@dataclass(slots=True, eq=False)
class If(Stmt):
    tests: list[Expr] = field(default_factory=list)
    suites: list[Block] = field(default_factory=list)
    orelse: Block | None = None


@dataclass(slots=True, eq=False)
class For(Stmt):
    var: str = ""
    items: Expr = None  # type: ignore[assignment]
    body: Block = None  # type: ignore[assignment]


@dataclass(slots=True, eq=False)
class Simultaneously(Stmt):
    """``simultaneously for var in items: body``: one fiber per item, each deciding for its
    own seat, all pending at once (interpreter/fibers.py)."""

    var: str = ""
    items: Expr = None  # type: ignore[assignment]
    body: Block = None  # type: ignore[assignment]


@dataclass(slots=True, eq=False)
class While(Stmt):
    test: Expr = None  # type: ignore[assignment]
    body: Block = None  # type: ignore[assignment]


@dataclass(slots=True, eq=False)
class Repeat(Stmt):
    count: Expr = None  # type: ignore[assignment]
    body: Block = None  # type: ignore[assignment]


@dataclass(slots=True, eq=False)
class Choose(Stmt):
    var: str = ""
    options: Expr = None  # type: ignore[assignment]
    actor: Expr = None  # type: ignore[assignment]
    optional: bool = False
    prompt: Expr | None = None
    label: Expr | None = None
    private: bool = False  # only the chooser's player learns the choice (in the log too)
    count: Expr | None = None  # a subset: how many options are chosen (at least)
    count_max: Expr | None = None  # ... and at most (None: exactly count)
    always: bool = False  # asked even with no option (only the pass): asking tells nothing


@dataclass(slots=True, eq=False)
class Call(Stmt):
    """Call a macro: a new frame with its own local names."""

    name: str = ""
    args: list[Expr] = field(default_factory=list)
    hooked: bool = False  # triggers listen for calls of the macro: the call is an event (interpreter/triggers.py)


@dataclass(slots=True, eq=False)
class CallValue(Call):
    """``let var = macro(args)``: call a macro (it may pause for choices) and bind the value its
    ``return VALUE`` gives. The machine keeps a frame of this node under the macro's own
    frame; the return puts ``[value]`` in that frame's extra, and the frame binds it."""

    var: str = ""


@dataclass(slots=True, eq=False)
class Perform(Stmt):
    """Run the effect of the card (or other entity with an effect) a value names."""

    target: Expr = None  # type: ignore[assignment]
    names: list[str] = field(default_factory=list)
    values: list[Expr] = field(default_factory=list)
    ability: str | None = None  # perform c.name: the card's ability of that name, not its effect


@dataclass(slots=True, eq=False)
class Emit(Stmt):
    """Fire an event: every active trigger listening for it runs, in order. An event with
    more than that (a body of its own, ``before:`` triggers, a handler that may ``stop``,
    triggers ordered by their controllers) is *dispatched*: run step by step by
    interpreter/triggers.py in a frame of its own."""

    event: str = ""
    args: list[Expr] = field(default_factory=list)
    body: Block | None = None  # emit ev(a): followed by a block: the event itself, unless prevented
    dispatch: bool = False


@dataclass(slots=True, eq=False)
class Break(Stmt):
    pass


@dataclass(slots=True, eq=False)
class Return(Stmt):
    value: Expr | None = None  # return VALUE (the value of a macro called in a let)


@dataclass(slots=True)
class Macro:
    name: str
    params: list[str]
    body: Block
    span: Span


@dataclass(slots=True)
class Function:
    name: str
    params: list[str]
    span: Span
    expr: Expr = None  # type: ignore[assignment]
    call: Callable[..., Any] = None  # type: ignore[assignment]  # call(rt, [args])
    fast: Callable[..., Any] = None  # type: ignore[assignment]  # fast(rt, *args): the same, cheaper
    remembered: bool | None = None  # values remembered? decided by measuring the hit rate
    reads: set = field(default_factory=set)   # attributes its expression reads
    calls: set = field(default_factory=set)   # rule functions it calls
    static: bool = False  # reads nothing any rule changes: computed once per game
    modified: bool = False  # some modifier changes its value


@dataclass(slots=True)
class Trigger:
    event: str
    params: list[str]
    owner: str | None
    test: Expr | None
    active: Expr | None
    body: Block
    span: Span
    timing: str = "on"  # on (after the event), before (may prevent it) or instead (prevents it)
    index: int = -1  # its place among all triggers (a dispatched event's saved queue names it)
    ability: str | None = None  # the card ability it belongs to, if any
    stops: bool = False  # its effect may 'stop' the event's remaining handlers
    copies: tuple = ()  # a card with copies: the ids of its deck's copies; 'self' is each that is this card now


@dataclass(slots=True)
class Check:
    """A state check (a rule file's ``checks``): while ``test`` holds (for an item of
    ``items`` bound to ``var``, if it has them), the machine runs ``body`` before the next
    decision is asked, and again until no check holds."""

    var: str | None
    items: Expr | None
    test: Expr
    body: Block
    span: Span
    reads: set = field(default_factory=set)  # attributes its items and condition read (as Function.reads)
    calls: set = field(default_factory=set)  # rule functions they call
    settled: str = ""  # its name in the machine's memo while it holds for no item (interpreter/decisions.py)


@dataclass(slots=True, eq=False)
class Settle(Stmt):
    """The machine's marker under the effect of a state check: when it is reached the
    checks are made again, then the choice they came before (the ``choose`` node id its
    frame keeps, if any) is asked with its options listed anew."""


@dataclass(slots=True, eq=False)
class SettleNow(Stmt):
    """``settle``: make the state checks here, until none holds, before going on."""


@dataclass(slots=True)
class Modifier:
    function: str
    owner: str | None
    active: Expr | None
    value: Expr
    span: Span
    copies: tuple = ()  # as Trigger.copies
