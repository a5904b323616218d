"""Generated code: games play identically with it on and off; rule files cannot inject code."""
from __future__ import annotations

import pytest

from speciation import Game, load_ruleset
from speciation.agents import RandomAgent
from speciation.dsl import codegen

from ruleset_builder import load, main


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
