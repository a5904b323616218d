"""Agents' decisions computed in a worker process of their own, off the server's interpreter
(``Table(thinking=Drawer(1))``; ``speciation serve`` makes one where the machine has a second
CPU, ``--agent-processes``; never the drawing worker, where the pictures waited behind the
searches: docs/table.md).

At the table an agent used to think in the server's ``AGENTS`` thread: its search (greedy's
lookahead, MCTS's iterations) took its turns of the one interpreter with every page's screen
and every person's move. A :class:`Thinker` sends the search to a worker process of a
:class:`.drawer.Drawer` (its pool, and its rules loaded by name and checked by digest:
:func:`.drawer._load`), and applies the choice it sends back in the server, to the
decision it answered (by its id).

**What the worker is sent**: what the seat may believe, not the game. The server deals the
seat's determinization (``SeatView.determinize``: everything hidden from the seat resampled,
no log, no history) with a fixed generator, so the copy holds the seat's view and, where the
view hides something, a fixed arrangement of what could lie there (the same whatever lies
there in fact); with it the decision's number, the game's language, the seat and the agent
itself (its options and its random generator). The worker's agent chooses through that copy's
``SeatView``: its own determinizations of the copy are the ones it would have made of the game
(a determinization deals every hidden group anew from its items in sorted order: where they
lay does not count), so it makes **the same choice** as it would have in the server, which
applies it as the agent's own (it checks the option's value) and keeps the agent as the worker
sends it back (its generator drawn as it would have been).

Thought in the server as before (``play_seat``): a game whose rules the worker cannot load by
name, while the worker is loading them or once it failed, rules whose determinization looks
at where hidden items lie (``faces``, or private single values dealt as wholes:
:func:`resampled_alike`), the random agent (its choice costs less than sending it), a decision
with one option, and a position that changed while the worker thought (undo; several seats
deciding at once).
"""
from __future__ import annotations

import marshal
import random
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..agents.base import SeatView
from ..agents.random_agent import RandomAgent

WAIT = 120.0   # seconds the agents' thread waits for a choice before thinking itself (and the worker is given up)
MASK = 0       # the seed of the generator the server deals what a seat cannot see with (fixed: see above)

# ---- in the worker ---------------------------------------------------------------------------


class _Listed(SeatView):
    """A seat's handle whose legal actions are listed once (the agent's choice is found by
    position among them)."""

    __slots__ = ("_actions",)

    def __init__(self, game: Any, seat: int):
        super().__init__(game, seat)
        self._actions: list | None = None

    def legal_actions(self) -> list:
        if self._actions is None:
            self._actions = list(super().legal_actions())
        return self._actions


def _think(recipe: tuple, digest: str, state: bytes, lang: str | None, decisions: int, seat: int,
           agent: Any) -> tuple[int, str, Any]:
    """The agent's choice at seat *seat* of the game that *state* (marshalled: the seat's
    determinization) holds: the option's position among the seat's legal actions, ``repr``
    of its value, and the agent after choosing."""
    from ..interpreter.game import Game
    from .drawer import _load, _rulesets
    if not _load(recipe, digest):
        raise RuntimeError("the worker's rules are not the server's")
    game = Game(_rulesets[recipe], marshal.loads(state), lang, decisions=decisions)
    view = _Listed(game, seat)
    action = agent.choose(view)
    actions = view.legal_actions()
    index = next((number for number, each in enumerate(actions) if each is action), None)
    if index is None:   # not one of the listed actions: the first with its value
        index = next(number for number, each in enumerate(actions) if each.value == action.value)
    return index, repr(actions[index].value), agent


# ---- in the server -------------------------------------------------------------------------------

def resampled_alike(ruleset: Any) -> bool:
    """Whether a determinization of a game under *ruleset* depends only on what the seat
    knows: every hidden item is dealt from its group's items in sorted order. Not so where
    entities trade ``faces``, or private single values in no group are dealt as wholes
    (``interpreter/determinize.py``): there the result depends on where they lay, so the
    worker, which does not know, would choose otherwise."""
    hidden = ruleset.hidden
    if hidden.faces:
        return False
    grouped = {attr for group in hidden.groups for attr in group}
    return set(hidden.private) <= set(hidden.contents) | grouped


class Thinker:
    """Sends agents' searches to a :class:`.drawer.Drawer`'s worker process."""

    def __init__(self, drawer: Any):
        self.drawer = drawer
        self.thought = 0      # choices the worker made and the server applied (a test or a benchmark reads it)
        self.redone = 0       # choices thought again in the server (the position changed, the worker failed)
        self._alike: dict[str, bool] = {}   # ruleset digest -> resampled_alike

    def ask(self, session: Any, seat: int) -> Future | None:
        """Start the worker on the choice of *seat*'s agent in *session* (a
        :class:`.session.TableGame`, its lock held); None: think here."""
        game, agent = session.game, session.agents[seat]
        recipe, digest = session.recipe, game.ruleset.digest
        if isinstance(agent, RandomAgent) or recipe is None or not self._resampled_alike(game.ruleset):
            return None
        view = SeatView(game, seat)
        if len(view.legal_actions()) < 2 or not self.drawer.ready(recipe, digest):
            return None
        believed = view.determinize(random.Random(MASK), log=False)
        try:   # marshalled here, under the lock: the copy shares values with the game
            return self.drawer.submit(_think, recipe, digest, marshal.dumps(believed.state), game.lang,
                                      game.decision_number, seat, agent)
        except Exception:
            return None

    def answer(self, asked: Future) -> tuple[int, str, Any] | None:
        """The worker's answer (None: think here). Waits without holding the interpreter."""
        try:
            return asked.result(WAIT)
        except (BrokenProcessPool, TimeoutError):   # the worker died or is stuck: draw and think here from now on
            self.drawer.failed = True
            return None
        except Exception:   # the agent or the rules failed there: here, the same failure is told
            return None

    def _resampled_alike(self, ruleset: Any) -> bool:
        known = self._alike.get(ruleset.digest)
        if known is None:
            known = self._alike[ruleset.digest] = resampled_alike(ruleset)
        return known
