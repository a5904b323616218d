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
- ``hold: {list, until, ends, option, log}``: an asked seat may also hold priority off
  (offered whatever it holds, so holding says nothing about a hand); a held seat (in
  ``list``) passes without being asked until ``until`` (of ``p`` and ``top``) holds, when
  it is asked again and the hold ends, or until an event of ``ends`` ends it.

The names it defines (``respond_to`` and ``responses_*``) are claimed like any definition
of the layer, so a rule file defining one of them too is an error at its line.
"""
from __future__ import annotations

import re
from typing import Any

from .errors import CompileError, msg
from .loader import Node, load_text

PLACE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$")
EVENT = re.compile(r"^\s*([A-Za-z_]\w*)\s*\(\s*([A-Za-z_]\w*)\s*(,\s*[A-Za-z_]\w*\s*)*\)\s*$")

ASK = """\
    may choose c from responses_options(p, top) by p prompt responses_prompt(p, top){always}
"""

# With 'hold': a seat may hold priority off (a public choice, offered whatever it holds); a
# held seat passes without being asked until its 'until' holds, which ends the hold.
ASK_HOLD = """\
    let c = none
    if not (p in {held}) or responses_hold_until(p, top):
        if p in {held}:
            remove({held}, p)
{choose}    if c == HOLD:
        append({held}, p)
{line}        c = none
"""
# The question itself: with ask_all the hold is offered with the options (no name bound for
# them); without, a seat with nothing to play is not offered the hold either.
CHOOSE_ALL = """\
        may choose c from responses_options(p, top) + [HOLD] by p prompt responses_prompt(p, top) always
"""
CHOOSE_SOME = """\
        let offered = responses_options(p, top)
        may choose c from offered + ([HOLD] if len(offered) > 0 else []) by p prompt responses_prompt(p, top)
"""

# One round of the loop is one seat's turn to answer. A response sets passes back to 0, so
# only a pass can complete a round of passes: the test after it needs no branch of its own
# (and the common path, a pass that leads to the next question, runs no block but the
# loop's body and the question's).
WINDOW = """\
let base = len({stack})
let seats = responses_order(subject)
let passes = 0
let i = 0
while len(seats) > 0:
    let top = {stack}[len({stack}) - 1][0] if len({stack}) > base else subject
    let p = seats[i % len(seats)]
    i += 1
{ask}    if c != none:
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


def _hold(defs: Any, hold: Node, pieces: list, always: str) -> str | None:
    """The window's question with a hold option; its pieces go to *pieces*. None: an error."""
    held = str(hold["list"]).strip()
    if not PLACE.match(held):
        defs.errors.append(CompileError(msg("responses: hold's 'list' must name a list attribute, such as game.holding"),
                                        hold.where("list")))
        return None
    # The option is the constant responses_hold_option (tools and agents find it by that name).
    defs.claim("tables", "responses_hold_option", hold.where("option" if "option" in hold else "list"))
    defs.tables["responses_hold_option"] = (str(hold.get("option", "hold priority off")),
                                            hold.where("option" if "option" in hold else "list"))
    pieces.append(("functions", "responses_hold_until", ["p", "top"], hold["until"], hold.where("until")))
    line = ""
    if "log" in hold:   # the choice's own line (every seat reads it) says it already; this adds the rules' words
        pieces.append(("functions", "responses_hold_line", ["p"], hold["log"], hold.where("log")))
        line = "        log(responses_hold_line(p))\n"
    for event in hold.get("ends", []):
        match = EVENT.match(str(event))
        if not match:
            defs.errors.append(CompileError(msg("responses: hold's 'ends' lists events like 'turn_began(p)', not '{event}'", event=event),
                                            hold.where("ends")))
            continue
        seat = match.group(2)
        text = f"before: '{event}'\neffect: |\n  if {seat} in {held}:\n      remove({held}, {seat})\n"
        defs.generated.append(text)
        trigger = load_text(text, hold.where("ends").path)
        defs.add_triggers([trigger], None)
    choose = (CHOOSE_ALL if always else CHOOSE_SOME).replace("HOLD", "responses_hold_option")
    return ASK_HOLD.replace("HOLD", "responses_hold_option").format(held=held, choose=choose, line=line)


def add_responses(defs: Any, section: Node) -> None:
    """Define the window macro and the section's pieces in *defs* (a Definitions)."""
    stack = str(section["stack"]).strip()
    if not PLACE.match(stack):
        defs.errors.append(CompileError(msg("responses: 'stack' must name a list attribute, such as game.stack"),
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
    always = " always" if section.get("ask_all") else ""
    hold = section.get("hold")
    ask = ASK.format(always=always) if hold is None else _hold(defs, hold, pieces, always)
    if ask is None:
        return
    window = WINDOW.format(stack=stack, ask=ask)
    pieces.append(("macros", "respond_to", ["subject"], window, origin))
    defs.generated.append(window)
    for table, name, params, text, span in pieces:
        defs.claim(table, name, span)
        getattr(defs, table)[name] = (params, text, span)
    for event in section.get("at", []):
        match = EVENT.match(str(event))
        if not match:
            defs.errors.append(CompileError(msg("responses: 'at' lists events like 'played(c, p)', not '{event}'", event=event),
                                            section.where("at")))
            continue
        text = f"on: '{event}'\neffect: respond_to({match.group(2)})\n"
        defs.generated.append(text)
        trigger = load_text(text, origin.path)
        defs.add_triggers([trigger], None)
