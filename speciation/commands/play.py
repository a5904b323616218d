"""``speciation play RULESET`` (or ``--resume SAVE``): one game at the terminal, people and
agents at its seats (:class:`speciation.terminal.TerminalSession`)."""
from __future__ import annotations

import argparse
import secrets
from pathlib import Path

from ..agents.base import QuitGame
from ..agents.registry import make_agents
from ..api import load_save, save_json, saved_seats
from ..dsl.errors import SpeciationError
from ..interpreter.game import Game
from ..outcome import GameOutcome
from ..terminal import TerminalSession
from .common import err, lang_option, positive, ruleset_and_players, ruleset_options


def register(commands) -> None:
    play = commands.add_parser("play", help="play one game")
    play.add_argument("ruleset", nargs="?", metavar="RULESET",
                      help="ruleset folder or builtin name (with --resume: the one the save was played with, "
                           "needed when it is a folder)")
    play.add_argument("--resume", metavar="SAVE", help="go on with a saved game (from --save) instead of a new one; "
                                                        "its seats keep their kinds unless --agents is given")
    play.add_argument("--players", type=positive, metavar="N",
                      help="number of players (default: one per agent named in --agents, "
                           "else the ruleset's minimum)")
    ruleset_options(play)
    play.add_argument("--seed", type=int, default=None, metavar="S",
                      help="seed of the game and of the random agents (default: drawn from a secure "
                           "random source; give one to replay a game)")
    play.add_argument("--agents", default=None, metavar="LIST",
                      help="comma list, one per player (or one for all): random, greedy, mcts, human; "
                           "options as name:key=value, e.g. mcts:iterations=400:cutoff=10 (default: random; "
                           "with --resume, the seats the save records)")
    play.add_argument("--quiet", action="store_true", help="print only the result, not the log")
    play.add_argument("--save", metavar="FILE", help="write the finished game as JSON")
    lang_option(play, "names in the log, prompts and options")
    play.set_defaults(handler=cmd_play)


def cmd_play(args: argparse.Namespace) -> int:
    if args.seed is None:  # unknown to every seat (from the seed one rebuilds every hidden fact)
        args.seed = secrets.randbits(48)
    if args.resume:
        game = _resume(args)
        if game is None:
            return 1
        ruleset, players = game.ruleset, len(game.state["players"])
        if args.agents is None:  # the seats as the save records them (a person stays a person)
            args.agents = ",".join(saved_seats(Path(args.resume).read_text(encoding="utf-8")) or []) or None
    else:
        if not args.ruleset:
            err("error: name a RULESET to play, or --resume SAVE")
            return 2
        loaded = ruleset_and_players(args)
        if isinstance(loaded, int):
            return loaded
        ruleset, players = loaded
    args.agents = args.agents or "random"
    try:
        agents = make_agents(args.agents, players, args.seed)
    except ValueError as exc:
        err(f"error: {exc}")
        return 2
    try:
        if not args.resume:
            game = Game.new(ruleset, players, args.seed, lang=args.lang)
        assert game is not None  # resumed above, or new
        session = TerminalSession(game, agents, on_log=None if args.quiet else print)
        session.audience = session.default_audience()
        if args.resume and not args.quiet:
            session.print_recent()
        outcome = session.play()
    except QuitGame:
        print("game stopped")
        return _save(game, args.save, _kinds(args.agents, players))
    except SpeciationError as error:
        err(f"error: {error}")
        return 1
    code = _print_result(game, outcome)
    return _save(game, args.save, _kinds(args.agents, players)) or code


def _kinds(agents: str, players: int) -> list[str]:
    """Each seat's kind as ``--agents`` gave it (one for all, or one per seat)."""
    names = [name.strip() for name in agents.split(",")]
    return names * players if len(names) == 1 else names[:players]


def _resume(args: argparse.Namespace) -> Game | None:
    """The saved game to go on with (its ruleset: a built-in by the name it records, or the
    RULESET given), or None (after saying why)."""
    path, lang = args.resume, args.lang
    try:
        return load_save(Path(path).read_text(encoding="utf-8"), lang=lang, named=args.ruleset, mods=args.mod,
                         how=f"speciation play DIR --resume {path} [--mod PATH]")
    except OSError as exc:
        err(f"error: cannot read {path}: {exc.strerror}")
    except (SpeciationError, ValueError) as error:
        err(f"error: {error}")
    return None


def _print_result(game: Game, outcome: GameOutcome) -> int:
    """Print each player's score and the winner; 1 if a scoring function failed."""
    if outcome.error is not None:  # a scoring function that fails: RuleRuntimeError
        err(f"error: {outcome.error}")
        return 1
    print("final scores:")
    for player, score in zip(game.state["players"], outcome.scores):
        print(f"  {game.label(player)}: {score}")
    if outcome.winner is not None:
        extra = f" ({outcome.winner_label})" if "winner_label" in game.ruleset.conventions else ""
        print(f"winner: {game.label(game.state['players'][outcome.winner])}{extra}")
    return 0


def _save(game: Game | None, path: str | None, seats: list[str] | None = None) -> int:
    """Write the game (and its *seats*' kinds) to *path*; 2 (after one line saying why) if it
    cannot be saved."""
    if game is None or not path:
        return 0
    try:
        text = save_json(game, seats)
    except SpeciationError as error:  # a state JSON cannot keep: say so, write nothing
        err(f"error: {error}")
        return 2
    except (ValueError, TypeError, RecursionError) as exc:  # a bug, but no traceback for the player
        err(f"error: cannot save the game: {type(exc).__name__}: {exc}")
        return 2
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        err(f"error: cannot write {path}: {exc.strerror or exc}")
        return 2
    print(f"saved to {path}")
    return 0
