"""The table under load: one server process (uvicorn), many concurrent games, 3 pages each.

    python benchmarks/bench_table_load.py                      # 50 games, 60 s of play
    python benchmarks/bench_table_load.py --games 20 --seconds 30 --think 0.5

Starts the table's server in a process of its own (this file with ``--serve PORT``: the
table's app under uvicorn, as ``speciation serve`` runs it, with an eviction policy that lets
finished and abandoned games leave memory after a few seconds, the hook standing for the
store), creates the games over HTTP (original, 3 seats, every seat a person on their own
page: ``hotseat: false``), and opens each seat's invite link as a websocket client (the
``websockets`` library). Each page, when its seat decides, waits its "thinking" time
(``--think``, uniform from half to one and a half times it: excluded from the figures), picks
a random option and sends it; the **move round trip** is from sending the choice to the
arrival of that page's next state. Reports p50/p95/p99/max of the round trip, moves a second,
and the server's resident memory (RSS): started, once the games are created, at the end of
play, and after the pages have closed and the games have left memory. Not a test (speed
targets live here, not in timed tests): the behaviour under abuse is tested in
``tests/tools/test_table_load.py``.
"""
from __future__ import annotations

import argparse
import asyncio
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

def serve(port: int, evict: float) -> None:
    """The table's app under uvicorn on *port*; games leave memory *evict* seconds after their
    last page closed (finished or not: the hook stands for the store)."""
    import uvicorn

    from speciation.commands.serve import WS_MAX_SIZE
    from speciation.table.app import Table, create_app
    from speciation.table.eviction import Eviction

    def kept(ident: str, session) -> None:   # where the store would write the game's record
        print(f"evicted {ident}", flush=True)

    profile = os.environ.get("BENCH_PROFILE")  # a file: the server's cProfile, written when it stops
    table = Table(agent_delay=0.0, eviction=Eviction(finished_after=evict, abandoned_after=evict,
                                                     replay_after=evict, interval=1.0, hook=kept))
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


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


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
        self.errors: list[str] = []
        self.over = 0


async def page(url: str, think: float, until: float, rng: random.Random, figures: Figures) -> None:
    from websockets.asyncio.client import connect

    async with connect(url, max_size=None) as ws:
        sent_at: float | None = None
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
            if sent_at is not None:
                figures.trips.append(time.perf_counter() - sent_at)
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
                sent_at = time.perf_counter()
                await ws.send(json.dumps(choice))


async def play(base: str, games: int, seconds: float, think: float, seed: int, figures: Figures,
               server_pid: int, memory: dict, label: str = "") -> None:
    rng = random.Random(seed)
    links = []
    for i in range(games):
        answer = await asyncio.to_thread(post, base + "/api/games", {
            "ruleset": "original", "players": 3, "seats": ["human"] * 3, "hotseat": False, "seed": seed + i})
        links.extend(invite["url"].split("#t=") for invite in answer["invites"])
    memory["games created" + label] = rss_mb(server_pid)
    ws_base = base.replace("http", "ws", 1)
    until = time.monotonic() + seconds
    await asyncio.gather(*(page(f"{ws_base}/ws{path}?token={token}", think, until, random.Random(rng.random()),
                                figures) for path, token in links))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the pages play")
    parser.add_argument("--think", type=float, default=1.0, help="mean thinking time of a page, seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--evict", type=float, default=3.0, help="seconds after which an idle game leaves memory")
    parser.add_argument("--rounds", type=int, default=1,
                        help="play the games this many times over (memory: is what left reused?)")
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.evict)
        return 0
    port = free_port()
    server = subprocess.Popen([sys.executable, "-P", __file__, "--serve", str(port), "--evict", str(args.evict)],
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
        figures = Figures()
        elapsed = 0.0
        for round_ in range(args.rounds):   # a later round reuses what the evicted games freed
            label = f" ({round_ + 1})" if args.rounds > 1 else ""
            start = time.monotonic()
            asyncio.run(play(base, args.games, args.seconds, args.think, args.seed + 1000 * round_, figures,
                             server.pid, memory, label))
            elapsed += time.monotonic() - start
            memory["end of play" + label] = rss_mb(server.pid)
            time.sleep(args.evict + 3)   # the pages are closed: the games leave memory
            memory["games evicted" + label] = rss_mb(server.pid)
        urllib.request.urlopen(base + "/api/rulesets", timeout=30).read()   # still answering
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=30)
    evicted = output.count("evicted ")
    trips = figures.trips
    result = {
        "games": args.games, "rounds": args.rounds, "pages": 3 * args.games, "seconds": round(elapsed, 1), "think": args.think,
        "moves": len(trips), "moves_per_second": round(len(trips) / elapsed, 1),
        "round_trip_ms": {name: round(1000 * percentile(trips, q), 1)
                          for name, q in (("p50", 0.50), ("p95", 0.95), ("p99", 0.99), ("max", 1.0))},
        "mean_ms": round(1000 * statistics.fmean(trips), 1) if trips else None,
        "errors": len(figures.errors), "games_over": figures.over, "games_evicted": evicted,
        "rss_mb": {k: round(v, 1) for k, v in memory.items()},
        "load_average": round(os.getloadavg()[1], 1), "cpus": os.cpu_count(),
    }
    trip = result["round_trip_ms"]
    print(f"{args.games} games x 3 pages, {elapsed:.0f} s, think {args.think} s: {len(trips)} moves "
          f"({result['moves_per_second']}/s)")
    print(f"move round trip: p50 {trip['p50']} ms, p95 {trip['p95']} ms, p99 {trip['p99']} ms, max {trip['max']} ms "
          f"(goal p99 <= {GOAL_P99 * 1000:.0f} ms: {'met' if trip['p99'] <= GOAL_P99 * 1000 else 'NOT met'})")
    print("server RSS: " + ", ".join(f"{k} {v:.0f} MB" for k, v in memory.items())
          + f" ({evicted} of {args.games * args.rounds} games evicted)")
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[1]:.1f} over the last 5 minutes "
          "(the server shares them with this client and whatever else runs)")
    if figures.errors:
        print(f"{len(figures.errors)} errors, e.g. {figures.errors[0]!r}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
