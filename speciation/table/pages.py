"""What the table's routes send besides the game's own messages: a new game's links (the
creator's, an invite per person seat, the spectator's) and a replay's step as a seat sees it."""
from __future__ import annotations

from . import messages
from .session import Replay, TableGame


def _replay_state(replay: Replay, step: int, seat: int | None) -> dict:
    """Seat *seat*'s view of a replay after *step* decisions (no options: nothing to decide)."""
    game = replay.game_at(step)
    message = messages.seat_state(game, seat, replay.seats, replay.lang)
    names = [messages.player_name(game, s) for s in range(replay.players)]
    message.update(mode="replay", options=[], yours=False, step=replay.step, total=len(replay.decisions),
                   error=replay.error or "", can_undo=False, locked=replay.only is not False,
                   seats=names if replay.only is False else [])
    return message


def _links(session: TableGame) -> dict:
    """New credentials for a game: the creator's link, an invite per person seat, the
    spectator's link (paths; the token is in the fragment, never sent in a page request)."""
    creator, invites = session.seating.issue()
    ident = session.ident
    return {"game": ident, "url": f"/play/{ident}#t={creator}", "spectator": f"/play/{ident}",
            "hotseat": session.seating.hotseat,
            "invites": [{"seat": seat, "name": messages.player_name(session.game, seat), "url": f"/play/{ident}#t={t}"}
                        for seat, t in invites.items()]}
