"""Random legal play with an invariant check after every step, shared by the property tests."""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable

from speciation import Game
from speciation.api import load_save, save_json


def element_counts(state: dict, boxes: Iterable[str], animal_lists: Iterable[str] = ("added",)) -> Counter:
    """Element disks by type, wherever they are: the game's boxes (bag included), the corners
    of earth, and the animals' lists of disks."""
    ent = state["ent"]
    counts: Counter = Counter()
    for box in boxes:
        counts.update(ent["game"][box])
    for record in ent.values():
        if record["kind"] == "corner" and record["token"] is not None:
            counts[record["token"]] += 1
        if record["kind"] == "faction":
            for attribute in animal_lists:
                counts.update(record.get(attribute) or [])
    return counts


def check_round_trips(game: Game, chooser: random.Random) -> None:
    """A clone and a save/load equal the original and go on exactly as it would."""
    twin = game.clone()
    assert twin.digest() == game.digest()
    loaded = load_save(save_json(game), game.ruleset, verify=False)  # a replay each time is slow
    assert loaded.digest() == game.digest()
    if not game.is_over:
        action = chooser.choice(game.legal_actions()).value
        original = game.clone()
        for copy in (twin, loaded, original):
            copy.apply(action, decision=copy.decision_id)
        assert twin.digest() == loaded.digest() == original.digest()


def play_and_check(ruleset, players: int, seed: int, steps: int, check: Callable[[Game], None],
                   every: int = 40) -> Game:
    """Play up to *steps* random legal actions, checking invariants after each one and the
    round trips every *every* steps."""
    game = Game.new(ruleset, players=players, seed=seed)
    chooser = random.Random(seed)
    check(game)
    for step in range(steps):
        if game.is_over:
            break
        game.apply(chooser.choice(game.legal_actions()))
        check(game)
        if step % every == 0:
            check_round_trips(game, chooser)
    return game
