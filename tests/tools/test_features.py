"""A seat's features (speciation/adapters/features.py, the learning agents' numbers): the same
length all game, from the ruleset's features(player) or the scores, and only what the seat sees."""
import random

import pytest

from speciation import Game, RuleRuntimeError, load_ruleset
from speciation.adapters.features import checked_features, feature_count, seat_features

# A game whose features read a hidden fact: where the letter a lies in the shuffled bag, and
# the other player's hand (private).
SPY = """
hidden:
  order: [bag]
  private: [hand]
kinds:
  player:
    attributes: {hand: [], vp: 0}
  game:
    attributes: {bag: [a, b, c, d, e, f, g, h]}
functions:
  score(p): p.vp
  features(p): "[p.vp, index_of(game.bag, \\"a\\"), [index_of(q.hand, \\"a\\") for q in entities(player)], true]"
macros:
  main: |
    shuffle game.bag
    for p in entities(player):
        draw k from game.bag
        append(p.hand, k)
    repeat 3:
        for p in entities(player):
            choose n from [1, 2] by p prompt "how many"
            p.vp += n
"""


def _spy(tmp_path, features=True):
    (tmp_path / "ruleset.yaml").write_text('ruleset: spy\ntitle: Spy\nversion: "1"\nplayers: {min: 2, max: 2}\n')
    (tmp_path / "rules.yaml").write_text(SPY if features else SPY.replace("  features(p)", "  unused(p)"))
    return load_ruleset(str(tmp_path))


def test_features_flatten_in_order_and_see_only_the_seat_view(tmp_path):
    ruleset = _spy(tmp_path)
    assert feature_count(ruleset, 2) == 5  # vp, where a lies in the bag, in each hand, true
    game = Game.new(ruleset, 2, 3)
    game.apply(2, decision=game.decision_id)
    mine = seat_features(game, 0)
    assert mine[0] == 2.0 and mine[4] == 1.0 and mine == seat_features(game, 0)
    hand = game.state["ent"]["p1"]["hand"]
    assert mine[2] == (0.0 if hand == ["a"] else -1.0)  # its own hand it knows
    # Whatever the hidden truth (the bag's order), the seat's numbers are the same:
    assert {tuple(seat_features(_reordered(game, s), 0)) for s in range(8)} == {tuple(mine)}
    # and they are guesses: over positions, they are not the truth the seat cannot see.
    wrong = 0
    for seed in range(20):
        game = Game.new(ruleset, 2, seed)
        truth = game.state["ent"]["game"]["bag"].index("a") if "a" in game.state["ent"]["game"]["bag"] else -1
        wrong += seat_features(game, 0)[1] != truth
    assert wrong >= 5


def test_without_features_the_scores_from_the_seat_on(tmp_path):
    ruleset = _spy(tmp_path, features=False)
    game = Game.new(ruleset, 2, 1)
    game.apply(2, decision=game.decision_id)
    game.apply(1, decision=game.decision_id)
    assert seat_features(game, 0) == [2.0, 1.0] and seat_features(game, 1) == [1.0, 2.0]


@pytest.mark.parametrize("name,players,actions", [("original", 3, 120), ("marine", 2, 160), ("evolution", 3, 150)])
def test_the_editions_features_keep_their_length_all_game(name, players, actions):
    ruleset = load_ruleset(name)
    count = feature_count(ruleset, players)
    game = Game.new(ruleset, players, 7)
    rng = random.Random(7)
    changed = set()
    first = [seat_features(game, seat) for seat in range(players)]
    for step in range(actions):
        if step % 20 == 0:
            for seat in range(players):
                values = checked_features(game, seat, count)
                changed.update(i for i, (a, b) in enumerate(zip(values, first[seat])) if a != b)
        game.apply(rng.choice(game.legal_actions()))
    assert len(changed) >= 10  # they follow the game


def test_features_of_another_length_or_not_numbers_are_clear_errors(tmp_path):
    ruleset = _spy(tmp_path)
    game = Game.new(ruleset, 2, 1)
    with pytest.raises(RuleRuntimeError, match="gave 5 numbers at decision 1, but 6 at the start"):
        checked_features(game, 0, 6)
    (tmp_path / "rules.yaml").write_text(SPY.replace('true]"', 'none]"'))
    with pytest.raises(RuleRuntimeError, match="must give numbers, true/false, or lists of them, not None"):
        seat_features(Game.new(load_ruleset(str(tmp_path)), 2, 1), 0)


def _reordered(game: Game, seed: int) -> Game:
    """The same game as seat 0 sees it, with the bag in another order (its contents are known)."""
    copy = game.clone()
    ent = copy.state["ent"]
    rng = random.Random(seed)
    rng.shuffle(ent["game"]["bag"])
    copy.state_edited()
    assert copy.view(0) == game.view(0)
    return copy
