"""A ruleset constant (a table, a symbol list) used as a place is a compile-time error; a
constant copied into the state or a local name is a copy, so no game changes the ruleset."""
import pytest

from speciation import Game, RuleErrors, load_ruleset

HEADER = 'ruleset: c\ntitle: C\nversion: "1"\nplayers: {min: 1, max: 1}\n'
RULES = """
symbols:
  colours: [red, blue, green]
tables:
  costs: {{red: 1, blue: 2}}
kinds:
  game:
    attributes: {{got: [], mine: [], prices: {{}}}}
functions:
  score(p): "0"
macros:
  main: |
{body}
"""


def _load(tmp_path, body):
    (tmp_path / "ruleset.yaml").write_text(HEADER)
    (tmp_path / "rules.yaml").write_text(RULES.format(body="\n".join("    " + line for line in body.splitlines())))
    return load_ruleset(str(tmp_path))


@pytest.mark.parametrize("body, fragment", [
    ("draw r from colours", "cannot draw from 'colours'"),
    ("shuffle colours", "cannot shuffle 'colours'"),
    ("append(colours, red)", "cannot change with 'append' 'colours'"),
    ("clear(costs)", "cannot change with 'clear' 'costs'"),
    ("costs[red] = 5", "cannot assign into 'costs'"),
])
def test_a_constant_used_as_a_place_is_a_compile_error(tmp_path, body, fragment):
    with pytest.raises(RuleErrors) as caught:
        _load(tmp_path, body)
    [error] = caught.value.errors
    assert fragment in error.message and "constant of the ruleset" in error.message
    assert error.span.line == 13


def test_constants_copied_into_the_state_stay_unchanged(tmp_path):
    ruleset = _load(tmp_path, "game.mine = colours\ngame.prices = costs\nappend(game.mine, red)\n"
                              "game.prices[green] = 3\nlet xs = colours\ndraw r from xs\nappend(game.got, r)")
    for seed in (1, 2):
        game = Game.new(ruleset, seed=seed)
        assert game.state["ent"]["game"]["mine"] == ["red", "blue", "green", "red"]
        assert ruleset.constants["colours"] == ["red", "blue", "green"]
        assert ruleset.constants["costs"] == {"red": 1, "blue": 2}
