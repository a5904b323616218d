"""What the table's routes send besides the game's own messages: the pages in their reader's
language, a new game's links (the creator's, an invite per person seat, the spectator's), a
replay's step as a seat sees it, and an error of the engine in the reader's language."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, Response

from .. import i18n
from ..api import ruleset_folder
from ..dsl.errors import SaveFileError
from . import messages
from .session import Replay, TableGame

STATIC = Path(__file__).parent / "static"


def engine_error(lang: str, error: Exception) -> str:
    """An error of the engine (a save it cannot read, options its rules refuse) for a page of
    *lang*: its own words for an English page; for another, what went wrong in that page's
    words (the engine's messages are English: a Polish page shows no English)."""
    if lang == i18n.DEFAULT:
        return str(error)
    if isinstance(error, SaveFileError):
        return i18n.translate(lang, i18n.Text("this file is not a saved game this table can read"))
    return i18n.translate(lang, i18n.Text("the rules do not allow a game with these options"))


def _replay_state(replay: Replay, step: int, seat: int | None) -> dict:
    """Seat *seat*'s view of a replay after *step* decisions (no options: nothing to decide)."""
    game = replay.game_at(step)
    message = messages.seat_state(game, seat, replay.seats, replay.lang)
    names = [messages.player_name(game, s) for s in range(replay.players)]
    # the seat whose decision the step took (several seats deciding at once answer one by one)
    answered = game.player_of(replay.decisions[replay.step - 1][0]) if replay.step else None
    message.update(mode="replay", options=[], yours=False, step=replay.step, total=len(replay.decisions),
                   answered=answered,
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


def _lang_of(connection: HTTPConnection) -> str:
    """A page's language: ``?lang=``, else its Accept-Language, else English."""
    return i18n.choose(connection.query_params.get("lang"), connection.headers.get("accept-language"))


def _page(name: str, request: Request) -> Response:
    """A static page in its reader's language (its catalog given to ``static/i18n.js``)."""
    return HTMLResponse(i18n.page((STATIC / name).read_text(encoding="utf-8"), _lang_of(request)))


def _origin(table: Any, text: str, session: TableGame) -> str:
    """The name the server offers a resumed game's ruleset under (the folder's, or a built-in's)."""
    folder = ruleset_folder(session.game.ruleset)
    return folder if folder is not None and folder in table.rulesets else str(session.game.ruleset.name)
