"""The ``speciation`` command: check rulesets, play, simulate, run scenarios, list.

Every command returns an exit code: 0 success, 1 a problem found (rule errors,
failed games or scenarios), 2 a usage error. Rule errors are printed as
``path:line:col: error: message`` with the source line; never as a traceback.
See ``docs/cli.md``.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import unicodedata
from pathlib import Path
from typing import Callable, Sequence

from . import __version__
from .agents import QuitGame, make_agents
from .commands import register_all
from .dsl.errors import RuleErrors, SpeciationError
from .dsl.loader import load_file
from .dsl.ruleset import Ruleset, available_rulesets, find_ruleset, load_ruleset, variant_files
from .interpreter.game import Game
from .scenarios import run_scenarios, scenario_files
from .lonefile import check_lone, is_lone
from .session import Session
from .simulation import MAX_ACTIONS, simulate
from .vocabulary import text_lines, vocabulary

LIST_SECTIONS = ("cards", "actions", "variants")
LIST_EXTRA = ("vocabulary", "mods")   # listed only when asked for (mods: also when there are some)


# ---- shared helpers ---------------------------------------------------------------

def _err(text: str) -> None:
    print(text, file=sys.stderr)


def _load(name: str, variants: Sequence[str] = (), mods: Sequence[str] = ()) -> Ruleset | int:
    """Load a ruleset, or print why not and return the exit code: 2 if no ruleset has that
    name or folder (a usage error), 1 if its files have errors."""
    try:
        find_ruleset(name)
    except RuleErrors as errors:
        _err(errors.format())
        return 2
    try:
        return load_ruleset(name, list(variants or ()), list(mods or ()))
    except RuleErrors as errors:
        _err(errors.format())
    except SpeciationError as error:
        _err(f"error: {error}")
    except Exception as exc:  # a crash of the loader itself: say so plainly
        _err(f"internal error while loading '{name}' (a bug in Speciation): {type(exc).__name__}: {exc}")
    return 1


def _workers(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 (one per core) or more, not {value}")
    return value


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def _player_count(ruleset: Ruleset, players: int | None) -> int | None:
    """The player count to use, or None (after a message) when the ruleset forbids it."""
    count = players if players is not None else ruleset.min_players
    if not ruleset.min_players <= count <= ruleset.max_players:
        _err(f"error: {ruleset.title or ruleset.name} takes {ruleset.min_players} to "
             f"{ruleset.max_players} players, not {count}")
        return None
    return count


def _language_ok(ruleset: Ruleset, lang: str | None) -> bool:
    """True if *lang* is None or a language the ruleset has names in; else say so."""
    if lang is None or lang in ruleset.labels:
        return True
    known = ", ".join(sorted(ruleset.labels)) or "none"
    _err(f"error: ruleset '{ruleset.name}' has no names in language '{lang}' (it has: {known})")
    return False


def _load_for(args: argparse.Namespace) -> Ruleset | int:
    """The ruleset a command names (with its variants and mods), or the exit code if it
    cannot be found (2) or loaded (1), or lacks the asked language (2)."""
    ruleset = _load(args.ruleset, args.variant, args.mod)
    if isinstance(ruleset, int):
        return ruleset
    if not _language_ok(ruleset, args.lang):
        return 2
    return ruleset


# ---- check -------------------------------------------------------------------------

def cmd_check(args: argparse.Namespace) -> int:
    targets = args.paths or available_rulesets()
    if not targets:
        _err("no built-in rulesets to check")
        return 0
    code = 0
    for target in targets:
        if is_lone(target):
            code = max(code, 1 if check_lone(target, args.variant, args.mod) != 0 else 0)
            continue
        ruleset = _load(target, args.variant, args.mod)
        if isinstance(ruleset, int):
            code = max(code, ruleset)
            continue
        print(f"ok: {ruleset.name} {ruleset.version} ({len(ruleset.cards)} cards)")
    return code


def _ruleset_and_players(args: argparse.Namespace) -> tuple[Ruleset, int] | int:
    """The ruleset a command names and its player count, or the exit code if either is unusable."""
    ruleset = _load_for(args)
    if isinstance(ruleset, int):
        return ruleset
    count = args.players
    agents = getattr(args, "agents", None) or ""
    if count is None and "," in agents:  # one agent per player: the list says how many
        count = len(agents.split(","))
    players = _player_count(ruleset, count)
    return 2 if players is None else (ruleset, players)


# ---- play --------------------------------------------------------------------------

def cmd_play(args: argparse.Namespace) -> int:
    if args.resume:
        game = _resume(args.resume, args.lang)
        if game is None:
            return 1
        ruleset, players = game.ruleset, len(game.state["players"])
    else:
        if not args.ruleset:
            _err("error: name a RULESET to play, or --resume SAVE")
            return 2
        loaded = _ruleset_and_players(args)
        if isinstance(loaded, int):
            return loaded
        ruleset, players = loaded
    try:
        agents = make_agents(args.agents, players, args.seed)
    except ValueError as exc:
        _err(f"error: {exc}")
        return 2
    try:
        if not args.resume:
            game = Game.new(ruleset, players, args.seed, lang=args.lang)
        session = Session(game, agents, on_log=None if args.quiet else print)
        session.audience = session.default_audience()
        if args.resume and not args.quiet:
            session.print_recent()
        session.play()
    except QuitGame:
        print("game stopped")
        return _save(game, args.save)
    except SpeciationError as error:
        _err(f"error: {error}")
        return 1
    code = _print_result(game)
    return _save(game, args.save) or code


def _resume(path: str, lang: str | None) -> Game | None:
    """A saved game to go on with, or None (after saying why)."""
    try:
        return Game.from_json(Path(path).read_text(encoding="utf-8"), lang=lang)
    except OSError as exc:
        _err(f"error: cannot read {path}: {exc.strerror}")
    except (SpeciationError, ValueError) as error:
        _err(f"error: {error}")
    return None


def _print_result(game: Game) -> int:
    """Print each player's score and the winner; 1 if a scoring function failed."""
    try:
        scores, winner = game.scores, game.winner
        extra = f" ({game.evaluate('winner_label')})" if "winner_label" in game.ruleset.functions else ""
    except SpeciationError as error:  # a scoring function that fails: RuleRuntimeError
        _err(f"error: {error}")
        return 1
    except Exception as exc:  # anything else is a bug; still no traceback for the player
        _err(f"error: scoring the finished game failed: {type(exc).__name__}: {exc}")
        return 1
    print("final scores:")
    for player, score in zip(game.state["players"], scores):
        print(f"  {game.label(player)}: {score}")
    if winner is not None:
        print(f"winner: {game.label(game.state['players'][winner])}{extra}")
    return 0


def _save(game: Game | None, path: str | None) -> int:
    """Write the game to *path*; 2 (after one line saying why) if it cannot be saved."""
    if game is None or not path:
        return 0
    try:
        text = game.to_json()
    except SpeciationError as error:  # a state JSON cannot keep: say so, write nothing
        _err(f"error: {error}")
        return 2
    except (ValueError, TypeError, RecursionError) as exc:  # a bug, but no traceback for the player
        _err(f"error: cannot save the game: {type(exc).__name__}: {exc}")
        return 2
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        _err(f"error: cannot write {path}: {exc.strerror or exc}")
        return 2
    print(f"saved to {path}")
    return 0


# ---- simulate ----------------------------------------------------------------------

def cmd_simulate(args: argparse.Namespace) -> int:
    loaded = _ruleset_and_players(args)
    if isinstance(loaded, int):
        return loaded
    ruleset, players = loaded
    summary = simulate(ruleset, args.games, players, args.seed, progress=not args.no_progress,
                       max_actions=args.max_actions, lang=args.lang, workers=args.workers)
    print(summary.format())
    if args.json:
        try:
            Path(args.json).write_text(json.dumps(summary.to_dict(), indent=1), encoding="utf-8")
        except OSError as exc:
            _err(f"error: cannot write {args.json}: {exc.strerror or exc}")
            return 2
    return 1 if summary.failed else 0


# ---- scenario ----------------------------------------------------------------------

def cmd_scenario(args: argparse.Namespace) -> int:
    files = scenario_files(args.files)
    if not files:
        _err("no scenario files found")
        return 1
    passed = failed = 0
    for result in run_scenarios(files):
        if result.passed:
            passed += 1
            print(f"PASS {result.name}")
        else:
            failed += 1
            print(f"FAIL {result.name}: " + result.reason.replace("\n", "\n    "))
            if args.log:
                print("    game log:" + "".join(f"\n      {line}" for line in result.log or ["(empty)"]))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


# ---- list --------------------------------------------------------------------------

def cmd_list(args: argparse.Namespace) -> int:
    ruleset = _load_for(args)
    if isinstance(ruleset, int):
        return ruleset
    sections = [args.what] if args.what else list(LIST_SECTIONS) + (["mods"] if ruleset.mod_infos else [])
    makers: dict[str, Callable[[Ruleset, argparse.Namespace], list[str]]] = {
        "cards": _card_lines, "actions": _action_lines, "variants": _variant_lines,
        "vocabulary": _vocabulary_lines, "mods": _mod_lines}
    for number, section in enumerate(sections):
        lines = makers[section](ruleset, args)
        if len(sections) > 1:
            print(("\n" if number else "") + f"{section} ({len(lines)}):")
            lines = ["  " + line for line in lines]
        for line in lines:
            print(line)
    return 0


def _table(rows: list[list[str]]) -> list[str]:
    """Rows as left-aligned columns."""
    if not rows:
        return []
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]


def _card_lines(ruleset: Ruleset, args: argparse.Namespace) -> list[str]:
    """Every card of every deck (e.g. Marine's evolution and trait cards), deck by deck in
    the order the decks first appear, by name within a deck. With ``--lang``, the name in
    that language, followed by the rule files' name in brackets when the two differ."""
    names = ruleset.labels.get(args.lang, {}) if args.lang else {}
    decks: list[str] = []
    for card in ruleset.cards.values():
        if card.deck not in decks:
            decks.append(card.deck)
    rows = []
    for card in ruleset.cards.values():
        shown = names.get(card.id, card.name)
        if shown != card.name:
            shown = f"{shown} ({card.name})"
        provenance = card.provenance or {}
        sources = "; ".join(str(s) for s in provenance.get("sources", []))
        row = [shown, card.deck, str(provenance.get("confidence", "?")), sources]
        if ruleset.mod_infos:
            row.append(_brought_by(ruleset, card.id))
        rows.append((decks.index(card.deck), _sort_key(shown), row))
    return _table([row for *_, row in sorted(rows, key=lambda r: (r[0], r[1]))])


def _brought_by(ruleset: Ruleset, card: str) -> str:
    """"mod NAME" for the mods that brought or changed *card*, "" otherwise."""
    names = [m["name"] for m in ruleset.mod_infos
             if any(b == f"card {card}" or b.startswith(f"card {card} (") for b in m["brings"])]
    return "".join(f"[mod {n}]" for n in names)


def _mod_lines(ruleset: Ruleset, args: argparse.Namespace) -> list[str]:
    """One line per mod: name, version, author, title, path and targets, what it brings."""
    lines = []
    for mod in ruleset.mod_infos:
        head = mod["name"] + (f" {mod['version']}" if mod["version"] else "")
        head += (f" by {mod['author']}" if mod["author"] else "") + (f" ({mod['title']})" if mod["title"] else "")
        where = mod["path"] + (f", for {', '.join(mod['targets'])}" if mod["targets"] else "")
        lines.append(f"{head} [{where}]: brings " + (", ".join(mod["brings"]) or "nothing"))
    return lines


def _sort_key(text: str) -> str:
    """Alphabetical order that puts accented letters (ł, ś, ż, ...) beside their base letter."""
    plain = unicodedata.normalize("NFKD", text.casefold().replace("ł", "l"))
    return "".join(c for c in plain if not unicodedata.combining(c)) + "\0" + text


def _action_lines(ruleset: Ruleset, args: argparse.Namespace) -> list[str]:
    rows = []
    for macro in ruleset.macros.values():
        if macro.name.startswith("action_"):
            signature = f"{macro.name}({', '.join(macro.params)})"
            rows.append([signature, macro_doc(ruleset, macro)])
    return _table(rows)


def macro_doc(ruleset: Ruleset, macro) -> str:
    """The first line of a macro's doc: the ``#`` comment lines right above its
    key (the rulesets' convention), else a comment its text starts with; or ""."""
    lines = ruleset.sources.get(macro.span.path, "").splitlines()
    value = macro.span.line - 1
    if not 0 <= value < len(lines):
        return ""
    key = next((i for i in range(value, max(value - 4, -1), -1)
                if re.match(rf"\s*{re.escape(macro.name)}\s*[(:]", lines[i])), value)
    above = key
    while above > 0 and lines[above - 1].strip().startswith("#"):
        above -= 1
    if above < key:
        return lines[above].strip().lstrip("#").strip()
    first = lines[value][macro.span.col - 1:].strip()
    return first.lstrip("#").strip() if first.startswith("#") else ""


def _vocabulary_lines(ruleset: Ruleset, args: argparse.Namespace) -> list[str]:
    return text_lines(vocabulary(args.ruleset, args.variant, args.mod))


def _variant_lines(ruleset: Ruleset, args: argparse.Namespace) -> list[str]:
    rows = []
    for variant, path in variant_files(find_ruleset(args.ruleset)).items():
        try:
            document, _ = load_file(str(path))
            title = str(document.get("title", "")) if isinstance(document, dict) else ""
        except SpeciationError as error:
            title = f"(unreadable: {error})"
        rows.append([variant, title])
    return _table(rows)


# ---- the parser ----------------------------------------------------------------------

def _ruleset_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", action="append", default=[], metavar="V",
                        help="load the ruleset with this variant (repeatable)")
    parser.add_argument("--mod", action="append", default=[], metavar="PATH",
                        help="apply this mod file or folder (repeatable)")


def _lang_option(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--lang", metavar="LANG",
                        help=f"show {what} in this language (a language of the ruleset's labels, e.g. pl)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="speciation", description="Speciation: check rulesets, play, "
                                     "simulate games, run scenarios, list what a ruleset holds.")
    parser.add_argument("--version", action="version", version=f"speciation {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = commands.add_parser("check", help="load rulesets and report every rule error")
    check.add_argument("paths", nargs="*", metavar="PATH",
                       help="ruleset folders or builtin names, or a lone card, variant or mod file or folder "
                       "(default: every builtin)")
    _ruleset_options(check)
    check.set_defaults(handler=cmd_check)

    play = commands.add_parser("play", help="play one game")
    play.add_argument("ruleset", nargs="?", metavar="RULESET", help="ruleset folder or builtin name")
    play.add_argument("--resume", metavar="SAVE", help="go on with a saved game (from --save) instead of a new one")
    play.add_argument("--players", type=_positive, metavar="N",
                      help="number of players (default: one per agent named in --agents, "
                           "else the ruleset's minimum)")
    _ruleset_options(play)
    play.add_argument("--seed", type=int, default=0, metavar="S",
                      help="seed of the game and of the random agents (default 0)")
    play.add_argument("--agents", default="random", metavar="LIST",
                      help="comma list, one per player (or one for all): random, greedy, mcts, human; "
                           "options as name:key=value, e.g. mcts:iterations=400:cutoff=10")
    play.add_argument("--quiet", action="store_true", help="print only the result, not the log")
    play.add_argument("--save", metavar="FILE", help="write the finished game as JSON")
    _lang_option(play, "names in the log, prompts and options")
    play.set_defaults(handler=cmd_play)

    sim = commands.add_parser("simulate", help="play many games with random agents")
    sim.add_argument("ruleset", metavar="RULESET", help="ruleset folder or builtin name")
    sim.add_argument("--games", type=_positive, required=True, metavar="N", help="number of games")
    sim.add_argument("--players", type=_positive, metavar="N",
                     help="players per game (default: one per agent named in --agents, else the ruleset's minimum)")
    _ruleset_options(sim)
    sim.add_argument("--seed", type=int, default=0, metavar="S", help="game i uses seed S+i (default 0)")
    sim.add_argument("--json", metavar="FILE", help="write the summary and each game's result as JSON")
    sim.add_argument("--max-actions", type=_positive, default=MAX_ACTIONS, metavar="N",
                     help=f"a game longer than this fails (default {MAX_ACTIONS})")
    sim.add_argument("--workers", type=_workers, default=1, metavar="N",
                     help="play the games in N processes (0: one per core; default 1); "
                          "the results are the same for any N")
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")
    _lang_option(sim, "names (winner labels)")
    sim.set_defaults(handler=cmd_simulate)

    scen = commands.add_parser("scenario", help="run scenario files")
    scen.add_argument("files", nargs="+", metavar="FILE", help="scenario files or folders of them")
    scen.add_argument("--log", action="store_true", help="show the game log of each failing scenario")
    scen.set_defaults(handler=cmd_scenario)

    lister = commands.add_parser("list", help="list a ruleset's cards, actions or variants")
    lister.add_argument("ruleset", metavar="RULESET", help="ruleset folder or builtin name")
    lister.add_argument("what", nargs="?", choices=LIST_SECTIONS + LIST_EXTRA,
                        help="what to list (default: cards, actions and variants)")
    _ruleset_options(lister)
    _lang_option(lister, "card names")
    lister.set_defaults(handler=cmd_list)
    register_all(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    except BrokenPipeError:
        return _closed_pipe()


def _closed_pipe() -> int:
    """The reader of our output went away (``speciation list x | head -1``): stop quietly.
    Standard output is pointed at the null device so that Python's final flush does not
    complain either; the exit code is the shell's for a closed pipe (128 + SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 141
