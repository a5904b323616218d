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
from typing import Any

from ..dsl.errors import IllegalActionError, RuleRuntimeError, SaveFileError
from . import rng
from .machine import Machine

SAVE_FORMAT = "speciation-save"
SAVE_VERSION = 1


class Action:
    """One legal option of the pending decision. ``value`` is plain data; ``label``
    is its display text (computed when first asked for)."""

    __slots__ = ("value", "_label", "_describe")

    def __init__(self, value: Any, label: str | None = None, describe=None):
        self.value = value
        self._label = label
        self._describe = describe

    @property
    def label(self) -> str:
        if self._label is None:
            self._label = self._describe(self.value) if self._describe else repr(self.value)
        return self._label

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and other.value == self.value and other.label == self.label

    def __hash__(self) -> int:
        return hash(repr(self.value))

    def __repr__(self) -> str:
        return f"Action({self.value!r}, {self.label!r})"


PASS_LABEL = "pass (decline)"


class Game:
    """A game in progress: ruleset + plain-data state."""

    def __init__(self, ruleset, state: dict, lang: str | None = None):
        self.ruleset = ruleset
        self.state = state
        self._machine = Machine(ruleset, state)
        self.lang = lang

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
            chance: list | None = None, start: bool = True, lang: str | None = None) -> "Game":
        """A new game for *players* players (default: the ruleset's minimum)."""
        count = players if players is not None else ruleset.min_players
        if not ruleset.min_players <= count <= ruleset.max_players:
            raise ValueError(f"{ruleset.title or ruleset.name} takes {ruleset.min_players} to "
                             f"{ruleset.max_players} players, not {count}")
        entities = json.loads(json.dumps(ruleset.entities))
        ids = [f"p{i + 1}" for i in range(count)]
        for i, ident in enumerate(ids):
            entities[ident] = {"kind": "player", "id": ident, "name": f"Player {i + 1}",
                               **json.loads(json.dumps(ruleset.player_defaults))}
        state = {"ent": entities, "players": ids, "rng": rng.seed_state(seed), "seed": seed,
                 "stack": [], "pending": None, "log": [], "chance": list(chance or []),
                 "steps": 0}
        game = cls(ruleset, state, lang)
        if start:
            game._machine.start("main")
            game._machine.run()
        return game

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
        self._machine.start(macro, args)
        self._machine.run()

    def run_program(self, block, env: dict | None = None) -> None:
        """Run a block compiled with ``ruleset.compile_program`` until the next decision."""
        stack = self.state["stack"]
        stack.append([block.id, 0, dict(env or {}), len(stack)])
        self._machine.run()

    @property
    def prompt(self) -> str:
        pending = self.state["pending"]
        return pending["prompt"] if pending else ""

    def legal_actions(self) -> list[Action]:
        pending = self.state["pending"]
        if pending is None:
            return []
        describe = self._machine.option_describer()
        actions = [Action(v, None, describe) for v in pending["options"]]
        if pending["optional"]:
            actions.append(Action(None, PASS_LABEL))
        return actions

    def apply(self, action: Any) -> None:
        """Take one legal action; anything else raises and changes nothing."""
        pending = self.state["pending"]
        if pending is None:
            raise IllegalActionError("the game is over; no action is legal")
        value = action.value if isinstance(action, Action) else action
        if not (_offered(value, pending["options"]) or (value is None and pending["optional"])):
            shown = ", ".join(a.label for a in self.legal_actions()[:12])
            raise IllegalActionError(
                f"{self._machine.label(value)!r} is not a legal choice for "
                f"'{pending['prompt'] or pending['var']}' now; legal: {shown}")
        actor = self._machine.label(pending["actor"])
        choice = self._machine.label(value) if value is not None else "passes"
        line = f"  {actor}: {pending['prompt'] or pending['var']} → {choice}"
        if pending.get("private"):  # a secret choice: only its player reads it
            owner = self.state["players"][self.player_of(pending["actor"])]
            self.state["log"].append([owner, line])
        else:
            self.state["log"].append(line)
        self._machine.resolve(value)

    @property
    def is_over(self) -> bool:
        return self.state["pending"] is None and not self.state["stack"]

    @property
    def scores(self) -> list[int]:
        return [self.evaluate("score", p) for p in self.state["players"]]

    @property
    def winner(self) -> int | None:
        """Index of the winning player once the game is over (the ruleset's 'winner()')."""
        if not self.is_over:
            return None
        if "winner" in self.ruleset.functions:
            best = self.evaluate("winner")
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
            raise RuleRuntimeError(f"in {name}(): {exc}", function.span) from exc

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
        me = self.state["players"][player]
        return [line if isinstance(line, str) else line[1] for line in self.state["log"]
                if isinstance(line, str) or line[0] == me]

    def state_edited(self) -> None:
        """Call after changing ``game.state`` by hand (not through the rules): the game
        forgets the rule-function values it remembers."""
        self._machine.memo.clear()
        self._machine.static_memo.clear()

    def clone(self) -> "Game":
        return Game(self.ruleset, _copy(self.state), self.lang)

    def determinize(self, player: int, rng) -> "Game":
        """A copy with everything hidden from *player* resampled with *rng* (a
        ``random.Random``), consistent with what the player has seen (``determinize.py``)."""
        from .determinize import determinize
        return determinize(self, player, rng)

    def digest(self) -> str:
        """A hash of everything that decides the game's future (not the log)."""
        data = {k: v for k, v in self.state.items() if k != "log"}
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()

    def to_json(self) -> str:
        return json.dumps({"format": SAVE_FORMAT, "format_version": SAVE_VERSION,
                           "ruleset": self.ruleset.name, "ruleset_version": self.ruleset.version,
                           "ruleset_digest": self.ruleset.digest, "variants": self.ruleset.variants,
                           "mods": self.ruleset.mods, "state": self.state})

    @classmethod
    def from_json(cls, text: str, ruleset=None, lang: str | None = None) -> "Game":
        """Load a saved game; the ruleset is loaded by name unless given."""
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as exc:
            raise SaveFileError(f"not a saved game: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveFileError("not a Speciation saved game (no 'format: speciation-save')")
        if data.get("format_version") != SAVE_VERSION:
            raise SaveFileError(f"saved with format version {data.get('format_version')}; "
                                f"this Speciation reads version {SAVE_VERSION}")
        if ruleset is None:
            from ..dsl.errors import RuleErrors
            from ..dsl.ruleset import load_ruleset
            try:
                ruleset = load_ruleset(str(data.get("ruleset", "?")), data.get("variants", []), data.get("mods", []))
            except RuleErrors as errors:
                raise SaveFileError(f"cannot load the ruleset '{data.get('ruleset')}' this game was saved "
                                    f"with:\n{errors.format()}") from None
        if data.get("ruleset") != ruleset.name:
            raise SaveFileError(f"this game was saved with ruleset '{data.get('ruleset')}', not '{ruleset.name}'")
        if data.get("ruleset_digest") != ruleset.digest:
            raise SaveFileError(
                f"this game was saved with another version of ruleset '{ruleset.name}' "
                f"(saved: {data.get('ruleset_version')} / {data.get('ruleset_digest')}, "
                f"loaded: {ruleset.version} / {ruleset.digest}); it cannot be resumed safely")
        state = data.get("state")
        if not isinstance(state, dict) or not {"ent", "stack", "pending", "rng"} <= set(state):
            raise SaveFileError("the saved game has no usable state")
        return cls(ruleset, state, lang)

    def view(self, player: int) -> dict:
        """What one player may see (for a table or a bot that must not cheat).

        The ruleset's tables say what is hidden: ``hidden_lists`` (attributes whose order is
        secret: shown sorted), ``secret_lists`` (contents secret: shown as that many "?"),
        ``private_attributes`` (only the player controlling the entity sees them). Private
        log lines of others, the RNG and another player's pending options are left out."""
        constants = self.ruleset.constants
        me = self.state["players"][player]
        state = _copy(self.state)
        for key in ("rng", "chance", "stack"):
            state.pop(key, None)
        for record in state["ent"].values():
            self._hide(record, me, constants)
        state["log"] = self.log_for(player)
        pending = state.get("pending")
        if pending is not None and self.player_of(pending["actor"]) != player:
            pending["options"] = ["?"] * len(pending["options"])
        return state

    def _hide(self, record: dict, me: str, constants: dict) -> None:
        for attr in set(constants.get("hidden_lists", [])) & set(record):
            if isinstance(record[attr], list):
                record[attr] = sorted(record[attr], key=str)
        for attr in set(constants.get("secret_lists", [])) & set(record):
            if isinstance(record[attr], list):
                record[attr] = ["?"] * len(record[attr])
        owner = record["id"] if record.get("kind") == "player" else record.get("player")
        if owner != me:
            for attr in set(constants.get("private_attributes", [])) & set(record):
                value = record[attr]
                record[attr] = ["?"] * len(value) if isinstance(value, list) else "?"


def _offered(value: Any, options: list) -> bool:
    """Is value one of the options (True is not 1, 1 is not 1.0)?"""
    return any(value == option and type(value) is type(option) for option in options)


def _copy(value: Any) -> Any:
    """A fast deep copy of plain data."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
