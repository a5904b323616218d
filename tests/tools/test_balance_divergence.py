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
