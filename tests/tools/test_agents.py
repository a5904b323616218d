"""Agents, the game loop and the simulation summary, on the toy ruleset."""
from __future__ import annotations

from pathlib import Path

import pytest

from speciation import Game, load_ruleset
from speciation.agents import GameTooLong, HumanAgent, QuitGame, RandomAgent, SeatView, make_agents
from speciation.play import play
from speciation.simulation import play_random_game, simulate

TOY = Path(__file__).parents[1] / "support" / "fixtures" / "toy"


@pytest.fixture(scope="module")
def toy():
    return load_ruleset(str(TOY))


def test_random_agents_finish_a_game_reproducibly(toy):
    def one(seed: int) -> list[str]:
        game = Game.new(toy, 3, seed)
        lines: list[str] = []
        play(game, [RandomAgent(seed, seat) for seat in range(3)], on_log=lines.append)
        assert game.is_over and game.state["steps"] == 9
        assert lines == game.log  # every line, once, in order
        return lines
    assert one(5) == one(5)
    assert any(one(5) != one(s) for s in range(6, 12))


def test_random_agent_does_not_touch_the_game_rng(toy):
    game = Game.new(toy, 2, 1)
    before = game.state["rng"]
    RandomAgent(1, 0).choose(SeatView(game, 0))
    assert game.state["rng"] == before


def test_max_actions_stops_a_long_game(toy):
    with pytest.raises(GameTooLong):
        play(Game.new(toy, 2, 0), [RandomAgent(0, 0), RandomAgent(0, 1)], max_actions=2)


def test_human_agent_reads_numbers_and_quits():
    answers = iter(["0", "x", "2", "q"])
    shown: list[str] = []
    agent = HumanAgent(read=lambda prompt: next(answers), write=shown.append)
    game = Game.new(load_ruleset(str(TOY)), 2, 0)
    assert agent.choose(SeatView(game, 0)).value == 2
    assert shown[0] == "Player 1: how many" and shown[-2].startswith("please type one of the numbers") and shown[-1] == "  -> 2. 2"
    with pytest.raises(QuitGame):
        agent.choose(SeatView(game, 0))


def test_human_agent_quits_at_end_of_input():
    def read(prompt: str) -> str:
        raise EOFError
    with pytest.raises(QuitGame):
        HumanAgent(read=read, write=lambda text: None).choose(SeatView(Game.new(load_ruleset(str(TOY)), 2, 0), 0))


def test_make_agents():
    assert [type(a).__name__ for a in make_agents("random", 3)] == ["RandomAgent"] * 3
    assert [type(a).__name__ for a in make_agents("human, random", 2)] == ["HumanAgent", "RandomAgent"]
    with pytest.raises(ValueError, match="2 agents for 3 players"):
        make_agents("random,random", 3)
    with pytest.raises(ValueError, match="unknown agent 'bot'"):
        make_agents("bot", 2)


def test_play_random_game_and_summary(toy):
    result = play_random_game(toy, 2, seed=3, index=0)
    assert result.completed and result.error is None
    assert result.actions == 6 and result.turns == 6
    assert result.winner_label == f"Player {result.winner + 1}"
    assert result.scores[result.winner] == max(result.scores)
    summary = simulate(toy, 4, 2, seed=3)
    assert summary.results[0].scores == result.scores
    assert [r.seed for r in summary.results] == [3, 4, 5, 6]
    assert sum(summary.wins.values()) == 4 and summary.mean_actions == 6
    assert summary.to_dict()["games"] == 4


def test_seat_view_shows_only_the_seat():
    game = Game.new(load_ruleset("marine"), 3, 2)
    seats = [SeatView(game, s) for s in range(3)]
    deciding = game.current_player
    assert seats[deciding].my_turn and seats[deciding].legal_actions() == game.legal_actions()
    for seat in seats:
        assert seat.view() == game.view(seat.seat) and seat.log() == game.log_for(seat.seat)
        if seat.seat != deciding:
            assert seat.legal_actions() == [] and seat.prompt == ""
    game.apply(game.legal_actions()[0])  # a secret choice: only its player reads the line
    assert len(seats[deciding].log()) == len(seats[(deciding + 1) % 3].log()) + 1
