"""Catastrophic: random games finish for 2-4 players; the deck is what the card files say
(every card reconstructed and saying so); a game saves and resumes with entries on the stack;
the Event History ends the game after the 7th Event and a last round (CAT-RB)."""
from __future__ import annotations

import random

import pytest

from speciation import Game, load_ruleset
from speciation.interpreter.saves import from_json, to_json
from speciation.simulation import play_random_game


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset("catastrophic")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_finish_after_the_seventh_event(ruleset, players):
    for seed in range(3):
        result = play_random_game(ruleset, players=players, seed=seed)
        assert result.completed, result.error
        assert len(result.scores) == players and all(s >= 0 for s in result.scores)


def test_the_deck_is_sixty_reconstructed_cards(ruleset):
    cards = [e for e in ruleset.entities.values() if e["kind"] == "card"]
    assert len(cards) == 60
    counts = {t: sum(1 for c in cards if c["type"] == t) for t in ("plant", "animal", "event", "interaction")}
    assert counts == {"plant": 20, "animal": 16, "event": 12, "interaction": 12}
    assert all(info.provenance["confidence"] == "reconstructed" and "not available" in info.provenance["note"]
               for info in ruleset.cards.values())


def _random_to(game, rng, until):
    while not game.is_over and not until(game):
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])


def test_saved_with_an_interaction_on_the_stack_resumes_identically(ruleset):
    for seed in range(40):
        game, rng = Game.new(ruleset, 3, seed), random.Random(seed)
        _random_to(game, rng, lambda g: len(g.state["ent"]["game"]["stack"]) >= 1)
        if not game.is_over:
            break
    else:
        pytest.fail("no random game put an interaction on the stack")
    copy = from_json(to_json(game), ruleset)
    assert copy.digest() == game.digest()
    for g in (game, copy):
        _random_to(g, random.Random(99), lambda g: False)
    assert copy.digest() == game.digest()


def test_the_last_round_follows_the_seventh_event(ruleset):
    for seed in range(3):
        game, rng = Game.new(ruleset, 3, seed), random.Random(seed)
        history = game.state["ent"]["game"]["history"]
        before = 0
        while not game.is_over:
            if len(history) < 7:
                before = len(game.log)   # the log as the decision that plays the 7th Event is taken
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])
        turns_after = [line for line in game.log[before:] if line.startswith("== ")]
        assert len(turns_after) == 3    # everyone one more turn, the player of the 7th Event included
