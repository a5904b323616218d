"""Golden playthroughs: each seeded game of tests/golden/games.yaml, played again now, is
written exactly as its kept text (tests/golden/*.txt). A rule or engine change that changes a
game shows here as a unified diff; if the change is meant, `scripts/golden --update` rewrites
the files and the diff is reviewed in the commit (docs/testing.md)."""
from __future__ import annotations

import pytest

from support.playthrough import GOLDEN, difference, game_specs

SPECS = game_specs()
SHOWN = 80  # diff lines in a failure message; `scripts/golden` prints the whole diff


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_game_is_played_as_kept(spec):
    diff = difference(spec)
    if diff:
        lines = diff.splitlines()
        more = f"\n... {len(lines) - SHOWN} more lines (scripts/golden shows them all)" if len(lines) > SHOWN else ""
        pytest.fail(f"{spec.name} is played differently now; if that is meant, run "
                    f"`scripts/golden --update` and review the diff:\n" + "\n".join(lines[:SHOWN]) + more,
                    pytrace=False)


def test_every_kept_file_is_a_named_game():
    assert sorted(p.name for p in GOLDEN.glob("*.txt")) == sorted(s.path.name for s in SPECS)


def test_every_shipped_ruleset_has_a_whole_game_and_a_variant_game():
    whole = {s.ruleset for s in SPECS if s.cap is None}
    varied = {s.ruleset for s in SPECS if s.variants}
    assert whole == varied == {"original", "marine"}


def test_a_changed_decision_shows_as_a_diff_of_that_decision():
    spec = SPECS[0]
    kept = spec.path.read_text(encoding="utf-8")
    line = next(line for line in kept.splitlines() if line.startswith("#5 "))
    changed = kept.replace(line, line.replace("(", "(9", 1), 1)
    diff = difference(spec, got=changed)
    assert f"\n-{line}\n" in diff and f"\n+{line.replace('(', '(9', 1)}\n" in diff
    assert diff.startswith(f"--- tests/golden/{spec.name}.txt (kept)")
    assert difference(spec, got=kept) == ""


def test_the_text_names_each_decision_and_ends_with_scores_and_digest():
    text = SPECS[0].path.read_text(encoding="utf-8")
    first = next(line for line in text.splitlines() if line.startswith("#1 "))
    assert " · " in first and " -> " in first and first.endswith(" options)")
    tail = text.splitlines()[-4:]
    assert tail[0].startswith("game over after ") and tail[1].startswith("scores: P1 ")
    assert tail[3].startswith("digest: ") and len(tail[3].split()[1]) == 64
