"""``speciation serve``: the table, a local web app to play in the browser (docs/table.md)."""
from __future__ import annotations

import argparse
import sys
import threading
import webbrowser


def register(commands) -> None:
    serve = commands.add_parser("serve", help="open the table: play in the browser")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8765, metavar="N", help="port (default 8765; 0: any free)")
    serve.add_argument("--no-browser", action="store_true", help="do not open a browser")
    serve.add_argument("--agent-delay", type=float, default=0.4, metavar="SECONDS",
                       help="pause before each agent move, to follow the game (default 0.4)")
    serve.set_defaults(handler=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..table.app import Table, create_app
    except ImportError as exc:
        print(f"error: the table needs the 'table' extra ({exc.name} is missing): "
              "pip install 'speciation[table]' (scripts/setup installs it)", file=sys.stderr)
        return 2
    app = create_app(Table(agent_delay=args.agent_delay))
    server = uvicorn.Server(uvicorn.Config(app, host=args.host, port=args.port, log_level="warning"))
    threading.Thread(target=_announce, args=(server, args), daemon=True).start()
    server.run()
    return 0


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
