"""The frame machine and the Game API: statements, choices, chance, events, cards, saves."""
import json
import shutil

import pytest

from speciation import Game, IllegalActionError, RuleRuntimeError, SaveFileError, load_ruleset
from speciation.interpreter.game import PASS_LABEL, Action

from support.ruleset_builder import MINI, load, main
from speciation.api import load_save, save_json


def run(tmp_path, body, macros=None, extra="", **options):
    return Game.new(load(tmp_path, main(body, macros, extra)), **options)


@pytest.fixture(scope="module")
def mini():
    return load_ruleset(str(MINI))


def play(game, moves):
    for move in moves:
        game.apply(move, decision=game.decision_id)
    return game


# ---- statements ------------------------------------------------------------------------------

def test_let_if_elif_else_for_and_break(tmp_path):
    game = run(tmp_path, """
        let xs = []
        for i in range(6):
            if i == 1:
                pass
            elif i == 4:
                break
            else:
                append(xs, i)
        log("{}", xs)
    """)
    assert game.log == ["[0, 2, 3]"]
    assert game.is_over


def test_while_repeat_and_augmented_assignment(tmp_path):
    game = run(tmp_path, """
        let n = 0
        while n < 10:
            n += 3
        repeat 4:
            game.n += 2
        game.n -= 1
        log("{} {}", n, game.n)
    """)
    assert game.log == ["12 7"]


def test_break_leaves_only_the_innermost_loop(tmp_path):
    game = run(tmp_path, """
        let out = []
        for i in range(3):
            let j = 0
            while true:
                j += 1
                if j > i:
                    break
            append(out, j)
        log("{}", out)
    """)
    assert game.log == ["[1, 2, 3]"]


def test_return_leaves_the_macro_from_inside_a_loop(tmp_path):
    game = run(tmp_path, 'log("before")\nearly(2)\nlog("after")', {"early(stop)": """
        for i in range(5):
            if i == stop:
                return
            log("i {}", i)
        log("never")
    """})
    assert game.log == ["before", "i 0", "i 1", "after"]


def test_macro_arguments_and_locals_are_the_macros_own(tmp_path):
    game = run(tmp_path, 'let x = 1\nbump(x)\nlog("{}", x)', {"bump(x)": 'x += 10\nlog("in {}", x)'})
    assert game.log == ["in 11", "1"]


def test_break_outside_a_loop_is_a_runtime_error(tmp_path):
    with pytest.raises(RuleRuntimeError) as caught:
        run(tmp_path, "pass\nbreak")
    assert str(caught.value).endswith("rules.yaml:4:5: 'break' outside a loop")


def test_expressions(tmp_path):
    game = run(tmp_path, """
        let n = 12
        log("{}", "big" if n > 5 else "small")
        log("{} {} {}", -n + 2 * 3, 7 // 2 - 1, 7 % 4)
        log("{} {} {}", 1 in [1], 2 not in [1], not true or false and true)
        log("{} {}", [i * i for i in range(6) if i % 2 == 0], [w for w in letters])
        log("{} {}", worth[b], "é\\tx")
    """)
    assert game.log == ["big", "-6 2 3", "true true false", "[0, 4, 16] [a, b, c]", "2 é\tx"]


def test_comprehension_restores_a_shadowed_local(tmp_path):
    game = run(tmp_path, 'let i = 9\nlet xs = [i + 1 for i in range(2)]\nlog("{} {}", xs, i)')
    assert game.log == ["[1, 2] 9"]


def test_map_entries_read_0_when_missing_and_vanish_at_0(tmp_path):
    game = run(tmp_path, """
        let p = first(entities(player))
        log("{}", p.counts[a])
        p.counts[a] += 2
        p.counts[b] += 1
        log("{} {}", p.counts[a], keys(p.counts))
        p.counts[a] -= 2
        log("{}", keys(p.counts))
    """)
    assert game.log == ["0", "2 [a, b]", "[b]"]
    assert game.state["ent"]["p1"]["counts"] == {"b": 1}


def test_let_copies_lists(tmp_path):
    game = run(tmp_path, 'let xs = game.bag\nappend(xs, z)\nlog("{} {}", len(xs), len(game.bag))',
               extra="symbols:\n  extra: [z]\n")
    assert game.log == ["5 4"]


# ---- choices -------------------------------------------------------------------------------------

CHOICES = """
    let p = first(entities(player))
    choose k from [1, 2, 3] by p prompt "how many"
    may choose l from letters by p prompt "pick" showing format("L-{}", l)
    choose only from [7] by p
    may choose maybe from [9] by p prompt "maybe"
    choose none_left from [] by p
    log("{} {} {} {} {}", k, l, only, maybe, none_left)
"""


def test_choose_protocol(tmp_path):
    game = run(tmp_path, CHOICES)
    assert game.pending["var"] == "k" and game.prompt == "how many"
    assert game.current_actor == "p1" and game.current_player == 0
    assert game.legal_actions() == [Action(1, "1"), Action(2, "2"), Action(3, "3")]
    game.apply(2, decision=game.decision_id)
    # may: a pass option is added; 'showing' gives the labels
    assert game.legal_actions() == [Action("a", "L-a"), Action("b", "L-b"), Action("c", "L-c"),
                                    Action(None, PASS_LABEL)]
    with pytest.raises(IllegalActionError, match="names no decision"):
        game.apply(Action("b", "L-b"))  # made by hand: it names no decision
    game.apply(Action("b", "L-b"), decision=game.decision_id)
    # the one-option choice was taken automatically; a 'may' with one option still asks
    assert game.prompt == "maybe" and game.legal_actions() == [Action(9, "9"), Action(None, PASS_LABEL)]
    game.apply(None, decision=game.decision_id)
    assert game.is_over
    assert game.log[-1] == "2 b 7 none none"
    assert game.state["steps"] == 3


def test_a_choice_ending_a_suite_in_a_loop_resumes_after_the_if(tmp_path):
    # the suite paused at its last statement: resumed, the loop's body goes on after the
    # if (then its next round), from a save too
    body = """
        let p = first(entities(player))
        let n = 0
        while n < 3:
            n += 1
            let k = 0
            if n != 2:
                log("ask {}", n)
                choose k from [n, n * 10] by p prompt "pick"
            log("after {} {}", n, k)
        log("done {}", n)
    """
    moves = [10, 3]
    whole = play(run(tmp_path / "a", body), moves)
    assert whole.is_over
    assert whole.log == ["ask 1", "  Player 1: pick → 10", "after 1 10", "after 2 0", "ask 3",
                         "  Player 1: pick → 3", "after 3 3", "done 3"]
    for cut in range(len(moves) + 1):
        game = play(run(tmp_path / "a", body), moves[:cut])
        resumed = play(load_save(save_json(game), game.ruleset), moves[cut:])
        assert resumed.log == whole.log and resumed.digest() == whole.digest(), cut


def test_declining_a_may_choice(tmp_path):
    game = play(run(tmp_path, CHOICES), [1, None, 9])
    assert game.log[-1] == "1 none 7 9 none"


def test_illegal_action_raises_and_changes_nothing(tmp_path):
    game = run(tmp_path, CHOICES)
    before, log = game.digest(), list(game.log)
    for bad in (4, "a", None, [1]):
        with pytest.raises(IllegalActionError) as caught:
            game.apply(bad, decision=game.decision_id)
        assert "is not a legal choice for 'how many' now; legal: 1, 2, 3" in str(caught.value)
    assert game.digest() == before and game.log == log
    play(game, [1, None, None])
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.apply(1, decision=game.decision_id)


# ---- chance ------------------------------------------------------------------------------------------

DRAWS = 'draw x from game.bag\ndraw y from game.bag\nshuffle game.bag\nlog("{} {} {}", x, y, game.bag)'


def test_scripted_chance_is_used_first(tmp_path):
    ruleset = load(tmp_path, main(DRAWS))
    game = Game.new(ruleset, chance=["c", "a"])
    assert game.log[0].startswith("c a ")
    assert sorted(game.state["ent"]["game"]["bag"]) == ["a", "b"]
    assert game.state["chance"] == []


def test_scripted_chance_outcome_must_be_available(tmp_path):
    ruleset = load(tmp_path, main(DRAWS))
    with pytest.raises(RuleRuntimeError) as caught:
        Game.new(ruleset, chance=["a", "z"])
    assert "rules.yaml:4:5: the scripted chance outcome z is not available (there are: [a, b, c])" in str(caught.value)


def test_chance_from_a_tape_asks_for_each_outcome(tmp_path):
    """A chance source answers every chance step (a draw among 4, then the shuffle's swaps among
    3 and 2); a tape that runs out says how many outcomes the next step has. The source is not
    state: the seed's generator is untouched, and saves, views and clones leave it out."""
    from speciation.interpreter.chance import ChanceNeeded, ChanceTape
    ruleset = load(tmp_path, main('draw x from game.bag\nshuffle game.bag\nlog("{} {}", x, game.bag)'))
    for outcomes, n in (([], 4), ([1], 3), ([1, 2], 2)):
        game = Game.new(ruleset, start=False)
        game.chance_source = ChanceTape(outcomes)
        with pytest.raises(ChanceNeeded) as needed:
            game.start("main")
        assert needed.value.n == n
    game = Game.new(ruleset, seed=3, start=False)
    before = game.state["rng"]
    game.chance_source = ChanceTape([1, 0, 0])  # x = b; [a, c, a] -> [a, c, a] -> [c, a, a]
    game.start("main")
    assert game.log == ["b [c, a, a]"] and game.state["rng"] == before and game.history is None
    assert game.clone().chance_source is None and "ChanceTape" not in save_json(game) + str(game.view(0))
    with pytest.raises(RuleRuntimeError, match="chance outcome 5 is not one of the 4"):
        game = Game.new(ruleset, start=False)
        game.chance_source = ChanceTape([5])
        game.start("main")


def test_draw_from_an_empty_list_gives_none(tmp_path):
    game = run(tmp_path, 'clear(game.bag)\ndraw x from game.bag\nlog("{}", x)')
    assert game.log == ["none"]


def test_random_draws_and_shuffles_follow_the_seed(tmp_path):
    ruleset = load(tmp_path, main(DRAWS))
    logs = {seed: Game.new(ruleset, seed=seed).log[0] for seed in range(12)}
    assert all(Game.new(ruleset, seed=seed).log[0] == logs[seed] for seed in logs)
    assert len(set(logs.values())) > 3
    # the generator's whole state is one integer in the game state
    game = Game.new(ruleset, seed=3)
    assert isinstance(game.state["rng"], int)
    assert Game.new(ruleset, seed=3).state["rng"] == game.state["rng"] != Game.new(ruleset, seed=4).state["rng"]


# ---- events, cards, modifiers (the mini fixture) ---------------------------------------------------

def test_emit_runs_triggers_whose_if_holds(mini):
    game = play(Game.new(mini, players=2), [3, 1])
    # only the player who took 3 gets the trigger's bonus point
    assert [game.state["ent"][p]["vp"] for p in ("p1", "p2")] == [4, 1]
    assert "bonus for Player 1" in game.log and "bonus for Player 2" not in game.log


def test_card_triggers_run_only_while_the_deck_says_active(mini):
    game = play(Game.new(mini, players=2), [1, 1])
    assert game.state["ent"]["game"]["hits"] == 0  # 'scored' fired before Ember was in play
    game.apply(None, decision=game.decision_id)  # p1 plays nothing: no event
    assert game.state["ent"]["game"]["hits"] == 0
    game.apply("ember", decision=game.decision_id)  # p2 plays Ember, then 'scored' fires with Ember in play
    assert game.state["ent"]["game"]["hits"] == 1


def test_perform_runs_a_card_effect_with_the_deck_params(mini):
    game = play(Game.new(mini, players=2), [1, 2, "frost"])
    assert game.prompt == "pick a letter" and game.current_actor == "p1"
    game.apply("b", decision=game.decision_id)
    assert game.state["ent"]["p1"]["vp"] == 1 + 2  # value(b) is 2; Frost's own modifier needs c


def test_modifiers_apply_while_their_card_is_active(mini):
    game = Game.new(mini, players=2)
    assert game.evaluate("value", "a") == 1
    play(game, [1, 1, "ember"])
    assert game.state["ent"]["game"]["in_play"] == ["ember"]
    assert game.evaluate("value", "a") == 10  # Ember: base * 10
    game.apply("frost", decision=game.decision_id)
    game.apply("c", decision=game.decision_id)
    # Ember then Frost (while l == c): (3 * 10) + 100
    assert game.evaluate("value", "c") == 130 and game.evaluate("value", "b") == 20
    assert game.is_over and game.scores == [11, 131]
    assert game.log[-1] == "final [11, 131]"


def test_variant_changes_the_start(mini):
    rich = load_ruleset(str(MINI), variants=["rich"])
    game = play(Game.new(rich, players=2), [1, 1, None, None])
    assert game.scores == [6, 6]


# ---- state as data: saves, clones, digests ------------------------------------------------------------

def test_save_inside_a_macro_called_from_a_loop_resumes_identically(mini):
    moves = [3, 1, 2, "ember", "frost", "c"]
    whole = play(Game.new(mini, players=3, seed=5), moves)
    assert whole.is_over

    game = play(Game.new(mini, players=3, seed=5), moves[:1])
    # p2 is choosing inside turn(p), called from main's first loop
    stack = game.state["stack"]
    assert len(stack) == 4 and stack[-1][2] == {"p": "p2"} and stack[1][2] == ["p1", "p2", "p3"]
    text = save_json(game)
    data = json.loads(text)
    assert data["ruleset"] == {"name": "mini", "version": "1", "digest": mini.digest, "variants": [], "mods": []}
    assert data["history"] == {"seed": 5, "players": 3, "chance": [], "decisions": [["p1", 3]]}

    resumed = load_save(text, mini)
    assert resumed.digest() == game.digest()
    play(resumed, moves[1:])
    assert resumed.is_over
    assert resumed.digest() == whole.digest()
    assert resumed.log == whole.log


def test_every_point_of_a_game_can_be_saved_and_resumed(mini):
    moves = [2, 3, "frost", "a", "ember"]
    whole = play(Game.new(mini, players=2, seed=9), moves)
    for cut in range(len(moves) + 1):
        game = play(Game.new(mini, players=2, seed=9), moves[:cut])
        resumed = play(load_save(save_json(game), mini), moves[cut:])
        assert resumed.digest() == whole.digest(), cut


def test_clone_is_independent(mini):
    game = play(Game.new(mini, players=2, seed=1), [3])
    twin = game.clone()
    assert twin.digest() == game.digest()
    twin.apply(1, decision=twin.decision_id)
    assert twin.digest() != game.digest()
    assert game.pending["actor"] == "p2" and game.state["ent"]["p2"]["vp"] == 0
    game.apply(1, decision=game.decision_id)
    assert twin.digest() == game.digest()  # same moves, same game


def test_digest_ignores_the_log_but_not_the_state(mini):
    game = Game.new(mini, players=2)
    before = game.digest()
    game.state["log"].append("a remark")
    assert game.digest() == before
    game.state["ent"]["p1"]["vp"] += 1
    assert game.digest() != before


@pytest.mark.parametrize("text, fragment", [
    ("garbage{", "not a saved game"),
    ("[1, 2]", "not a Speciation saved game"),
    ('{"format": "speciation-save", "format_version": 99}', "saved with format version 99"),
])
def test_from_json_of_garbage(mini, text, fragment):
    with pytest.raises(SaveFileError, match=fragment):
        load_save(text, mini)


def test_from_json_of_another_ruleset(mini, tmp_path):
    other = load(tmp_path, main("choose k from [1, 2] by first(entities(player))"))
    text = save_json(Game.new(other))
    with pytest.raises(SaveFileError) as caught:
        load_save(text, mini)
    assert str(caught.value) == "this game was saved with ruleset 't', not 'mini'"


def test_from_json_of_a_changed_ruleset_without_history(tmp_path):
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    original = load_ruleset(str(folder))
    game = play(Game.new(original, players=2), [1])
    game.state_edited()  # a hand-edited game has no history to replay
    text = save_json(game)
    with open(folder / "rules.yaml", "a", encoding="utf-8") as handle:
        handle.write("# an edit\n")
    changed = load_ruleset(str(folder))
    with pytest.raises(SaveFileError) as caught:
        load_save(text, changed)
    message = str(caught.value)
    assert message.startswith("this game was saved with another version of ruleset 'mini'")
    assert original.digest in message and changed.digest in message
    assert message.endswith("it cannot be resumed safely")


def test_from_json_without_state(mini):
    data = json.loads(save_json(Game.new(mini, players=2)))
    data["state"] = {"ent": {}}
    with pytest.raises(SaveFileError, match="the saved state is damaged"):
        load_save(json.dumps(data), mini)


# ---- runtime errors ------------------------------------------------------------------------------------

@pytest.mark.parametrize("body, line, fragment", [
    ("let xs = [1]\nlog(\"{}\", xs[5])", 4, "list index out of range"),
    ("remove(game.bag, c)\nremove(game.bag, c)", 4, "cannot remove c: it is not there"),
    ("let x = a.vp", 3, "a is not an entity, so it has no 'vp'"),
    ("game.vp = 1", 3, "game has no attribute 'vp'"),
    ("perform game", 3, "game has no effect to perform"),
])
def test_runtime_errors_name_the_rule_file_line(tmp_path, body, line, fragment):
    with pytest.raises(RuleRuntimeError) as caught:
        run(tmp_path, body)
    error = caught.value
    assert error.span.path.endswith("rules.yaml") and error.span.line == line
    assert str(error) == f"{error.span}: {fragment}"


def test_runtime_error_after_a_choice(tmp_path):
    game = run(tmp_path, "choose k from [0, 1] by first(entities(player))\nlog(\"{}\", 6 // k)")
    with pytest.raises(RuleRuntimeError) as caught:
        game.apply(0, decision=game.decision_id)
    assert caught.value.span.line == 4 and "by zero" in str(caught.value)


def test_save_inside_a_trigger_whose_argument_is_a_list(tmp_path):
    # Trigger (and macro, and perform) arguments are copies: a saved game cannot keep a
    # local name sharing a list with the state, so a live game must not either.
    extra = """
        triggers:
          - on: grow(xs)
            effect: |
              choose k from [1, 2] by first(entities(player))
              append(xs, k)
              log("{}", xs)
    """
    ruleset = load(tmp_path, main('emit grow(game.out)\nlog("{}", game.out)', extra=extra))
    live = Game.new(ruleset)
    resumed = load_save(save_json(live), ruleset)
    live.apply(2, decision=live.decision_id)
    resumed.apply(2, decision=resumed.decision_id)
    assert live.log[1:] == resumed.log[1:] == ["[2]", "[]"]
    assert live.digest() == resumed.digest()


def test_a_rules_loop_without_decisions_is_reported_not_hung(tmp_path):
    from speciation.interpreter.limits import Limits
    (tmp_path / "ruleset.yaml").write_text('ruleset: loop\ntitle: L\nversion: "1"\nplayers: {min: 1, max: 1}\n')
    (tmp_path / "rules.yaml").write_text("functions:\n  score(p): \"0\"\nmacros:\n  main: |\n"
                                         "    while true:\n        pass_time()\n  pass_time(): |\n    let x = 1\n")
    with pytest.raises(RuleRuntimeError, match="without a decision"):
        Game.new(load_ruleset(str(tmp_path)), players=1, limits=Limits(work=500))
