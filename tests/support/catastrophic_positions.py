"""Catastrophic positions for the table's tests: a three-player game played at random up to
where the first player is asked, in a response window, whether to answer another player's
Interaction (already on the stack) with a card of its hand; the first player passes every
earlier window, so that it still holds its card when asked. Or up to a window where it may
hold priority off."""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

ANSWER = "in answer to"


def answerable(game: Any, seat: int, names: tuple[str, ...]) -> Any:
    """The option of *seat*'s pending response decision that plays a card named one of
    *names* while the stack holds an entry, or None."""
    pending = game.state["pending"]
    if pending is None or game.current_player != seat or ANSWER not in (pending.get("prompt") or ""):
        return None
    if not game.state["ent"]["game"]["stack"]:
        return None
    ent = game.state["ent"]
    return next((a for a in game.legal_actions()
                 if isinstance(a.value, str) and ent.get(a.value, {}).get("name") in names), None)


def play_to_a_response(game: Any, apply: Callable[[int, Any], None], seed: int, seat: int = 0,
                       names: tuple[str, ...] = ("Cheating",), limit: int = 900) -> Any:
    """Play *game* (through *apply(seat, action)*) at random until seat *seat* may answer an
    entry of the stack with a card named in *names*; that option, or None if the game ends
    or the limit is reached first."""
    rng = random.Random(seed)
    for _ in range(limit):
        if game.is_over:
            return None
        option = answerable(game, seat, names)
        if option is not None:
            return option
        actor = game.current_player
        actions = list(game.legal_actions())
        asked = ANSWER in (game.state["pending"].get("prompt") or "")
        # the plain pass (not another option without a value, such as holding priority off)
        passes = sorted((a for a in actions if a.value is None), key=lambda a: "pass" not in str(a.label))
        apply(actor, passes[0] if actor == seat and asked and passes else rng.choice(actions))
    return None


def play_to_a_window(game: Any, apply: Callable[[int, Any], None], seed: int, seat: int = 0, active: int = 2,
                     limit: int = 900) -> Any:
    """Play *game* at random until seat *seat* is asked in a response window on seat
    *active*'s turn (so that a seat after it in the window's order is still to be asked);
    the option of holding priority off then, or None."""
    rng = random.Random(seed)
    hold = game.ruleset.constants["responses_hold_option"]
    for _ in range(limit):
        if game.is_over:
            return None
        pending = game.state["pending"]
        asked = ANSWER in (pending.get("prompt") or "")
        mine = game.current_player == seat and game.state["ent"]["game"]["active"] == game.state["players"][active]
        if asked and mine:
            return next((a for a in game.legal_actions() if a.value == hold), None)
        apply(game.current_player, rng.choice(list(game.legal_actions())))
    return None
