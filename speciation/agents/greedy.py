"""The greedy agent: looks one decision ahead and takes the best by the evaluation."""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..interpreter.game import Action, Game
from ..interpreter.trial import Trial
from .base import SeatView
from .evaluation import evaluations, margin
from .holding import hold_off


class GreedyAgent:
    """For each legal action, on a determinized copy of the game (the same copy for every
    action), takes the action and lets the rules run to the next decision (its own or
    another's; chance on the way is the copy's); then values the position by the evaluation
    (its lead over the best other seat) and picks the best, breaking ties at random.

    Options: ``samples`` (determinizations averaged per decision, default 1).

    Its randomness (the determinization, ties) comes from one generator drawn in turn; in a
    game with per-source streams (``SeatView.streams``, as balance comparisons play) from a
    generator of its own for each decision, keyed by the agent's seed, its seat and the
    decision's number, so a change that alters one decision's draws leaves the others' alone
    (the two games of a pair then differ only where the change itself shows)."""

    def __init__(self, seed: int = 0, seat: int = 0, samples: int = 1):
        self.key = f"speciation-greedy:{seed}:{seat}"
        self.rng = random.Random(self.key)
        self.samples = max(1, int(samples))
        self._last: tuple[Sequence[Action | str], list[float]] = ((), [])

    @property
    def last_values(self) -> dict[str, float]:
        """The value of each action of the last decision searched, by ``repr`` of its value
        (for tests and tools; made when read)."""
        actions, totals = self._last
        return dict(zip((a if isinstance(a, str) else repr(a.value) for a in actions), totals))

    def __getstate__(self) -> dict:
        """The agent as another process is sent it (the table's worker: table/thinker.py): its
        options and generator, and the last decision's values by name (its actions hold their
        game, which stays where it is)."""
        state = dict(self.__dict__)
        actions, totals = self._last
        state["_last"] = ([a if isinstance(a, str) else repr(a.value) for a in actions], totals)
        return state

    def choose(self, seat: SeatView) -> Action:
        actions = seat.legal_actions()
        if len(actions) == 1:
            return actions[0]
        held = hold_off(seat.ruleset, actions)  # nothing to answer with: hold priority off
        if held is not None:
            return held
        rng = self.rng if seat.streams == "single" else random.Random(f"{self.key}:{seat.decision_number}")
        totals = [0.0] * len(actions)
        for _ in range(self.samples):
            copy = seat.determinize(rng, log=False)
            seat.recall(copy)  # the values the game remembers of what reads nothing hidden: only speed changes
            for number, value in enumerate(lookahead(copy, actions, seat.seat, valued=seat.remember,
                                                         make_trial=seat.trial)):
                totals[number] += value
        self._last = (actions, totals)  # for tests and tools: last_values
        best = max(totals)
        return rng.choice([a for a, t in zip(actions, totals) if t == best])


def lookahead(base: Game, actions: Sequence[Action], seat: int,
              valued: Callable[[Game], None] | None = None,
              make_trial: Callable[[Game], Trial] | None = None) -> list[float]:
    """For each action, in *base* (a determinized game, the agent's own): take it, let the
    rules run to the next decision, value the position for *seat* by the evaluation (its
    lead over the best other seat; a finished game won by *seat* counts above all), and put
    the game back (``Game.trial``: only what the action changed is put back, no copy per
    action).

    *base* is valued first, so each action starts from the rule-function values it
    remembers: the rules forget only those the action's statements make stale, and most of
    the evaluation is looked up, not run again (the values, hence the choices, are the same
    as from a cold copy). *valued*, if given, is called with *base* once it is valued and
    before any action (the greedy agent hands its game the values that read nothing hidden:
    ``SeatView.remember``); *make_trial*, if given, makes the trial (default ``base.trial()``;
    the greedy agent's ``SeatView.trial`` shares what nothing hid). *base* ends as it began.

    With an ``alike`` convention (docs/agents.md), actions whose keys are equal (not none)
    share one value: the first of them is taken and valued, and its value is given to the
    others if the rules led straight back to the same question (the same ``choose``
    statement, the game not over); otherwise each is valued on its own."""
    found = []
    base.keep_log = False  # a search reads no log: lines are not even formatted
    evaluations(base)  # values every action starts from: after an action only what it changed is valued again
    if valued is not None:
        valued(base)  # (base valued, not yet changed: SeatView.remember)
    keys = alike_keys(base, actions)
    asked = (base.state["pending"] or {}).get("node")
    shared: dict[str, float] = {}
    trial = base.trial() if make_trial is None else make_trial(base)
    for number, action in enumerate(actions):
        key = keys[number] if keys is not None else None
        if key is not None and key in shared:
            found.append(shared[key])
            continue
        try:
            base.apply(action.value, decision=base.decision_id)
            values = base.scores if base.is_over else evaluations(base)
        except BaseException:
            trial.rollback(everything=True)  # the game is the agent's own: left as it was, whatever happened
            raise
        bonus = 1e6 if base.is_over and base.winner == seat else 0.0
        found.append(margin(values, seat) + bonus)
        if key is not None and asked is not None and not base.is_over and base.state["pending"].get("node") == asked:
            shared[key] = found[-1]
        trial.rollback()
    return found


def alike_keys(game: Game, actions: Sequence[Action]) -> list[str | None] | None:
    """Each action's key by the ruleset's ``alike`` convention (``repr`` of its value; None
    for none), or None when the ruleset has none."""
    name = game.ruleset.conventions.get("alike")
    if name is None:
        return None
    keys = [game.evaluate(name, action.value) for action in actions]
    return [None if key is None else repr(key) for key in keys]
