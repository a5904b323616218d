"""Chance outcomes supplied from outside the game (``Game.chance_source``).

Every chance step of the rules (a ``draw``, each swap of a ``shuffle``) asks the machine for
a number below *n* (``Machine.random_below``). By default the game's own generator answers;
a game given a *chance source* asks it instead: any object whose ``take(n)`` returns an
integer from 0 to n - 1. :class:`ChanceTape` answers from a list of outcomes chosen
beforehand and, when the list runs out, stops the run with :class:`ChanceNeeded` so that a
caller can choose the next outcome and run the step again from a copy (the OpenSpiel
adapter makes each chance step an explicit chance node this way).
"""
from __future__ import annotations


class ChanceNeeded(BaseException):
    """A :class:`ChanceTape` has run out: the run needs one more outcome below ``n``.

    A ``BaseException``, so that no handler of rule errors turns it into one; the run it
    stops is left half done, so run on a copy (``Game.clone``) and drop the copy."""

    def __init__(self, n: int):
        super().__init__(n)
        self.n = n


class ChanceTape:
    """The outcomes of the next chance steps, in order (each below the step's *n*); a step
    with a single outcome (a draw from a list of one) takes none from the tape."""

    __slots__ = ("outcomes", "used")

    def __init__(self, outcomes: list[int] | tuple[int, ...] = ()):
        self.outcomes = list(outcomes)
        self.used = 0  # outcomes taken so far

    def take(self, n: int) -> int:
        if n == 1:
            return 0
        if self.used == len(self.outcomes):
            raise ChanceNeeded(n)
        value = self.outcomes[self.used]
        if not 0 <= value < n:
            raise ValueError(f"chance outcome {value} is not one of the {n} possible (0 to {n - 1})")
        self.used += 1
        return value
