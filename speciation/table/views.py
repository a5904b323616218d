"""The views of one position, for every page that shows it: one copy of its entities.

A table shows each position to every person's seat and to its spectators, each through its
own view (``game.view(seat)``, ``public_view(game)``: :mod:`speciation.interpreter.views`).
Each of those copies the whole state and then blanks what the seat may not see in its copy.
:class:`PositionViews` copies the position's entities once, and makes each seat's view from
that copy: the interpreter's view of everything but the entities (the same functions, on
the game with its entities left out), and each entity's record hidden by the interpreter's
own :func:`~speciation.interpreter.views.hide` in a copy of it (one level: hiding replaces
an attribute, never changes a value inside it). A record a spectator sees whole (hiding
changes nothing in it for a seat that owns nothing) is seen whole by every seat, and every
view of the position shares it; only the others are hidden again for each seat (a hand, a
face-down pile, a secret trait). A view made so is equal to the
interpreter's (``tests/tools/test_table_views.py`` compares them at every decision of games
of each edition); the views of one position share the values no seat's hiding replaced, so
none of them may be changed (nothing that reads a view changes it).
"""
from __future__ import annotations

from typing import Any

from ..interpreter.game import Game
from ..interpreter.statecopy import clone_state
from ..interpreter.views import hide, public_view, view
from .messages import screen_key

_SPECTATOR = object()   # whose view a spectator's is: no seat's, and owner of nothing


class _WithoutEntities:
    """A game whose state shows no entities (the interpreter's view of all the rest);
    everything else is the game's own."""

    def __init__(self, game: Game):
        self._game = game
        self.state = {**game.state, "ent": {}}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


class PositionViews:
    """The views of *game* as it is now: make it again once the game has changed."""

    def __init__(self, game: Game):
        self.game = game
        # the one copy every view shares (the interpreter's cheap copy of plain data)
        self.entities = clone_state({"ent": game.state["ent"]})["ent"]
        # each record as a spectator sees it, and the records a spectator sees whole (then
        # so does every seat: a spectator sees what every seat sees), made with the first view
        self.public: dict[str, dict] | None = None
        self.whole: set[str] = set()

    def view(self, seat: int | None) -> dict:
        """What seat *seat* sees (None: what every seat sees, a spectator's view): equal to
        ``game.view(seat)`` (``public_view(game)``), a new dict each time (its records
        shared with the other views of the position)."""
        game = self.game
        rest: Any = _WithoutEntities(game)
        state = view(rest, seat) if seat is not None else public_view(rest)
        hidden = game.ruleset.hidden
        public = self.public
        if public is None:
            public = self.public = {}
            for ident, record in self.entities.items():
                shown = dict(record)
                hide(shown, _SPECTATOR, hidden)
                if shown == record:
                    self.whole.add(ident)
                    shown = record
                public[ident] = shown
        if seat is None:
            state["ent"] = dict(public)
            return state
        me = game.state["players"][seat]
        whole = self.whole
        entities = {}
        for ident, record in self.entities.items():
            if ident not in whole:
                record = dict(record)
                hide(record, me, hidden)
            entities[ident] = record
        state["ent"] = entities
        return state


def position_views(session: Any, shown: Game) -> PositionViews:
    """The views of the position now of *shown* (the session's game, or its mirror in a
    language), made from one copy of it whichever seats' views are asked for; kept on the
    session (a :class:`~speciation.table.session.TableGame`) until its position changes."""
    key = screen_key(session.game, session.seats, len(session.undo_stack.checkpoints))
    known = session.positions
    if known[0] != key:
        known = session.positions = (key, {})
    views = known[1].get(id(shown))
    if views is None or views.game is not shown:
        views = known[1][id(shown)] = PositionViews(shown)
    return views
