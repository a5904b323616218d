"""The table server's work a person move, in one process: no network, no threads, no load.

    python -P benchmarks/bench_table_work.py        # with each tree's interpreter, alternated
    python -P benchmarks/bench_table_work.py --draw-processes 1
    python -P benchmarks/bench_table_work.py --draw-processes 1 --agent-processes 1

Plays two original games (seats human, human, greedy; seeds 1 and 2; to their 160th decision
or their end): each person's move a seeded random option through ``TableGame.choose`` (its undo
checkpoint included), each agent's through ``TableGame.agent_step``, and after every change of
the game each page's screen (seat 1, seat 2 and a spectator) built as the table builds it
(``Table.screen``: the shared drawings, the seat's view, the undo check) and encoded for a page
that takes patches (``Connection.encode``), as its sender does. Prints the CPU time over the
person moves, the JSON sent a person move (before the websocket compresses it) and each
game's digest and a digest of every text sent to the pages (their decision ids' random game tokens left out; two trees compared must print
the same digests: the same games, and the pages sent the same). The CPU figure is what
``bench_table_load.py``'s "server CPU a move" is made of, without the event loop, the
websocket and the load that bend that one; not a test. With ``--draw-processes N`` the
pictures' bodies are drawn in N worker processes (``speciation/table/drawer.py``, loaded
before the clock starts); with ``--agent-processes N`` the agents think in N of their own
(``speciation/table/thinker.py``): the CPU of this process and the workers' are printed apart.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import random
import re
import time

from speciation.table.app import Table
from speciation.table.connections import Connection
from speciation.table.session import TableGame


def workers_cpu(table: Table) -> float:
    """The CPU time the table's drawing workers have used so far (0 without any)."""
    total = 0.0
    for drawer in (table.drawer, getattr(table, "thinking", None)):
        pool = drawer.pool if drawer is not None else None
        for process in (pool._processes or {}).values() if pool is not None else ():
            with open(f"/proc/{process.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--draw-processes", type=int, default=0)
    parser.add_argument("--agent-processes", type=int, default=0,
                        help="the agents think in this many worker processes of their own (default 0: here)")
    args = parser.parse_args()
    drawer = thinking = None
    if args.draw_processes or args.agent_processes:
        from speciation.table.drawer import Drawer
        drawer = Drawer(args.draw_processes) if args.draw_processes else None
        thinking = Drawer(args.agent_processes) if args.agent_processes else None
    table = Table(agent_delay=0.0, **({"drawer": drawer} if drawer else {}),
                  **({"thinking": thinking} if thinking else {}))
    thinker = getattr(table, "thinker", None)   # (a tree from before thinker.py: the agents think here)
    cpu, moves, sent, digests = 0.0, 0, 0, []
    elsewhere = 0.0
    texts = hashlib.sha256()   # every text sent, in order
    for seed in (1, 2):
        session = TableGame.new(f"g{seed}", "original", 3, ["human", "human", "greedy"], seed=seed)
        table.sessions[session.ident] = session
        pages = {seat: Connection(None, patches=True) for seat in (0, 1, None)}  # type: ignore[arg-type]
        rng = random.Random(seed)
        for pool in (drawer, thinking):   # the workers load the rules before the clock starts
            while pool is not None and not pool.ready(session.recipe, session.game.ruleset.digest) and not pool.failed:
                time.sleep(0.1)
        start, there = time.process_time(), workers_cpu(table)
        while not session.game.is_over and session.game.decision_number < 160:
            if session.agent_to_move():
                session.agent_step(thinker) if thinker is not None else session.agent_step()
            else:
                decision = session.game.decisions()[0]
                session.choose(decision.player, decision.id, rng.randrange(len(decision.legal_actions())))
                moves += 1
            for seat, page in pages.items():
                message = table.screen(session, seat, "en", None)
                assert isinstance(message, dict)
                _, text, picture = page.encode(message)
                sent += len(text)
                texts.update(re.sub(r'"[0-9a-f]{12}/', '"/', text).encode())   # (a decision id's game token is random)
                page.picture = picture   # what the sender keeps once it is sent
                if hasattr(page, "log"):   # (a tree from before the log patches keeps no log)
                    page.log = message["log"]
        cpu += time.process_time() - start
        elsewhere += workers_cpu(table) - there
        digests.append(session.game.digest()[:12])
    for pool in (drawer, thinking):
        if pool is not None:
            pool.close()
    print(f"{1000 * cpu / moves:.1f} ms of CPU a person move ({cpu:.2f} s, {moves} person moves), "
          f"{sent / moves / 1024:.1f} KiB of JSON sent a person move, digests {' '.join(digests)}, "
          f"sent {texts.hexdigest()[:12]}"
          + (f"; and {1000 * elsewhere / moves:.1f} ms in the workers" if drawer or thinking else "")
          + (f" ({thinker.thought} agents' choices made there)" if thinker is not None else ""))


if __name__ == "__main__":
    main()
