"""``speciation serve``: the table, a local web app to play in the browser (docs/table.md)."""
from __future__ import annotations

import argparse
import os
import sys
import threading
import webbrowser
from pathlib import Path


def register(commands) -> None:
    serve = commands.add_parser("serve", help="open the table: play in the browser")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8765, metavar="N", help="port (default 8765; 0: any free)")
    serve.add_argument("--no-browser", action="store_true", help="do not open a browser")
    serve.add_argument("--agent-delay", type=float, default=0.4, metavar="SECONDS",
                       help="pause before each agent move, to follow the game (default 0.4)")
    serve.add_argument("--ruleset", action="append", default=[], metavar="DIR",
                       help="a ruleset folder to offer on the new-game page, by its folder's name (repeatable; "
                            "built-in rulesets are always offered); pages never name a path")
    serve.add_argument("--mod", action="append", default=[], metavar="PATH",
                       help="a mod (file or folder) to offer on the new-game page, by its name (repeatable)")
    serve.add_argument("--origin", action="append", default=[], metavar="URL",
                       help="another origin whose pages may use the table, e.g. https://table.example "
                            "(repeatable; by default only the server's own address)")
    serve.add_argument("--data", metavar="DIR",
                       help="folder of the games' SQLite database, created on first run "
                            "(default: $XDG_DATA_HOME/speciation, i.e. ~/.local/share/speciation)")
    serve.add_argument("--database", metavar="URL",
                       help="keep the games in this database instead, e.g. postgresql+psycopg://user@host/db "
                            "(several servers may share one PostgreSQL database)")
    serve.add_argument("--memory", action="store_true",
                       help="keep games in memory only: they end with the server")
    serve.add_argument("--draw-processes", default="auto", metavar="N",
                       help="draw the pictures in N worker processes instead of the server's own (0: in the "
                            "server; default auto: 1 where the machine has 2 CPUs or more, else 0): under load a "
                            "person's move is answered sooner (docs/table.md)")
    serve.add_argument("--agent-processes", default="auto", metavar="N",
                       help="let the agents think in N worker processes of their own (0: in the server; default "
                            "auto: 1 where the machine has 2 CPUs or more, else 0; the same choices either way; "
                            "docs/table.md)")
    limits = serve.add_argument_group("limits", "what one address and the server may hold and ask (0: no limit; "
                                                "docs/security.md)")
    limits.add_argument("--max-pages-per-address", type=int, default=64, metavar="N",
                        help="pages (websockets) one address may keep open at once (default 64)")
    limits.add_argument("--max-games", type=int, default=1000, metavar="N",
                        help="unfinished games the server holds in memory; no new game past it (default 1000)")
    limits.add_argument("--max-games-per-address", type=int, default=100, metavar="N",
                        help="unfinished games one address may start (default 100)")
    limits.add_argument("--api-rate", type=float, default=2.0, metavar="R",
                        help="requests a second one address may make to start games, check mods, save, resume "
                             "or replay, on average (default 2)")
    limits.add_argument("--api-burst", type=int, default=30, metavar="N",
                        help="... and in one burst (default 30)")
    serve.set_defaults(handler=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..table.app import Table, create_app
        from ..table.limits import Gate, Limits
        from ..table.store import Store, database_url
    except ImportError as exc:
        print(f"error: the table needs the 'table' extra ({exc.name} is missing): "
              "pip install 'speciation[table]' (scripts/setup installs it)", file=sys.stderr)
        return 2
    offered = _offered(args)
    if offered is None:
        return 2
    rulesets, mods = offered
    try:
        store = None if args.memory else Store(database_url(args.data, args.database))
    except Exception as exc:  # a bad URL, a data folder that cannot be made, a missing driver
        print(f"error: cannot open the games' database: {exc}", file=sys.stderr)
        return 2
    drawer = None
    processes, agents = worker_processes(args.draw_processes), worker_processes(args.agent_processes)
    for flag, text, count in (("--draw-processes", args.draw_processes, processes),
                              ("--agent-processes", args.agent_processes, agents)):
        if count is None:
            print(f"error: {flag} takes 0 or more, or auto (not {text[:20]!r})", file=sys.stderr)
            return 2
    from ..table.drawer import Drawer
    drawer = Drawer(processes) if processes else None
    thinking = Drawer(agents) if agents else None
    table = Table(agent_delay=args.agent_delay, rulesets=rulesets, mods=mods, bound=args.host, drawer=drawer,
                  thinking=thinking,
                  origins={o.rstrip("/").lower() for o in args.origin}, store=store,
                  gate=Gate(Limits(pages_per_address=args.max_pages_per_address, games=args.max_games,
                                   games_per_address=args.max_games_per_address, rate=args.api_rate,
                                   burst=args.api_burst)))
    app = create_app(table)
    server = uvicorn.Server(uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                                           ws_max_size=WS_MAX_SIZE))
    threading.Thread(target=_announce, args=(server, args), daemon=True).start()
    server.run()
    return 0


def worker_processes(text: str) -> int | None:
    """The worker processes ``--draw-processes`` or ``--agent-processes`` asks for (None: not
    a count): ``auto`` is 1 where the machine has a CPU for it besides the server's (2 or
    more), else 0."""
    if text.strip().lower() == "auto":
        return 1 if (os.cpu_count() or 1) >= 2 else 0
    try:
        count = int(text)
    except ValueError:
        return None
    return count if count >= 0 else None


WS_MAX_SIZE = 1 << 20  # a websocket message past this closes the socket (the app refuses past 64 KiB)


def _offered(args: argparse.Namespace) -> tuple[dict[str, str], dict[str, str]] | None:
    """The folders the person starting the server offers, by name (None after saying why not)."""
    found: list[dict[str, str]] = [{}, {}]
    for kind, paths, table in (("ruleset", args.ruleset, found[0]), ("mod", args.mod, found[1])):
        for path in paths:
            where = Path(path).expanduser().resolve()
            if not where.exists():
                print(f"error: --{kind} {path}: no such file or folder", file=sys.stderr)
                return None
            name = where.stem if where.is_file() else where.name
            if name in table:
                print(f"error: two --{kind} are named {name!r}; rename one", file=sys.stderr)
                return None
            table[name] = str(where)
    return found[0], found[1]


def _announce(server, args: argparse.Namespace) -> None:
    """Once the server listens: print its address and open the browser."""
    while not server.started:
        if server.should_exit:
            return
        threading.Event().wait(0.05)
    port = server.servers[0].sockets[0].getsockname()[1] if server.servers else args.port
    host = "127.0.0.1" if args.host in ("0.0.0.0", "") else args.host
    url = f"http://{host}:{port}/"
    print(f"the table is open at {url} (Ctrl+C to stop)", flush=True)
    if not args.no_browser:
        webbrowser.open(url)
