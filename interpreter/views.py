"""What one seat may see of a game: :meth:`Game.view`.

A view is the state with everything the seat may not know taken out or blanked. What is
hidden comes only from the ruleset's ``hidden`` section, parsed once at load into
``ruleset.hidden`` (:class:`~speciation.dsl.declarations.Hidden`):

``order``
    attributes whose *order* is secret (a shuffled bag whose contents are known): shown
    sorted.
``contents``
    attributes whose *contents* are secret (a face-down pile): shown as that many ``"?"``.
``shown_heads`` (optional)
    ``{attribute: flag}``: the first item of that secret list is face up, and shown, while
    the entity's attribute *flag* is true (the face-up top tile of a face-down stack).
``private``
    attributes only the player controlling the entity sees (a hand): ``"?"`` for others
    (and for a seat the entity was revealed to, as below, not).
``faces`` (optional)
    ``{kind: attributes}``: the face of an entity of that kind, ``"?"`` (the whole value)
    for a seat that does not see the entity. Who sees an entity is state of its own
    (``reveal``/``hide``, :mod:`.visibility`): by default its controller (or as the kind
    declares: nobody, everyone); its ``seen_by`` field, which every view shows, names the
    seats it was revealed to.

Never in a view: the seed, the random generator and the scripted chance (from them a seat
could rebuild every hidden fact and the future), the machine's stack (it holds the local
names of rules paused mid-way), the step counter, another seat's private log lines, and
another seat's pending options (and their number, for a question asked ``always``).

:func:`public_view` is what every seat sees (a spectator's view): the view of a seat that
owns nothing, with only the log lines every seat reads and no pending options.
"""
from __future__ import annotations

from typing import Any

from ..dsl.errors import ArgumentError
from .machine import Machine
from .visibility import FIELD, face_of, owner_of, sees

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
    hidden = game.ruleset.hidden
    me = game.state["players"][player]
    state = {k: _copy(v) for k, v in game.state.items() if k not in LEFT_OUT and k != "log"}
    for record in state["ent"].values():
        hide(record, me, hidden)
    state["log"] = game.log_for(player)
    pending = state.get("pending")
    if pending is not None and "fiber" in pending:  # several seats decide: this one's own, if it has one
        return _simultaneous(game, player, state)
    if pending is not None:
        pending["id"], pending["prompt"] = game.decision_id, game.prompt  # the prompt in the game's language
        if game.player_of(pending["actor"]) != player:
            _unseen(game, pending)
    return state


def _unseen(game, pending: dict) -> None:
    """Another seat's pending decision as this seat sees it: its options ``"?"``, and, for a
    secret choice (``privately``, or a seat's part of a simultaneous step), its prompt too (a
    prompt may name what is being chosen: "where does <the card laid face down> go")."""
    pending["options"] = ["?"] * _shown_count(game, pending)
    if pending.get("labels") is not None:
        pending["labels"] = ["?"] * len(pending["options"])
    if pending.get("private") or "fiber" in pending:
        pending["prompt"] = "?"


def _simultaneous(game, player: int | None, state: dict) -> dict:
    """While several seats decide at once: the view's ``pending`` is the seat's own decision
    (else the first's, its options ``"?"``), and ``deciding`` lists the seats deciding."""
    decisions = game.decisions()
    mine = [d for d in decisions if d.player == player] or decisions[:1]
    state["pending"] = pending = _copy(mine[0].pending)
    pending["id"], pending["prompt"] = mine[0].id, mine[0].prompt
    if mine[0].player != player:
        _unseen(game, pending)
    state["deciding"] = [d.player for d in decisions]
    return state


def public_view(game) -> dict:
    """The state as a spectator may see it: what every seat sees (a new dict). Every
    private attribute is hidden (as for a seat that owns nothing), only the public log
    lines are kept, and the pending decision's options and labels are ``"?"``."""
    hidden = game.ruleset.hidden
    state = {k: _copy(v) for k, v in game.state.items() if k not in LEFT_OUT and k != "log"}
    for record in state["ent"].values():
        hide(record, _NOBODY, hidden)
    state["log"] = [line if isinstance(line, str) else line[1] for line in game.state["log"]
                    if isinstance(line, str) or line[0] is None]  # [None, text]: spectators' own
    pending = state.get("pending")
    if pending is not None and "fiber" in pending:
        pending = _simultaneous(game, None, state)["pending"]
    if pending is not None:
        pending["id"], pending["prompt"] = game.decision_id, game.prompt  # the prompt in the game's language
        _unseen(game, pending)
    return state


def _shown_count(game, pending: dict) -> int:
    """How many options another seat sees: one for a question asked 'always' (being asked, and
    with how many options, says nothing about what the chooser holds), else their number."""
    return 1 if getattr(game.ruleset.nodes[pending["node"]], "always", False) else len(pending["options"])


_NOBODY = object()  # the owner a spectator is: no record's


def hide(record: dict, me, hidden) -> None:
    """Blank, in one entity's record (a copy), what seat *me* may not see (*hidden*: the
    ruleset's :class:`~speciation.dsl.declarations.Hidden`)."""
    for attr in hidden.order & record.keys():
        if isinstance(record[attr], list):
            record[attr] = sorted(record[attr], key=str)
    heads = hidden.shown_heads
    for attr in hidden.contents & record.keys():
        value = record[attr]
        if isinstance(value, list):
            shown = 1 if value and attr in heads and record.get(heads[attr]) is True else 0
            record[attr] = value[:shown] + ["?"] * (len(value) - shown)
    face = face_of(hidden, record) if hidden.faces else None
    if face is not None or FIELD in record:
        if sees(hidden, record, me, face):
            return
        for attr in sorted(face.attributes & record.keys()) if face is not None else ():
            record[attr] = "?"  # the whole value: a list's length could tell the face too
    elif owner_of(record) == me:
        return
    for attr in hidden.private & record.keys():
        value = record[attr]
        record[attr] = ["?"] * len(value) if isinstance(value, list) else "?"


class ViewReader:
    """Rule functions evaluated on a seat's view, and values named as the game names them.

    A view is plain data of the state's shape, and rule functions are pure: they run on a
    machine over the view itself (no ``Game``, no random generator, no stack). A value the
    view cannot give (it reads what the seat may not see, a ``"?"``) is :data:`UNKNOWN`.
    :meth:`label` is the machine's own (the log's) naming of a value, in *lang*."""

    __slots__ = ("ruleset", "view", "machine")

    def __init__(self, ruleset, view: dict, lang: str | None = None):
        self.ruleset, self.view = ruleset, view
        self.machine = Machine(ruleset, view)
        self.machine.names = ruleset.labels.get(lang, {}) if lang else {}
        self.machine.phrases = ruleset.phrases.get(lang, {}) if lang else {}

    def value(self, name: str, *args: Any) -> Any:
        """The value of rule function *name* on the view (:data:`UNKNOWN` if it cannot be
        computed from it, or the ruleset has no such function)."""
        function = self.ruleset.functions.get(name)
        if function is None:
            return UNKNOWN
        self.machine.meter.refill()  # each value its own budget, as a run between decisions
        try:
            return function.call(self.machine, list(args))
        except Exception:  # it needs what this seat cannot see, or fails on it
            return UNKNOWN

    def convention(self, role: str, *args: Any) -> Any:
        """The value of the function the ruleset declares for *role* (``score``, ``winner``,
        ...: ``ruleset.conventions``); :data:`UNKNOWN` if it declares none."""
        name = self.ruleset.conventions.get(role)
        return UNKNOWN if name is None else self.value(name, *args)

    def label(self, value: Any) -> str:
        return self.machine.label(value)

    def player_of(self, actor: Any) -> int | None:
        """The seat of the player who is, or controls, *actor* (None if none does)."""
        players = self.view["players"]
        if actor in players:
            return players.index(actor)
        owner = self.view["ent"].get(actor, {}).get("player") if isinstance(actor, str) else None
        return players.index(owner) if owner in players else None


class _Unknown:
    """What a view cannot tell (a value that needs what the seat may not see)."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()


def evaluate_on_view(ruleset, view: dict, name: str, *args: Any) -> Any:
    """Rule function *name* evaluated on a seat's *view* alone (:data:`UNKNOWN` where the
    view cannot give it). For several values of one view, keep one :class:`ViewReader`."""
    return ViewReader(ruleset, view).value(name, *args)


def copy_plain(value: Any) -> Any:
    """A fast deep copy of plain data (dicts, lists and scalars)."""
    if isinstance(value, dict):
        return {k: copy_plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_plain(v) for v in value]
    return value


_copy = copy_plain
