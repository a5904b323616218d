"""What one seat may see of a game: :meth:`Game.view`.

A view is the state with everything the seat may not know taken out or blanked. What is
hidden comes only from the ruleset's declarations (its constants):

``hidden_lists``
    attributes whose *order* is secret (a shuffled bag whose contents are known): shown
    sorted.
``secret_lists``
    attributes whose *contents* are secret (a face-down pile): shown as that many ``"?"``.
``shown_heads`` (optional)
    ``{attribute: flag}``: the first item of that secret list is face up, and shown, while
    the entity's attribute *flag* is true (the face-up top tile of a face-down stack).
``private_attributes``
    attributes only the player controlling the entity sees (a hand): ``"?"`` for others.

Never in a view: the seed, the random generator and the scripted chance (from them a seat
could rebuild every hidden fact and the future), the machine's stack (it holds the local
names of rules paused mid-way), the step counter, another seat's private log lines, and
another seat's pending options.
"""
from __future__ import annotations

from typing import Any

from ..dsl.errors import ArgumentError

LEFT_OUT = ("rng", "chance", "stack", "seed", "steps")


def seat_index(game, player: Any, what: str = "player") -> int:
    """*player* checked as a seat number (0-based) of *game*, or a clear ArgumentError."""
    count = len(game.state["players"])
    if isinstance(player, bool) or not isinstance(player, int):
        raise ArgumentError(f"{what} must be a seat number from 0 to {count - 1}, not {player!r}")
    if not 0 <= player < count:
        raise ArgumentError(f"{what} must be a seat number from 0 to {count - 1}, not {player}")
    return player


def view(game, player: int) -> dict:
    """The state as seat *player* may see it (a new dict; the game is not changed)."""
    seat_index(game, player)
    constants = game.ruleset.constants
    me = game.state["players"][player]
    state = {k: _copy(v) for k, v in game.state.items() if k not in LEFT_OUT and k != "log"}
    for record in state["ent"].values():
        hide(record, me, constants)
    state["log"] = game.log_for(player)
    pending = state.get("pending")
    if pending is not None:
        pending["id"] = game.decision_id
        if game.player_of(pending["actor"]) != player:
            pending["options"] = ["?"] * len(pending["options"])
    return state


def hide(record: dict, me: str, constants: dict) -> None:
    """Blank, in one entity's record (a copy), what seat *me* may not see."""
    for attr in set(constants.get("hidden_lists") or ()) & set(record):
        if isinstance(record[attr], list):
            record[attr] = sorted(record[attr], key=str)
    heads = constants.get("shown_heads") or {}
    for attr in set(constants.get("secret_lists") or ()) & set(record):
        value = record[attr]
        if isinstance(value, list):
            shown = 1 if value and attr in heads and record.get(heads[attr]) is True else 0
            record[attr] = value[:shown] + ["?"] * (len(value) - shown)
    owner = record["id"] if record.get("kind") == "player" else record.get("player")
    if owner != me:
        for attr in set(constants.get("private_attributes") or ()) & set(record):
            value = record[attr]
            record[attr] = ["?"] * len(value) if isinstance(value, list) else "?"


def copy_plain(value: Any) -> Any:
    """A fast deep copy of plain data (dicts, lists and scalars)."""
    if isinstance(value, dict):
        return {k: copy_plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_plain(v) for v in value]
    return value


_copy = copy_plain
