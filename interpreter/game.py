"""The game API: one small fixed interface for every ruleset.

>>> from speciation import load_ruleset, Game
>>> game = Game.new(load_ruleset("original"), players=4, seed=1)
>>> action = game.legal_actions()[0]
>>> game.apply(action)
>>> game.is_over
False
"""
from __future__ import annotations

import hashlib
import json
import marshal
import secrets
from typing import Any

from ..dsl.errors import ArgumentError, IllegalActionError, RuleRuntimeError
from . import rng, saves, views
from .actions import _COPIED, EMPTY, PASS_LABEL, Action, LegalActions, Offer, _Offered  # noqa: F401 (API)
from .machine import Machine
from .views import copy_plain as _copy

SAVE_FORMAT, SAVE_VERSION = saves.SAVE_FORMAT, saves.SAVE_VERSION




class Game:
    """A game in progress: ruleset + plain-data state."""

    def __init__(self, ruleset, state: dict, lang: str | None = None):
        self.ruleset = ruleset
        self.state = state
        self._machine = Machine(ruleset, state)
        self.lang = lang
        self._token = secrets.token_hex(6)   # this game's identity (shared by its clones)
        self._history: dict | None = None    # how the game began and its decisions; None: unknown
        self.decision_number = 0             # decisions taken so far
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

    # ---- creation -----------------------------------------------------------------

    @classmethod
    def new(cls, ruleset, players: int | None = None, seed: int = 0,
            chance: list | None = None, start: bool = True, lang: str | None = None,
            limits=None) -> "Game":
        """A new game for *players* players (default: the ruleset's minimum); *seed* is an
        integer from -2**63 to 2**64 - 1. Bad arguments raise :class:`ArgumentError`.
        *limits*: the budgets at run time (``interpreter/limits.py``; default ``Limits()``)."""
        count = players if players is not None else ruleset.min_players
        if isinstance(count, bool) or not isinstance(count, int) or not ruleset.min_players <= count <= ruleset.max_players:
            raise ArgumentError(f"{ruleset.title or ruleset.name} takes {ruleset.min_players} to "
                                f"{ruleset.max_players} players, not {count!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not -2 ** 63 <= seed < 2 ** 64:
            raise ArgumentError(f"the seed must be an integer from -2**63 to 2**64 - 1, not {seed!r:.60}")
        if chance is not None and not isinstance(chance, list):
            raise ArgumentError(f"chance must be a list of outcomes, not {type(chance).__name__}")
        entities = json.loads(json.dumps(ruleset.entities))
        ids = [f"p{i + 1}" for i in range(count)]
        for i, ident in enumerate(ids):
            entities[ident] = {"kind": "player", "id": ident, "name": f"Player {i + 1}",
                               **json.loads(json.dumps(ruleset.player_defaults))}
        state = {"ent": entities, "players": ids, "rng": rng.seed_state(seed), "seed": seed,
                 "stack": [], "pending": None, "log": [], "chance": list(chance or []),
                 "steps": 0}
        game = cls(ruleset, state, lang)
        game._history = {"seed": seed, "players": count, "chance": _copy(list(chance or [])), "decisions": []}
        if limits is not None:
            game.limits = limits
        if start:
            game._machine.start("main")
            game._machine.run()
        return game

    @classmethod
    def replay(cls, ruleset, history: dict, lang: str | None = None, stop: int | None = None) -> "Game":
        """The game *history* records (``game.history``, or a save's), replayed under
        *ruleset* (possibly changed since): a new game from the same start with the recorded
        decisions taken in order (only the first *stop*, if given: for undo or step-by-step
        replay). The first decision that is no longer legal raises :class:`ReplayError`,
        which names it and holds the game replayed up to just before it."""
        return saves.replay(cls, ruleset, history, lang=lang, stop=stop)

    @property
    def history(self) -> dict | None:
        """How this game began and every decision taken, as plain data (a copy):
        ``{"seed", "players", "chance", "decisions": [[actor, value], ...]}``; None when the
        state was changed by hand or the game is a determinized copy (it cannot be replayed)."""
        return _copy(self._history) if self._history is not None else None

    @property
    def decision_id(self) -> str | None:
        """The id of the pending decision (None when the game is over): this game's identity
        and the number of decisions taken before it. Actions carry it."""
        return f"{self._token}/{self.decision_number}" if self.state["pending"] is not None else None

    # ---- the decision protocol ------------------------------------------------------

    @property
    def pending(self) -> dict | None:
        return self.state["pending"]

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

    def run_program(self, block, env: dict | None = None) -> None:
        """Run a block compiled with ``ruleset.compile_program`` until the next decision."""
        self._history = None
        stack = self.state["stack"]
        stack.append([block.id, 0, dict(env or {}), len(stack)])
        self._machine.run()

    @property
    def prompt(self) -> str:
        pending = self.state["pending"]
        return pending["prompt"] if pending else ""

    def legal_actions(self) -> LegalActions:
        """The legal actions of the pending decision (none once the game is over): a
        sequence that makes each :class:`Action` only when it is read."""
        pending = self.state["pending"]
        if pending is None:
            return EMPTY
        offer = self._offer
        if offer is None or offer.pending is not pending:  # the first listing of this decision
            stack = self.state["stack"]
            offer = self._offer = Offer(self._machine, pending, (self._token, self.decision_number),
                                        stack[stack[-1][3]][2])
        return LegalActions(pending["options"], offer, pending["optional"])

    def apply(self, action: Any) -> None:
        """Take one legal action; anything else raises and changes nothing.

        *action* is an :class:`Action` from ``legal_actions()`` (refused if it was offered
        for another decision or by another game) or a bare value, taken as an answer to the
        pending decision."""
        pending = self.state["pending"]
        if pending is None:
            raise IllegalActionError("the game is over; no action is legal")
        offer = self._offer
        if action.__class__ is _Offered and action._offer is offer and offer.pending is pending \
                and action._raw is not _COPIED:
            index = action._index  # offered for this very decision, its value unread: no search
        else:
            if isinstance(action, Action):
                self._check_decision(action.decision, pending)
                action = action.value
            index = _index(action, pending["options"])
            if index is None and not (action is None and pending["optional"]):
                shown = ", ".join(a.label for a in self.legal_actions()[:12])
                raise IllegalActionError(
                    f"{self._machine.label(action)!r} is not a legal choice for "
                    f"'{pending['prompt'] or pending['var']}' now; legal: {shown}")
        value = _copy(pending["options"][index]) if index is not None else None
        if self._machine.keep_log:
            self._log_choice(pending, value)
        if self._history is not None:
            self._history["decisions"].append([pending["actor"], _copy(value)])
        self.decision_number += 1
        self._machine.resolve(value)

    def _log_choice(self, pending: dict, value: Any) -> None:
        actor = self._machine.label(pending["actor"])
        choice = self._machine.label(value) if value is not None else "passes"
        line = f"  {actor}: {pending['prompt'] or pending['var']} → {choice}"
        if pending.get("private"):  # a secret choice: only its player reads it
            owner = self.state["players"][self.player_of(pending["actor"])]
            self._machine.add_log_line([owner, line], line)
        else:
            self._machine.add_log_line(line, line)

    def _check_decision(self, decision: str | None, pending: dict) -> None:
        if decision is None or decision == self.decision_id:
            return
        token, _, number = decision.partition("/")
        now = f"the pending decision {self.decision_number + 1} ('{pending['prompt'] or pending['var']}')"
        if token != self._token:
            raise IllegalActionError(f"this action was offered by another game; {now} is this game's")
        raise IllegalActionError(f"this action answers decision {int(number) + 1} of this game, "
                                 f"not {now}")

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
        return [line if isinstance(line, str) else f"[to {self.label(line[0])}] {line[1]}"
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

    def clone(self) -> "Game":
        """An independent copy of this game (the same game: actions offered by one are
        accepted by the other at the same decision)."""
        twin = Game(self.ruleset, _clone_state(self.state), self.lang)
        twin._token, twin.decision_number = self._token, self.decision_number
        if self._history is not None:
            twin._history = {**self._history, "decisions": list(self._history["decisions"])}
        twin.keep_log = self.keep_log
        twin.limits = self.limits
        return twin

    def determinize(self, player: int, rng, log: bool = True) -> "Game":
        """A copy with everything hidden from *player* resampled with *rng* (a
        ``random.Random``), consistent with what the player has seen (``determinize.py``);
        with ``log=False`` the copy starts with an empty log (cheaper, for searches)."""
        from .determinize import determinize
        return determinize(self, player, rng, log)

    def digest(self) -> str:
        """A hash of everything that decides the game's future (not the log)."""
        return state_digest(self.state)

    def to_json(self) -> str:
        """The game as a save (docs/saves.md): the ruleset's identity, the history and the
        state. Raises :class:`SaveFileError` if the state holds what JSON cannot keep."""
        return saves.to_json(self)

    @classmethod
    def from_json(cls, text: str | bytes, ruleset=None, lang: str | None = None, verify: bool = True) -> "Game":
        """Load a save, treated as untrusted input (docs/saves.md). Pass the *ruleset*
        (with its variants and mods); without one, only a built-in ruleset without mods is
        loaded, by name. A save is checked and its decisions replayed from the start: a
        state they do not lead to is refused. A save made under other rules (another
        digest) is replayed under *ruleset*, and :class:`ReplayError` names the first
        decision that is no longer legal. Every problem is a :class:`SaveFileError`.
        ``verify=False`` skips the replay of a save made with the same rules (for saves this
        program made itself, such as an undo buffer): only the state's shape is checked."""
        return saves.from_json(cls, text, ruleset, lang, verify)

    def view(self, player: int) -> dict:
        """What seat *player* (0-based) may see: the state without the seed, the generator,
        the scripted chance, the stack, others' private log lines and others' pending
        options, and with the ruleset's hidden lists hidden (see ``interpreter/views.py``).
        A bad seat number raises :class:`ArgumentError`."""
        return views.view(self, player)


def state_digest(state: dict) -> str:
    """SHA-256 of a state as canonical JSON, leaving out the log."""
    data = {k: v for k, v in state.items() if k != "log"}
    try:
        text = json.dumps(data, sort_keys=True)
    except TypeError:  # a map with keys of several types: order them by type, then value
        text = json.dumps(_canonical(data))
    return hashlib.sha256(text.encode()).hexdigest()


def _canonical(value: Any) -> Any:
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda kv: (type(kv[0]).__name__, repr(kv[0])))
        return [["map"], *([repr(k), _canonical(v)] for k, v in items)]
    if isinstance(value, list):
        return [_canonical(v) for v in value]
    return value


def _index(value: Any, options: list) -> int | None:
    """The index of value among the options (True is not 1, 1 is not 1.0), or None."""
    try:
        index = options.index(value)  # the first equal option: most often the one
    except ValueError:
        return None
    if type(options[index]) is type(value):
        return index
    for index, option in enumerate(options):
        if value == option and type(value) is type(option):
            return index
    return None




def _clone_state(state: dict) -> dict:
    """An independent copy of a state, cheap: the log's lines are never changed once written,
    so the copy shares them (only the list is new); the rest is copied by ``marshal`` (C
    speed, plain data only), falling back to :func:`_copy`."""
    rest = {key: value for key, value in state.items() if key != "log"}
    try:
        copied = marshal.loads(marshal.dumps(rest))
    except ValueError:  # something that is not plain data: copied the slow way
        copied = _copy(rest)
    return {key: list(value) if key == "log" else copied[key] for key, value in state.items()}
