"""The one play loop (speciation/play.py), its outcome (speciation/outcome.py) and the undo
stack (speciation/undo.py), on the toy ruleset; and the agents package's layering."""
from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest

from support.ruleset_builder import load, main
from speciation import Game, load_ruleset
from speciation.agents import RandomAgent, UndoRequest
from speciation.balance.runner import Config, GameRecord, play_one
from speciation.outcome import GameOutcome
from speciation.play import play
from speciation.undo import UndoStack

TOY = Path(__file__).parents[1] / "support" / "fixtures" / "toy"
AGENTS = Path(__file__).parents[2] / "speciation" / "agents"


@pytest.fixture(scope="module")
def toy():
    return load_ruleset(str(TOY))


def agents(seed: int = 0, players: int = 2) -> list[RandomAgent]:
    return [RandomAgent(seed, seat) for seat in range(players)]


def test_the_outcome_of_a_finished_game(toy):
    game = Game.new(toy, 2, 3)
    outcome = play(game, agents(3))
    assert outcome.completed and outcome.error is None and outcome.seed == 3
    assert outcome.actions == game.state["steps"] == 6 and outcome.turns == 6
    assert outcome.scores == game.scores and outcome.winner == game.winner
    assert outcome.winner_label == f"Player {game.winner + 1}" and outcome.ending is None


def test_decisions_pause_the_game_and_play_goes_on_from_there(toy):
    whole = Game.new(toy, 2, 4)
    play(whole, agents(4))
    game = Game.new(toy, 2, 4)
    players = agents(4)
    paused = play(game, players, decisions=2)
    assert not paused.completed and not game.is_over and paused.actions == 2 and paused.scores == []
    while not game.is_over:
        play(game, {game.current_player: players[game.current_player]}, decisions=1)  # a mapping: the table's
    assert game.digest() == whole.digest()


def test_hooks_see_each_decision_before_and_after_it_is_applied(toy):
    game = Game.new(toy, 2, 5)
    seen: list[tuple] = []
    play(game, agents(5), before_decision=lambda seat: seen.append(("before", seat, game.state["steps"])),
         after_decision=lambda seat, action: seen.append(("after", seat, game.state["steps"])))
    assert len(seen) == 2 * 6
    for number in range(6):
        (_, seat, steps), (_, same, later) = seen[2 * number], seen[2 * number + 1]
        assert seat == same == number % 2 and (steps, later) == (number, number + 1)


class Undoer:
    """Asks to undo at its second decision, once, then decides at random."""

    def __init__(self, seat: int):
        self.seat, self.asked, self.agent = seat, 0, RandomAgent(0, seat)

    def choose(self, seat):
        self.asked += 1
        if self.asked == 2:
            raise UndoRequest(self.seat)
        return self.agent.choose(seat)


def test_an_undo_request_goes_to_on_undo_and_the_loop_asks_again(toy):
    game = Game.new(toy, 2, 6)
    requests: list[int] = []
    undoer = Undoer(0)
    outcome = play(game, [undoer, RandomAgent(0, 1)], on_undo=lambda request: requests.append(request.seat))
    assert requests == [0] and undoer.asked == 4 and outcome.completed  # asked again after the request
    with pytest.raises(UndoRequest):  # nobody keeps the undo: the request propagates
        play(Game.new(toy, 2, 6), [Undoer(0), RandomAgent(0, 1)])


def test_a_failing_scoring_function_is_recorded_not_raised(tmp_path):
    ruleset = load(tmp_path, main('for p in entities(player):\n    choose n from [1, 2] by p prompt "n"\n    p.vp += n',
                                  extra="functions:\n  turn_count(): \"[1][5]\"\n"))
    game = Game.new(ruleset, 2, 1)
    outcome = play(game, agents())
    assert game.is_over and not outcome.completed and outcome.error and outcome.scores == []


def test_the_undo_stack_keeps_only_peoples_decisions(toy):
    game = Game.new(toy, 2, 1)
    stack = UndoStack(game, people=[0])
    stack.push(stack.checkpoint(1))  # an agent's seat: nothing to take back
    assert stack.checkpoints == [] and stack.refusal(1) == "there is no decision of yours to undo"
    digest = game.digest()
    stack.push(stack.checkpoint(0))
    game.apply(game.legal_actions()[0])  # taking points draws from the bag: chance
    assert stack.refusal(0).startswith("chance has been drawn since")
    stack.checkpoints[-1].rng = game.state["rng"]  # as if nothing was drawn
    stack.checkpoints[-1].chance = game.state["chance"]
    assert stack.refusal(0) is None and stack.undo(0) == "how many"
    assert game.current_player == 0 and game.state["steps"] == 0 and game.digest() == digest
    assert stack.checkpoints == [] and stack.refusal(0) == "there is no decision of yours to undo"


def test_a_balance_record_is_an_outcome_with_the_studys_fields():
    record = play_one(Config(str(TOY), 2, "greedy,random", games=1, seed=2), 0)
    assert isinstance(record.outcome, GameOutcome) and record.completed and record.seed == 2
    assert record.winner == record.outcome.winner and record.agents == ["greedy", "random"]
    data = record.to_dict()
    assert data["scores"] == record.scores and data["agents"] == ["greedy", "random"] and "outcome" not in data
    again = pickle.loads(pickle.dumps(record))  # records travel between processes
    assert isinstance(again, GameRecord) and again.to_dict() == data


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            found.add("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_no_agent_imports_the_registry_the_loop_or_the_undo():
    for path in AGENTS.glob("*.py"):
        if path.name in ("__init__.py", "registry.py"):
            continue
        imports = _imports(path)
        assert not imports & {".registry", "..play", "..undo", "..terminal", "..session"}, path.name
        if path.name == "base.py":  # the lowest: of the package, only the engine
            assert all(not name.startswith(".") or name.startswith("..interpreter") for name in imports), imports
