"""The table's worker processes in tests (speciation/table/drawer.py, thinker.py): waiting
until a worker has loaded a game's rules."""
from __future__ import annotations

import time
from typing import Any


def ready(drawer: Any, session: Any) -> None:
    """Wait (at most 120 s) until *drawer*'s worker has loaded *session*'s rules."""
    deadline = time.monotonic() + 120
    while not drawer.ready(session.recipe, session.game.ruleset.digest):
        assert not drawer.failed and time.monotonic() < deadline, "the worker did not load the rules"
        time.sleep(0.1)
