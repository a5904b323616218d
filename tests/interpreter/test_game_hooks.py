"""The game's public hooks for tools (run a block, evaluate an expression, observe the
decisions the rules settle, checkpoints), and the game standing alone: saves and
determinization take a game, and the game module imports neither."""
import ast
import json
import random
from pathlib import Path

import pytest

from support.ruleset_builder import MINI, load, main
from speciation import (ArgumentError, Game, IllegalActionError, RuleRuntimeError, load_ruleset, load_save,
                        save_json)
from speciation.agents import SeatView
from speciation.dsl.errors import Span

ROOT = Path(__file__).parents[2]
HERE = Span("<test>", 1, 1)
SETTLING = """
    let p = first(entities(player))
    choose k from [1, 2, 3] by p prompt "how many"
    choose only from [7] by p
    may choose maybe from [9] by p prompt "maybe"
    choose none_left from [] by p
    p.vp += k
"""


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at its top or inside a function (relative names as written)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            found.add("." * node.level + (node.module or ""))
            found.update("." * node.level + alias.name for alias in node.names if not node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_game_module_imports_neither_saves_nor_determinization():
    imported = _imports(ROOT / "interpreter" / "game.py")
    assert not [name for name in imported if "saves" in name or "determinize" in name], imported
    for module in ("saves.py", "determinize.py"):  # they take a game; saves never load rule files
        imported = _imports(ROOT / "interpreter" / module)
        assert not [name for name in imported if name.endswith(("ruleset", "layers", "loader"))], imported


@pytest.fixture(scope="module")
def mini():
    return load_ruleset(str(MINI))


def test_run_block_runs_a_compiled_program_and_returns_its_names(mini):
    game = Game.new(mini, players=2, seed=1, start=False)
    block = mini.compile_program("let bonus = 4\np1.vp += bonus\n", HERE, ["p1", "p2"])
    names = game.run_block(block, {"p1": "p1", "p2": "p2"})
    assert names["bonus"] == 4 and game.state["ent"]["p1"]["vp"] == 4 and game.is_over
    assert game.history is None  # a game run so cannot be replayed from its start


def test_run_block_stops_at_a_decision_and_is_refused_while_one_is_pending(mini):
    game = Game.new(mini, players=2, seed=1, start=False)
    block = mini.compile_program("turn(p1)\n", HERE, ["p1"])
    game.run_block(block, {"p1": "p1"})
    assert game.prompt == "how many" and game.current_actor == "p1"
    digest = game.digest()
    with pytest.raises(RuleRuntimeError, match="no decision is pending"):
        game.run_block(block, {"p1": "p1"})
    assert game.digest() == digest
    game.apply(game.legal_actions()[1])
    assert game.state["ent"]["p1"]["vp"] == 2 and game.is_over


def test_start_runs_a_macro_and_evaluate_expression_reads_the_state(mini):
    game = Game.new(mini, players=2, seed=1, start=False)
    game.start("turn", ["p2"])
    game.apply(2, decision=game.decision_id)
    value = mini.compile_expression("[score(p) + 1 for p in entities(player)]", HERE, [])
    assert game.evaluate_expression(value) == [1, 3]
    mine = mini.compile_expression("score(who) * 10", HERE, ["who"])
    env = {"who": "p2"}
    assert game.evaluate_expression(mine, env) == 20 and env == {"who": "p2"}
    game.forget_remembered()  # only speed may change
    assert game.evaluate_expression(mine, {"who": "p2"}) == 20


def test_on_settled_sees_each_decision_the_rules_settle_by_themselves(tmp_path):
    game = Game.new(load(tmp_path, main(SETTLING)))
    seen = []
    game.on_settled = lambda var, value, span: seen.append((var, value, span.line))
    assert game.clone().on_settled is None  # not part of the game: clones leave it out
    game.apply(game.legal_actions()[1])  # k = 2; 'only' is settled (one option, no way to decline)
    assert [(var, value) for var, value, _ in seen] == [("only", 7)] and game.prompt == "maybe"
    game.apply(game.legal_actions()[-1])  # pass; 'none_left' is settled (no option)
    assert [(var, value) for var, value, _ in seen] == [("only", 7), ("none_left", None)]
    assert seen[0][2] < seen[1][2]  # each with the line of its choose
    game.on_settled = None
    assert game.on_settled is None and game.is_over


def test_a_checkpoint_is_plain_data_and_restore_puts_the_same_game_back(mini):
    original = load_ruleset("original")
    game = Game.new(original, players=3, seed=11, lang=None)
    chooser = random.Random(11)
    for _ in range(15):
        game.apply(chooser.choice(game.legal_actions()))
    mark = game.checkpoint()
    assert json.loads(json.dumps(mark)) == mark  # plain data
    digest, number, history, log = game.digest(), game.decision_number, game.history, list(game.log)
    seat = SeatView(game, game.current_player)  # a handle held elsewhere
    game.keep_log = False
    listed = game.legal_actions()
    for _ in range(20):
        game.apply(chooser.choice(game.legal_actions()))
    game.restore(mark)
    assert (game.digest(), game.decision_number, game.history, game.log) == (digest, number, history, log)
    assert seat.legal_actions() == game.legal_actions() and game.keep_log is False  # settings stay
    with pytest.raises(IllegalActionError):
        game.apply(listed[0])  # listed before the restore: refused (the decisions from here are new)
    game.apply(game.legal_actions()[0])
    game.restore(mark)  # a checkpoint can be restored again
    assert game.digest() == digest
    again = load_save(save_json(game), original)  # its history still replays to it
    assert again.digest() == digest


def test_restore_from_a_clone_and_refusals(mini):
    game = Game.new(mini, players=2, seed=3)
    twin = game.clone()
    game.apply(3, decision=game.decision_id)
    game.restore(twin)
    assert game.digest() == twin.digest() and game.decision_number == 0
    game.apply(1, decision=game.decision_id)
    assert twin.decision_number == 0  # the clone was copied, not shared
    with pytest.raises(ArgumentError, match="another ruleset"):
        game.restore(Game.new(load_ruleset("original"), players=2).checkpoint())
    with pytest.raises(ArgumentError, match="checkpoint"):
        game.restore({"state": {}})
