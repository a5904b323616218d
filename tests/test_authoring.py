"""Authoring tools: the vocabulary reference, explain, check on a lone file, new card."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from speciation.cli import main
from speciation.dsl.ruleset import load_ruleset
from speciation.explain import explain_lines
from speciation.vocabulary import vocabulary

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _module(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_vocabulary_pages_are_current():
    for path, text in _module(DOCS / "gen_vocabulary.py").pages().items():
        assert path.exists() and path.read_text(encoding="utf-8") == text, "run: python docs/gen_vocabulary.py"


def test_vocabulary_lists_what_a_modder_needs(capsys):
    assert main(["list", "original", "vocabulary"]) == 0
    out = capsys.readouterr().out
    for needle in ("gain_vp(f, n)", "occupied_by(f)", "food_chain()", "dominance(self, you, tile)",
                   "elements: grass", "bonus = {", "faction.vp = 0"):
        assert needle in out, needle
    marine = {e.name: e for e in vocabulary("marine").entries}
    assert marine["evolution"].signature == "evolution(self, you, tile, slot)"
    assert "marine/actions/tectonics.yaml" in str(marine["action_tectonics"].span.path)
    assert marine["bonus_for"].doc.startswith("DS-RB Glossary")


@pytest.mark.parametrize("edition", ["original", "marine"])
def test_explain_every_card(edition):
    vocab = vocabulary(edition)
    ruleset = load_ruleset(edition)
    assert len(ruleset.cards) >= 26
    for ident, card in ruleset.cards.items():
        lines = explain_lines(ident, vocab)
        assert lines is not None, ident
        text = "\n".join(lines)
        assert lines[0].startswith(f"card {card.name} ({ident}), deck {card.deck}"), lines[0]
        assert "cannot analyse" not in text, ident
        assert "reads:" in text and "changes:" in text and "decision" in text


def test_explain_names_decisions_and_whom(capsys):
    assert main(["explain", "original", "Disease"]) == 0
    out = capsys.readouterr().out
    assert 'g chooses: "Disease: lose one of your added elements"  [original/cards/disease.yaml:15]' in out
    assert "changes: added, bag" in out and "elements_held (function)" in out
    assert main(["explain", "marine", "tectonics"]) == 0
    out = capsys.readouterr().out
    assert "macro tectonics(f, t)" in out and "gain_bonus (macro)" in out and "vent_stack" in out
    assert main(["explain", "marine", "gain_vpp"]) == 1
    assert "did you mean 'gain_vp'" in capsys.readouterr().err
