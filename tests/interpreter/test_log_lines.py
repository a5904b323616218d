"""The game log's lines (docs/language.md, "Log"): ``log(template, values...)`` writes the
template with each ``{}`` replaced by the label of the next value (an entity: its name;
a number: its digits; a list: ``[a, b]``; none: ``none``), a ``{}`` with no value left as
it is; a choice's line is ``  <chooser>: <prompt> → <choice>`` (``passes`` for a pass).
The same lines whether the rules run as generated code or as closures, and in the
chosen language's names; an entity some seat does not see is ``?`` in that seat's line."""
from __future__ import annotations

import pytest

from speciation import Game
from speciation.interpreter.views import public_view

from support.ruleset_builder import load, main

RULES = """\
kinds:
  player:
    attributes: {vp: 0}
  token:
    attributes: {mark: 0, player: none}
  game:
    attributes: {n: 0}
functions:
  score(p): p.vp
entities:
  token:
    - {id: t1, name: Red Token, mark: 5}
    - {id: t2, name: 100% Blue, mark: 7}
    - {id: t3, mark: 9}
labels:
  pl: {t1: Czerwony, p1: Gracz 1}
"""
BODY = """\
let a = entities(player)[0]
log("{} takes {} and {} ({} marks, 100% sure)", a, t1, t2, t1.mark)
log("{} holds {}; {} is {}", a, [t1, t3], t3, none)
let t = "{} and {} with {}"
log(t, a, -4)
log("{} is {}", t2, true)
log("a plain line")
choose x from [t1, t2, t3] by a prompt "take which"
may choose y from [t3, t1] by a prompt "{} again"
choose z from ["red", "blue"] by a
choose w from [[t1, t3], [t2]] by a
"""
LINES = ["Player 1 takes Red Token and 100% Blue (5 marks, 100% sure)",
         "Player 1 holds [Red Token, t3]; t3 is none",
         "Player 1 and -4 with {}",
         "100% Blue is true",
         "a plain line",
         "  Player 1: take which → 100% Blue",
         "  Player 1: {} again → passes",
         "  Player 1: z → blue",
         "  Player 1: w → [Red Token, t3]"]


def _play(ruleset, lang=None) -> list:
    game = Game.new(ruleset, 2, 1, lang=lang)
    game.apply(game.legal_actions()[1])  # t2
    game.apply(None, decision=game.decision_id)  # pass
    game.apply(game.legal_actions()[1])  # blue
    game.apply(game.legal_actions()[0])  # [t1, t3]
    assert game.is_over
    return public_view(game)["log"]


@pytest.mark.parametrize("generated", [True, False])
def test_a_log_line_is_its_template_filled_with_the_labels_of_its_values(tmp_path, monkeypatch, generated):
    from speciation.interpreter.codegen import writer as codegen
    monkeypatch.setattr(codegen, "ENABLED", generated)
    ruleset = load(tmp_path, {"base.yaml": RULES, **main(BODY)})
    assert _play(ruleset)[-len(LINES):] == LINES


def test_a_language_names_entities_in_the_log(tmp_path):
    ruleset = load(tmp_path, {"base.yaml": RULES, **main(BODY)})
    assert _play(ruleset, "pl")[-len(LINES):] == [line.replace("Player 1", "Gracz 1").replace("Red Token", "Czerwony")
                                                  for line in LINES]


FACES = RULES + """\
hidden:
  faces:
    token: [mark]
"""


@pytest.mark.parametrize("generated", [True, False])
def test_a_line_naming_an_entity_a_seat_does_not_see_shows_it_to_that_seat_as_a_question_mark(
        tmp_path, monkeypatch, generated):
    from speciation.interpreter.codegen import writer as codegen
    monkeypatch.setattr(codegen, "ENABLED", generated)
    ruleset = load(tmp_path, {"base.yaml": FACES, **main(
        "let a = entities(player)[0]\nt1.player = a\nlog(\"{} takes {} ({})\", a, t1, 3)\n"
        "choose x from [t1, 4] by a prompt \"take\"\n")})
    game = Game.new(ruleset, 2, 1)
    game.apply(game.legal_actions()[0])
    assert game.view(0)["log"][-2:] == ["Player 1 takes Red Token (3)", "  Player 1: take → Red Token"]
    assert game.view(1)["log"][-2:] == public_view(game)["log"][-2:] == ["Player 1 takes ? (3)",
                                                                        "  Player 1: take → ?"]
