"""Where the two games of a comparison's pair part (issue 23, ``speciation/balance/divergence.py``):
a mod whose card no rule draws gives pairs alike to the end, for random and greedy agents and
in a whole study; a mod whose card is dealt parts its pairs only where that card shows."""
from __future__ import annotations

from pathlib import Path

import pytest

from speciation.balance.divergence import first_difference
from speciation.balance.runner import Config

ROOT = Path(__file__).parents[2]
DORMANT = str(ROOT / "tests" / "support" / "fixtures" / "mods" / "dormant")  # a card of a deck nothing draws
RUMOUR = str(ROOT / "benchmarks" / "mods" / "rumour")  # a Dominance card with no effect, dealt as the others
REWRITTEN = str(ROOT / "benchmarks" / "mods" / "biomass_rewritten")  # Biomass written another way, the same rule


def _pair(agents: str, mod: str) -> tuple[Config, Config]:
    return (Config("original", 4, agents, streams="per_source"),
            Config("original", 4, agents, mods=(mod,), streams="per_source"))


def test_a_card_never_drawn_leaves_random_pairs_alike_to_the_end():
    first, second = _pair("random", DORMANT)
    for index in range(3):
        parting = first_difference(first, second, index)
        assert parting.kind is None and parting.step > 500, parting  # whole games, action for action
        assert parting.added == ["Dormant"] and not parting.involved


def test_a_card_never_drawn_leaves_greedy_choices_alike():
    # the greedy agent resamples the hidden deck and draws ties: neither may see the extra card
    first, second = _pair("greedy", DORMANT)
    parting = first_difference(first, second, 0, max_actions=120)
    assert parting.kind == "not parted" and parting.step == 120


def test_a_card_never_drawn_gives_a_study_of_identical_pairs():
    pytest.importorskip("statsmodels", reason="comparisons need the balance extra")
    from speciation.balance.paired import compare_paired
    from speciation.balance.study import run_comparison
    first, second = _pair("random", DORMANT)
    first, second = (Config(c.ruleset, c.players, c.agents, mods=c.mods, games=3, streams=c.streams)
                     for c in (first, second))
    found = run_comparison(first, second)
    result = compare_paired(found["first"], found["second"], detect=0.05)
    assert result["pairs"] == result["identical_pairs"] == 3


def test_a_dealt_card_parts_the_pair_where_it_is_first_offered():
    # seed 0: Rumour comes up in the face-up slots in the first turn; the pair is alike until
    # a decision offers it (the options differ there) and parts there or later, never before
    first, second = _pair("random", RUMOUR)
    parting = first_difference(first, second, 0)
    assert parting.kind in ("options", "choice") and parting.involved
    assert parting.in_options and any(place.startswith("Rumour in ") for place in parting.in_sight)
    assert parting.options_differ is not None and parting.options_differ <= parting.step
    assert parting.to_dict()["involved"] is True


def test_a_card_written_another_way_plays_every_game_alike():
    # the benchmark's mod with no effect (bench_modder_question.py): Biomass's text and effect
    # rewritten (a for loop with an if, not a filtered list). Seeds 0, 2 and 6 resolve Biomass
    # with species to cull (the rulebook: each tile with more species than elements loses one),
    # and each game is the same, option for option and line for line of the log, to the end.
    from speciation import Game, load_ruleset
    import random
    plain = load_ruleset("original")
    rewritten = load_ruleset("original", mods=[REWRITTEN])
    assert rewritten.mod_infos[0]["brings"] == ["card biomass (changes text; effect)"]
    for seed in (0, 2, 6):
        games = Game.new(plain, players=4, seed=seed), Game.new(rewritten, players=4, seed=seed)
        rng = random.Random(seed)
        while not games[0].is_over:
            options = [game.legal_actions() for game in games]
            assert options[0] == options[1] and games[0].log == games[1].log
            pick = rng.randrange(len(options[0]))
            for game, listed in zip(games, options):
                game.apply(listed[pick])
        assert games[1].is_over and games[0].log == games[1].log
        at = [i for i, line in enumerate(games[0].log) if line.endswith("resolves Biomass")]
        assert at and "species on" in " ".join(games[0].log[at[0] + 1:at[0] + 3])
    first, second = _pair("random", REWRITTEN)
    assert first_difference(first, second, 0).kind is None
