"""A person at the terminal: the prompt, options that name what they are, and commands
to look at the position (``board``, ``scores``, ``card NAME``, ``log``), ``undo`` and
``help``. Everything shown comes from this seat's view."""
from __future__ import annotations

import sys
import unicodedata
from collections.abc import Callable, Sequence

from ..dsl.errors import did_you_mean
from ..i18n import Text, translate
from ..interpreter.game import Action
from ..render import Scene, label_of, render_text
from ..render.text import scores_text
from .base import QuitGame, SeatView, UndoRequest

HELP = Text("""commands at the prompt:
  NUMBER       choose that option
  board        the position as you see it (tiles, pieces, display, cards, panels, scores)
  scores       each player's score
  card NAME    a card's text (its name in any language the game has, or a part of it)
  log [N|all]  the last N lines of the game log you may read (default 30)
  undo         take back your last decision (and the other seats' replies after it)
  help         this text
  q            stop the game""")


CLEAR = "\033[H\033[2J\033[3J"  # home, clear the screen, clear the scrollback
SEPARATOR = "\n" + "=" * 72 + "\n"


def _fold(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text.casefold().replace("ł", "l"))
    return "".join(c for c in plain if not unicodedata.combining(c))


class HumanAgent:
    """Asks a person: shows the prompt and the numbered options, reads a number or a
    command. 'q' (or the end of input) quits. It sees the game only through its seat."""

    interactive = True

    def __init__(self, read: Callable[[str], str] = input, write: Callable[[str], None] = print):
        self.read = read
        self.write = write
        # why this seat may not undo now (None: it may); set by whoever keeps the undo
        # (the terminal's session); without it, undo is not available
        self.undo_refusal: Callable[[int], str | None] | None = None
        self._numbers_key: tuple | None = None   # the question last asked, and its options' numbers
        self._numbers: dict[str, int] = {}
        self.lang: str | None = None  # the language of the last seat it decided for (its hand-over's)

    def choose(self, seat: SeatView) -> Action:
        actions = seat.legal_actions()
        scene = Scene.of(seat)
        self.lang = seat.lang
        self.write(f"{scene.label(seat.actor)}: {seat.prompt or 'choose'}")
        numbers = self.numbering(seat, actions)
        labels = {n: label_of(scene, a) for n, a in zip(numbers, actions)}
        for number in sorted(labels):
            self.write(f"  {number}. {labels[number]}")
        by_number = dict(zip(numbers, actions))
        shown = f"{min(numbers)}-{max(numbers)}" if max(numbers) - min(numbers) + 1 == len(numbers) \
            else ",".join(map(str, sorted(numbers)))
        while True:
            try:
                answer = self.read(translate(seat.lang, Text("choice [{shown}, help, q]: ", shown=shown))).strip()
            except EOFError:
                raise QuitGame() from None
            word, _, rest = answer.partition(" ")
            word = word.lower()
            if word in ("q", "quit"):
                raise QuitGame()
            if answer.isdigit() and int(answer) in by_number:
                self.write(f"  -> {answer.lstrip('0')}. {labels[int(answer)]}")  # as it was offered
                return by_number[int(answer)]
            self.command(seat, word, rest.strip(), shown)

    def numbering(self, seat: SeatView, actions: Sequence[Action]) -> list[int]:
        """The options' numbers: 1 to n, but when this seat is asked the same question again
        at once (picks one at a time), every option still offered keeps the number it had
        (a new one takes a number after them), so a number never names another option."""
        key = (seat.seat, seat.actor, seat.prompt, seat.decision_number - 1)
        values = [repr(a.value) for a in actions]
        before = self._numbers if self._numbers_key == key else {}
        numbers, used = [], set(before.values())
        following = max(used, default=0)
        for value in values:
            number = before.get(value)
            if number is None or number in numbers:
                following += 1
                number = following
            numbers.append(number)
        # the key the next question must have to keep these numbers: the same, right after this
        self._numbers_key, self._numbers = key[:3] + (seat.decision_number,), dict(zip(values, numbers))
        return numbers

    def hand_over(self, name: str) -> None:
        """Several people at one terminal: hide what is on the screen (cleared on a
        terminal, a separator otherwise), name who is next and wait for them (Enter)."""
        self.write(CLEAR if self.write is print and sys.stdout.isatty() else SEPARATOR)
        try:
            answer = self.read(translate(self.lang, Text("Pass the terminal to {name} — press Enter when ready ", name=name)))
        except EOFError:
            raise QuitGame() from None
        if answer.strip().lower() in ("q", "quit"):
            raise QuitGame()

    def command(self, seat: SeatView, word: str, rest: str, shown: str) -> None:
        """Answer one command typed at the prompt (anything but a choice)."""
        if word in ("help", "?", "h"):
            self.write(translate(seat.lang, HELP))
        elif word == "board":
            self.write(render_text(seat))
        elif word == "scores":
            self.write(scores_text(Scene.of(seat)))
        elif word == "card":
            self.write(card_text(seat, rest))
        elif word == "log":
            lines = seat.log()
            last = len(lines) if rest == "all" else int(rest) if rest.isdigit() else 30
            for line in lines[-last:] if last else []:
                self.write(line)
        elif word == "undo":
            self._undo(seat.seat, seat.lang)
        else:
            self.write(translate(seat.lang, Text("please type one of the numbers {shown}, a command (help), or q to quit",
                                                 shown=shown)))

    def _undo(self, seat: int, lang: str | None = None) -> None:
        if self.undo_refusal is None:
            self.write(translate(lang, Text("undo is not available in this game")))
            return
        reason = self.undo_refusal(seat)
        if reason is not None:
            self.write(translate(lang, Text("cannot undo: {reason}", reason=reason)))
            return
        raise UndoRequest(seat)


def card_text(seat: SeatView, query: str) -> str:
    """A card's name(s), deck and text, found by id or by name in any language."""
    ruleset = seat.ruleset
    if not query:
        return "which card? type: card NAME"
    names: dict[str, list[str]] = {}
    for card in ruleset.cards.values():
        names[card.id] = [card.id, card.name] + [labels[card.id] for labels in ruleset.labels.values()
                                                  if card.id in labels]
    wanted = _fold(query)
    for test in (lambda n: _fold(n) == wanted, lambda n: _fold(n).startswith(wanted), lambda n: wanted in _fold(n)):
        found = [ident for ident, ns in names.items() if any(test(n) for n in ns)]
        if len(found) == 1:
            return _describe_card(seat, found[0])
        if found:
            return "several cards match: " + ", ".join(sorted(seat.label(i) for i in found))
    every = sorted({n for ns in names.values() for n in ns[1:]})  # names, not ids
    hint = did_you_mean(query, every)
    return f"no card named '{query}'" + (f" ({hint})" if hint else "")


def _describe_card(seat: SeatView, ident: str) -> str:
    card = seat.ruleset.cards[ident]
    shown = seat.label(ident)
    title = shown if shown == card.name else f"{shown} ({card.name})"
    text = seat.ruleset.texts.get(seat.lang, {}).get(ident, card.text) if seat.lang else card.text
    return translate(seat.lang, Text("{title} — {deck} card", title=title, deck=seat.label(card.deck))) + "\n" + text.strip()

