"""Game.determinize: what a seat cannot see is resampled, what it can see is kept."""
from __future__ import annotations

import random

import pytest

from speciation import Game, load_ruleset
from speciation.agents import RandomAgent, SeatView
from speciation.api import determinize


@pytest.fixture(scope="module")
def rulesets():
    return {name: load_ruleset(name) for name in ("original", "marine", "evolution")}


def _played(ruleset, players: int, seed: int, actions: int) -> Game:
    game = Game.new(ruleset, players, seed)
    agents = [RandomAgent(seed, seat) for seat in range(players)]
    for _ in range(actions):
        game.apply(agents[game.current_player].choose(SeatView(game, game.current_player)))
    return game


@pytest.mark.parametrize("name,players,actions", [("original", 3, 40), ("marine", 3, 0), ("marine", 4, 2),
                                                  ("marine", 2, 60), ("evolution", 3, 80)])
def test_every_seat_sees_the_copy_as_it_sees_the_game(rulesets, name, players, actions):
    game = _played(rulesets[name], players, 7, actions)
    for seat in range(players):
        for seed in range(3):
            copy = determinize(game, seat, random.Random(seed))
            assert copy.view(seat) == game.view(seat)
            assert copy.legal_actions() and not copy.is_over
    assert game.digest() == _played(rulesets[name], players, 7, actions).digest()  # untouched


def test_hidden_facts_vary_and_known_ones_stay(rulesets):
    game = _played(rulesets["original"], 2, 3, 10)
    decks = [determinize(game, 0, random.Random(seed)).state["ent"]["game"]["deck"] for seed in range(6)]
    assert len({tuple(d) for d in decks}) == 6  # the order of the deck is resampled...
    assert all(sorted(d) == sorted(game.state["ent"]["game"]["deck"]) for d in decks)  # ...not its cards
    assert {d[-1] for d in decks} == {"ice_age"}  # hidden_tails: Ice Age stays at the bottom
    rngs = {determinize(game, 0, random.Random(seed)).state["rng"] for seed in range(6)}
    assert len(rngs) == 6 and game.state["rng"] not in rngs  # future chance is unknown too


def test_every_hidden_item_of_a_face_up_pile_is_resampled(rulesets):
    game = _played(rulesets["original"], 2, 3, 10)  # tile stacks: the top tile face up, the rest secret
    stacks = {k: r["tiles"] for k, r in game.state["ent"].items() if isinstance(r.get("tiles"), list)}
    copies = [determinize(game, 0, random.Random(seed)).state["ent"] for seed in range(12)]
    for key, tiles in stacks.items():
        assert {c[key]["tiles"][0] for c in copies} == {tiles[0]}  # the face-up tile stays
        assert len({c[key]["tiles"][-1] for c in copies}) > 1  # the bottom one is dealt anew too


def test_other_players_secret_choices_are_resampled(rulesets):
    game = _played(rulesets["marine"], 3, 5, 1)  # the first animal kept a trait in secret
    [faction] = [f for f, r in game.state["ent"].items() if r.get("trait_kept")]
    owner = game.player_of(faction)
    other = game.current_player
    assert other != owner
    seen = {tuple(determinize(game, other, random.Random(s)).state["ent"][faction]["trait_kept"])
            for s in range(8)}
    assert len(seen) > 1
    own = {tuple(determinize(game, owner, random.Random(s)).state["ent"][faction]["trait_kept"])
           for s in range(4)}
    assert own == {tuple(game.state["ent"][faction]["trait_kept"])}  # a seat knows its own
    copy = determinize(game, owner, random.Random(0))  # another's pending private choice is renamed
    hand = copy.state["ent"][copy.current_actor]["trait_hand"]
    assert sorted(copy.state["pending"]["options"]) == sorted(hand)
    assert any(determinize(game, owner, random.Random(s)).state["pending"]["options"]
               != game.state["pending"]["options"] for s in range(4))


def test_a_copy_for_search_has_no_log_and_the_same_future(rulesets):
    game = _played(rulesets["marine"], 3, 5, 30)
    seat = SeatView(game, game.current_player)
    with_log = seat.determinize(random.Random(4))
    without = seat.determinize(random.Random(4), log=False)
    assert with_log.state["log"] and without.state["log"] == [] and not without.keep_log
    assert with_log.digest() == without.digest()  # the same resampling: only the log differs
    for _ in range(20):  # and the same play on from there
        action = with_log.legal_actions()[0].value
        with_log.apply(action, decision=with_log.decision_id)
        without.apply(action, decision=without.decision_id)
    assert with_log.digest() == without.digest() and without.state["log"] == []


def _reads(ruleset, name: str, seen: set | None = None) -> set:
    """Every attribute a rule function reads, itself or through the functions it calls."""
    seen = set() if seen is None else seen
    if name in seen:
        return set()
    seen.add(name)
    function = ruleset.functions[name]
    return set(function.reads).union(*(_reads(ruleset, callee, seen) for callee in function.calls))


@pytest.mark.parametrize("name", ["original", "marine", "evolution"])
def test_public_functions_read_nothing_hidden(rulesets, name):
    from speciation.interpreter.determinize import public_functions
    ruleset = rulesets[name]
    public = public_functions(ruleset)
    hidden = ruleset.hidden.attributes
    assert public and hidden
    for function in ruleset.functions:
        reads_hidden = bool(_reads(ruleset, function) & hidden)
        assert not (function in public and reads_hidden), function
    assert ("evaluate" in public) == (name == "original")  # Marine's has modifiers (traits); Evolution's reads hands
    assert "features" not in public  # it reads the deck (original, Marine), hands (Evolution)


@pytest.mark.parametrize("name,players,actions", [("original", 4, 60), ("marine", 3, 40)])
def test_a_copy_started_from_the_games_remembered_values_values_alike(rulesets, name, players, actions):
    from speciation.agents.evaluation import evaluations
    from speciation.agents.greedy import lookahead
    from speciation.interpreter.determinize import public_functions
    game = _played(rulesets[name], players, 5, actions)
    seat = SeatView(game, game.current_player)
    actions_now = seat.legal_actions()
    cold = [lookahead(seat.determinize(random.Random(s), log=False), actions_now, seat.seat) for s in range(3)]
    first = seat.determinize(random.Random(9), log=False)
    evaluations(first)
    before = set(game._machine.memo) | set(game._machine.static_memo)
    seat.remember(first)  # the game keeps what reads nothing hidden...
    kept = (set(game._machine.memo) | set(game._machine.static_memo)) - before
    assert kept and kept <= public_functions(game.ruleset)
    assert ("evaluate" in kept) == (name == "original")
    warm = []
    for s in range(3):
        copy = seat.determinize(random.Random(s), log=False)
        seat.recall(copy)  # ...and the next copies start from it
        warm.append(lookahead(copy, actions_now, seat.seat))
    assert warm == cold
    assert evaluations(game.clone()) == evaluations(first)  # the values the game keeps are its own
