"""Decisions with identity: an action answers one decision of one game; option values are
copies; bad arguments to Game.new and view are clear errors."""
import random

import pytest

from speciation import ArgumentError, Game, IllegalActionError, load_ruleset


@pytest.fixture(scope="module")
def original():
    return load_ruleset("original")


def _advance(game: Game, chooser: random.Random, steps: int) -> None:
    for _ in range(steps):
        game.apply(chooser.choice(game.legal_actions()))


def test_an_action_of_an_earlier_decision_is_refused_and_changes_nothing(original):
    game = Game.new(original, players=3, seed=4)
    chooser = random.Random(4)
    refused = 0
    for _ in range(150):
        stale = game.legal_actions()
        _advance(game, chooser, 1)
        digest = game.digest()
        for action in stale:
            with pytest.raises(IllegalActionError, match="answers decision"):
                game.apply(action)
            refused += 1
        assert game.digest() == digest
    assert refused >= 150


def test_an_action_of_another_game_is_refused_even_at_the_same_decision(original):
    one, two = Game.new(original, players=2, seed=1), Game.new(original, players=2, seed=1)
    assert one.decision_id != two.decision_id
    with pytest.raises(IllegalActionError, match="offered by another game"):
        two.apply(one.legal_actions()[0])
    two.apply(two.legal_actions()[0])  # its own actions are fine


def test_a_clone_is_the_same_game_and_a_raw_value_answers_the_pending_decision(original):
    game = Game.new(original, players=2, seed=2)
    action = game.legal_actions()[1]
    twin = game.clone()
    twin.apply(action)  # offered by the game, taken on its copy (a search agent does this)
    game.apply(action.value)  # a bare value always answers the pending decision
    assert game.digest() == twin.digest()
    assert game.legal_actions()[0].decision == game.decision_id != action.decision


def _one_player_game(tmp_path, attributes: str, main: str) -> Game:
    """A one-player game whose game entity has *attributes* and whose main macro is *main*."""
    (tmp_path / "ruleset.yaml").write_text('ruleset: c\ntitle: C\nversion: "1"\nplayers: {min: 1, max: 1}\n')
    (tmp_path / "rules.yaml").write_text(
        f"kinds:\n  game:\n    attributes: {attributes}\n"
        "functions:\n  score(p): \"0\"\n"
        f"macros:\n  main: |\n    {main}\n")
    return Game.new(load_ruleset(str(tmp_path)))


def test_option_values_are_copies(tmp_path):
    game = _one_player_game(tmp_path, "{pairs: [[1, 2], [3, 4]], got: []}",
                            "choose x from game.pairs by first(entities(player))\n    game.got = x")
    digest = game.digest()
    action = game.legal_actions()[0]
    action.value.append("changed")  # changing a returned option changes nothing in the game
    assert game.digest() == digest and game.pending["options"] == [[1, 2], [3, 4]]
    game.apply([1, 2])
    assert game.state["ent"]["game"]["got"] == [1, 2]
    game.state["ent"]["game"]["got"].append(5)  # nor does the chosen value share the option's list
    assert game.state["ent"]["game"]["pairs"] == [[1, 2], [3, 4]]

    # an action's value is copied when first read: an action changed so is taken as its value
    game = Game.new(load_ruleset(str(tmp_path)))
    first, second = game.legal_actions()
    first.value.append("changed")
    with pytest.raises(IllegalActionError, match="not a legal choice"):
        game.apply(first)
    assert game.pending["options"] == [[1, 2], [3, 4]]
    game.apply(second)  # unread: taken by its index (no search), bound to a copy
    assert game.state["ent"]["game"]["got"] == [3, 4] and second.value == [3, 4]
    game.state["ent"]["game"]["got"].append(5)
    assert game.state["ent"]["game"]["pairs"] == [[1, 2], [3, 4]] and second.value == [3, 4]


@pytest.mark.parametrize("kwargs, fragment", [
    ({"players": 7}, "takes 2 to 6 players, not 7"),
    ({"players": "3"}, "not '3'"),
    ({"players": True}, "not True"),
    ({"seed": "1"}, "the seed must be an integer"),
    ({"seed": 2 ** 64}, "the seed must be an integer"),
    ({"seed": 1.5}, "the seed must be an integer"),
    ({"chance": "abc"}, "chance must be a list"),
])
def test_bad_arguments_to_new_are_clear_errors(original, kwargs, fragment):
    with pytest.raises(ArgumentError, match=fragment):
        Game.new(original, **kwargs)


@pytest.mark.parametrize("seat", ["p1", -1, 3, 1.0, None, True])
def test_bad_seats_for_view_are_clear_errors(original, seat):
    game = Game.new(original, players=3, seed=1)
    with pytest.raises(ArgumentError, match="seat number from 0 to 2"):
        game.view(seat)
    with pytest.raises(ValueError):  # ArgumentError is a ValueError too
        game.log_for(seat)


def test_legal_actions_read_like_a_list_and_make_only_the_actions_read(original, monkeypatch):
    import speciation.interpreter.actions as actions_module
    made = []

    class Counted(actions_module._Offered):
        __slots__ = ()

        def __init__(self, *args):
            made.append(args[2])
            super().__init__(*args)

    monkeypatch.setattr(actions_module, "_Offered", Counted)
    game = Game.new(original, players=4, seed=3)
    chooser = random.Random(3)
    while len(game.legal_actions()) < 10:  # a decision with many options
        _advance(game, chooser, 1)
    actions = game.legal_actions()
    count = len(actions)
    made.clear()
    picked = chooser.choice(actions)  # what a random player does: one action made, not all
    assert len(made) == 1 and picked == actions[made[0]]
    whole = list(actions)
    assert len(whole) == count and actions == whole and whole == actions and actions == tuple(whole)
    assert actions[-1] == whole[-1] and actions[2:5] == whole[2:5] and actions[::3] == whole[::3]
    assert all(a in actions for a in whole) and [a.label for a in actions] == [a.label for a in whole]
    assert actions + [] == whole and [] + actions == whole
    with pytest.raises(IndexError):
        actions[count]
    with pytest.raises(TypeError):
        hash(actions)
    digest = game.digest()
    game.apply(actions[count - 1])  # applied by its index, as an action from a list would be
    twin = Game.new(original, players=4, seed=3)
    for actor, value in game.history["decisions"]:
        twin.apply(value)
    assert twin.digest() == game.digest() != digest


def test_a_decision_that_may_be_declined_lists_the_pass_last(tmp_path):
    game = _one_player_game(tmp_path, "{got: 0}", "may choose x from [1, 2] by first(entities(player))\n    game.got = 1")
    actions = game.legal_actions()
    assert [a.value for a in actions] == [1, 2, None] and len(actions) == 3
    assert actions[-1].value is None and actions[2].label == list(actions)[2].label
    game.apply(actions[-1])
    assert game.is_over and len(game.legal_actions()) == 0 and game.legal_actions() == []
