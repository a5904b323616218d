"""Decisions with identity: an action answers one decision of one game; option values are
copies; bad arguments to Game.new and view are clear errors."""
import random

import pytest

from speciation import Action, ArgumentError, Game, IllegalActionError, load_ruleset, load_save, replay, save_json


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


def test_a_clone_is_the_same_game_and_a_bare_value_answers_the_decision_it_names(original):
    game = Game.new(original, players=2, seed=2)
    action = game.legal_actions()[1]
    twin = game.clone()
    twin.apply(action)  # offered by the game, taken on its copy (a search agent does this)
    game.apply(action.value, decision=game.decision_id)  # a bare value with its decision
    assert game.digest() == twin.digest()
    assert game.legal_actions()[0].decision == game.decision_id != action.decision


def test_a_bare_value_without_its_decision_is_refused_and_changes_nothing(original):
    game = Game.new(original, players=3, seed=5)
    digest, log, number = game.digest(), list(game.log), game.decision_number
    for action in game.legal_actions():
        with pytest.raises(IllegalActionError, match="names no decision"):
            game.apply(action.value)
    with pytest.raises(IllegalActionError, match="names no decision"):
        game.apply(Action(game.legal_actions()[0].value))  # an Action made by hand names none either
    assert game.digest() == digest and game.log == log and game.decision_number == number
    for bad in (game.decision_id.split("/")[0] + "/x", 7, "", "/1"):
        with pytest.raises(IllegalActionError, match="not a decision id"):
            game.apply(game.legal_actions()[0].value, decision=bad)
    game.apply(game.legal_actions()[0])  # the Action path works
    assert game.decision_number == number + 1


def test_a_value_sent_one_decision_late_is_refused_and_changes_nothing(original):
    game = Game.new(original, players=4, seed=6)
    chooser = random.Random(6)
    refused = 0
    for _ in range(120):
        late = [(a.value, game.decision_id) for a in game.legal_actions()]
        _advance(game, chooser, 1)
        if game.is_over:
            break
        digest, log = game.digest(), list(game.log)
        for value, decision in late:  # meant for the previous decision, sent now
            with pytest.raises(IllegalActionError, match="answers decision"):
                game.apply(value, decision=decision)
            refused += 1
        with pytest.raises(IllegalActionError, match="offered by another game"):
            game.apply(late[0][0], decision=Game.new(original, players=4, seed=6).decision_id)
        assert game.digest() == digest and game.log == log
    assert refused >= 120


def test_an_action_and_a_decision_that_disagree_are_refused(original):
    game = Game.new(original, players=2, seed=7)
    action, earlier = game.legal_actions()[0], game.decision_id
    _advance(game, random.Random(7), 1)
    digest = game.digest()
    with pytest.raises(IllegalActionError, match="answers decision"):
        game.apply(game.legal_actions()[0], decision=earlier)
    with pytest.raises(IllegalActionError, match="answers decision"):
        game.apply(action, decision=game.decision_id)
    assert game.digest() == digest


def test_saves_replay_their_decisions_as_values_with_their_decision_ids(original):
    game = Game.new(original, players=3, seed=8)
    _advance(game, random.Random(8), 60)
    resumed = load_save(save_json(game), original)  # replayed from the start, decision by decision
    assert resumed.digest() == game.digest() and resumed.decision_number == game.decision_number == 60
    assert replay(original, game.history, stop=30).decision_number == 30


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
    game.apply([1, 2], decision=game.decision_id)
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
    for _actor, value in game.history["decisions"]:
        twin.apply(value, decision=twin.decision_id)
    assert twin.digest() == game.digest() != digest


def test_a_decision_that_may_be_declined_lists_the_pass_last(tmp_path):
    game = _one_player_game(tmp_path, "{got: 0}", "may choose x from [1, 2] by first(entities(player))\n    game.got = 1")
    actions = game.legal_actions()
    assert [a.value for a in actions] == [1, 2, None] and len(actions) == 3
    assert actions[-1].value is None and actions[2].label == list(actions)[2].label
    game.apply(actions[-1])
    assert game.is_over and len(game.legal_actions()) == 0 and game.legal_actions() == []
