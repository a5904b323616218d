"""What a person reads of Evolution: New World at the table (issue 20's last cosmetic items):
option labels in words, never a rule file's identifier, a raw list or a raw boolean. Each
test asserts the text a person reads (an option's label, a drawn label, a panel's line)."""
from __future__ import annotations

import random

import pytest

from speciation import Game, load_ruleset
from speciation.render import Scene, label_of


@pytest.fixture(scope="module")
def evolution():
    return load_ruleset("evolution")


def reach(ruleset, prompt: str, seed: int = 3, limit: int = 4000) -> Game:
    """A 2-player game played at random (seeded) until its prompt starts with *prompt*."""
    game = Game.new(ruleset, 2, seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if game.prompt.startswith(prompt):
            return game
        game.apply(rng.choice(game.legal_actions()))
    raise AssertionError(f"no '{prompt}' in {limit} moves")


def labels(game: Game) -> dict:
    """The deciding seat's options as the table labels them, by value (as JSON-ish keys)."""
    seat = game.current_player
    scene = Scene.of(game.view(seat), seat, game.lang, game.ruleset)
    return {repr(a.value): label_of(scene, a) for a in game.legal_actions()}


def test_a_feeding_option_reads_as_the_rules_show_it_not_as_a_list(evolution):
    """A list option holding words ("feed") is no display space of a presentation that has no
    display: it keeps the rules' ``showing`` label (it read "feed, animal 1, Taiga")."""
    game = reach(evolution, "Feeding: what does")
    shown = labels(game)
    feeds = [label for value, label in shown.items() if value.startswith("['feed'")]
    assert feeds, shown
    for label in feeds:
        assert label.startswith("feed animal ") and " from " in label and "," not in label, label
