"""What the commands share: loading the ruleset a command names (or saying why not, as an
exit code), checking a player count and a language, and the options several commands take."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..dsl.errors import RuleErrors, SpeciationError
from ..interpreter.ruleset import Ruleset, find_ruleset, load_ruleset
from ..rulemessages import from_environment, gettext_of


def err(text: str) -> None:
    """Print *text* on standard error."""
    print(text, file=sys.stderr)


def load(name: str, variants: Sequence[str] = (), mods: Sequence[str] = ()) -> Ruleset | int:
    """Load a ruleset, or print why not and return the exit code: 2 if no ruleset has that
    name or folder (a usage error), 1 if its files have errors (in the language of the
    environment, ``LANGUAGE``/``LANG``, when the rule errors have a catalogue in it)."""
    language = gettext_of(from_environment())
    try:
        find_ruleset(name)
    except RuleErrors as errors:
        err(errors.format(language))
        return 2
    try:
        return load_ruleset(name, list(variants or ()), list(mods or ()))
    except RuleErrors as errors:
        err(errors.format(language))
    except SpeciationError as error:
        err(f"error: {error}")
    except Exception as exc:  # a crash of the loader itself: say so plainly
        err(f"internal error while loading '{name}' (a bug in Speciation): {type(exc).__name__}: {exc}")
    return 1


def workers(text: str) -> int:
    """An option's number of worker processes (0: one per core)."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 (one per core) or more, not {value}")
    return value


def positive(text: str) -> int:
    """An option's number that must be 1 or more."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def player_count(ruleset: Ruleset, players: int | None) -> int | None:
    """The player count to use, or None (after a message) when the ruleset forbids it."""
    count = players if players is not None else ruleset.min_players
    if not ruleset.min_players <= count <= ruleset.max_players:
        err(f"error: {ruleset.title or ruleset.name} takes {ruleset.min_players} to "
            f"{ruleset.max_players} players, not {count}")
        return None
    return count


def language_ok(ruleset: Ruleset, lang: str | None) -> bool:
    """True if *lang* is None or a language the ruleset has names in; else say so."""
    if lang is None or lang in ruleset.labels:
        return True
    known = ", ".join(sorted(ruleset.labels)) or "none"
    err(f"error: ruleset '{ruleset.name}' has no names in language '{lang}' (it has: {known})")
    return False


def load_for(args: argparse.Namespace) -> Ruleset | int:
    """The ruleset a command names (with its variants and mods), or the exit code if it
    cannot be found (2) or loaded (1), or lacks the asked language (2)."""
    ruleset = load(args.ruleset, args.variant, args.mod)
    if isinstance(ruleset, int):
        return ruleset
    if not language_ok(ruleset, args.lang):
        return 2
    return ruleset


def ruleset_and_players(args: argparse.Namespace) -> tuple[Ruleset, int] | int:
    """The ruleset a command names and its player count, or the exit code if either is unusable."""
    ruleset = load_for(args)
    if isinstance(ruleset, int):
        return ruleset
    count = args.players
    agents = getattr(args, "agents", None) or ""
    if count is None and "," in agents:  # one agent per player: the list says how many
        count = len(agents.split(","))
    players = player_count(ruleset, count)
    return 2 if players is None else (ruleset, players)


def ruleset_options(parser: argparse.ArgumentParser) -> None:
    """``--variant`` and ``--mod``, both repeatable."""
    parser.add_argument("--variant", action="append", default=[], metavar="V",
                        help="load the ruleset with this variant (repeatable)")
    parser.add_argument("--mod", action="append", default=[], metavar="PATH",
                        help="apply this mod file or folder (repeatable)")


def lang_option(parser: argparse.ArgumentParser, what: str) -> None:
    """``--lang``: show *what* in a language of the ruleset's labels."""
    parser.add_argument("--lang", metavar="LANG",
                        help=f"show {what} in this language (a language of the ruleset's labels, e.g. pl)")
