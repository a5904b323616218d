"""The table under load: one server process (uvicorn), many concurrent games, 3 pages each.

    python benchmarks/bench_table_load.py                      # 50 games, 60 s of play
    python benchmarks/bench_table_load.py --games 20 --seconds 30 --think 0.5
    python benchmarks/bench_table_load.py --seats human,human,human --spectators 0

Starts the table's server in a process of its own (this file with ``--serve PORT``: the
table's app under uvicorn, as ``speciation serve`` runs it, without the per-address limits
(every page here comes from one address), with an eviction policy that lets finished and
abandoned games leave memory after a few seconds, the hook standing for the store), creates
the games over HTTP (original; by default 3 seats, two people and a greedy agent playing on
the server, ``hotseat: false``) and opens each person's invite link and each game's
spectator link (``--spectators``, default 1) as a websocket client (the ``websockets``
library): 3 pages a game. Each person's page, when its seat decides, waits its "thinking"
time (``--think``, uniform from half to one and a half times it: excluded from the figures),
picks a random option and sends it; the **move round trip** is from sending the choice to
the arrival of that page's next state (the agents' moves come after it: their thinking is
not in it), over the whole run and after the first ``--warmup`` seconds (default 10), when
every page has opened and been sent its first screen (all 150 at once, at the start). The
pages ask for pictures as patches (``?patch=1``), as the table's own page does. Also reported: how long the game's **other pages** take to see a person's move
(from the send to each other page's first state after it), moves a second, the server's CPU
time, and its resident memory (RSS): started, once the games are created, at the end of
play, and after the pages have closed and the games have left memory (CPU and RSS with the
server's worker processes, if it has any: ``--draw-processes N`` has N draw the pictures'
bodies, ``speciation/table/drawer.py``, ``--agent-processes N`` N others make the agents'
choices, ``thinker.py``; by default none, where ``speciation serve`` draws in one on a machine with 2 CPUs). A run names the machine's load
average: the server shares its CPUs with the client and whatever else runs. Not a test
(speed targets live here, not in timed tests): the behaviour under abuse is tested in
``tests/tools/test_table_load.py``, and measured here: ``--flood N`` adds N pages, each
watching a game of its own, that send about 1000 messages a second (connecting again half
a second after the server closes them); ``--silent N`` adds N pages watching the games
played that never read. Each is reported with how it ended, and the server's answer to a
request after play.

    python benchmarks/bench_table_load.py --flood 2 --silent 2

A paired before/after: run this file with ``PYTHONPATH`` naming a copy of another tree
(its ``speciation/`` holding ``dsl``, ``interpreter`` and ``rulesets`` as links, as the
installed package does; the server is started with this interpreter and that path), one
right after the other.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

GOAL_P99 = 0.150   # seconds (issue 21)


# ---- the server ------------------------------------------------------------------------------------

def serve(port: int, evict: float, draw_processes: int = 0, agent_processes: int = 0) -> None:
    """The table's app under uvicorn on *port*; games leave memory *evict* seconds after their
    last page closed (finished or not: the hook stands for the store); pictures' bodies drawn
    in *draw_processes* worker processes, the agents' choices made in *agent_processes* others
    (0: in the server's)."""
    import uvicorn

    from speciation.commands.serve import WS_MAX_SIZE
    from speciation.table.app import Table, create_app
    from speciation.table.eviction import Eviction
    try:
        from speciation.table.limits import Gate, Limits
        limits = {"gate": Gate(Limits.none())}   # one address opens every page: no per-address limit
    except ImportError:   # a server from before the limits (a paired run against an older tree)
        limits = {}

    def kept(ident: str, session) -> None:   # where the store would write the game's record
        print(f"evicted {ident}", flush=True)

    profile = os.environ.get("BENCH_PROFILE")  # a file: the server's cProfile, written when it stops
    if draw_processes or agent_processes:
        from speciation.table.drawer import Drawer
        if draw_processes:
            limits["drawer"] = Drawer(draw_processes)
        if agent_processes:
            limits["thinking"] = Drawer(agent_processes)
    table = Table(agent_delay=0.0, eviction=Eviction(finished_after=evict, abandoned_after=evict,
                                                     replay_after=evict, interval=1.0, hook=kept), **limits)
    config = uvicorn.Config(create_app(table), host="127.0.0.1", port=port, log_level="warning",
                            ws_max_size=WS_MAX_SIZE)
    if not profile:
        uvicorn.Server(config).run()
        return
    import cProfile
    import contextlib
    import signal

    class Server(uvicorn.Server):
        def capture_signals(self):  # stop on SIGTERM without re-raising it, so the profile is written
            return contextlib.nullcontext()

    server = Server(config)
    signal.signal(signal.SIGTERM, lambda *_: setattr(server, "should_exit", True))
    profiler = cProfile.Profile()
    profiler.runcall(server.run)
    profiler.dump_stats(profile)


def family(pid: int) -> list[int]:
    """Process *pid* and its children, theirs too (the server's worker processes)."""
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    todo.extend(int(child) for child in children.read().split())
    return out


def rss_mb(pid: int) -> float:
    """The resident memory of process *pid* and its children (its workers), MB."""
    total = 0.0
    for member in family(pid):
        with contextlib.suppress(OSError), open(f"/proc/{member}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
    return total


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process *pid* and its children (its workers) have used so far."""
    total = 0.0
    for member in family(pid):
        with contextlib.suppress(OSError), open(f"/proc/{member}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read())


# ---- the pages ---------------------------------------------------------------------------------------

class Figures:
    def __init__(self) -> None:
        self.trips: list[float] = []
        self.sent: list[float] = []   # when each of those moves was sent (time.monotonic)
        self.started = 0.0            # when the pages started playing
        self.seen: list[float] = []   # from a person's move to another page's first screen after it
        self.errors: list[str] = []
        self.over = 0
        self.abusers: list[tuple[str, int, object]] = []   # (kind, messages sent, how it ended)


class Moves:
    """One game's latest person move (when it was sent, and a count), shared by its pages."""

    def __init__(self) -> None:
        self.at = 0.0
        self.count = 0


async def page(url: str, think: float, until: float, rng: random.Random, figures: Figures,
               moves: Moves | None = None) -> None:
    from websockets.asyncio.client import connect

    moves = moves or Moves()
    async with connect(url, max_size=None) as ws:
        sent_at: float | None = None
        counted = 0   # the game's moves this page has seen (or made)
        while True:
            timeout = max(0.1, until - time.monotonic() + (30 if sent_at else 0))
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout))
            except TimeoutError:
                return
            if message["type"] == "error":
                figures.errors.append(message["text"])
                continue
            if message["type"] != "state":
                continue
            if moves.count > counted and sent_at is None:   # another page's move reached this one
                figures.seen.append(time.perf_counter() - moves.at)
            counted = moves.count
            if sent_at is not None:
                figures.trips.append(time.perf_counter() - sent_at)
                figures.sent.append(time.monotonic() - (time.perf_counter() - sent_at))
                sent_at = None
            if message["over"]:
                figures.over += 1
                return
            if time.monotonic() >= until:
                return
            if message["yours"] and message["options"]:
                await asyncio.sleep(rng.uniform(think / 2, think * 1.5))   # thinking: not measured
                if time.monotonic() >= until:
                    return
                choice = {"type": "choose", "decision": message["decision"],
                          "index": rng.randrange(len(message["options"]))}
                sent_at = moves.at = time.perf_counter()
                moves.count += 1
                counted = moves.count
                await ws.send(json.dumps(choice))


async def play(base: str, games: int, seconds: float, think: float, seed: int, figures: Figures,
               server_pid: int, memory: dict, label: str = "", seats: list[str] | None = None,
               spectators: int = 0, floods: int = 0, silents: int = 0) -> None:
    rng = random.Random(seed)
    seats = seats or ["human"] * 3
    links = []   # (path, token or "", the game's moves)
    for i in range(games):
        answer = await asyncio.to_thread(post, base + "/api/games", {
            "ruleset": "original", "players": len(seats), "seats": seats, "hotseat": False, "seed": seed + i})
        moves = Moves()
        links.extend((*invite["url"].split("#t="), moves) for invite in answer["invites"])
        links.extend((answer["spectator"], "", moves) for _ in range(spectators))
    flooding = []   # the spectator links of games of their own, for the flooding pages
    for i in range(floods):
        answer = await asyncio.to_thread(post, base + "/api/games", {
            "ruleset": "original", "players": 2, "seats": ["human", "human"], "hotseat": False, "seed": seed + 100_000 + i})
        flooding.append(answer["spectator"])
    memory["games created" + label] = rss_mb(server_pid)
    ws_base = base.replace("http", "ws", 1)
    until = time.monotonic() + seconds
    figures.started = figures.started or time.monotonic()
    abusers = [flooder(f"{ws_base}/ws{path}", until, figures) for path in flooding] + \
        [silent(f"{ws_base}/ws{links[i * len(links) // max(1, silents)][0]}", until, figures) for i in range(silents)]
    await asyncio.gather(*abusers, *(page(f"{ws_base}/ws{path}?patch=1" + (f"&token={token}" if token else ""),
                                          think, until, random.Random(rng.random()), figures, moves)
                                     for path, token, moves in links))


async def flooder(url: str, until: float, figures: Figures) -> None:
    """A page that sends the server messages, about 1000 a second (a hand-over it has not been
    offered, over and over) and reads whatever comes back; closed by the server, it connects
    again half a second later (as the table's page does) and floods on, until the end."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    sent, closes = 0, []
    while time.monotonic() < until:
        async with connect(url, max_size=None) as ws:
            async def drain() -> None:
                with contextlib.suppress(ConnectionClosed):
                    async for _ in ws:
                        pass
            reader = asyncio.ensure_future(drain())
            with contextlib.suppress(ConnectionClosed):
                while time.monotonic() < until:
                    await ws.send('{"type": "ready"}')
                    sent += 1
                    if sent % 20 == 0:
                        await asyncio.sleep(0.02)   # about 1000 a second: 50 times the rate allowed
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
            closes.append(ws.close_code)
        await asyncio.sleep(0.5)
    figures.abusers.append(("flooding", sent, f"closed by the server {closes.count(1008)} times for flooding "
                                              f"(close codes {sorted(set(map(str, closes)))})"))


async def silent(url: str, until: float, figures: Figures) -> None:
    """A page that opens its websocket and never reads a byte (a tiny receive buffer, so the
    server's sends back up at once); at the end: did the server close it?"""
    host, rest = url.removeprefix("ws://").split("/", 1)
    name, port = host.split(":")
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    await asyncio.to_thread(raw.connect, (name, int(port)))
    raw.sendall((f"GET /{rest} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    await asyncio.sleep(max(0.0, until - time.monotonic()))
    raw.settimeout(5)
    closed = False
    with contextlib.suppress(OSError):
        while chunk := raw.recv(1 << 20):   # what it never read, then the end if the server closed it
            del chunk
        closed = True
    raw.close()
    figures.abusers.append(("never reading", 0, "closed by the server" if closed else "still open"))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the pages play")
    parser.add_argument("--think", type=float, default=1.0, help="mean thinking time of a page, seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", default="human,human,greedy",
                        help="each game's seats, a person (a page playing at random) or an agent (default "
                             "human,human,greedy)")
    parser.add_argument("--spectators", type=int, default=1, help="spectator pages per game (default 1)")
    parser.add_argument("--evict", type=float, default=3.0, help="seconds after which an idle game leaves memory")
    parser.add_argument("--rounds", type=int, default=1,
                        help="play the games this many times over (memory: is what left reused?)")
    parser.add_argument("--warmup", type=float, default=10.0,
                        help="seconds at the start (every page opening at once) left out of the steady figures")
    parser.add_argument("--flood", type=int, default=0,
                        help="pages that flood the server with messages, each watching a game of its own")
    parser.add_argument("--silent", type=int, default=0,
                        help="pages that never read, each watching one of the games played")
    parser.add_argument("--draw-processes", type=int, default=0,
                        help="pictures' bodies drawn in this many worker processes (default 0: in the server's "
                             "own; speciation serve's default is auto: 1 where the machine has 2 CPUs; table/drawer.py)")
    parser.add_argument("--agent-processes", type=int, default=0,
                        help="the agents' choices made in this many worker processes of their own (default 0: in "
                             "the server, as speciation serve; table/thinker.py)")
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.evict, args.draw_processes, args.agent_processes)
        return 0
    port = free_port()
    server = subprocess.Popen([sys.executable, "-P", __file__, "--serve", str(port), "--evict", str(args.evict)]
                              + (["--draw-processes", str(args.draw_processes)] if args.draw_processes else [])
                              + (["--agent-processes", str(args.agent_processes)] if args.agent_processes else []),
                              stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[1],
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/api/rulesets", timeout=30).read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.2)
        memory = {"started": rss_mb(server.pid)}
        cpu = cpu_seconds(server.pid)
        figures = Figures()
        elapsed = 0.0
        for round_ in range(args.rounds):   # a later round reuses what the evicted games freed
            label = f" ({round_ + 1})" if args.rounds > 1 else ""
            start = time.monotonic()
            asyncio.run(play(base, args.games, args.seconds, args.think, args.seed + 1000 * round_, figures,
                             server.pid, memory, label, args.seats.split(","), args.spectators, args.flood,
                             args.silent))
            elapsed += time.monotonic() - start
            cpu_used = cpu_seconds(server.pid) - cpu   # creating the games and playing them
            memory["end of play" + label] = rss_mb(server.pid)
            time.sleep(args.evict + 3)   # the pages are closed: the games leave memory
            memory["games evicted" + label] = rss_mb(server.pid)
        asked = time.perf_counter()
        urllib.request.urlopen(base + "/api/rulesets", timeout=30).read()   # still answering
        answered_after = time.perf_counter() - asked
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=30)
    evicted = output.count("evicted ")
    trips = figures.trips
    steady = [t for t, at in zip(trips, figures.sent, strict=True) if at >= figures.started + args.warmup]
    seats = args.seats.split(",")
    pages = args.games * (seats.count("human") + args.spectators)
    result = {
        "games": args.games, "rounds": args.rounds, "seats": args.seats, "spectators": args.spectators,
        "pages": pages, "seconds": round(elapsed, 1), "think": args.think, "draw_processes": args.draw_processes, "agent_processes": args.agent_processes,
        "moves": len(trips), "moves_per_second": round(len(trips) / elapsed, 1),
        "server_cpu_s": round(cpu_used, 1), "server_cpu_ms_per_move": round(1000 * cpu_used / max(1, len(trips)), 1),
        "round_trip_ms": {name: round(1000 * percentile(trips, q), 1)
                          for name, q in (("p50", 0.50), ("p95", 0.95), ("p99", 0.99), ("max", 1.0))},
        "mean_ms": round(1000 * statistics.fmean(trips), 1) if trips else None,
        "warmup_s": args.warmup, "steady_moves": len(steady),
        "steady_round_trip_ms": {name: round(1000 * percentile(steady, q), 1)
                                 for name, q in (("p50", 0.50), ("p95", 0.95), ("p99", 0.99), ("max", 1.0))},
        "seen_by_others_ms": {name: round(1000 * percentile(figures.seen, q), 1)
                              for name, q in (("p50", 0.50), ("p95", 0.95), ("p99", 0.99), ("max", 1.0))},
        "errors": len(figures.errors), "games_over": figures.over, "games_evicted": evicted,
        "rss_mb": {k: round(v, 1) for k, v in memory.items()},
        "load_average": round(os.getloadavg()[1], 1), "cpus": os.cpu_count(),
        "abusers": [{"kind": kind, "sent": sent, "end": str(end)} for kind, sent, end in figures.abusers],
        "answered_after_ms": round(1000 * answered_after, 1),
    }
    trip = result["round_trip_ms"]
    print(f"{args.games} games ({args.seats}, {args.spectators} spectator), {pages} pages, {elapsed:.0f} s, "
          f"think {args.think} s: {len(trips)} person moves ({result['moves_per_second']}/s)"
          + (f", pictures' bodies drawn in {args.draw_processes} worker process(es)" if args.draw_processes else "")
          + (f", agents' choices made in {args.agent_processes} worker process(es)" if args.agent_processes else ""))
    print(f"server CPU (its workers' included): {cpu_used:.1f} s while playing, {result['server_cpu_ms_per_move']} ms a person move "
          "(with the agents' moves that follow it and every page's screens)")
    print(f"move round trip: p50 {trip['p50']} ms, p95 {trip['p95']} ms, p99 {trip['p99']} ms, max {trip['max']} ms "
          f"(goal p99 <= {GOAL_P99 * 1000:.0f} ms: {'met' if trip['p99'] <= GOAL_P99 * 1000 else 'NOT met'})")
    trip = result["steady_round_trip_ms"]
    print(f"  after the first {args.warmup:g} s (every page opened and sent its first screen): {len(steady)} moves, "
          f"p50 {trip['p50']} ms, p95 {trip['p95']} ms, p99 {trip['p99']} ms, max {trip['max']} ms "
          f"({'met' if trip['p99'] <= GOAL_P99 * 1000 else 'NOT met'})")
    seen = result["seen_by_others_ms"]
    print(f"the other pages see a move: p50 {seen['p50']} ms, p95 {seen['p95']} ms, p99 {seen['p99']} ms, "
          f"max {seen['max']} ms")
    print("server RSS (its workers' included): " + ", ".join(f"{k} {v:.0f} MB" for k, v in memory.items())
          + f" ({evicted} of {args.games * args.rounds} games evicted)")
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[1]:.1f} over the last 5 minutes "
          "(the server shares them with this client and whatever else runs)")
    for kind, sent, end in figures.abusers:
        print(f"a {kind} page" + (f" ({sent} messages sent)" if sent else "") + f": {end}"
)
    print(f"the server answered a request after play in {1000 * answered_after:.0f} ms")
    if figures.errors:
        print(f"{len(figures.errors)} errors, e.g. {figures.errors[0]!r}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
