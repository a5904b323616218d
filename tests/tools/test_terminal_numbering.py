"""The terminal keeps an option's number while the same question is asked again at once
(picks made one at a time), and echoes a choice with the label it offered (issue 21)."""
from __future__ import annotations

import pytest

from speciation import Game, load_ruleset
from speciation.agents import HumanAgent
from speciation.agents.base import SeatView

RULES = """kinds:
  player:
    attributes: {got: []}
  game:
    attributes: {left: [ant, bee, cat, dog, eel]}
functions:
  score(p): len(p.got)
macros:
  main: |
    let p = first(entities(player))
    while len(game.left) > 2:
        choose x from game.left by p prompt "take one"
        remove(game.left, x)
        append(p.got, x)
    choose y from [1, 2] by p prompt "how many"
    choose z from game.left by p prompt "take one"
"""


@pytest.fixture
def picks(tmp_path):
    (tmp_path / "ruleset.yaml").write_text('ruleset: picks\ntitle: Picks\nversion: "1"\nplayers: {min: 1, max: 2}\n')
    (tmp_path / "rules.yaml").write_text(RULES)
    return load_ruleset(str(tmp_path))


def test_numbers_stay_while_the_same_question_is_asked_again(picks):
    game = Game.new(picks, 1, 0)
    answers = iter(["2", "1", "4", "1", "2"])
    shown: list[str] = []
    agent = HumanAgent(read=lambda prompt: shown.append(prompt) or next(answers), write=shown.append)
    chosen = []
    while not game.is_over:
        action = agent.choose(SeatView(game, 0))
        chosen.append(action.value)
        game.apply(action)
    assert chosen == ["bee", "ant", "dog", 1, "eel"]
    text = "\n".join(shown)
    first, second, third, many, last = text.split("Player 1: ")[1:]
    assert first.startswith("take one\n  1. ant\n  2. bee\n  3. cat\n  4. dog\n  5. eel\nchoice [1-5, help, q]")
    # bee is gone: the others keep their numbers, and the prompt lists those that are left
    assert second.startswith("take one\n  1. ant\n  3. cat\n  4. dog\n  5. eel\nchoice [1,3,4,5, help, q]")
    assert "  -> 1. ant" in second
    assert third.startswith("take one\n  3. cat\n  4. dog\n  5. eel\nchoice [3-5, help, q]")
    assert "  -> 4. dog" in third
    # another question in between: the next one is numbered from 1 again
    assert many.startswith("how many\n  1. 1\n  2. 2\n")
    assert last.startswith("take one\n  1. cat\n  2. eel\n") and "  -> 2. eel" in last


def test_a_number_no_longer_offered_is_refused(picks):
    game = Game.new(picks, 1, 0)
    answers = iter(["2", "2", "3"])
    shown: list[str] = []
    agent = HumanAgent(read=lambda prompt: next(answers), write=shown.append)
    game.apply(agent.choose(SeatView(game, 0)))        # bee (2)
    assert agent.choose(SeatView(game, 0)).value == "cat"  # 2 is bee's number: refused; 3 is cat
    assert any(line.startswith("please type one of the numbers") for line in shown)
    assert shown[-1] == "  -> 3. cat"
