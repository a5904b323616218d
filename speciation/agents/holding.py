"""Holding priority off in a response window, as an agent's own choice (docs/agents.md).

A ruleset whose ``responses`` section has ``hold`` offers, in each window, the option
``responses_hold_option`` (a constant of the ruleset) besides the cards and the pass. Holding
off is a choice like any other, a person's too: the search agents take it, without searching,
when the seat has nothing it could answer with (its only other option is the pass), which the
seat knows from its own hand; with a card to answer with, they search as usual.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..interpreter.game import Action


def hold_off(ruleset: Any, actions: Sequence[Action]) -> Action | None:
    """The hold option when *actions* are only the pass and the hold, else None."""
    option = ruleset.constants.get("responses_hold_option")
    if option is None or len(actions) != 2:
        return None
    values = [a.value for a in actions]
    if None in values and option in values:
        return actions[values.index(option)]
    return None
