"""Names the engine keeps for itself (an entity's kind and id, a cell's q and r, a card's deck,
the 'self' and 'base' a card effect, trigger or modifier binds) are refused at load, placed."""
from __future__ import annotations

from pathlib import Path

import pytest

from speciation import RuleErrors
from speciation.dsl.reserved import ENTITY_FIELDS, KIND_FIELDS

from support.ruleset_builder import load, main


def _errors(tmp_path, files):
    with pytest.raises(RuleErrors) as caught:
        load(tmp_path, files)
    return [(Path(e.span.path).name, e.span.line, e.span.col, e.message) for e in caught.value.errors]


def test_an_attribute_named_kind_is_refused_where_it_is_written(tmp_path):
    files = main("pass", extra="kinds:\n  token:\n    attributes: {size: 1, kind: big}\n")
    assert _errors(tmp_path, files) == [
        ("rules.yaml", 6, 27, "'kind' is reserved: the engine keeps each entity's kind there")]


def test_an_entity_field_named_kind_and_a_cell_attribute_q_are_refused(tmp_path):
    extra = ("kinds:\n  token:\n    attributes: {size: 1}\n  cell:\n    attributes:\n      q: 0\n"
             "entities:\n  token:\n    - {id: t1, kind: cell}\n")
    errors = _errors(tmp_path, main("pass", extra=extra))
    assert [(line, message.split(":")[0]) for _, line, _, message in errors] == [
        (9, "'q' is reserved"), (12, "'kind' is reserved")]
    assert "cell's column" in errors[0][3]


def test_a_card_attribute_deck_and_reserved_parameters_are_refused(tmp_path):
    files = main("pass", {"ping": "emit ping(1)"}, extra=("decks:\n  events:\n    params: [self, p]\n"
                                "functions:\n  worth2(base): base + 1\n"
                                "triggers:\n  - on: ping(self)\n    effect: pass\n"))
    files["cards/storm.yaml"] = ("card: Storm\ndeck: events\ntext: t\nprovenance: {confidence: confirmed, sources: [x]}\n"
                                 "effect: pass\nattributes: {deck: other, id: x}\n")
    errors = _errors(tmp_path, files)
    messages = sorted(m for *_, m in errors)
    assert len(messages) == 5, errors
    assert any(m.startswith("'deck' is reserved: the engine keeps a card's deck there") for m in messages)
    assert any(m.startswith("'id' is reserved") for m in messages)
    assert "parameter 'base' is reserved: a modifier of the function sees 'base' as the value so far" in messages
    assert sum(m.startswith("parameter 'self' is reserved") for m in messages) == 2


def test_every_field_the_engine_writes_is_reserved():
    """The fields the engine itself puts in entity records (ruleset.py, game.py) are listed."""
    from speciation import Game, load_ruleset
    game = Game.new(load_ruleset("original"), 2, 1)
    written = {"kind", "id"} | {"q", "r"} | {"deck"}
    listed = set(ENTITY_FIELDS) | {f for fields in KIND_FIELDS.values() for f in fields}
    assert written <= listed
    for record in game.state["ent"].values():
        assert {"kind", "id"} <= set(record)
