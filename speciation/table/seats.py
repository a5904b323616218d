"""Who sits where at a table game, and who may act for which seat: the seats' kinds and
their credentials (boardgame.io's model: a secret token per seat).

A :class:`Seating` is plain data (kinds, token hashes, the creator's hash, hot-seat or
not), so a storage layer can keep it with the game's record. The server keeps only a hash
of each token; the tokens themselves go once into the invite links.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

from ..i18n import Text

HUMAN = "human"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _same(token: str | None, digest: str | None) -> bool:
    return bool(token) and bool(digest) and hmac.compare_digest(token_hash(str(token)), str(digest))


@dataclass
class Seating:
    """The seats of one game: each seat's kind (``human`` or an agent's name), the hash of
    each person seat's invite token, the hash of the creator's token, and whether the game
    is played hot-seat (the creator's page then acts for every person seat, with a
    hand-over screen before each change of person)."""

    kinds: list[str]
    hashes: list[str | None] = field(default_factory=list)
    creator: str | None = None
    hotseat: bool = False

    def __post_init__(self) -> None:
        self.hashes = (list(self.hashes) + [None] * len(self.kinds))[:len(self.kinds)]

    @property
    def people(self) -> list[int]:
        return [s for s, kind in enumerate(self.kinds) if kind == HUMAN]

    # ---- handing out credentials ----------------------------------------------------------

    def issue(self) -> tuple[str, dict[int, str]]:
        """New tokens: the creator's, and one per person seat (old ones stop working)."""
        creator = secrets.token_urlsafe(24)
        self.creator = token_hash(creator)
        return creator, {seat: self.invite(seat) for seat in self.people}

    def invite(self, seat: int) -> str:
        """A new invite token for person seat *seat* (its old one stops working)."""
        if not (0 <= seat < len(self.kinds)) or self.kinds[seat] != HUMAN:
            raise ValueError(Text("only a person's seat can be handed out"))
        token = secrets.token_urlsafe(24)
        self.hashes[seat] = token_hash(token)
        return token

    def to_agent(self, seat: int, agent: str) -> None:
        """Seat *seat* is played by *agent* from now on; its invite stops working."""
        self.kinds[seat] = agent
        self.hashes[seat] = None

    # ---- reading credentials ----------------------------------------------------------------

    def is_creator(self, token: str | None) -> bool:
        return _same(token, self.creator)

    def seats_of(self, token: str | None) -> list[int]:
        """The seats a page holding *token* acts for (none: it is a spectator)."""
        if not token:
            return []
        if self.hotseat and self.is_creator(token):
            return self.people
        return [s for s, digest in enumerate(self.hashes) if self.kinds[s] == HUMAN and _same(token, digest)]

    def all_people_here(self, token: str | None) -> bool:
        """True when *token* is the creator's of a hot-seat game whose every seat is a person
        (that page has seen everything: it may have the whole save)."""
        return self.hotseat and self.is_creator(token) and len(self.people) == len(self.kinds)

    def to_dict(self) -> dict:
        return {"kinds": list(self.kinds), "hashes": list(self.hashes), "creator": self.creator,
                "hotseat": self.hotseat}
