"""What the pictures of one position share, drawn once: a table draws a picture per seat
shown (and one for its spectators) after every change, and most of each is the same.

A picture's body (everything but its heading, which names the seat) is a function of the
scene's ruleset, language and state, apart from what the body does not read: the log
(when it is drawn beside the picture) and the pending decision's options (a seat that does
not decide sees them as ``"?"``). A tableau with a band per seat also reads which band is the
seat's own. :class:`Drawings` keeps the bodies drawn, each with exactly that *basis*, and
gives a body again only to a scene whose basis is equal to it: two seats whose views differ
in anything the body reads (another's secret card, a hand) never share it, so a seat's
picture is always the one its own view would draw. It also keeps the log lines made
readable (:meth:`.Scene.readable`), by the names of the grid's places they depend on.

A table keeps one per game and hands it to the drawing of each screen (:func:`sharing`);
nothing is shared when none is active.
"""
from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

BODIES = 8       # bodies kept (a position's seats and spectators, and a language or two)
LINES = 1024     # log lines kept made readable, per naming of the places


@dataclass
class Body:
    """A picture's body: its SVG parts, what it drew (entity -> hover text), and its size."""

    svg: str
    drawn: dict[str, str]
    width: float
    height: float


@dataclass
class _Kept:
    basis: tuple
    body: Body
    places: tuple | None = None   # its places' names (:func:`places_basis`), once needed


@dataclass
class Drawings:
    """The bodies drawn lately and the log lines made readable, each with what it was made
    from (see the module's docstring)."""

    kept: list[_Kept] = field(default_factory=list)
    lines: tuple[tuple, dict[str, str]] = ((), {})
    drawn: int = 0     # bodies drawn (a test or a benchmark reads these)
    reused: int = 0    # bodies given again
    _last: tuple[Any, _Kept | None] = (None, None)   # the scene last drawn, and its body
    context: tuple = ()                               # what every element kept was drawn with
    elements: dict[tuple, Any] = field(default_factory=dict)   # key -> what the element drew
    # draws a body elsewhere (a table's worker process, table/drawer.py), or None: draw it here
    remote: Callable[[Any, bool], Body | None] | None = field(default=None, repr=False, compare=False)

    def elements_for(self, scene: Any) -> dict[tuple, Any]:
        """The elements of the picture drawn last, by their keys (:meth:`.svg._Canvas.part`;
        only that picture's are kept, so they are as many as a picture has), for a scene of
        the same ruleset, language, presentation and entities' names (what every element may
        read besides its key): none when any of these differ."""
        context = (scene.ruleset, scene.lang, scene.presentation,
                   tuple((ident, record.get("name")) for ident, record in scene.ent.items()))
        if not _same(self.context, context):
            self.context, self.elements = context, {}
        return self.elements

    def body(self, scene: Any, log: bool, make: Callable[[Any, bool], Body]) -> Body:
        """The body of *scene*'s picture: one drawn already from an equal basis, else *make*'s."""
        basis = body_basis(scene, log)
        kept = next((k for k in self.kept if _same(k.basis, basis)), None)
        if kept is None:
            made = self.remote(scene, log) if self.remote is not None else None
            kept = _Kept(basis, made if made is not None else make(scene, log))
            self.drawn += 1
            self.kept.append(kept)
            del self.kept[:-BODIES]
        else:
            self.reused += 1
        self._last = (scene, kept)
        return kept.body

    def kept_any(self) -> bool:
        """Whether it keeps anything (a body, an element, a log line)."""
        return bool(self.kept or self.elements or self.lines[1])

    def forget(self) -> None:
        """Drop the bodies kept (the position they were drawn for has changed)."""
        self.kept.clear()
        self._last = (None, None)

    def readable(self, scene: Any, lines: list[str]) -> list[str]:
        """*lines* as :meth:`.Scene.readable` makes them, each line made once while the
        places it may name keep their names (read once per body drawn: a scene whose body
        was shared has the same places)."""
        kept = self._last[1] if self._last[0] is scene else None
        if kept is not None and kept.places is None:
            kept.places = places_basis(scene)
        basis = kept.places if kept is not None and kept.places is not None else places_basis(scene)
        if not _same(self.lines[0], basis) or len(self.lines[1]) > LINES:
            self.lines = (basis, {})
        made = self.lines[1]
        out = []
        for line in lines:
            if not isinstance(line, str):
                out.append(scene.readable(line))
                continue
            said = made.get(line)
            if said is None:
                said = made[line] = scene.readable(line)
            out.append(said)
        return out


def body_basis(scene: Any, log: bool) -> tuple:
    """Everything a picture's body is drawn from: the ruleset (the same object), the
    language, the state but for the log (unless drawn in it) and the options of the pending
    decision, and the seat when a tableau draws the seat's own band apart."""
    state = scene.state
    basis = {k: v for k, v in state.items() if k not in ("log", "pending")}
    if log:
        basis["log"] = state.get("log")
    pending = state.get("pending")
    if pending is not None:
        basis["pending"] = {k: v for k, v in pending.items() if k != "options"}
    seats = (scene.presentation.get("tableau") or {}).get("seats")
    return scene.ruleset, scene.lang, scene.seat if seats else None, basis


def places_basis(scene: Any) -> tuple:
    """What :meth:`.Scene.readable` reads of a state: its cells by the names the log gives
    them, its corners (named by their cells' names, a cell that is not there by its id), and
    the language."""
    named = scene.place_name
    cells, corners = [], []
    for ident, record in scene.ent.items():
        kind = record.get("kind")
        if kind == "cell":
            cells.append((ident, named(ident)))
        elif kind == "corner":
            corners.append(ident)
    return scene.ruleset, scene.lang, tuple(cells), tuple(corners)


def _same(known: tuple, basis: tuple) -> bool:
    """Equal bases: the same ruleset object (rulesets are not compared by value), the rest equal."""
    return bool(known) and known[0] is basis[0] and known[1:] == basis[1:]


_ACTIVE = threading.local()


@contextlib.contextmanager
def sharing(drawings: Drawings | None) -> Iterator[None]:
    """Within it, in this thread, pictures and log lines drawn for a table share *drawings*."""
    before = getattr(_ACTIVE, "drawings", None)
    _ACTIVE.drawings = drawings
    try:
        yield
    finally:
        _ACTIVE.drawings = before


def active() -> Drawings | None:
    """The drawings shared now in this thread (None: draw everything)."""
    return getattr(_ACTIVE, "drawings", None)
