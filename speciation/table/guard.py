"""What the table's server checks before it reads anything a page sends: the page's
origin, the size of a request or message, and the shape of what a page asks for.

Every refusal is a short text for the page (an ``i18n.Text``, said in the page's language);
none quotes a file of the server.
"""
from __future__ import annotations

import ipaddress
import json
from typing import Any
from urllib.parse import urlsplit

from ..i18n import Text

MAX_MESSAGE = 64 * 1024         # bytes of one websocket message from a page
MAX_BODY = 4 * 1024 * 1024      # bytes of one POST body (a save to resume or replay)
LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1", "[::1]"}


class Refused(Exception):
    """A request the server will not serve; its text is for the page, its status for HTTP."""

    def __init__(self, text: str, status: int = 400):
        super().__init__(text)
        self.status = status


def origin_allowed(origin: str | None, host: str | None, scheme: str, bound: str, allowed: set[str]) -> bool:
    """May a page from *origin* use this server? Yes without an Origin (not a browser's
    page), for an origin listed in *allowed*, or for the server's own origin (the address
    the page used, *host*) when that address is the server's: a loopback name while it
    listens on loopback (another site's page, even one whose name points at 127.0.0.1, is
    refused), any address while it listens on the network (``--host``)."""
    if not origin:
        return True
    origin = origin.rstrip("/").lower()
    if origin in allowed:
        return True
    if not host or origin != f"{'https' if scheme in ('https', 'wss') else 'http'}://{host.lower()}":
        return False
    if not _loopback(bound):
        return True
    name = urlsplit(f"http://{host}").hostname or ""
    return name in LOOPBACK_NAMES or _loopback(name)


def _loopback(address: str) -> bool:
    if address in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(address.strip("[]")).is_loopback
    except ValueError:
        return False


def parse_message(text: Any) -> dict:
    """A page's websocket message as a dict, or :class:`Refused` saying what is wrong."""
    if not isinstance(text, str):
        raise Refused(Text("send messages as JSON text"))
    # its size in UTF-8 is from len(text) to 4 * len(text) bytes: encoded only when that leaves a doubt
    if len(text) > MAX_MESSAGE or (len(text) * 4 > MAX_MESSAGE and len(text.encode("utf-8", "replace")) > MAX_MESSAGE):
        raise Refused(Text("a message may not be larger than {size} KiB", size=MAX_MESSAGE // 1024))
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise Refused(Text("a message must be JSON (this one could not be read)")) from None
    if not isinstance(data, dict):
        raise Refused(Text('a message must be a JSON object such as {example}', example='{"type": "choose", ...}'))
    if not isinstance(data.get("type"), str):
        raise Refused(Text("a message must name its type ('type')"))
    return data


def text_field(body: dict, key: str, default: str | None = None, limit: int = 200) -> str | None:
    value = body.get(key, default)
    if value is None or value == "":
        return default
    if not isinstance(value, str) or len(value) > limit:
        raise Refused(Text("'{key}' must be a text of at most {limit} characters", key=key, limit=limit))
    return value


def int_field(body: dict, key: str, default: int | None = None, low: int = 0, high: int = 2**63) -> int | None:
    value = body.get(key, default)
    if value is None or value == "":
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refused(Text("'{key}' must be a whole number from {low} to {high}", key=key, low=low, high=high))
    return value


def names_field(body: dict, key: str, limit: int = 20) -> list[str]:
    value = body.get(key) or []
    if not isinstance(value, list) or len(value) > limit or not all(isinstance(v, str) and len(v) <= 80
                                                                    for v in value):
        raise Refused(Text("'{key}' must be a list of at most {limit} names", key=key, limit=limit))
    return list(value)


def bool_field(body: dict, key: str, default: bool) -> bool:
    value = body.get(key, default)
    if not isinstance(value, bool):
        raise Refused(Text("'{key}' must be true or false", key=key))
    return value


# ---- HTTP bodies and parameters (Starlette requests and websockets) -----------------------------

async def read_body(request: Any) -> bytes:
    """The request's body, refused (413) past :data:`MAX_BODY` bytes."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        raise Refused(Text("a request may not be larger than {size} MB", size=MAX_BODY // 2**20), 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise Refused(Text("a request may not be larger than {size} MB", size=MAX_BODY // 2**20), 413)
        chunks.append(chunk)
    return b"".join(chunks)


async def json_body(request: Any) -> dict[str, Any]:
    """The request's body as a JSON object, or :class:`Refused`."""
    try:
        body = json.loads(await read_body(request) or b"{}")
    except (ValueError, RecursionError):
        raise Refused(Text("the request's body must be JSON")) from None
    if not isinstance(body, dict):
        raise Refused(Text("the request's body must be a JSON object"))
    return body


def seat_param(socket: Any) -> int | None:
    """A websocket's ``?seat=N`` (a small whole number), or None."""
    text = socket.query_params.get("seat")
    return int(text) if text and text.isdigit() and len(text) < 4 else None
