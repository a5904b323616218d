"""One game at the table: the game, who sits in each seat (a person or an agent), undo,
and replay of its history (the game's own, ``game.history``).

Nothing here knows any game: people's choices go through the game API (``legal_actions``,
``apply``), the agents' moves through the one play loop (:func:`speciation.play.play`), undo
through :mod:`speciation.undo`.
"""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from typing import Any

from ..agents.registry import AGENT_NAMES, make_agent
from ..api import load_save, replay, save_json
from ..dsl.errors import IllegalActionError, ReplayError, SaveFileError, SpeciationError
from ..interpreter.ruleset import load_ruleset
from ..interpreter.game import Game
from ..play import play
from ..undo import UndoRefused, UndoStack

HUMAN = "human"


def agent_names() -> list[str]:
    """The agent names a seat may take (besides a person)."""
    return [n for n in AGENT_NAMES if n != HUMAN]


@dataclass
class TableGame:
    """A game in progress at the table. Its decisions are the game's own history
    (``game.history``); undo follows the rules of :mod:`speciation.undo`."""

    ident: str
    game: Game
    seats: list[str]
    lang: str | None = None
    agents: dict[int, Any] = field(default_factory=dict)
    lock: threading.RLock = field(default_factory=threading.RLock)

    def __post_init__(self) -> None:
        # The checkpoints before each person's decision; says when undo is allowed
        # (refused after chance, a reveal, or another person's decision).
        self.undo_stack = UndoStack(self.game, self.humans)

    # ---- making one --------------------------------------------------------------------

    @classmethod
    def new(cls, ident: str, ruleset_name: str, players: int, seats: list[str], seed: int = 0,
            variants: list[str] | None = None, mods: list[str] | None = None,
            lang: str | None = None) -> TableGame:
        ruleset = load_ruleset(ruleset_name, list(variants or []), list(mods or []))
        game = Game.new(ruleset, players, seed, lang=lang)
        return cls(ident, game, _seat_list(seats, players), lang)._with_agents(seed)

    @classmethod
    def resume(cls, ident: str, text: str, seats: list[str] | None = None,
               lang: str | None = None) -> TableGame:
        """A session from a save (the engine's format; a table's save also names its seats)."""
        game = load_save(text, lang=lang)
        table = _table_part(text)
        players = len(game.state["players"])
        chosen = seats or table.get("seats") or [HUMAN] * players
        return cls(ident, game, _seat_list(chosen, players), lang)._with_agents(int(game.state.get("seed", 0)))

    def _with_agents(self, seed: int) -> TableGame:
        for seat, name in enumerate(self.seats):
            if name != HUMAN:
                self.agents[seat] = make_agent(name, seed, seat)
        return self

    @property
    def decisions(self) -> list:
        """Every decision taken so far, ``[actor, value]`` (the game's history)."""
        history = self.game.history
        return history["decisions"] if history else []

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

    def choose(self, seat: int, index: object) -> str | None:
        """Seat *seat* (a person) takes its option number *index*; the reason if refused."""
        with self.lock:
            if self.decider != seat:
                return "it is not your decision"
            actions = self.game.legal_actions()
            if not isinstance(index, int) or not 0 <= index < len(actions):
                return "no such option"
            mark = self.undo_stack.checkpoint(seat)
            error = self._apply(seat, actions[index])
            if error is None:
                self.undo_stack.push(mark)
            return error

    def agent_step(self) -> bool:
        """Let the agent whose decision it is make it; False if it is no agent's turn."""
        with self.lock:
            seat = self.decider
            if seat is None or seat not in self.agents:
                return False
            try:
                play(self.game, self.agents, decisions=1)
            except SpeciationError as error:
                refused = _refusal(error)
                raise RuntimeError(f"the agent of seat {seat + 1} chose what the game refused: {refused}") from error
            return True

    def _apply(self, seat: int, action: Any) -> str | None:
        """Apply *seat*'s action; the reason the game refused it, or None."""
        try:
            self.game.apply(action)
        except SpeciationError as error:
            return _refusal(error)
        return None

    # ---- undo ------------------------------------------------------------------------------------

    def undo_refusal(self, seat: int) -> str | None:
        """Why *seat* may not take back its last decision now (None: it may)."""
        return self.undo_stack.refusal(seat)

    def undo(self, seat: int) -> str | None:
        """Take back *seat*'s last decision and the agents' replies after it."""
        with self.lock:
            try:
                self.undo_stack.undo(seat)
            except UndoRefused as refusal:
                return str(refusal)
            return None

    # ---- saving ------------------------------------------------------------------------------------

    def save_json(self) -> str:
        """The game as a save (the engine's format, with its history) and the table's seats."""
        data = json.loads(save_json(self.game))
        data["table"] = {"seats": self.seats}
        return json.dumps(data)


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
            raise ValueError(f"unknown seat kind '{name}' (use {', '.join(sorted(known))})")
    return names


class Replay:
    """A finished or saved game, decision by decision, rebuilt from its history."""

    def __init__(self, ident: str, ruleset, history: dict, seats: list[str] | None = None,
                 lang: str | None = None):
        self.ident, self.ruleset, self.history, self.lang = ident, ruleset, history, lang
        self.decisions = list(history.get("decisions") or [])
        self.seats = seats or [HUMAN] * int(history["players"])
        self.step = 0
        self.error: str | None = None
        self._games: list[Game] = [replay(ruleset, history, lang=lang, stop=0)]

    @classmethod
    def from_save(cls, ident: str, text: str, lang: str | None = None) -> Replay:
        """The replay of a save; under rules changed since, it stops at the first decision
        that no longer applies (and says which)."""
        try:
            game = load_save(text, lang=lang)
        except ReplayError as error:
            game = error.game
        history = json.loads(text).get("history")
        if not isinstance(history, dict):
            raise SaveFileError("this save holds no decision history, so it cannot be replayed")
        return cls(ident, game.ruleset, history, _table_part(text).get("seats"), lang)

    @classmethod
    def of(cls, ident: str, session: TableGame) -> Replay:
        history = session.game.history
        if history is None:
            raise SaveFileError("this game has no decision history to replay")
        return cls(ident, session.game.ruleset, history, session.seats, session.lang)

    @property
    def players(self) -> int:
        return len(self.seats)

    def game_at(self, step: int) -> Game:
        """The game after the first *step* decisions (kept, so stepping back is cheap)."""
        step = max(0, min(step, len(self.decisions)))
        while len(self._games) <= step and self.error is None:
            number = len(self._games) - 1
            game = self._games[-1].clone()
            actor, value = self.decisions[number]
            try:
                game.apply(value, decision=game.decision_id)
            except SpeciationError as error:
                self.error = (f"decision {number + 1} of {len(self.decisions)} ({game.label(actor)}: "
                              f"{game.prompt} → {game.label(value)}) no longer applies: {error}")
                break
            self._games.append(game)
        self.step = min(step, len(self._games) - 1)
        return self._games[self.step].clone()
