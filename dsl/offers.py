"""Offers between seats: a rule file's ``offers`` section defines the macro ``offer``.

``let got = offer(items, lo, hi, p, q)``: seat *p* may offer *q* from LO to HI of *items*
(entities: cards, tokens), in one decision (a subset choice, ``count lo to hi``), or
decline; the offered entities are revealed to *q* (``reveal x to q``: *q*'s view, and a
determinisation for *q*, see them; no other seat does); *q* accepts or refuses them in one
decision. The value is the accepted list, or ``none`` (declined or refused). Both decisions
are asked ``privately``: their log lines are the deciding seat's; another seat sees the
partner's question with one ``"?"`` option, whatever is offered. What an accepted offer does
(the things change hands, something is given back) is the caller's rule.

The section's keys are the two questions' prompts, read by every seat (name nothing hidden):
``prompt`` (of ``p`` and ``q``) and ``answer`` (of ``p`` and ``q``); and ``reveal: false`` for
a ruleset whose things have no hidden face (what is secret is which of them a hand holds, a
``private`` list): revealing one would only mark it, for every seat to see which it is; the
partner then sees the offered things as the options of its own decision only. The names it defines
(``offer``, ``offers_prompt``, ``offers_answer``) are claimed like any definition.
"""
from __future__ import annotations

from typing import Any

from .loader import Node

OFFER = """\
may choose x from items by p count lo to hi prompt offers_prompt(p, q) privately
if x == none:
    return none
{reveal}may choose y from [x] by q prompt offers_answer(p, q) privately
return y
"""


def add_offers(defs: Any, section: Node) -> None:
    """Define the ``offer`` macro and its prompts in *defs* (a Definitions)."""
    macro = OFFER.format(reveal="reveal x to q\n" if section.get("reveal", True) else "")
    defs.generated.append(macro)  # rule text the engine writes: the ruleset's digest covers it
    pieces = [("functions", "offers_prompt", ["p", "q"],
               section.get("prompt", 'format("make {} an offer?", q)'), section.where("prompt")),
              ("functions", "offers_answer", ["p", "q"],
               section.get("answer", 'format("{} makes you an offer: accept it?", p)'), section.where("answer")),
              ("macros", "offer", ["items", "lo", "hi", "p", "q"], macro, section.span)]
    for table, name, params, text, span in pieces:
        defs.claim(table, name, span)
        getattr(defs, table)[name] = (params, text, span)
