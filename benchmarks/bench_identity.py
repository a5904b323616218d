"""Check that two engines play every game identically (for optimisations that must change no game).

    python benchmarks/bench_identity.py --record ref.json     # on the reference checkout
    python benchmarks/bench_identity.py --compare ref.json    # on the changed checkout
    python benchmarks/bench_identity.py --rulesets catastrophic,evolution --record cat.json

Plays random games (both editions, every player count, half with ``game.keep_log = False``;
with ``--rulesets``, those built-in rulesets in turn instead, each at every player count it
allows; the record names them, so ``--compare`` replays the same ones)
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

EDITIONS = (("original", range(2, 7)), ("marine", range(2, 5)))  # the default: both editions


def short(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def editions(names: list[str] | None) -> tuple:
    """(name, player counts) of each ruleset to play: the default editions, or *names* at
    every player count their manifests allow."""
    if not names:
        return EDITIONS
    out = []
    for name in names:
        ruleset = load_ruleset(name)
        out.append((name, range(ruleset.min_players, ruleset.max_players + 1)))
    return tuple(out)


def plan(games: int, chosen: tuple = EDITIONS) -> list[tuple[str, int, int, bool]]:
    """(edition, players, seed, keep_log) for each game, the rulesets in turn."""
    out = []
    n = len(chosen)
    for i in range(games):
        name, counts = chosen[i % n]
        out.append((name, counts[(i // n) % len(counts)], 1000 + i, (i // n) % 2 == 0))
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
    parser.add_argument("--rulesets", help="comma-separated built-in rulesets to play instead of the "
                        "original and Marine (recording only; --compare reads them from the record)")
    args = parser.parse_args(argv)
    if args.record:
        names = args.rulesets.split(",") if args.rulesets else None
        chosen = editions(names)
        rulesets = {name: load_ruleset(name) for name, _ in chosen}
        traces = [trace(rulesets[n], p, s, k) for n, p, s, k in plan(args.games, chosen)]
        with open(args.record, "w") as f:
            json.dump({"games": args.games, "rulesets": names, "traces": traces}, f)
        print(f"recorded {len(traces)} games, {sum(len(t['legal']) for t in traces)} actions")
        return 0
    with open(args.compare) as f:
        recorded = json.load(f)
    chosen = editions(recorded.get("rulesets"))
    rulesets = {name: load_ruleset(name) for name, _ in chosen}
    actions = 0
    for (name, players, seed, keep), ref in zip(plan(recorded["games"], chosen), recorded["traces"]):
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
