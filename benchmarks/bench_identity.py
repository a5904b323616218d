"""Check that two engines play every game identically (for optimisations that must change no game).

    python benchmarks/bench_identity.py --record ref.json     # on the reference checkout
    python benchmarks/bench_identity.py --compare ref.json    # on the changed checkout

Plays random games (both editions, every player count, half with ``game.keep_log = False``)
and keeps, after every action, a hash of the legal actions (values and labels) and the
state digest, and at the end a hash of the log. ``--compare`` replays the same games and
reports the first difference. Not a test: it needs two checkouts.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys

from speciation import Game, load_ruleset

EDITIONS = (("original", range(2, 7)), ("marine", range(2, 5)))


def short(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def plan(games: int) -> list[tuple[str, int, int, bool]]:
    """(edition, players, seed, keep_log) for each game, both editions in turn."""
    out = []
    for i in range(games):
        name, counts = EDITIONS[i % 2]
        out.append((name, counts[(i // 2) % len(counts)], 1000 + i, (i // 2) % 2 == 0))
    return out


def trace(ruleset, players: int, seed: int, keep_log: bool) -> dict:
    game = Game.new(ruleset, players, seed)
    game.keep_log = keep_log
    rng = random.Random(f"identity:{seed}")
    legal, digests = [], []
    while not game.is_over:
        actions = game.legal_actions()  # applied unread (an engine may take them faster so)
        legal.append(short(repr([(a.value, a.label) for a in game.legal_actions()])))
        game.apply(rng.choice(actions))
        digests.append(game.digest()[:16])
    return {"legal": legal, "digest": digests, "log": short(repr(game.log)), "scores": game.scores}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--record", metavar="FILE")
    group.add_argument("--compare", metavar="FILE")
    parser.add_argument("--games", type=int, default=32)
    args = parser.parse_args(argv)
    rulesets = {name: load_ruleset(name) for name, _ in EDITIONS}
    if args.record:
        traces = [trace(rulesets[n], p, s, k) for n, p, s, k in plan(args.games)]
        with open(args.record, "w") as f:
            json.dump({"games": args.games, "traces": traces}, f)
        print(f"recorded {len(traces)} games, {sum(len(t['legal']) for t in traces)} actions")
        return 0
    with open(args.compare) as f:
        recorded = json.load(f)
    actions = 0
    for (name, players, seed, keep), ref in zip(plan(recorded["games"]), recorded["traces"]):
        got = trace(rulesets[name], players, seed, keep)
        for key in ("legal", "digest"):
            for step, (a, b) in enumerate(zip(ref[key], got[key])):
                if a != b:
                    print(f"DIFFERENT: {name} {players}p seed {seed} log {keep}: {key} after action {step}")
                    return 1
        if len(ref["legal"]) != len(got["legal"]) or ref["log"] != got["log"] or ref["scores"] != got["scores"]:
            print(f"DIFFERENT: {name} {players}p seed {seed} log {keep}: length, log or scores")
            return 1
        actions += len(got["legal"])
    print(f"identical: {recorded['games']} games, {actions} actions (legal actions and digest after each, final log)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
