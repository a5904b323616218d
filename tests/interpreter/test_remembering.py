"""Whether a rule function's values are remembered is decided by measuring its calls
(interpreter/codegen/functions.py): after EARLY calls when its hit rate is clearly low or high,
else after MEASURE calls; a function that no rule can change is always remembered. Only speed
depends on it: the values are the same either way."""
from __future__ import annotations

from speciation import Game
from speciation.interpreter.codegen import functions

from support.ruleset_builder import load, main

# each function reads game.n, which main writes: none of them is static
FUNCTIONS = """\
functions:
  fresh(x): "len([y for y in [x, game.n] if y == x]) + x"
  twice(x): "len([y for y in [x, game.n] if y == x]) + x"
  eighth(x): "len([y for y in [x, game.n] if y == x]) + x"
  fixed(x): "len([y for y in [x, 1] if y == x]) + x"
"""


def value(x: int) -> int:
    """What each function gives (game.n is 1)."""
    return len([y for y in [x, 1] if y == x]) + x


def play(tmp_path, calls: int):
    """Each function called *calls* times in one expression: fresh with a new argument each
    time (no hits), twice with each argument twice (half hits), eighth with one call in eight
    asking again (12.5%), fixed (static) with new arguments."""
    body = f"""\
game.n = 1
log("{{}}", sum([fresh(i) for i in range({calls})]))
log("{{}}", sum([twice(i // 2) for i in range({calls})]))
log("{{}}", sum([eighth(i - 1 if i % 8 == 7 else i) for i in range({calls})]))
log("{{}}", sum([fixed(i) for i in range({calls})]))
"""
    ruleset = load(tmp_path, main(body, extra=FUNCTIONS))
    return ruleset.functions, Game.new(ruleset).log


def test_clear_cases_are_decided_early_and_close_ones_wait(tmp_path):
    calls = functions.EARLY + 50
    assert calls < functions.MEASURE
    found, log = play(tmp_path, calls)
    assert found["fresh"].remembered is False
    assert found["twice"].remembered is True
    assert found["eighth"].remembered is None  # 12.5% of hits: not clear after EARLY calls
    assert found["fixed"].static and found["fixed"].remembered is True
    assert log == [str(sum(map(value, args))) for args in (
        range(calls), [i // 2 for i in range(calls)], [i - 1 if i % 8 == 7 else i for i in range(calls)],
        range(calls))]


def test_a_close_case_is_decided_after_measure_calls(tmp_path):
    found, _ = play(tmp_path, functions.MEASURE + 10)
    assert found["eighth"].remembered is True  # 12.5% of hits is enough
    assert found["fresh"].remembered is False
