"""Budgets at run time: how much work, time and memory the rules may use.

Rule files are untrusted input (players share mods), so a run is bounded by *work*,
not by frames: every frame the machine steps through, every rule-function body it
evaluates and every item a comprehension walks, a ``range`` makes, ``in`` searches in a
long list or ``extend`` adds costs one unit of a budget that is refilled at each decision.
Sizes are bounded where values are made (``range``, ``repeat``, ``*``, text built by
``format``/``log``, numbers and lists stored by ``let``, assignment or ``+=``, lists grown
by ``append``, ``insert``, ``extend``), nesting by the depth of the frame stack and of
rule-function calls, and time is looked at every few thousand units of work. Breaking a budget is a
:class:`RuleRuntimeError` at the rule's position, never a hang or a memory blow-up.
"""
from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """The budgets of a game (``Game.limits``). Frozen, as the default is shared by every
    game: make another (``Limits(work=...)``, ``dataclasses.replace(game.limits, ...)``)."""

    work: int = 5_000_000        # units of work between two decisions
    seconds: float = 60.0        # CPU seconds between two decisions
    stack_depth: int = 2_000     # frames on the stack (macro calls, performs, triggers, loops)
    call_depth: int = 200        # nested rule-function calls
    sequence: int = 1_000_000    # items of a list made by range, repeat counts, * on a list
    text: int = 100_000          # characters of one text made at run time
    number_digits: int = 1_000   # decimal digits of a number stored or multiplied
    log_chars: int = 20_000_000  # characters of the whole game log

    @property
    def number_bound(self) -> int:
        bound = _BOUNDS.get(self.number_digits)
        if bound is None:
            bound = _BOUNDS[self.number_digits] = 10 ** self.number_digits
        return bound


_BOUNDS: dict[int, int] = {}
DEFAULT = Limits()
CHECK_EVERY = 4096  # units of work between two looks at the clock


class BudgetError(ValueError):
    """A budget broken (the machine gives it the rule's position)."""


class Meter:
    """The running count of one run: work left, and when to look at the clock next."""

    __slots__ = ("limits", "left", "next_check", "deadline", "calls")
    deadline: float | None

    def __init__(self, limits: Limits):
        self.limits = limits
        self.calls = 0
        self.refill()

    def refill(self) -> None:
        self.left = self.limits.work
        self.next_check = self.left - CHECK_EVERY
        self.deadline = None  # the clock is first read at the first check (reading it costs µs)

    def check(self) -> None:
        """Called when ``left`` drops below ``next_check``: out of work or of time?"""
        if self.left <= 0:
            raise BudgetError(f"the rules did {self.limits.work} units of work without a decision or an "
                              "end (a loop that never ends, or a runaway computation?)")
        now = time.process_time()
        if self.deadline is None:
            self.deadline = now + self.limits.seconds
        elif now > self.deadline:
            raise BudgetError(f"the rules ran {self.limits.seconds:g} CPU seconds without a decision or "
                              "an end (a loop that never ends, or a runaway computation?)")
        self.next_check = self.left - CHECK_EVERY


def check_sequence(limits: Limits, size: int, what: str) -> None:
    if size > limits.sequence:
        raise BudgetError(f"{what} of {size} items is more than the {limits.sequence} allowed")


def check_number(limits: Limits, value: int) -> int:
    bound = limits.number_bound
    if -bound < value < bound:
        return value
    raise BudgetError(f"a number of more than {limits.number_digits} digits (a runaway computation?)")


def check_text(limits: Limits, text: str) -> str:
    if len(text) > limits.text:
        raise BudgetError(f"a text of {len(text)} characters is longer than the {limits.text} allowed")
    return text


SMALL = 10 ** 6  # a number this small is within any bound of more than 6 digits
SEARCHED = 256  # `in` on a list longer than this pays one unit of work per item (shorter: nothing)


def check_value(limits: Limits, value):
    """A value about to be stored: a number or text too big to save is refused here."""
    kind = type(value)
    if kind is int:
        if -SMALL < value < SMALL and limits.number_digits > 6:
            return value
        return check_number(limits, value)
    if kind is str:
        return check_text(limits, value)
    if kind is list:
        check_sequence(limits, len(value), "a list")
    return value


def multiply(limits: Limits, a, b):
    """``a * b`` that never builds a number, text or list beyond the limits."""
    if type(a) is int and type(b) is int:
        value = a * b
        if -SMALL < value < SMALL and limits.number_digits > 6:  # within any such bound: not looked up
            return value
        return check_number(limits, value)
    if isinstance(a, (str, list)) or isinstance(b, (str, list)):
        items, times = (a, b) if isinstance(a, (str, list)) else (b, a)
        if isinstance(times, int) and len(items) * max(times, 0) > limits.sequence:
            raise BudgetError(f"repeating {len(items)} items {times} times is more than the "
                              f"{limits.sequence} allowed")
    return a * b


def charge(rt, items) -> None:
    """A comprehension or builtin about to walk *items* pays one unit of work per item."""
    meter = rt.meter
    meter.left -= len(items)
    if meter.left < meter.next_check:
        meter.check()


def charge_units(rt, units: int) -> None:
    """Work of *units* items (a range made, a list searched) paid at once."""
    meter = rt.meter
    meter.left -= units
    if meter.left < meter.next_check:
        meter.check()
