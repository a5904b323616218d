"""The game API: one small fixed interface for every ruleset.

>>> from speciation import load_ruleset, Game
>>> game = Game.new(load_ruleset("original"), players=4, seed=1)
>>> action = game.legal_actions()[0]
>>> game.apply(action)
>>> game.is_over
False
"""
from __future__ import annotations

import json
import marshal
import secrets
from typing import Any

from ..dsl.errors import ArgumentError, IllegalActionError, RuleRuntimeError
from . import fibers, pending as _pending, rng, views
from .actions import _COPIED, EMPTY, PASS_LABEL, Action, LegalActions, Offer, _Offered, option_index  # noqa: F401 (API)
from .machine import Machine, deal_copies
from .statecopy import clone_state as _clone_state, state_digest
from .views import copy_plain as _copy

CHECKPOINT_KEYS = {"ruleset", "decisions", "history", "state"}

_INITIAL: dict[int, tuple] = {}  # id(ruleset) -> (its entities, player defaults, both as plain JSON data, marshalled)


def _initial(ruleset) -> tuple:
    """A ruleset's initial entities and player defaults as JSON makes them (plain data),
    marshalled once: each new game unmarshals its own copy (the same data, cheaper than a
    JSON round trip a game). Kept while the ruleset keeps those very objects."""
    known = _INITIAL.get(id(ruleset))
    if known is None or known[0] is not ruleset.entities or known[1] is not ruleset.player_defaults:
        if len(_INITIAL) > 64:
            _INITIAL.clear()
        known = _INITIAL[id(ruleset)] = (ruleset.entities, ruleset.player_defaults,
                                         marshal.dumps(json.loads(json.dumps(ruleset.entities))),
                                         marshal.dumps(json.loads(json.dumps(ruleset.player_defaults))))
    return known


class Game:
    """A game in progress: ruleset + plain-data state.

    Saves (``interpreter/saves.py``: ``to_json(game)``, ``from_json(text, ruleset)``,
    ``replay(ruleset, history)``) and determinization (``interpreter/determinize.py``:
    ``determinize(game, seat, rng)``) are functions that take a game; this module imports
    neither."""

    def __init__(self, ruleset, state: dict, lang: str | None = None, *,
                 history: dict | None = None, decisions: int = 0):
        """A game holding *state* (plain data, used as is). *history*: how it began and the
        decisions taken (``game.history``'s shape; None: unknown, it cannot be replayed);
        *decisions*: how many were taken before the pending one."""
        self.ruleset = ruleset
        self.state = state
        self._machine = Machine(ruleset, state)
        self._settled = None                  # the on_settled callback (None: nobody listens)
        self.lang = lang
        self._token = secrets.token_hex(6)   # this game's identity (shared by its clones)
        self._id: tuple = (None, None, None)  # the last decision id made (see decision_id)
        self._history: dict | None = history  # how the game began and its decisions; None: unknown
        self.decision_number = decisions     # decisions taken so far
        self._offer: Offer | None = None      # what the actions of the last listing share

    @property
    def lang(self) -> str | None:
        """The language of names in labels and the log (None: the rule files' own names).
        Presentation only: it is not part of the state."""
        return self._lang

    @lang.setter
    def lang(self, lang: str | None) -> None:
        if lang is not None and lang not in self.ruleset.labels:
            known = ", ".join(sorted(self.ruleset.labels)) or "none"
            raise ValueError(f"ruleset '{self.ruleset.name}' has no names in language '{lang}' (it has: {known})")
        self._lang = lang
        self._machine.names = self.ruleset.labels.get(lang, {}) if lang else {}
        self._machine.phrases = self.ruleset.phrases.get(lang, {}) if lang else {}

    # ---- creation -----------------------------------------------------------------

    @classmethod
    def new(cls, ruleset, players: int | None = None, seed: int = 0,
            chance: list | None = None, start: bool = True, lang: str | None = None,
            limits=None, streams: str = "single", deal: bool = True) -> Game:
        """A new game for *players* players (default: the ruleset's minimum); *seed* is an
        integer from -2**63 to 2**64 - 1. Bad arguments raise :class:`ArgumentError`.
        *limits*: the budgets at run time (``interpreter/limits.py``; default ``Limits()``).
        *streams*: ``"single"`` or ``"per_source"`` (rng.py). *deal*: False leaves copies undealt."""
        if streams not in rng.SCHEMES:
            raise ArgumentError(f"streams must be one of {', '.join(rng.SCHEMES)}, not {streams!r:.40}")
        count = players if players is not None else ruleset.min_players
        if isinstance(count, bool) or not isinstance(count, int) or not ruleset.min_players <= count <= ruleset.max_players:
            raise ArgumentError(f"{ruleset.title or ruleset.name} takes {ruleset.min_players} to "
                                f"{ruleset.max_players} players, not {count!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not -2 ** 63 <= seed < 2 ** 64:
            raise ArgumentError(f"the seed must be an integer from -2**63 to 2**64 - 1, not {seed!r:.60}")
        if chance is not None and not isinstance(chance, list):
            raise ArgumentError(f"chance must be a list of outcomes, not {type(chance).__name__}")
        frozen = _initial(ruleset)
        entities = marshal.loads(frozen[2])
        ids = [f"p{i + 1}" for i in range(count)]
        for i, ident in enumerate(ids):
            entities[ident] = {"kind": "player", "id": ident, "name": f"Player {i + 1}",
                               **marshal.loads(frozen[3])}
        state = {"ent": entities, "players": ids, "rng": rng.seed_state(seed), "seed": seed,
                 "stack": [], "pending": None, "log": [], "chance": list(chance or []),
                 "steps": 0}
        game = cls(ruleset, state, lang)
        if ruleset.copies and deal:
            deal_copies(game._machine)
        state["rng"] = rng.per_source_state(seed) if streams != "single" else state["rng"]
        game._history = {"seed": seed, "players": count, "chance": _copy(list(chance or [])), "decisions": [],
                         **({"streams": streams} if streams != "single" else {})}
        if limits is not None:
            game.limits = limits
        if start:
            game._machine.start("main")
            game._machine.run()
        return game

    def deal_copies(self) -> None:
        """Deal the copies' ids (``Game.new`` does, unless ``deal=False``): chance steps."""
        deal_copies(self._machine)

    @property
    def history(self) -> dict | None:
        """How this game began and every decision taken, as plain data (a copy):
        ``{"seed", "players", "chance", "decisions": [[actor, value], ...]}``; None when the
        state was changed by hand or the game is a determinized copy (it cannot be replayed)."""
        return _copy(self._history) if self._history is not None else None

    @property
    def replayable(self) -> bool:
        """Whether the game knows its :attr:`history` (without copying it)."""
        return self._history is not None

    @property
    def decision_id(self) -> str | None:
        """The id of the pending decision (None when the game is over): this game's identity
        and the number of decisions taken before it. Actions carry it."""
        pending = self.state["pending"]
        if pending is None:
            return None
        if "fiber" in pending:  # the first of several (interpreter/pending.py)
            return _pending.fiber_id(self, pending)
        known = self._id  # (token, number, id): made once per decision
        if known[1] != self.decision_number or known[0] is not self._token:
            known = self._id = (self._token, self.decision_number, f"{self._token}/{self.decision_number}")
        return known[2]

    # ---- the decision protocol ------------------------------------------------------

    @property
    def pending(self) -> dict | None:
        return self.state["pending"]

    def decisions(self) -> list[_pending.Decision]:
        """Every pending decision, one per deciding seat, in seat order (empty once the
        game is over): one, the game's pending decision, except while the seats of a
        ``simultaneously`` statement all decide. ``legal_actions()``, ``decision_id``,
        ``prompt``, ``current_player`` refer to the first (interpreter/pending.py)."""
        return _pending.decisions(self)

    @property
    def current_actor(self) -> str | None:
        """The entity deciding now (a player, or an entity a player controls)."""
        pending = self.state["pending"]
        return pending["actor"] if pending else None

    @property
    def current_player(self) -> int | None:
        """Index (0-based) of the player who must decide now, or None."""
        actor = self.current_actor
        if actor is None:
            return None
        return self.player_of(actor)

    def player_of(self, actor: Any) -> int:
        """The index of the player who is, or controls, *actor*."""
        players = self.state["players"]
        if actor in players:
            return players.index(actor)
        owner = self.state["ent"].get(actor, {}).get("player") if isinstance(actor, str) else None
        if owner not in players:
            raise RuleRuntimeError(f"{self.label(actor)} is not a player and no player controls it")
        return players.index(owner)

    def start(self, macro: str, args: list | None = None) -> None:
        """Run one of the ruleset's macros (a scenario's or a tool's entry point) until
        the next decision."""
        if macro not in self.ruleset.macros:
            raise RuleRuntimeError(f"the ruleset has no macro '{macro}'")
        if not (macro == "main" and not args and not self.state["stack"] and self.decision_number == 0):
            self._history = None  # not the game's own start: it cannot be replayed
        self._machine.start(macro, args)
        self._machine.run()

    def run_block(self, block, env: dict | None = None) -> dict:
        """Run a block compiled with ``ruleset.compile_program`` (a scenario's setup, a
        tool's program) in this game, with *env* (copied) as its local names, until it ends
        or stops at a decision; returns the dict of its local names (what it bound, once it
        has ended). Not while a decision is pending (:class:`RuleRuntimeError`). A game run
        so forgets its history (its start no longer decides it)."""
        if self.state["pending"] is not None or self.state["stack"]:
            raise RuleRuntimeError("a block can run only while no decision is pending")
        self._history = None
        names = dict(env or {})
        self.state["stack"].append([block.id, 0, names, 0])
        self._machine.run()
        return names

    def evaluate_expression(self, expression, env: dict | None = None) -> Any:
        """The value of an expression compiled with ``ruleset.compile_expression`` on the
        current state, with *env* (copied) as its local names; it raises what the expression
        raises (a scenario's check, a tool's query)."""
        return expression(self._machine, dict(env or {}))

    def share_remembered(self, other: Game) -> None:
        """Start from (a copy of) the rule-function values *other*, a game in the same state
        (this one's original), remembers. Only speed changes: a search values many copies."""
        memo = other._machine.memo
        self._machine.memo = {name: dict(table) if type(table) is dict else table for name, table in memo.items()}
        self._machine.static_memo = other._machine.static_memo

    def forget_remembered(self) -> None:
        """Forget the rule-function values remembered since the last statement, as a
        statement that changes the state does (values of static functions stay). Only speed
        changes: for timing the rules from a cold start."""
        self._machine.memo.clear()

    @property
    def on_settled(self):
        """None, or a function called as ``on_settled(var, value, span)`` for each decision
        the rules settle by themselves (no option, or one and no way to decline): the name
        the choice binds, the value it gets, and the ``choose`` statement's span. For tools
        (a scenario notes them); not part of the state: clones leave it out."""
        return self._settled

    @on_settled.setter
    def on_settled(self, callback) -> None:
        self._settled = callback
        self._machine.on_settled = None if callback is None else (
            lambda stmt, value: callback(stmt.var, value, stmt.span))

    @property
    def prompt(self) -> str:
        pending = self.state["pending"]
        return self._machine.shown_prompt() if pending else ""

    def legal_actions(self) -> LegalActions:
        """The legal actions of the pending decision (none once the game is over): a
        sequence that makes each :class:`Action` only when it is read."""
        pending = self.state["pending"]
        if pending is None:
            return EMPTY
        offer = self._offer
        if offer is None or offer.pending is not pending:  # the first listing of this decision
            if "fiber" in pending:  # the first of several: its own id and names
                return _pending.fiber_actions(self, pending["fiber"][0], pending)
            stack = self.state["stack"]
            offer = self._offer = Offer(self._machine, pending, (self._token, self.decision_number),
                                        stack[stack[-1][3]][2])
        return LegalActions(pending["options"], offer, pending["optional"])

    def apply(self, action: Any, decision: str | None = None) -> None:
        """Take one legal action; anything else raises :class:`IllegalActionError` and
        changes nothing.

        *action* is an :class:`Action` from ``legal_actions()`` (it carries the id of the
        decision it answers: refused at any other decision or by another game), or a bare
        option value (``None``: pass) together with the id of the decision it answers:
        ``game.apply(value, decision=game.decision_id)``. A bare value without a decision is
        refused: sent one decision late it would answer another question. While several
        decisions are pending (``decisions()``), the action of any of them is taken, by the
        id it carries or *decision*."""
        pending = self.state["pending"]
        if pending is None:
            raise IllegalActionError("the game is over; no action is legal")
        offer = self._offer
        if action.__class__ is _Offered and offer is not None and action._offer is offer and offer.pending is pending \
                and action._raw is not _COPIED and decision is None:
            index: int | None = action._index  # offered for this very decision, its value unread: no search (None: the pass)
        else:
            if decision is not None and decision != self.decision_id:
                pending = self._named(decision, pending)
            if isinstance(action, Action):
                offered = action.decision
                if offered is not None and offered != (decision or self.decision_id):
                    pending = self._named(offered, pending) if decision is None else _pending.refuse(self, offered, pending)
                decision = decision or offered
                action = action.value
            if decision is None:
                if "fiber" in pending:
                    _pending.unnamed(self, action)
                raise IllegalActionError(
                    f"{self._machine.label(action)!r} names no decision: apply an Action from "
                    "legal_actions(), or a value with the decision it answers: "
                    "apply(value, decision=game.decision_id)")
            index = option_index(action, pending["options"])
            if index is None and not (action is None and pending["optional"]):
                shown = ", ".join(a.label for a in self.legal_actions()[:12])
                raise IllegalActionError(
                    f"{self._machine.label(action)!r} is not a legal choice for "
                    f"'{pending['prompt'] or pending['var']}' now; legal: {shown}")
        value = pending["options"][index] if index is not None else None
        value = value if value.__class__ is str or value is None else _copy(value)  # (a text or none: its own copy)
        fiber = pending.get("fiber")
        if self._machine.keep_log:
            if fiber is None:
                _pending.log_choice(self, pending, value)
            else:
                with fibers.inside(self._machine, self.state["stack"][-1][2][fiber[0]]):
                    _pending.log_choice(self, pending, value)
        if self._history is not None:
            kept = value if value.__class__ is str or value is None else _copy(value)
            self._history["decisions"].append([pending["actor"], kept])
        self.decision_number += 1
        if fiber is None:
            self._machine.resolve(value)
        else:
            fibers.resolve(self._machine, fiber[0], value)

    def _named(self, decision: Any, pending: dict) -> dict:
        """The pending decision *decision* names (one of several), or raise why none."""
        found = _pending.find(self, decision) if "fiber" in pending else None
        if found is None:
            _pending.refuse(self, decision, pending)
        assert found is not None
        return found[1]

    @property
    def is_over(self) -> bool:
        return self.state["pending"] is None and not self.state["stack"]

    @property
    def scores(self) -> list[int]:
        score = self.ruleset.conventions["score"]
        return [self.evaluate(score, p) for p in self.state["players"]]

    @property
    def winner(self) -> int | None:
        """Index of the winning player once the game is over (the ruleset's 'winner()')."""
        if not self.is_over:
            return None
        if "winner" in self.ruleset.conventions:
            best = self.evaluate(self.ruleset.conventions["winner"])
            return None if best is None else self.player_of(best)
        scores = self.scores
        return scores.index(max(scores))

    def evaluate(self, name: str, *args: Any) -> Any:
        """Call one of the ruleset's functions on the current state."""
        function = self.ruleset.functions.get(name)
        if function is None:
            raise RuleRuntimeError(f"the ruleset has no function '{name}'")
        try:
            return function.call(self._machine, list(args))
        except RuleRuntimeError:
            raise
        except Exception as exc:
            from .errors import in_authors_words
            raise RuleRuntimeError(f"in {name}(): {in_authors_words(exc)}", function.span) from exc

    def label(self, value: Any) -> str:
        return self._machine.label(value)

    # ---- state as data ------------------------------------------------------------

    @property
    def log(self) -> list[str]:
        """Every log line (an omniscient view); private lines say whom they are for."""
        return self.log_since(0)

    def log_since(self, start: int) -> list[str]:
        """The log lines from number *start* on (cheap for following a game as it goes)."""
        return [line if isinstance(line, str) else
                f"[to {self.label(line[0]) if line[0] is not None else 'spectators'}] {line[1]}"
                for line in self.state["log"][start:]]

    @property
    def log_size(self) -> int:
        return len(self.state["log"])

    def log_for(self, player: int) -> list[str]:
        """The log lines one player may read."""
        me = self.state["players"][views.seat_index(self, player)]
        return [line if isinstance(line, str) else line[1] for line in self.state["log"]
                if isinstance(line, str) or line[0] == me]

    def state_edited(self) -> None:
        """Call after changing ``game.state`` by hand (not through the rules): the game
        forgets the rule-function values it remembers."""
        self._machine.memo.clear()
        self._machine.static_memo.clear()
        self._offer = None  # actions listed before are checked as any other
        self._history = None

    @property
    def limits(self):
        """The budgets at run time (``interpreter/limits.py``): work, time, depth, sizes."""
        return self._machine.limits

    @limits.setter
    def limits(self, limits) -> None:
        self._machine.set_limits(limits)

    @property
    def keep_log(self) -> bool:
        """Whether the game keeps its event log (default True). Agents' searches and batch
        runs may turn it off: nothing but the log changes (the digest leaves it out)."""
        return self._machine.keep_log

    @keep_log.setter
    def keep_log(self, keep: bool) -> None:
        self._machine.keep_log = bool(keep)

    @property
    def chance_source(self):
        """Where chance outcomes come from: None (the game's own generator, the default) or
        an object whose ``take(n)`` gives each chance step's outcome, 0 to n - 1, such as a
        ``ChanceTape`` (``interpreter/chance.py``); a scripted ``chance`` list still comes
        first for ``draw``. Not part of the state: saves, views and clones leave it out. A
        game given one forgets its history (its seed no longer decides its chance)."""
        return self._machine.chance_source

    @chance_source.setter
    def chance_source(self, source) -> None:
        self._machine.chance_source = source
        if source is not None:
            self._history = None

    def clone(self) -> Game:
        """An independent copy of this game (the same game: actions offered by one are
        accepted by the other at the same decision)."""
        twin = Game(self.ruleset, _clone_state(self.state), self.lang)
        twin._token, twin.decision_number = self._token, self.decision_number
        if self._history is not None:
            twin._history = {**self._history, "decisions": list(self._history["decisions"])}
        twin.keep_log = self.keep_log
        twin.limits = self.limits
        return twin

    def with_state(self, state: dict) -> Game:
        """A game of the same ruleset holding *state* (used as is) at this game's decision:
        actions offered by one are accepted by the other while both are at it. It has this
        game's language, the default budgets and log setting, and no history (its state did
        not come from its start): for a determinized copy (``interpreter/determinize.py``)."""
        twin = Game(self.ruleset, state, self.lang, decisions=self.decision_number)
        twin._token = self._token
        return twin

    def trial(self):
        """Take actions, then ``trial.rollback()``: back as now, no copy per action (trial.py)."""
        from .trial import Trial
        return Trial(self)

    def checkpoint(self) -> dict:
        """This game as plain data to come back to with :meth:`restore` (a copy):
        ``{"ruleset": digest, "decisions": count, "history": ..., "state": ...}``."""
        return {"ruleset": self.ruleset.digest, "decisions": self.decision_number,
                "history": self.history, "state": _clone_state(self.state)}

    def restore(self, checkpoint: dict | Game) -> None:
        """Put this game back, in place, as *checkpoint* (from :meth:`checkpoint`, or a game
        of the same ruleset, such as a clone) holds it: the same object, so handles held
        elsewhere stay valid; its language, budgets, log setting, chance source and
        ``on_settled`` stay. Actions listed before are refused afterwards (the decisions from
        there on are new ones). The checkpoint is copied: it can be restored again."""
        if isinstance(checkpoint, Game):
            checkpoint = checkpoint.checkpoint()
        if not isinstance(checkpoint, dict) or set(checkpoint) != CHECKPOINT_KEYS:
            raise ArgumentError("restore takes a checkpoint from game.checkpoint() or a game")
        if checkpoint["ruleset"] != self.ruleset.digest:
            raise ArgumentError("this checkpoint was made under another ruleset")
        machine, state = self._machine, _clone_state(checkpoint["state"])
        self.state, self._machine = state, Machine(self.ruleset, state)
        self._machine.set_limits(machine.limits)
        self._machine.keep_log, self._machine.chance_source = machine.keep_log, machine.chance_source
        self._machine.names, self._machine.on_settled = machine.names, machine.on_settled
        self._machine.phrases = machine.phrases
        history = checkpoint["history"]
        self._history = _copy(history) if history is not None and machine.chance_source is None else None
        self.decision_number = checkpoint["decisions"]
        self._token = secrets.token_hex(6)
        self._offer = None

    def digest(self) -> str:
        """A hash of everything that decides the game's future (not the log)."""
        return state_digest(self.state)

    def view(self, player: int) -> dict:
        """What seat *player* (0-based) may see: the state without the seed, the generator,
        the scripted chance, the stack, others' private log lines and others' pending
        options, and with the ruleset's hidden lists hidden (see ``interpreter/views.py``).
        A bad seat number raises :class:`ArgumentError`."""
        return views.view(self, player)

