"""A game being played at a table: the agents of its seats, the log as one audience may
read it, and undo of the last human decision (with the agents' replies after it).

Undo is refused where it would let a player take back a move after learning something
hidden: when chance was drawn since (the RNG state or the chance script changed), when
anything hidden from that seat at the decision has become visible since, or when another
interactive seat decided since. Nothing here knows any game; the terminal game
(:mod:`speciation.agents.human`) and a web table can both use it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from .interpreter.game import Game


class UndoRequest(Exception):
    """Raised by an interactive agent (inside ``choose``) to ask its session to undo."""

    def __init__(self, seat: int):
        super().__init__(seat)
        self.seat = seat


@dataclass
class Checkpoint:
    """The state just before an interactive seat's decision."""

    game: Game                        # a copy of the game (state and whatever else it keeps)
    seat: int
    prompt: str
    hidden: list[tuple[str, str]]     # (entity, attribute) hidden from the seat then


@dataclass
class Session:
    """Plays a game with one agent per seat. *audience*: the seats whose private log lines
    are printed (None: every line, marked with whom it is for — a spectator of agents)."""

    game: Game
    agents: Sequence[Any]
    on_log: Callable[[str], None] | None = print
    audience: list[int] | None = None
    shown: int = 0
    checkpoints: list[Checkpoint] = field(default_factory=list)

    private_seen: dict[int, int] = field(default_factory=dict)
    on_screen: int | None = None      # the interactive seat whose prompt the terminal shows
    public_seen: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        from .agents.base import seat_views
        self.seats = seat_views(self.game)
        for agent in self.agents:
            if getattr(agent, "interactive", False):
                agent.session = self

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
        if seats is None:
            return f"[to {self.game.label(line[0])}] {line[1]}"
        players = self.game.state["players"]
        return line[1] if any(players[s] == line[0] for s in seats) else None

    def lines(self, start: int = 0, seats: list[int] | None = None) -> list[str]:
        out = []
        for line in self.game.state["log"][start:]:
            text = self.visible(line, seats)
            if text is not None:
                out.append(text)
        return out

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

    def play(self, max_actions: int | None = None) -> Game:
        """Let each seat's agent decide until the game is over (or an agent quits)."""
        from .agents.base import GameTooLong
        taken = 0
        while not self.game.is_over:
            self.flush()
            if max_actions is not None and taken >= max_actions:
                raise GameTooLong(f"the game did not end within {max_actions} actions")
            seat = self.game.current_player
            agent = self.agents[seat]
            if getattr(agent, "interactive", False):
                self.hand_over(seat)
                self.flush_private(seat)
            try:
                action = agent.choose(self.seats[seat])
            except UndoRequest as request:
                self.take_back(request.seat)
                continue
            if getattr(agent, "interactive", False):
                self.checkpoints.append(self.checkpoint(seat))
            self.game.apply(action)
            taken += 1
        self.flush()
        return self.game

    def checkpoint(self, seat: int) -> Checkpoint:
        view = self.game.view(seat)
        state = self.game.state
        hidden = [(ident, attr) for ident, record in state["ent"].items()
                  for attr, value in record.items() if view["ent"][ident].get(attr) != value]
        return Checkpoint(self.game.clone(), seat, self.game.prompt, hidden)

    # ---- undo --------------------------------------------------------------------------------

    def last_checkpoint(self, seat: int) -> Checkpoint | None:
        return next((c for c in reversed(self.checkpoints) if c.seat == seat), None)

    def undo_refusal(self, seat: int) -> str | None:
        """Why *seat* cannot take back its last decision now (None: it can)."""
        mark = self.last_checkpoint(seat)
        if mark is None:
            return "there is no decision of yours to undo"
        if self.checkpoints[-1] is not mark:
            return "another player has decided since"
        before, now = mark.game.state, self.game.state
        if before["rng"] != now["rng"] or before["chance"] != now["chance"]:
            return "chance has been drawn since (something hidden may have been revealed)"
        view = self.game.view(seat)
        for ident, attr in mark.hidden:
            truth = now["ent"].get(ident, {}).get(attr)
            if view["ent"].get(ident, {}).get(attr) == truth and truth != before["ent"][ident][attr]:
                return f"something hidden from you has been revealed since ({self.game.label(ident)})"
        return None

    def take_back(self, seat: int) -> None:
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
        reason = self.undo_refusal(seat)
        if reason is not None:
            raise UndoRefused(reason)
        mark = self.checkpoints.pop()
        lang = self.game.lang
        self.game.restore(mark.game)  # the same Game object: seat handles stay valid
        self.game.lang = lang
        self.shown = min(self.shown, self.game.log_size)
        return mark.prompt


class UndoRefused(Exception):
    """An undo that would reveal, or take back, what it may not."""
