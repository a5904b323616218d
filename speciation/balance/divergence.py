"""Where the two games of a pair part: game *index* of two configurations of a comparison
(the same seed and seats, with and without a change) played side by side, action by action,
until their pending decisions or the actions their agents choose differ.

It answers the question a paired design stands on: does a change alter only what it touches?
For a mod that adds entities (a card), :func:`first_difference` says whether any of them was
*in sight* when the games parted (in a place the ruleset's ``hidden`` section does not hide:
a face-up slot, a hand, the taken cards; not a shuffled deck), or among the options of the
decision that differed. A pair that parts with the added card still out of sight parts for
another reason (a random stream shared with something the change moved, a search that
resampled it), which the pairing should not allow.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..agents.base import seat_views
from ..agents.registry import make_agents
from ..interpreter.game import Game
from .runner import Config, load


@dataclass
class Parting:
    """Where the pair of game *index* parted (``step``: the number of actions both games
    took alike; ``kind``: ``decision`` when different seats or prompts are pending,
    ``options`` when an agent chose differently from different options, ``choice`` when it
    chose differently from the same options, ``end`` when one game ended and the other did
    not, ``not parted`` when both were still alike after *max_actions*, ``None`` when the two
    games were alike to their end). Different options alone do not
    part the games while both agents take the same action from them."""

    index: int
    seed: int
    step: int
    kind: str | None
    options_differ: int | None = None  # the first action whose options differed (the choices may have agreed)
    turn: Any = None
    added: list[str] = field(default_factory=list)   # what the second configuration adds (labels)
    in_sight: list[str] = field(default_factory=list)  # the added entities in sight then, with where
    in_options: bool = False                         # an added entity among the parting decision's options
    chose_added: bool = False                        # ... and the agent took it there
    first: str | None = None                         # the parting decision (prompt) and actions
    second: str | None = None

    @property
    def involved(self) -> bool:
        """Did the change itself show where the games parted (its entity in sight or offered)?"""
        return bool(self.in_sight or self.in_options)

    def to_dict(self) -> dict:
        return {**asdict(self), "involved": self.involved}


def first_difference(first: Config, second: Config, index: int, max_actions: int | None = None) -> Parting:
    """Play game *index* of *first* and of *second* side by side (each with its own agents, as
    a study plays them) and return where they part."""
    seed = first.seed + index
    games = [Game.new(load(c.ruleset, c.variants, c.mods), c.players, seed, streams=c.streams)
             for c in (first, second)]
    for game in games:
        game.keep_log = False
    agents = [make_agents(",".join(c.seats(index)), c.players, seed) for c in (first, second)]
    views = [seat_views(game) for game in games]
    added = sorted(set(games[1].state["ent"]) - set(games[0].state["ent"]))
    parting = Parting(index, seed, 0, None, added=[games[1].label(ident) for ident in added])
    limit = max_actions if max_actions is not None else first.max_actions
    while parting.step < limit:
        over = [game.is_over for game in games]
        if all(over):
            return parting
        if any(over):
            return _parted(parting, "end", games, added, None)
        asked = [(game.current_player, game.prompt) for game in games]
        if asked[0] != asked[1]:
            return _parted(parting, "decision", games, added, None)
        seat = games[0].current_player
        assert seat is not None  # a game not over has a seat to decide
        offered = [[repr(a.value) for a in game.legal_actions()] for game in games]
        if offered[0] != offered[1] and parting.options_differ is None:
            parting.options_differ = parting.step  # the change shows in a decision: the choice may still agree
        chosen = [agents[n][seat].choose(views[n][seat]) for n in (0, 1)]
        if repr(chosen[0].value) != repr(chosen[1].value):
            return _parted(parting, "choice" if offered[0] == offered[1] else "options", games, added, chosen)
        for game, action in zip(games, chosen):
            game.apply(action)
        parting.step += 1
    parting.kind = "not parted"  # still alike when the cap of actions was reached
    return parting


def _parted(parting: Parting, kind: str, games: list[Game], added: list[str], chosen) -> Parting:
    parting.kind = kind
    later = games[1]
    turns = later.ruleset.conventions.get("turn_count")
    if turns:
        try:
            parting.turn = later.evaluate(turns)
        except Exception:  # a turn count that cannot be read mid-game is only left out
            parting.turn = None
    parting.in_sight = _in_sight(later, added)
    options = [repr(a.value) for a in later.legal_actions()] if not later.is_over else []
    parting.in_options = any(_names(text, ident) for ident in added for text in options)
    if chosen is not None:
        parting.chose_added = any(_names(repr(chosen[1].value), ident) for ident in added)
    for number, game in enumerate(games):
        text = "over" if game.is_over else f"{game.prompt!r} ({len(game.legal_actions())} options)"
        if chosen is not None:
            text += f": {chosen[number].value!r}"
        setattr(parting, "first" if number == 0 else "second", text)
    return parting


def _in_sight(game: Game, idents: list[str]) -> list[str]:
    """Where each of *idents* lies in *game* in a place no seat is kept from seeing (an entity
    attribute that is not in the ruleset's ``hidden`` order, contents or private lists)."""
    if not idents:
        return []
    hidden = game.ruleset.hidden
    secret = set(hidden.order) | set(hidden.contents) | set(hidden.private)
    wanted = set(idents)
    found = []
    for owner, record in game.state["ent"].items():
        for attr, value in record.items():
            if attr in secret or attr == "id":
                continue
            for ident in _mentions(value, wanted):
                found.append(f"{game.label(ident)} in {game.label(owner)}.{attr}")
    return sorted(set(found))


def _mentions(value: Any, wanted: set[str]) -> set[str]:
    if isinstance(value, str):
        return {value} & wanted
    if isinstance(value, (list, tuple)):
        return set().union(*(_mentions(v, wanted) for v in value)) if value else set()
    if isinstance(value, dict):
        return set().union(*(_mentions(v, wanted) for v in value.values())) if value else set()
    return set()


def _names(text: str, ident: str) -> bool:
    """Does the repr of an action's value name the entity *ident*?"""
    return repr(ident) in text or text == ident
