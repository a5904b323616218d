"""Five hot rule computations written by hand in plain Python, for the speed benchmark.

Each reads the game state (``game.state["ent"]``) directly, as a programmer who knew
the two editions' rules would write them; ``bench_speed.py`` checks each equal to the
interpreted rules on sampled states and prints the ratio of their CPU times. This is
benchmark code, not engine code: game words are allowed here.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from speciation import Game
from speciation.dsl.errors import Span

ORIGIN = Span("<benchmark>", 1, 1)
MODIFIED_MOVES = {"bottom_feeder", "flight", "social"}  # traits that change Marine's move rules


def _food_chain(ent, members):
    return [f for f in members["faction"] if ent[f]["in_play"]]


def _tiles(ent, members):
    return [c for c in members["cell"] if ent[c]["terrain"] is not None]


def _tokens(ent, grid, t):
    return [tok for tok in (ent[k]["token"] for k in grid.corners[t]) if tok is not None]


def _matching(record, tokens):
    return sum(tokens.count(e) for e in record["printed"] + record["added"])


def hand_dominant(game: Game) -> list:
    """Each tile's dominant animal: present, matching > 0, the sole highest matching."""
    ent, members, grid = game.state["ent"], game.ruleset.kind_members, game.ruleset.grid
    chain, out = _food_chain(ent, members), []
    for t in _tiles(ent, members):
        tokens, units = _tokens(ent, grid, t), ent[t]["units"]
        best, holder, shared = 0, None, False
        for f in chain:
            if units.get(f, 0) > 0:
                m = _matching(ent[f], tokens)
                if m > best:
                    best, holder, shared = m, f, False
                elif m == best and m > 0:
                    shared = True
        out.append(None if shared else holder)
    return out


def hand_open_spaces(game: Game) -> list:
    """The original's open action spaces: eyeball spaces without a pawn."""
    ent = game.state["ent"]
    return [s for s in game.ruleset.kind_members["space"] if ent[s]["eyeball"] and ent[s]["pawn"] is None]


def hand_endangered(game: Game) -> list:
    """For each tile, the animals with species there and no matching element."""
    ent, members, grid = game.state["ent"], game.ruleset.kind_members, game.ruleset.grid
    chain = _food_chain(ent, members)
    out = []
    for t in _tiles(ent, members):
        tokens, units = _tokens(ent, grid, t), ent[t]["units"]
        out.append([f for f in chain if units.get(f, 0) > 0 and _matching(ent[f], tokens) == 0])
    return out


def hand_scoring(game: Game) -> dict:
    """Score every tile (Domination's tile scoring): each animal's VP afterwards."""
    ent, members = game.state["ent"], game.ruleset.kind_members
    scores = game.ruleset.constants["tile_scores"]
    chain = _food_chain(ent, members)
    vp = {f: ent[f]["vp"] for f in members["faction"]}
    for t in _tiles(ent, members):
        units = ent[t]["units"]
        present = [f for f in chain if units.get(f, 0) > 0]
        ranked = sorted(present, key=lambda f: -units[f])  # stable: ties keep food-chain order
        for f, points in zip(ranked, scores[ent[t]["terrain"]]):
            vp[f] = max(0, vp[f] + points)
    return vp


def hand_marine_moves(game: Game) -> list:
    """Marine's turn options for the animal to move: basic and special pawn placements."""
    ent, members = game.state["ent"], game.ruleset.kind_members
    f = game.state["pending"]["actor"]
    spaces = members["space"]
    animals = len(_food_chain(ent, members))
    owner = {}
    for s in spaces:
        pawn = ent[s]["pawn"]
        if pawn is not None:
            owner[s] = pawn if ent[pawn]["kind"] == "faction" else ent[pawn]["controller"]
    last = max([-1] + [i for i, s in enumerate(spaces) if owner.get(s) == f])
    usable = [ent[s]["min_players"] <= animals for s in spaces]
    moves = []
    if ent[f]["ap_hand"] > 0:
        basic = game.ruleset.constants["basic"]
        moves = [[basic, s] for i, s in enumerate(spaces)
                 if usable[i] and not ent[s]["special_only"] and i > last and ent[s]["pawn"] is None]
    placed = {ent[s]["pawn"] for s in spaces}
    open_to_special = [s for i, s in enumerate(spaces) if usable[i] and (
        ent[s]["pawn"] is None or (ent[ent[s]["pawn"]]["kind"] == "faction" and ent[s]["pawn"] != f))]
    for p in members["special"]:
        if ent[p]["controller"] == f and p not in placed:
            moves.extend([p, s] for s in open_to_special)
    return moves + ["retrieve"]


# ---- the interpreted side: the same computations by the rule files ----------------------

def _expression(ruleset, text: str) -> Callable[[Game], Any]:
    expr = ruleset.compile_expression(text, ORIGIN, [])

    def run(game: Game) -> Any:
        game.forget_remembered()  # as after a statement that changed the state
        return game.evaluate_expression(expr)
    return run


def _run_program(game: Game, block, env: dict) -> dict:
    """Run a compiled program alone on the game's state (the pending decision and the stack
    set aside, then put back); returns its local names."""
    state = game.state
    stack, pending = state["stack"], state["pending"]
    state["stack"], state["pending"] = [], None
    try:
        game.forget_remembered()
        return game.run_block(block, env)
    finally:
        state["stack"], state["pending"] = stack, pending


def interpreted_scoring(ruleset) -> Callable[[Game], Any]:
    block = ruleset.compile_program("for t in tiles():\n    score_tile(t)\n", ORIGIN, [])

    def run(game: Game) -> Any:
        ent = game.state["ent"]
        factions = ruleset.kind_members["faction"]
        before = {f: ent[f]["vp"] for f in factions}
        if hasattr(game, "keep_log"):
            game.keep_log = False
        lines = len(game.state["log"])  # (the log only grows)
        _run_program(game, block, {})
        after = {f: ent[f]["vp"] for f in factions}
        for f, vp in before.items():  # leave the sampled state as it was
            ent[f]["vp"] = vp
        del game.state["log"][lines:]
        game.state_edited()  # vp changed back by hand: remembered values may be stale
        return after
    return run


def interpreted_marine_moves(ruleset) -> Callable[[Game], Any]:
    block = ruleset.compile_program(
        # the same text as take_turn's in rulesets/marine/flow.yaml
        "let moves = [[basic, s] for s in basic_spaces(f)] if f.ap_hand > 0 else []\n"
        "let pawns = available_specials(f)\n"
        "if len(pawns) > 0:\n"
        "    let spaces = special_spaces(f)\n"
        "    for p in pawns:\n"
        "        extend(moves, [[p, s] for s in spaces])\n"
        "append(moves, \"retrieve\")\n", ORIGIN, ["f"])

    def run(game: Game) -> Any:
        return _run_program(game, block, {"f": game.state["pending"]["actor"]})["moves"]
    return run


@dataclass
class Check:
    name: str
    ruleset: str
    hand: Callable[[Game], Any]
    interpreted: Callable[[Any], Callable[[Game], Any]]
    wanted: Callable[[Game], bool] = lambda game: True


CHECKS = [
    Check("each tile's dominant animal", "original", hand_dominant,
          lambda r: _expression(r, "[dominant(t) for t in tiles()]")),
    Check("original: open action spaces", "original", hand_open_spaces,
          lambda r: _expression(r, "open_spaces()")),
    Check("animals endangered on each tile", "original", hand_endangered,
          lambda r: _expression(r, "[[f for f in food_chain() if endangered(f, t)] for t in tiles()]")),
    Check("scoring every tile", "original", hand_scoring, interpreted_scoring),
    Check("marine: legal turn moves", "marine", hand_marine_moves, interpreted_marine_moves,
          lambda game: game.state["pending"]["prompt"].startswith("Turn:") and not any(
              set(game.state["ent"][f].get("traits", [])) & MODIFIED_MOVES
              for f in game.ruleset.kind_members["faction"])),
]


def sample_states(ruleset, check: Check, count: int, players: int = 4) -> list[Game]:
    """Decision states from random games (every few decisions), where the check applies."""
    states: list[Game] = []
    seed = 0
    while len(states) < count and seed < 50:
        game = Game.new(ruleset, players, 1000 + seed)
        rng = random.Random(seed)
        step = 0
        while not game.is_over and len(states) < count:
            if step % 37 == 5 and check.wanted(game):
                states.append(game.clone())
            game.apply(rng.choice(game.legal_actions()))
            step += 1
        seed += 1
    return states
