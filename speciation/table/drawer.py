"""Pictures' bodies drawn in a process of its own, off the server's interpreter
(``Table(drawer=Drawer(1))``; ``speciation serve`` makes one where the machine has a second
CPU, ``--draw-processes``; the agents can think in a pool of their own of this kind:
:mod:`.thinker`).

A table process is bound by its one interpreter (the GIL): every page's screen, every
move and the event loop take turns in it, and a picture's body (:mod:`..render.shared`,
drawn once a position and shared by the seats whose views draw it alike) was the largest
part of a move's work. A :class:`Drawer` hands that drawing to a worker process
(``concurrent.futures.ProcessPoolExecutor``, spawned): it sends the scene's **view** (the
seat's view the table has made for that page, without its log when the picture is drawn
without it, as the table's are: nothing else of the game, so the worker knows only what
that page may see), the seat, the language and how the ruleset was loaded
(a built-in ruleset by name and variants); the worker loads that ruleset once (checked
against the server's by its digest), draws the body as the server would (its own shared
drawings per game: the elements of the picture drawn last), and sends the body back. The
server's thread waits for it without holding the interpreter.

Drawn here instead, the same body: a game whose rules the worker cannot load by name (a
folder, a mod, a resumed save), while the worker is still loading a ruleset (the first
pictures of a ruleset, a few seconds after start), and for good once the worker failed.
"""
from __future__ import annotations

import multiprocessing
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from functools import partial
from typing import Any

from ..render.shared import Body, Drawings, sharing

WAIT = 5.0        # seconds a thread waits for a body before drawing it itself (the worker stuck: for good)
GAMES = 256       # games whose last picture's elements the worker keeps (the least recent leaves)

# ---- in the worker ---------------------------------------------------------------------------

_rulesets: dict[tuple, Any] = {}
_drawings: OrderedDict[str, Drawings] = OrderedDict()


def _load(recipe: tuple, digest: str) -> bool:
    """Load the ruleset *recipe* names (``(name, variants)``) in the worker; whether it is
    the server's (the same digest)."""
    from ..interpreter.ruleset import load_ruleset
    ruleset = _rulesets.get(recipe)
    if ruleset is None:
        ruleset = _rulesets[recipe] = load_ruleset(recipe[0], list(recipe[1]), [])
    return ruleset.digest == digest


def _draw(game: str, recipe: tuple, digest: str, view: dict, seat: int | None, lang: str | None, log: bool) -> Body:
    """The body of the picture of *view* (seat *seat*'s, in *lang*), drawn with what the
    worker keeps of game *game*'s last picture (the rules loaded first in a worker of several
    that has not loaded them yet: the server's check went to one of them)."""
    from ..render.scene import Scene
    from ..render.svg import _body
    if not _load(recipe, digest):
        raise RuntimeError("the worker's rules are not the server's")
    drawings = _drawings.pop(game, None) or Drawings()
    _drawings[game] = drawings
    while len(_drawings) > GAMES:
        _drawings.popitem(last=False)
    scene = Scene.of(view, seat, lang, _rulesets[recipe])
    with sharing(drawings):
        return _body(scene, log)


def _forget(game: str) -> None:
    _drawings.pop(game, None)


# ---- in the server -------------------------------------------------------------------------------

class Drawer:
    """The worker process (one; made when first needed) and what it has loaded."""

    def __init__(self, processes: int = 1):
        self.processes = max(1, processes)
        self.pool: ProcessPoolExecutor | None = None
        self.loading: dict[tuple, Future] = {}   # recipe -> the worker's load (True: the server's rules)
        self.failed = False
        self.drawn = 0   # bodies the worker drew (a test or a benchmark reads it)
        self.lock = threading.Lock()

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("spawn"))
        return self.pool

    def ready(self, recipe: tuple | None, digest: str) -> bool:
        """Whether the worker draws pictures of *recipe*'s rules now (else it starts loading them)."""
        if recipe is None or self.failed:
            return False
        with self.lock:
            loading = self.loading.get(recipe)
            if loading is None:
                try:
                    loading = self.loading[recipe] = self._pool().submit(_load, recipe, digest)
                except Exception:   # the pool is broken (a worker died): draw here from now on
                    self.failed = True
                    return False
        if not loading.done():
            return False
        try:
            return bool(loading.result())
        except Exception:
            self.failed = True
            return False

    def submit(self, work: Callable[..., Any], *args: Any) -> Future:
        """Start *work* in the worker (the agents' thinking: thinker.py); raises when the
        pool is broken (then nothing more is sent there)."""
        if self.failed:
            raise RuntimeError("the worker failed")
        try:
            return self._pool().submit(work, *args)
        except Exception:
            self.failed = True
            raise

    def remote(self, session: Any) -> Callable[[Any, bool], Body | None] | None:
        """What draws the bodies of *session*'s pictures (a :class:`.session.TableGame`) in the
        worker (``Drawings.remote``), or None when its rules cannot be loaded there by name."""
        if session.recipe is None or self.failed:
            return None
        return partial(self.body, session.ident, session.recipe, session.game.ruleset.digest)

    def body(self, game: str, recipe: tuple | None, digest: str, scene: Any, log: bool) -> Body | None:
        """*scene*'s body drawn by the worker (None: draw it here). Called in a thread that may wait."""
        if recipe is None or not self.ready(recipe, digest):
            return None
        try:
            # a body drawn without its log is drawn from the view but for the log (its basis,
            # render/shared.py): the view is sent without it
            state = scene.state if log else {**scene.state, "log": []}
            future = self._pool().submit(_draw, game, recipe, digest, state, scene.seat, scene.lang, log)
            body = future.result(WAIT)
            self.drawn += 1
            return body
        except Exception:   # the worker failed or is stuck: draw here from now on
            self.failed = True
            return None

    def forget(self, game: str) -> None:
        """Game *game* left the server: the worker lets go of its pictures' elements."""
        if self.pool is not None and not self.failed:
            try:
                self.pool.submit(_forget, game)
            except Exception:
                self.failed = True

    def close(self) -> None:
        """Stop the worker (what it was asked and has not begun is dropped)."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None
