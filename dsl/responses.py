"""Responses: a priority window and a stack, declared by a rule file's ``responses`` section.

The section names the pieces that are the game's own (who is asked, what each may play,
what playing costs, what resolving does, where the stack lives); the protocol is the
engine's, written here in the rules language itself, so that it pauses, saves and resumes
like every other rule:

- ``respond_to(subject)`` opens a window answering *subject* (a card played, an event):
  the deciders of ``order`` are asked in turn whether to respond; a response is played
  (``play``), goes on top of the stack as ``[card, player, what it answers]`` and the next
  decider is asked; when every decider has passed in succession, the top entry is taken off
  and resolved (``resolve``), and asking starts again from the first decider; when all pass
  with nothing of this window left on the stack, the window closes. Last in, first out.
- An entry is countered by taking it off the stack list (``remove(game.stack, e)``): it
  never resolves.
- ``ask_all: true`` asks every decider, even one with nothing to play (a pass only), so
  that being asked says nothing about a hand.
- ``at: [played(c, p)]`` opens a window on each such event's first value.

The names it defines (``respond_to`` and ``responses_*``) are claimed like any definition
of the layer, so a rule file defining one of them too is an error at its line.
"""
from __future__ import annotations

import re
from typing import Any

from .errors import CompileError
from .loader import Node, load_text

PLACE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$")
EVENT = re.compile(r"^\s*([A-Za-z_]\w*)\s*\(\s*([A-Za-z_]\w*)\s*(,\s*[A-Za-z_]\w*\s*)*\)\s*$")

WINDOW = """\
let base = len({stack})
let seats = responses_order(subject)
let passes = 0
let i = 0
while len(seats) > 0:
    let top = {stack}[len({stack}) - 1][0] if len({stack}) > base else subject
    let p = seats[i % len(seats)]
    i += 1
    may choose c from responses_options(p, top) by p prompt responses_prompt(p, top){always}
    if c != none:
        responses_play(p, c, top)
        append({stack}, [c, p, top])
        passes = 0
    else:
        passes += 1
        if passes >= len(seats):
            if len({stack}) <= base:
                break
            let entry = {stack}[len({stack}) - 1]
            {stack} = [{stack}[k] for k in range(0, len({stack}) - 1)]
            responses_resolve(entry[0], entry[1], entry[2])
            passes = 0
            i = 0
"""


def add_responses(defs: Any, section: Node) -> None:
    """Define the window macro and the section's pieces in *defs* (a Definitions)."""
    stack = str(section["stack"]).strip()
    if not PLACE.match(stack):
        defs.errors.append(CompileError("responses: 'stack' must name a list attribute, such as game.stack",
                                        section.where("stack")))
        return
    pieces = [("functions", "responses_order", ["subject"], section["order"], section.where("order")),
              ("functions", "responses_options", ["p", "top"], section["options"], section.where("options")),
              ("functions", "responses_prompt", ["p", "top"],
               section.get("prompt", 'format("respond to {}", top)'), section.where("prompt" if "prompt" in section else "stack")),
              ("macros", "responses_play", ["p", "c", "top"], section.get("play", "pass"),
               section.where("play" if "play" in section else "stack")),
              ("macros", "responses_resolve", ["c", "p", "target"], section["resolve"], section.where("resolve"))]
    origin = section.where("stack")
    window = WINDOW.format(stack=stack, always=" always" if section.get("ask_all") else "")
    pieces.append(("macros", "respond_to", ["subject"], window, origin))
    for table, name, params, text, span in pieces:
        defs.claim(table, name, span)
        getattr(defs, table)[name] = (params, text, span)
    for event in section.get("at", []):
        match = EVENT.match(str(event))
        if not match:
            defs.errors.append(CompileError(f"responses: 'at' lists events like 'played(c, p)', not '{event}'",
                                            section.where("at")))
            continue
        trigger = load_text(f"on: '{event}'\neffect: respond_to({match.group(2)})\n", origin.path)
        defs.add_triggers([trigger], None)
