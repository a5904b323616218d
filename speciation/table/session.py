"""One game at the table: the game, who sits in each seat (a person or an agent), the
history of decisions, undo, and replay.

Nothing here knows any game: it uses the game API (``legal_actions``, ``apply``,
``view``) and the agents of :mod:`speciation.agents`.
"""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from typing import Any

from ..agents import make_agents
from ..dsl.errors import IllegalActionError, SaveFileError, SpeciationError
from ..dsl.ruleset import load_ruleset
from ..interpreter.game import Game

HUMAN = "human"


def agent_names() -> list[str]:
    """The agent names a seat may take (besides a person)."""
    try:
        from ..agents import AGENT_NAMES  # the agents package's own list, where it has one
        return [n for n in AGENT_NAMES if n != HUMAN]
    except ImportError:
        return ["random"]


def _agent_for(name: str, players: int, seat: int, seed: int):
    """The agent called *name* for seat *seat* (made the way ``make_agents`` makes it)."""
    spec = ",".join(name if s == seat else "random" for s in range(players))
    return make_agents(spec, players, seed)[seat]


def _agent_input(game: Game, seat: int):
    """What an agent is handed: the seat's handle where the agents package has one."""
    try:
        from ..agents import SeatView
    except ImportError:
        return game
    return SeatView(game, seat)


@dataclass
class Undo:
    """What is needed to take back one human decision: the state before it."""

    seat: int
    history_len: int
    state: dict


@dataclass
class Session:
    """A game in progress at the table."""

    ident: str
    game: Game
    seats: list[str]
    lang: str | None = None
    history: list[dict] = field(default_factory=list)
    setup: dict = field(default_factory=dict)
    undos: list[Undo] = field(default_factory=list)
    agents: dict[int, Any] = field(default_factory=dict)
    lock: threading.RLock = field(default_factory=threading.RLock)

    # ---- making one --------------------------------------------------------------------

    @classmethod
    def new(cls, ident: str, ruleset_name: str, players: int, seats: list[str], seed: int = 0,
            variants: list[str] | None = None, mods: list[str] | None = None,
            lang: str | None = None) -> "Session":
        ruleset = load_ruleset(ruleset_name, list(variants or []), list(mods or []))
        game = Game.new(ruleset, players, seed, lang=lang)
        setup = {"ruleset": ruleset_name, "players": players, "seed": seed,
                 "variants": list(variants or []), "mods": list(mods or []), "chance": []}
        return cls(ident, game, _seat_list(seats, players), lang, [], setup)._with_agents(seed)

    @classmethod
    def resume(cls, ident: str, text: str, seats: list[str] | None = None,
               lang: str | None = None) -> "Session":
        """A session from a save written by :meth:`save_json` (or any Speciation save)."""
        game = Game.from_json(text, lang=lang)
        data = json.loads(text)
        table = data.get("table") or {}
        players = len(game.state["players"])
        chosen = seats or table.get("seats") or [HUMAN] * players
        session = cls(ident, game, _seat_list(chosen, players), lang,
                      list(table.get("history") or []), dict(table.get("setup") or {}))
        return session._with_agents(int(game.state.get("seed", 0)))

    def _with_agents(self, seed: int) -> "Session":
        players = len(self.seats)
        for seat, name in enumerate(self.seats):
            if name != HUMAN:
                self.agents[seat] = _agent_for(name, players, seat, seed)
        return self

    # ---- who decides ---------------------------------------------------------------------

    @property
    def decider(self) -> int | None:
        return None if self.game.is_over else self.game.current_player

    def human(self, seat: int | None) -> bool:
        return seat is not None and self.seats[seat] == HUMAN

    @property
    def humans(self) -> list[int]:
        return [s for s, name in enumerate(self.seats) if name == HUMAN]

    def agent_to_move(self) -> bool:
        seat = self.decider
        return seat is not None and seat in self.agents

    # ---- deciding ----------------------------------------------------------------------------

    def choose(self, seat: int, index: int) -> str | None:
        """Seat *seat* (a person) takes its option number *index*; the reason if refused."""
        with self.lock:
            if self.decider != seat:
                return "it is not your decision"
            actions = self.game.legal_actions()
            if not isinstance(index, int) or not 0 <= index < len(actions):
                return "no such option"
            before = Undo(seat, len(self.history), _copy_state(self.game.state))
            error = self._apply(seat, actions[index].value)
            if error is None:
                self.undos.append(before)
            return error

    def agent_step(self) -> bool:
        """Let the agent whose decision it is make it; False if it is no agent's turn."""
        with self.lock:
            seat = self.decider
            if seat is None or seat not in self.agents:
                return False
            action = self.agents[seat].choose(_agent_input(self.game, seat))
            self._apply(seat, action.value if hasattr(action, "value") else action)
            return True

    def _apply(self, seat: int, value: Any) -> str | None:
        try:
            self.game.apply(value)
        except IllegalActionError as error:
            return str(error)
        except SpeciationError as error:
            return f"the rules failed: {error}"
        self.history.append({"seat": seat, "value": value})
        return None

    # ---- undo ------------------------------------------------------------------------------------

    def undo_refusal(self, seat: int) -> str | None:
        """Why *seat* may not take back its last decision now (None: it may)."""
        if not self.undos:
            return "there is no decision of a person to take back"
        last = self.undos[-1]
        if last.seat != seat:
            return "the last decision of a person was not yours"
        state = self.game.state
        if last.state["rng"] != state["rng"] or last.state["chance"] != state["chance"]:
            return "something was drawn or rolled since (hidden information came out)"
        return None

    def undo(self, seat: int) -> str | None:
        """Take back *seat*'s last decision and the agents' replies after it."""
        with self.lock:
            refusal = self.undo_refusal(seat)
            if refusal:
                return refusal
            last = self.undos.pop()
            self.game.state.clear()
            self.game.state.update(last.state)
            self.game.state_edited()
            del self.history[last.history_len:]
            return None

    # ---- saving ------------------------------------------------------------------------------------

    def save_json(self) -> str:
        """The game as a save (the engine's format) with the table's decision history."""
        data = json.loads(self.game.to_json())
        data["table"] = {"seats": self.seats, "history": self.history, "setup": self.setup}
        return json.dumps(data)


def _seat_list(seats: list[str], players: int) -> list[str]:
    names = [str(s).strip().lower() or HUMAN for s in seats][:players]
    names += [HUMAN] * (players - len(names))
    known = {HUMAN, *agent_names()}
    for name in names:
        if name not in known:
            raise ValueError(f"unknown seat kind '{name}' (use {', '.join(sorted(known))})")
    return names


def _copy_state(state: dict) -> dict:
    return json.loads(json.dumps(state))


class Replay:
    """A finished or saved game, decision by decision, rebuilt from its history."""

    def __init__(self, ident: str, ruleset, setup: dict, history: list[dict], lang: str | None = None):
        self.ident, self.ruleset, self.setup, self.history, self.lang = ident, ruleset, setup, history, lang
        self.step = 0
        self.error: str | None = None
        self._states: list[dict] = [self._start().state]

    @classmethod
    def from_save(cls, ident: str, text: str, lang: str | None = None) -> "Replay":
        game = Game.from_json(text, lang=lang)
        table = json.loads(text).get("table") or {}
        if not table.get("history") and not table.get("setup"):
            raise SaveFileError("this save holds no decision history, so it cannot be replayed")
        setup = dict(table.get("setup") or {})
        setup.setdefault("players", len(game.state["players"]))
        setup.setdefault("seed", game.state.get("seed", 0))
        setup.setdefault("seats", table.get("seats"))
        return cls(ident, game.ruleset, setup, list(table.get("history") or []), lang)

    @classmethod
    def of(cls, ident: str, session: Session) -> "Replay":
        return cls(ident, session.game.ruleset, dict(session.setup), list(session.history), session.lang)

    def _start(self) -> Game:
        return Game.new(self.ruleset, self.setup["players"], self.setup.get("seed", 0),
                        chance=self.setup.get("chance") or [], lang=self.lang)

    @property
    def players(self) -> int:
        return int(self.setup["players"])

    def game_at(self, step: int) -> Game:
        """The game after the first *step* decisions (kept, so stepping back is cheap)."""
        step = max(0, min(step, len(self.history)))
        while len(self._states) <= step and self.error is None:
            game = Game(self.ruleset, _copy_state(self._states[-1]), self.lang)
            decision = self.history[len(self._states) - 1]
            try:
                game.apply(decision["value"])
            except SpeciationError as error:
                self.error = f"decision {len(self._states)} no longer applies: {error}"
                break
            self._states.append(game.state)
        self.step = min(step, len(self._states) - 1)
        return Game(self.ruleset, _copy_state(self._states[self.step]), self.lang)
