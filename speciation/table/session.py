"""One game at the table: the game, who sits in each seat (a person or an agent), undo,
and replay of its history (the game's own, ``game.history``).

Nothing here knows any game: people's choices go through the game API (``legal_actions``,
``apply``), the agents' moves through the one play loop (:func:`speciation.play.play`), undo
through :mod:`speciation.undo`.
"""
from __future__ import annotations

import json
import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

from ..agents.registry import AGENT_NAMES, make_agent
from ..api import load_save, replay, save_json, seat_record
from ..i18n import Text
from ..dsl.errors import IllegalActionError, ReplayError, SaveFileError, SpeciationError
from ..interpreter.game import Game
from ..render.shared import Drawings

from ..undo import UndoRefused, UndoStack
from ..agents.base import SeatView
from .deciding import apply_choice, apply_recorded, by_id, deciders, play_seat
from ..dsl.layers import available_rulesets
from .rules import shared_ruleset
from .seats import HUMAN, Seating
from .views import PositionViews


# How a person names a ruleset folder a save needs: the server offers it, by its name.
FOLDER_HOW = "start the server with it, speciation serve --ruleset DIR (pages never name a path)"


def agent_names() -> list[str]:
    """The agent names a seat may take (besides a person)."""
    return [n for n in AGENT_NAMES if n != HUMAN]


@dataclass
class TableGame:
    """A game in progress at the table. Its decisions are the game's own history
    (``game.history``); undo follows the rules of :mod:`speciation.undo`."""

    ident: str
    game: Game
    seating: Seating
    lang: str | None = None
    agents: dict[int, Any] = field(default_factory=dict)
    lock: threading.RLock = field(default_factory=threading.RLock)
    # how the game is kept (:mod:`.persist`): the ruleset and mods by the names the server
    # offers them under, listed in the lobby or not, the person seats taken, the version
    # of its record in the database (0: not stored yet)
    origin: str = ""
    mod_names: list[str] = field(default_factory=list)
    listed: bool = False
    claimed: list[bool] = field(default_factory=list)
    version: int = 0
    # how its rules can be loaded again by name (a built-in ruleset and its variants; None:
    # rules from a folder, with mods, or from a save), for a worker drawing its pictures (drawer.py)
    recipe: tuple | None = None
    # what its pages' pictures of one position share, drawn once (render/shared.py)
    drawings: Drawings = field(default_factory=Drawings, repr=False, compare=False)
    # the views of the position its pages are shown, by game (its own, or a mirror in
    # another language), with the position's key (messages.screen_key; views.py)
    positions: tuple[tuple, dict[int, PositionViews]] = field(default_factory=lambda: ((), {}), repr=False,
                                                              compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.seating, list):  # a plain list of seat kinds
            self.seating = Seating(_seat_list(self.seating, len(self.game.state["players"])))
        # The checkpoints before each person's decision; says when undo is allowed
        # (refused after chance, a reveal, or another person's decision).
        self.undo_stack = UndoStack(self.game, self.humans)

    @property
    def seats(self) -> list[str]:
        """Each seat's kind: ``human`` or an agent's name."""
        return self.seating.kinds

    # ---- making one --------------------------------------------------------------------

    @classmethod
    def new(cls, ident: str, ruleset_name: str, players: int | None, seats: list[str], seed: int | None = None,
            variants: list[str] | None = None, mods: list[str] | None = None,
            lang: str | None = None, hotseat: bool = True) -> TableGame:
        """A new game (of the ruleset's fewest players if *players* is None); its seed from a
        secure random source unless one is given."""
        ruleset = shared_ruleset(ruleset_name, list(variants or []), list(mods or []))  # rules.py
        seed = secrets.randbits(48) if seed is None else seed
        game = Game.new(ruleset, players, seed, lang=lang)
        seating = Seating(_seat_list(seats, len(game.state["players"])), hotseat=hotseat)
        session = cls(ident, game, seating, lang)._with_agents(seed)
        if not mods and ruleset_name in available_rulesets():
            session.recipe = (ruleset_name, tuple(variants or ()))
        return session

    @classmethod
    def resume(cls, ident: str, text: str, seats: list[str] | None = None,
               lang: str | None = None, hotseat: bool = True, folders: dict[str, str] | None = None) -> TableGame:
        """A session from a save (the engine's format; a table's save also names its seats,
        with options after a colon, ``mcts:iterations=400``, dropped). The save must hold its
        history, and the history must lead to the saved state. A ruleset from a folder is
        found among *folders* (what the server offers) by the name the save records."""
        game = load_save(text, lang=lang, verify=True, folders=folders or {}, how=FOLDER_HOW)
        if game.history is None:
            raise SaveFileError("this save holds no decision history, so the table cannot check it: "
                                "only a save with its decisions can be resumed")
        table = _table_part(text)
        players = len(game.state["players"])
        chosen = seats or [str(s).split(":")[0] for s in table.get("seats") or []] or [HUMAN] * players
        if not isinstance(chosen, list):
            raise SaveFileError("the save's table part names no list of seats")
        seating = Seating(_seat_list(chosen, players), hotseat=hotseat)
        return cls(ident, game, seating, lang)._with_agents(secrets.randbits(48))

    def _with_agents(self, seed: int) -> TableGame:
        for seat, name in enumerate(self.seats):
            if name != HUMAN:
                self.agents[seat] = make_agent(name, seed, seat)
        return self

    def replace_by_agent(self, seat: int, agent: object) -> str | None:
        """The person at *seat* is replaced by *agent* (the reason if refused)."""
        with self.lock:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
                return Text("no such seat")
            if self.seats[seat] != HUMAN:
                return Text("that seat is not a person's")
            if agent not in agent_names():
                return Text("unknown agent {name} (use {names})", name=repr(str(agent)[:40]),
                            names=", ".join(agent_names()))
            self.seating.to_agent(seat, agent)
            self.agents[seat] = make_agent(agent, secrets.randbits(48), seat)
            self.undo_stack = UndoStack(self.game, self.humans)
            return None

    @property
    def decisions(self) -> list:
        """Every decision taken so far, ``[actor, value]`` (the game's history)."""
        history = self.game.history
        return history["decisions"] if history else []

    # ---- who decides ---------------------------------------------------------------------

    @property
    def decider(self) -> int | None:
        """The first seat that must decide (None: the game is over)."""
        return None if self.game.is_over else self.game.current_player

    @property
    def deciders(self) -> list[int]:
        """Every seat that must decide now, in seat order (several at a simultaneous step)."""
        return deciders(self.game)

    def human(self, seat: int | None) -> bool:
        return seat is not None and self.seats[seat] == HUMAN

    @property
    def humans(self) -> list[int]:
        return [s for s, name in enumerate(self.seats) if name == HUMAN]

    def agent_to_move(self) -> bool:
        """Whether an agent's seat has a decision pending (it answers without waiting on
        the people deciding at the same time)."""
        return any(seat in self.agents for seat in self.deciders)

    # ---- deciding ----------------------------------------------------------------------------

    def choose(self, seat: int, decision: Any, index: Any) -> str | None:
        """Seat *seat* (a person) answers decision *decision* (its id) with its option number
        *index*; the reason if refused (then nothing changed). A late, repeated or foreign
        action names another decision than the pending one, and is refused."""
        with self.lock:
            if self.game.is_over:
                return Text("the game is over")
            if not isinstance(decision, str):
                return Text("the action names no decision (send its id as 'decision')")
            pending = by_id(self.game, decision)   # any seat's, while several decide at once
            if pending is None:
                return Text("that decision was already taken (or is not this game's): nothing was changed")
            if pending.player != seat:
                return Text("it is not your decision")
            actions = pending.legal_actions()
            if isinstance(index, bool) or not isinstance(index, int):
                return Text("an option is a number from 0 to {last}, not {value}", last=len(actions) - 1,
                            value=json.dumps(index)[:40])
            if not 0 <= index < len(actions):
                return Text("no option {index}: this decision has options 0 to {last}", index=index, last=len(actions) - 1)
            mark = self.undo_stack.checkpoint(seat)
            error = self._apply(seat, actions[index], decision)
            if error is None:
                self.undo_stack.push(mark)
            return error

    def agent_step(self, thinker: Any = None) -> bool:
        """Let an agent whose decision is pending make it (the first such seat, while several
        decide at once); False if no agent's decision is pending. With *thinker* (a
        :class:`.thinker.Thinker`) the agent thinks in its worker process, the game's lock
        not held meanwhile, and its choice is applied here if the game is still where it was
        (else, or if the worker cannot think, the agent thinks here, as without one)."""
        with self.lock:
            seat = next((s for s in self.deciders if s in self.agents), None)
            if seat is None:
                return False
            asked = thinker.ask(self, seat) if thinker is not None else None
            if asked is None:
                self._agent_plays(seat)
                return True
            agent, state, number = self.agents[seat], self.game.state, self.game.decision_number
        answer = thinker.answer(asked)
        with self.lock:
            if answer is not None and self.agents.get(seat) is agent and self.game.state is state \
                    and self.game.decision_number == number:
                index, shown, thought = answer
                actions = SeatView(self.game, seat).legal_actions()
                if 0 <= index < len(actions) and repr(actions[index].value) == shown:
                    self._agent_plays(seat, actions[index])
                    self.agents[seat] = thought   # its generator drawn as the choice drew it
                    thinker.thought += 1
                    return True
            thinker.redone += 1   # the position changed meanwhile, or the worker failed: here
            seat = next((s for s in self.deciders if s in self.agents), None)
            if seat is None:
                return False
            self._agent_plays(seat)
            return True

    def _agent_plays(self, seat: int, action: Any = None) -> None:
        """*seat*'s agent makes its decision: *action*, its choice made elsewhere (an Action;
        None: it chooses here)."""
        try:
            if action is None:
                play_seat(self.game, self.agents, seat)
            else:
                apply_choice(self.game, seat, action)
        except SpeciationError as error:
            refused = _refusal(error)
            raise RuntimeError(f"the agent of seat {seat + 1} chose what the game refused: {refused}") from error

    def _apply(self, seat: int, action: Any, decision: str | None = None) -> str | None:
        """Apply *seat*'s action (checked against *decision* if given); the reason the game
        refused it, or None."""
        try:
            self.game.apply(action, decision=decision)
        except SpeciationError as error:
            return _refusal(error)
        return None

    # ---- undo ------------------------------------------------------------------------------------

    def undo_refusal(self, seat: int, view: dict | None = None) -> str | None:
        """Why *seat* may not take back its last decision now (None: it may); never once the
        game is over (the finished game stays finished). *view*: the seat's view of the game
        now, if the caller has made it (it is not changed)."""
        return Text("the game is over") if self.game.is_over else self.undo_stack.refusal(seat, view)

    def undo(self, seat: int) -> str | None:
        """Take back *seat*'s last decision and the agents' replies after it."""
        with self.lock:
            if self.game.is_over:
                return Text("the game is over")
            try:
                self.undo_stack.undo(seat)
            except UndoRefused as refusal:
                return refusal.args[0]   # the reason as an i18n.Text (str() would drop its msgid)
            return None

    # ---- saving ------------------------------------------------------------------------------------

    def save_json(self) -> str:
        """The game as a save (the engine's format, with its history) and the table's seats:
        the whole state, hidden parts included (see :meth:`seat_record` for a seat's)."""
        with self.lock:
            return save_json(self.game, self.seats)

    def seat_record(self, seat: int | None) -> str:
        """What seat *seat* has seen of the game (None: a spectator, what every seat has
        seen): its log lines and its view now; never the seed, the hidden state or the
        history of others' secret choices. Not a save: it cannot be resumed."""
        with self.lock:
            return json.dumps({**seat_record(self.game, seat), "table": {"seats": self.seats}})


def _refusal(error: SpeciationError) -> str:
    """Why the game refused an action: an illegal one, or rules that failed applying it."""
    return str(error) if isinstance(error, IllegalActionError) else f"the rules failed: {error}"


def _table_part(text: str) -> dict:
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    table = data.get("table") if isinstance(data, dict) else None
    return table if isinstance(table, dict) else {}


def _seat_list(seats: list[str], players: int) -> list[str]:
    names = [str(s).strip().lower() or HUMAN for s in seats][:players]
    names += [HUMAN] * (players - len(names))
    known = {HUMAN, *agent_names()}
    for name in names:
        if name not in known:
            raise ValueError(f"unknown seat kind {name[:40]!r} (use {', '.join(sorted(known))})")
    return names


KEYFRAME = 20   # a replay keeps the game every KEYFRAME decisions


class Replay:
    """A finished or saved game, decision by decision, rebuilt from its history."""

    def __init__(self, ident: str, ruleset, history: dict, seats: list[str] | None = None,
                 lang: str | None = None, only: int | None | bool = False):
        self.ident, self.ruleset, self.history, self.lang = ident, ruleset, history, lang
        # False: any seat's view may be shown; a seat number: only that seat's; None: only
        # what every seat sees (a spectator's)
        self.only = only
        self.decisions = list(history.get("decisions") or [])
        self.seats = seats or [HUMAN] * int(history["players"])
        self.step = 0
        self.error: str | None = None
        self._games: dict[int, Game] = {0: replay(ruleset, history, lang=lang, stop=0)}  # kept, by step
        self._stop = len(self.decisions)   # the first decision that no longer applies, once met

    @classmethod
    def from_save(cls, ident: str, text: str, lang: str | None = None,
                  folders: dict[str, str] | None = None) -> Replay:
        """The replay of a save; under rules changed since, it stops at the first decision
        that no longer applies (and says which)."""
        try:
            game = load_save(text, lang=lang, folders=folders or {}, how=FOLDER_HOW)
        except ReplayError as error:
            game = error.game
        data = json.loads(text)
        history = data.get("history") if isinstance(data, dict) else None
        if not isinstance(history, dict):
            raise SaveFileError("this save holds no decision history, so it cannot be replayed")
        return cls(ident, game.ruleset, history, _table_part(text).get("seats"), lang)

    @classmethod
    def of(cls, ident: str, session: TableGame, only: int | None | bool = False) -> Replay:
        """The replay of a game at the table, shown as seat *only* sees it (None: a
        spectator; False: as any seat, for a finished game or its hot-seat creator)."""
        with session.lock:
            history = session.game.history
        if history is None:
            raise SaveFileError("this game has no decision history to replay")
        return cls(ident, session.game.ruleset, history, list(session.seats), session.lang, only)

    @property
    def players(self) -> int:
        return len(self.seats)

    def game_at(self, step: int) -> Game:
        """The game after the first *step* decisions: replayed from the nearest kept game
        before it (one every :data:`KEYFRAME` decisions, so memory is bounded by the game's
        size, not its length)."""
        step = max(0, min(step, len(self.decisions), self._stop))
        base = max(k for k in self._games if k <= step)
        game = self._games[base].clone()
        number = base
        while number < step:
            actor, value = self.decisions[number]
            try:
                apply_recorded(game, actor, value)
            except SpeciationError as error:
                self.error = (f"decision {number + 1} of {len(self.decisions)} ({game.label(actor)}: "
                              f"{game.prompt} → {game.label(value)}) no longer applies: {error}")
                self._stop = number
                return self.game_at(number)   # the game before it (this one may be half changed)
            number += 1
            if number % KEYFRAME == 0 and number not in self._games:
                self._games[number] = game.clone()
        self.step = min(step, self._stop)
        return game
