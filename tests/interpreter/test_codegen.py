"""Generated code: games play identically with it on and off; rule files cannot inject code."""
from __future__ import annotations

import pytest

from speciation import Game, RuleRuntimeError, load_ruleset
from speciation.agents import RandomAgent
from speciation.interpreter.codegen import writer as codegen

from support.ruleset_builder import load, main


def _rulesets(name, monkeypatch):
    on = load_ruleset(name)
    monkeypatch.setattr(codegen, "ENABLED", False)
    off = load_ruleset(name)
    monkeypatch.setattr(codegen, "ENABLED", True)
    assert any(hasattr(f.fast, "source") for f in on.functions.values())
    assert not any(hasattr(f.fast, "source") for f in off.functions.values())
    return on, off


def _digests(ruleset, players, seed, keep_log):
    game = Game.new(ruleset, players, seed)
    game.keep_log = keep_log
    agents = [RandomAgent(seed, seat) for seat in range(players)]
    digests = [game.digest()]
    while not game.is_over:
        game.apply(agents[game.current_player].rng.choice(game.legal_actions()))
        digests.append(game.digest())
    return digests, game


@pytest.mark.parametrize("name, games", [("original", [(2, 11), (4, 12), (5, 13), (6, 14)]),
                                         ("marine", [(2, 21), (3, 22), (4, 23)])])
def test_generated_code_plays_the_same_games(name, games, monkeypatch):
    """Digests after every action, generated code on (log off) and off (log on)."""
    on, off = _rulesets(name, monkeypatch)
    for players, seed in games:
        fast, _ = _digests(on, players, seed, keep_log=False)
        slow, game = _digests(off, players, seed, keep_log=True)
        assert fast == slow, f"{name} {players}p seed {seed}: games differ"
        assert game.is_over and len(fast) > 100 and game.log


PAYLOAD = "'); __import__('os').system('touch /tmp/speciation-pwned'); ('"


def test_rule_file_text_never_becomes_code(tmp_path):
    text = PAYLOAD + r'\n\"\"\" \\ {}'
    extra = ('functions:\n'
             f'  shout(x): "format(\\"{PAYLOAD}{{}}\\", x)"\n'
             f'  same(x): "x == \\"{PAYLOAD}\\""\n')
    ruleset = load(tmp_path, main(f'log("{{}}", "{text}")\nlog(shout(1))\nlog("{{}}", same("{PAYLOAD}"))',
                                  extra=extra))
    game = Game.new(ruleset)
    assert game.log == [PAYLOAD + '\n""" \\ {}', PAYLOAD + "1", "true"]
    sources = [f.fast.source for f in ruleset.functions.values() if hasattr(f.fast, "source")]
    assert len(sources) >= 2
    for source in sources:
        assert "import" not in source and "system" not in source and "pwned" not in source


# ---- statement code and block runners (interpreter/codegen/simple.py, statements.py,
# runner.py): the same games, stacks and errors as the machine's own steps --------

def _both(tmp_path, files, monkeypatch):
    on = load(tmp_path / "on", files)
    monkeypatch.setattr(codegen, "ENABLED", False)
    off = load(tmp_path / "off", files)
    monkeypatch.setattr(codegen, "ENABLED", True)
    assert any(b.runner for b in on.nodes if type(b).__name__ == "Block")
    assert not any(b.runner for b in off.nodes if type(b).__name__ == "Block")
    return on, off


def _play(ruleset, seed=0):
    """Digests (the stack included) after each action, first legal action each time."""
    game = Game.new(ruleset, 2, seed)
    digests = [game.digest()]
    while not game.is_over:
        actions = game.legal_actions()
        game.apply(actions[len(digests) % len(actions)])
        digests.append(game.digest())
    return digests, game.log, game.state


STATEMENTS = """\
let xs = [1, 2, 3]
let p = first(entities(player))
p.counts[a] = 2
p.counts[a] += 1
p.counts[b] = 1
p.counts[b] -= 1
game.n += len(xs) * 2
append(xs, 4)
game.out = xs
append(xs, 5)
let done = game.n > 3 and len(xs) == 5
draw d from game.bag
shuffle game.bag
log("{} {} {}", d, done, xs)
for q in entities(player):
    pick(q)
repeat 2:
    if game.n > 6:
        choose y from letters by p prompt "again"
        append(game.out, y)
        game.n -= 1
    elif game.n > 0:
        game.n -= 1
    else:
        break
let k = 0
while k < 3:
    k += 1
    if k == 2:
        choose z from [k, k + 1] by p
        p.vp += z
emit picked(p, xs)
"""
PICK = {"pick(q)": 'choose x from game.bag by q prompt "pick"\ngame.n += worth[x]\ncount_up(q)',
        "count_up(q)": "q.vp += 1\nif q.vp > 100:\n    return\nq.vp += 1"}
TRIGGERS = """\
triggers:
  - on: picked(who, xs)
    effect: |
      choose c from xs by who prompt "trigger"
      who.vp += c
  - on: picked(who, xs)
    if: len(xs) > 2
    effect: |
      who.vp += len(xs)
"""


def test_runners_play_the_same_games_and_stacks(tmp_path, monkeypatch):
    on, off = _both(tmp_path, main(STATEMENTS, PICK, TRIGGERS), monkeypatch)
    for seed in range(4):
        fast, slow = _play(on, seed), _play(off, seed)
        assert fast == slow and len(fast[0]) > 5


HALF = 'functions:\n  half(x): "x // game.n"\n'  # small: inlined into statement code


@pytest.mark.parametrize("body, macros, extra", [
    ("let z = half(3)", {}, HALF),
    ('choose x from letters by first(entities(player))\nouter(x)',
     {"outer(x)": 'choose y from letters by first(entities(player))\ninner(y)',
      "inner(y)": "let z = [half(1) for i in range(2)]"}, HALF),
    ("for i in range(3):\n    if i == 2:\n        emit ping(i)\n    choose x from letters by first(entities(player))",
     {}, HALF + "triggers:\n  - on: ping(v)\n    effect: |\n      let w = half(v)\n"),
    ("repeat 2:\n    choose x from letters by first(entities(player))\n    game.out = [worth[x] // game.n]",
     {}, ""),
])
def test_runtime_errors_keep_their_places_and_chains(tmp_path, body, macros, extra, monkeypatch):
    texts = []
    for ruleset in _both(tmp_path, main(body, macros, extra), monkeypatch):
        with pytest.raises(RuleRuntimeError) as caught:
            game = Game.new(ruleset, 2)
            while not game.is_over:
                game.apply(game.legal_actions()[0])
        texts.append(str(caught.value).replace("/on/", "/").replace("/off/", "/"))
    assert texts[0] == texts[1] and "division by zero" in texts[0]


LATE = {"outer(x)": "inner(x)\ngame.n += x",  # inner is inlined into outer's code, its names locals
        "inner(y)": "if y > 5:\n    let z = 1\nelif y > 4:\n    let z = 2\nelse:\n    let w = 3\ngame.out = [z]"}


@pytest.mark.parametrize("body, macros, wanted", [
    ("outer(1)", LATE, "'z' has no value here"),
    ("for i in range(2):\n    outer(5 - i * 5)", LATE, "'z' has no value here"),  # a second round starts unset
    ("outer(1)", {"outer(x)": "let ys = [x.vp for q in entities(player) if q.vp == 0]\ngame.n += 1"},
     "1 is not an entity"),  # an attribute read once for all items still fails at its first use
    ("outer(1)", {"outer(x)": "repeat x:\n    let k = 1\ngame.n += k"}, None),
    ("outer(0)", {"outer(x)": "repeat x:\n    let k = 1\ngame.n += k"}, "'k' has no value here"),
    ("outer(0)", {"outer(x)": "inner(x)", "inner(y)": "emit ping(y)"},  # through an inlined emit
     "division by zero"),
    # simple comprehensions run as Python comprehensions first: a failing one fails as the loop
    ("outer(1)", {"outer(x)": "let ys = [q.bag for q in entities(player)]\ngame.n += 1"},
     "has no attribute 'bag'"),
    ("outer(1)", {"outer(x)": "let ys = [q for q in [x, 2] if q.vp == 0 or q.vp > 0]\ngame.n += 1"},
     "1 is not an entity"),
    ("outer(1)", {"outer(x)": "if x > 5:\n    let z = 1\nlet ys = [[z, q] for q in entities(player)]\ngame.n += 1"},
     "'z' has no value here"),  # a rule-local name read for a simple comprehension, unset
    ("outer(1)", {"outer(x)": "if x > 5:\n    let z = 1\nlet ys = [[z, q] for q in range(0)]\ngame.n += 1"},
     None),  # ... and never read by the loop: no error
])
def test_names_as_python_locals_fail_as_names_in_env(tmp_path, body, macros, wanted, monkeypatch):
    """Pure macro bodies keep their names in Python locals (small ones inlined): a name read
    before it has a value, or a bad read in a comprehension, fails with the same message,
    place and chain as with codegen off."""
    texts = []
    extra = "triggers:\n  - on: ping(v)\n    effect: |\n      game.n = 1 // v\n"
    for ruleset in _both(tmp_path, main(body, macros, extra if "ping" in str(macros) else ""), monkeypatch):
        try:
            game = Game.new(ruleset, 2)
            texts.append(repr(game.state["ent"]["game"]))
        except RuleRuntimeError as error:
            texts.append(str(error).replace("/on/", "/").replace("/off/", "/"))
    assert texts[0] == texts[1]
    assert wanted is None and "'n': 1" in texts[0] or wanted is not None and wanted in texts[0], texts[0]
