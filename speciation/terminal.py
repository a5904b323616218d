"""A game played at the terminal: the agents of its seats (people among them), the log as
its audience may read it, the hand-over between people at one terminal, and undo of a
person's last decision (:mod:`speciation.undo`). The game is played by the one play loop
(:func:`speciation.play.play`). Nothing here knows any game.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .agents.base import UndoRequest
from .interpreter.game import Action, Game
from .outcome import GameOutcome
from .play import play
from .render.scene import Scene, with_defaults
from .undo import Checkpoint, UndoRefused, UndoStack

__all__ = ["TerminalSession"]


@dataclass
class TerminalSession:
    """Plays a game with one agent per seat. *audience*: the seats whose private log lines
    are printed (None: every line, marked with whom it is for — a spectator of agents)."""

    game: Game
    agents: Sequence[Any]
    on_log: Callable[[str], None] | None = print
    audience: list[int] | None = None
    shown: int = 0

    private_seen: dict[int, int] = field(default_factory=dict)
    on_screen: int | None = None      # the interactive seat whose prompt the terminal shows
    public_seen: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.undo_stack = UndoStack(self.game, self.interactive_seats)
        self._pending: Checkpoint | None = None   # taken before a person's decision, kept once it is applied
        for agent in self.agents:
            if getattr(agent, "interactive", False):
                agent.undo_refusal = self.undo_refusal

    @property
    def interactive_seats(self) -> list[int]:
        return [s for s, a in enumerate(self.agents) if getattr(a, "interactive", False)]

    # ---- the log ---------------------------------------------------------------------------

    def default_audience(self) -> list[int] | None:
        """Who reads the printed log: the one person playing (their private lines too);
        with several people at one terminal, public lines only (each reads their own at
        their prompt); with none (agents only), every line, marked with whom it is for."""
        people = self.interactive_seats
        if not people:
            return None
        return people if len(people) == 1 else []

    def print_recent(self, count: int = 15, start: int = 0) -> None:
        """After resuming (or a hand-over): the last lines of the log the audience may
        read (from line *start*)."""
        lines = self.lines(start, self.audience)
        if self.on_log is not None:
            if len(lines) > count:
                self.on_log(f"... ({len(lines) - count} earlier lines: type 'log all' at your prompt)")
            for text in lines[-count:]:
                self.on_log(text)
        self.shown = self.game.log_size

    def visible(self, line: Any, seats: list[int] | None) -> str | None:
        """A log line as *seats* may read it (None: not theirs to read)."""
        if isinstance(line, str):
            return line
        if seats is None:  # ([None, text]: the spectators' line of one naming what some seat does not see)
            return f"[to {self.game.label(line[0]) if line[0] is not None else 'spectators'}] {line[1]}"
        if line[0] is None:  # the spectators' version: for an audience of no seat (several people)
            return None if seats else line[1]
        players = self.game.state["players"]
        return line[1] if any(players[s] == line[0] for s in seats) else None

    def lines(self, start: int = 0, seats: list[int] | None = None) -> list[str]:
        out = []
        for line in self.game.state["log"][start:]:
            text = self.visible(line, seats)
            if text is not None:
                out.append(text)
        return self.readable(out)

    def readable(self, lines: list[str]) -> list[str]:
        """The lines with the grid's places named as the options name them (a cell by its
        terrain and place, a corner by its cells), never by their ids."""
        if not any(Scene._PLACE.search(line) for line in lines):
            return lines
        names = Scene(self.game.ruleset, self.game.state, None, self.game.lang,
                      with_defaults(self.game.ruleset, self.game.state))
        return [names.readable(line) for line in lines]

    def flush_private(self, seat: int) -> None:
        """Several people at one terminal: a person's own private lines, at their prompt."""
        if self.audience is None or seat in self.audience or self.on_log is None:
            return
        me = self.game.state["players"][seat]
        for line in self.game.state["log"][self.private_seen.get(seat, 0):]:
            if not isinstance(line, str) and line[0] == me:
                self.on_log(f"(only {self.game.label(me)} reads this) {line[1]}")
        self.private_seen[seat] = self.game.log_size

    def hand_over(self, seat: int) -> None:
        """Several people at one terminal: before the first person's first prompt (the
        others are still looking: it may be a secret choice), and whenever the screen shows
        another person's prompt, the next person's agent hides the screen and waits for them;
        then the public lines since this person last decided (they may have been cleared
        away) are printed again."""
        if len(self.interactive_seats) < 2:
            return
        if self.on_screen != seat:
            player = self.game.state["players"][seat]
            name, actor = self.game.label(player), self.game.label(self.game.current_actor)
            self.agents[seat].hand_over(name if actor == name else f"{name} ({actor})")
            self.print_recent(start=self.public_seen.get(seat, 0))
        self.on_screen = seat
        self.public_seen[seat] = self.game.log_size

    def flush(self) -> None:
        """Print the log lines the audience has not seen yet."""
        if self.on_log is not None:
            for text in self.lines(self.shown, self.audience):
                self.on_log(text)
        self.shown = self.game.log_size

    # ---- playing ---------------------------------------------------------------------------

    def play(self, max_actions: int | None = None) -> GameOutcome:
        """Let each seat's agent decide until the game is over (or an agent quits: QuitGame)."""
        outcome = play(self.game, self.agents, max_actions=max_actions, before_decision=self._before,
                       after_decision=self._after, on_undo=self._on_undo)
        self.flush()
        return outcome

    def _before(self, seat: int) -> None:
        self.flush()
        self._pending = None
        if seat in self.undo_stack.people:
            self.hand_over(seat)
            self.flush_private(seat)
            self._pending = self.undo_stack.checkpoint(seat)

    def _after(self, seat: int, action: Action) -> None:
        if self._pending is not None:
            self.undo_stack.push(self._pending)
            self._pending = None

    def _on_undo(self, request: UndoRequest) -> None:
        self.take_back(request.seat)

    # ---- undo --------------------------------------------------------------------------------

    def undo_refusal(self, seat: int) -> str | None:
        """Why *seat* cannot take back its last decision now (None: it can)."""
        return self.undo_stack.refusal(seat)

    def take_back(self, seat: int) -> None:
        """Undo *seat*'s last decision, and say so (or why not) in the log."""
        try:
            prompt = self.undo(seat)
        except UndoRefused as refusal:
            message = f"cannot undo: {refusal}"
        else:
            message = f"undone: back to {self.game.label(self.game.state['players'][seat])}'s decision '{prompt}'"
        if self.on_log is not None:
            self.on_log(message)

    def undo(self, seat: int) -> str:
        """Take back *seat*'s last decision and every agent's reply after it; returns the
        prompt it is back at. Raises :class:`UndoRefused` with the reason when it may not."""
        prompt = self.undo_stack.undo(seat)
        self.shown = min(self.shown, self.game.log_size)
        return prompt
