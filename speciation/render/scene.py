"""What a picture of a position is made of: one seat's view, the ruleset's presentation
declarations (with defaults for a ruleset that declares none), and names in a language.

Everything here reads plain data: the view a seat may see (``game.view(seat)``), or the
whole state only when asked for (``omniscient=True``). Rule functions (scores, a cell's
marker, the winner) are evaluated on that data by the engine's reader
(:class:`~speciation.interpreter.views.ViewReader`, one per scene), which also names values
as the log does. Nothing here knows any game: what is drawn, and how, comes from the
ruleset's ``presentation`` section.
"""
from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from typing import Any

from ..interpreter.board import parse_cell
from ..interpreter.views import UNKNOWN, ViewReader

BLANK = "#efe6cf"           # a cell whose fill attribute has no value
NEUTRAL = "#b9b9b9"         # a value a palette has no colour for
SPARE = ("#e41a1c", "#377eb8", "#4daf4a", "#984ea3", "#ff7f00", "#a6761d", "#f781bf", "#999999")


@dataclass
class Scene:
    """One position as a seat sees it, with the ruleset's declarations of how it looks."""

    ruleset: Any
    state: dict
    seat: int | None = None
    lang: str | None = None
    presentation: dict = field(default_factory=dict)
    _reader: ViewReader | None = field(default=None, init=False, repr=False, compare=False)
    _scores: list | None = field(default=None, init=False, repr=False, compare=False)
    _kinds: dict | None = field(default=None, init=False, repr=False, compare=False)

    # ---- building ----------------------------------------------------------------------

    @classmethod
    def of(cls, source: Any, seat: int | None = None, lang: str | None = None, ruleset: Any = None,
           omniscient: bool = False) -> Scene:
        """A scene from a game (its seat's view; the whole state only if *omniscient*), from
        a seat's handle (``SeatView``: its view), or from a view already taken (then
        *ruleset* is needed)."""
        if isinstance(source, Scene):
            return source
        if not hasattr(source, "state") and hasattr(source, "view") and hasattr(source, "seat"):
            lang = lang if lang is not None else source.lang
            state = source.view()
            return cls(source.ruleset, state, source.seat, lang, with_defaults(source.ruleset, state))
        if isinstance(source, dict):
            if ruleset is None:
                raise ValueError("a view needs its ruleset to be drawn")
            state = source
        else:
            ruleset = source.ruleset
            lang = lang if lang is not None else source.lang
            if seat is not None:
                state = source.view(seat)
            elif omniscient:
                state = json.loads(json.dumps(source.state))
            else:
                raise ValueError("say which seat's view to draw (seat=N), or ask for omniscient=True")
        return cls(ruleset, state, seat, lang, with_defaults(ruleset, state))

    # ---- names ---------------------------------------------------------------------------

    @property
    def names(self) -> dict[str, str]:
        return self.ruleset.labels.get(self.lang, {}) if self.lang else {}

    def text(self, words: str) -> str:
        """A presentation's own words (a panel label), in the scene's language if it has them."""
        return self.names.get(words, words)

    @property
    def reader(self) -> ViewReader:
        """The engine's reader of this scene's state: rule functions evaluated on it (one
        machine for the scene, no game) and values named as the log names them."""
        if self._reader is None:
            self._reader = ViewReader(self.ruleset, self.state, self.lang)
        return self._reader

    def label(self, value: Any) -> str:
        """The display name of a value (an id, a symbol, a number, a list), the same as the
        log's (the machine's); a map of counts reads ``name count, ...``."""
        if isinstance(value, dict):
            return ", ".join(f"{self.label(k)} {self.label(v)}" for k, v in value.items() if v)
        return self.reader.label(value)

    def items(self, value: Any) -> str:
        """A list's items by name, separated by commas (a panel's field, a box); anything
        else by :meth:`label`."""
        return ", ".join(self.label(v) for v in value) if isinstance(value, list) else self.label(value)

    def flag(self, field: dict, value: Any) -> str | None:
        """What a panel's field declared ``as: flag`` reads: its label while *value* is set
        (not false, none, 0 or empty), "" while it is not (``label ?`` when the view hides
        it); None for a field of another kind."""
        if field.get("as") != "flag":
            return None
        if value in (None, False, 0, "", [], {}):
            return ""
        words = self.text(field.get("label", field["attribute"]))
        return f"{words} ?" if value == "?" else words

    # ---- reading the state ---------------------------------------------------------------

    @property
    def ent(self) -> dict[str, dict]:
        return self.state["ent"]

    def of_kind(self, kind: str) -> list[dict]:
        """The records of the entities of *kind*, in the state's order (a new list; the
        records by kind are sorted out once per scene, as its scores are computed once)."""
        if self._kinds is None:
            self._kinds = {}
            for record in self.ent.values():
                self._kinds.setdefault(record.get("kind"), []).append(record)
        return list(self._kinds.get(kind, ()))

    def read(self, path: str) -> Any:
        """The value of ``entity.attribute`` (``attribute`` alone: of the game entity)."""
        ident, _, attribute = path.rpartition(".")
        return self.ent.get(ident or "game", {}).get(attribute)

    def row_values(self, source: dict) -> list:
        """What a row shows: its ``from`` list, or every entity of its ``kind``."""
        if "kind" in source:
            return [record["id"] for record in self.of_kind(source["kind"])]
        values = self.read(source["from"])
        return values if isinstance(values, list) else ([] if values is None else [values])

    def row_detail(self, source: dict, value: Any) -> Any:
        """The ``detail`` attribute of a row's item (None when it has none)."""
        return self.ent.get(value, {}).get(source.get("detail", "")) if isinstance(value, str) else None

    def row_item(self, source: dict, value: Any) -> str:
        """An item of a row by name, with its ``detail`` attribute when it has one."""
        detail = self.row_detail(source, value)
        return self.label(value) + (f": {self.label(detail)}" if detail is not None else "")

    def source_label(self, source: dict) -> str:
        """The words naming a row or a counter."""
        return self.text(source.get("label") or source.get("from") or source.get("kind", ""))

    def tally(self, source: dict, value: Any = None) -> str:
        """How many items a row's or counter's list holds, ``3 / 7`` when it declares what it
        counts toward (``of``: a number, or a rule function of no values on this view)."""
        value = self.read(source["from"]) if value is None and "from" in source else value
        shown = str(len(value)) if isinstance(value, list) else self.label(value)
        total = source.get("of")
        if isinstance(total, str):
            total = self.evaluate(total)
        return shown if total is None else f"{shown} / {self.label(total)}"

    def colour(self, palette: str | None, value: Any) -> str:
        table = self.presentation.get("palettes", {}).get(palette or "", {})
        if value in table:
            return table[value]
        if palette is None or value is None:
            return NEUTRAL
        return SPARE[sum(map(ord, str(value))) % len(SPARE)]

    def colour_known(self, palette: str | None, value: Any) -> str | None:
        """The colour of *value* in *palette*, else in any palette that has one, else None."""
        palettes = self.presentation.get("palettes", {})
        for table in [palettes.get(palette or "", {}), *palettes.values()]:
            if isinstance(value, str) and value in table:
                return table[value]
        return None

    def card_of(self, ident: Any) -> Any:
        """The card *ident* is: a card by its id, or the card a copy's record names (a deck
        with ``copies`` makes entities ``deck#n`` whose ``card`` is the card's id)."""
        if not isinstance(ident, str):
            return None
        card = self.ruleset.cards.get(ident)
        if card is None and "#" in ident:
            card = self.ruleset.cards.get(str(self.ent.get(ident, {}).get("card")))
        return card

    def card_text(self, ident: str) -> str:
        card = self.card_of(ident)
        if card is None:
            return ""
        texts = self.ruleset.texts.get(self.lang, {}) if self.lang else {}
        return texts.get(card.id, texts.get(ident, card.text)).strip()

    def provenance(self, ident: Any) -> tuple[str, str] | None:
        """(confidence, note) of a card whose effect is not confirmed by a printed text (a
        placeholder or a reconstruction), for its mark and hover text; None otherwise."""
        card = self.card_of(ident)
        confidence = (card.provenance or {}).get("confidence") if card else None
        if card is None or confidence in (None, "confirmed"):
            return None
        if self.lang and self.lang in self.ruleset.texts:  # a page in another language: the note is English
            return self.text(confidence), self.text("the note and its sources are in English (an English page shows them)")
        note = " ".join(str(card.provenance.get("note") or "").split())
        sources = "; ".join(map(str, card.provenance.get("sources") or []))
        return self.text(confidence), note + (f" ({self.text('sources')}: {sources})" if sources else "")

    def card_title(self, ident: str) -> str:
        """A card's hover text: its name, its rule text and, for a card that is not
        confirmed, its provenance (how sure the effect is, and the note saying why)."""
        name, text = self.label(ident), self.card_text(ident)
        title = f"{name}: {text}" if text else name
        known = self.provenance(ident)
        if known is not None:
            title += f"\n\n{self.text('provenance')}: {known[0]}" + (f" — {known[1]}" if known[1] else "")
        return title

    def short(self, value: Any, palette: str | None = None) -> str:
        """The few letters drawn on a token: the presentation's ``short`` name for *value*
        (in the scene's language), else the first two letters of its name, or, when another
        value of its palette starts with the same two, its first letter and the first letter
        that tells them apart. Once per value and palette in a scene."""
        if not hasattr(self, "_shorts"):
            self._shorts: dict[tuple, str] = {}
        key = (type(value), value, palette)   # (True and 1 are equal keys, not equal names)
        try:
            return self._shorts[key]
        except KeyError:
            said = self._shorts[key] = self._short(value, palette)
            return said
        except TypeError:   # a value that is no key (a list): not kept
            return self._short(value, palette)

    def _short(self, value: Any, palette: str | None) -> str:
        declared = (self.presentation.get("short") or {}).get(value) if isinstance(value, str) else None
        if declared:
            return self.text(declared)
        name = self.label(value)
        values = self.presentation.get("palettes", {}).get(palette or "", {})
        others = [self.label(v) for v in values if v != value and not (self.presentation.get("short") or {}).get(v)]
        clash = [o for o in others if o[:2].lower() == name[:2].lower()]
        for k in range(2, len(name)):
            if clash and all(len(o) <= k or o[k].lower() != name[k].lower() for o in clash):
                return name[0] + name[k]
        return name[:2]

    @property
    def cells(self) -> list[dict]:
        return [self.ent[c] for c in self.ruleset.grid.cells if c in self.ent]

    def corner_cells(self, corner: str) -> list[str]:
        return corner.split("|")

    def seat_name(self) -> str | None:
        if self.seat is None:
            return None
        return self.label(self.state["players"][self.seat])

    def roles(self) -> dict[str, list[str]]:
        """What each player plays, by name (the records the presentation gives a panel, by
        owner: the log names a player by these)."""
        out: dict[str, list[str]] = {}
        for record in self.panels():
            owner = self.owner_of(record)
            if owner is not None and owner != record.get("id"):
                out.setdefault(owner, []).append(self.label(record["id"]))
        return out

    def player_name(self, seat: int) -> str:
        """One name for a seat everywhere (the bar, the players, the end, the picture): what
        it plays, as the log names it, with the player: ``Mammals (Player 2)``."""
        player = self.state["players"][seat]
        if not hasattr(self, "_roles"):
            self._roles: dict[str, list[str]] = self.roles()
        plays = self._roles.get(player, [])
        return f"{', '.join(plays)} ({self.label(player)})" if plays else self.label(player)

    _PLACE = re.compile(r"(?:(?P<word>\w+) )?(?<![\w,|.])(?P<place>-?\d+,-?\d+(?:\|-?\d+,-?\d+)*)(?![\w,|])"
                        r"(?P<after> \([^()]*\))?")

    def readable(self, line: str) -> str:
        """A log line with the grid's cells and corners named as a reader knows them (a
        cell by its label attribute and place, ``jungle -1,0``; a corner by the cells around
        it), never by their ids."""
        def name(match: re.Match) -> str:
            word, place, after = match.group("word"), match.group("place"), match.group("after") or ""
            record = self.ent.get(place)
            if record is None or record.get("kind") not in ("cell", "corner"):
                return match.group()
            if record["kind"] == "cell":
                said = self.place_name(place)
                inner = after[2:-1]
                if inner and not any(c.isdigit() for c in inner) and len(inner.split()) <= 3:
                    said, after = f"{inner} {place}", ""  # "-1,0 (forest)": as the line says it was then
            else:
                said = f"{self.text('corner of')} " + " / ".join(self.place_name(c) for c in self.corner_cells(place))
            if word is not None and word != said.split(" ", 1)[0]:  # "corner 1,2|...": "corner of ..."
                said = f"{word} {said}"
            return said + after
        return self._PLACE.sub(name, line) if "," in line else line

    def place_name(self, cell: str) -> str:
        """A cell by its label attribute and place (``cell_title``), once per scene."""
        if not hasattr(self, "_places"):
            self._places: dict[str, str] = {}
        said = self._places.get(cell)
        if said is None:
            said = self._places[cell] = self.cell_title(self.ent[cell]) if cell in self.ent else cell
        return said

    def panels(self) -> list[dict]:
        """The records that get a panel (those whose ``show_if`` attribute is true)."""
        spec = self.presentation["panels"]
        flag = spec.get("show_if")
        return [r for r in self.of_kind(spec.get("kind", "player")) if not flag or r.get(flag)]

    def owner_of(self, record: dict) -> str | None:
        owner = self.presentation["panels"].get("owner")
        return record.get(owner) if owner else None

    def display_sections(self) -> list[tuple[str, list[dict]]]:
        """The action display: (section, spaces left to right), in the declared order."""
        spec = self.presentation.get("display")
        if not spec:
            return []
        skip = spec.get("skip_if")
        spaces = [s for s in self.of_kind(spec["kind"]) if not (skip and s.get(skip))]
        key = spec.get("section")
        sections: dict[str, list[dict]] = {}
        for space in spaces:
            sections.setdefault(str(space.get(key, "")) if key else "", []).append(space)
        order = self.ruleset.constants.get(spec.get("order", ""), [])
        ranked = sorted(sections, key=lambda s: order.index(s) if s in order else len(order))
        return [(s, sections[s]) for s in ranked]

    def evaluate(self, function: str, *args: Any) -> Any:
        """A rule function's value computed from this view only (None if it cannot be:
        it needs what this seat cannot see)."""
        value = self.reader.value(function, *args)
        return None if value is UNKNOWN else value

    def scores(self) -> list[tuple[str, Any]]:
        """Each player's score (the ruleset's ``score`` convention), computed from this view
        only ("?" if it cannot be); computed once per scene."""
        if self._scores is None:
            self._scores = []
            for player in self.state["players"]:
                score = self.reader.convention("score", player)
                self._scores.append((self.label(player), "?" if score is UNKNOWN or score is None else score))
        return list(self._scores)

    def winner(self) -> int | None:
        """The winning seat once the game is over, from this view only: the ruleset's
        ``winner`` convention if it declares one and the view can give it, else the best
        score shown; None before the end or when there is none."""
        if self.state.get("pending") is not None:
            return None
        if "winner" in self.ruleset.conventions:
            best = self.reader.convention("winner")
            if best is not UNKNOWN:
                return None if best is None else self.reader.player_of(best)
        points = [score for _, score in self.scores()]
        numbers = [p for p in points if isinstance(p, (int, float))]
        return points.index(max(numbers)) if numbers else None

    def cell_marker(self, cell: str) -> tuple[str, Any, str | None] | None:
        """The declared marker of a cell (a rule function of the cell, e.g. who dominates
        it): (its label, its value, its palette), or None when it has none; once per scene."""
        spec = self.presentation.get("board", {}).get("cell_marker")
        if not spec:
            return None
        if not hasattr(self, "_markers"):
            self._markers: dict[str, Any] = {}
        if cell not in self._markers:
            self._markers[cell] = self.evaluate(spec["function"], cell)
        value = self._markers[cell]
        if value is None:
            return None
        return self.text(spec.get("label", spec["function"])), value, spec.get("palette")

    # ---- naming what an option is ----------------------------------------------------------

    def describe(self, value: Any) -> str:
        """A label that names what *value* is: a cell with its declared label attribute and
        contents, a corner by the cells around it, a display space with its section and
        parameter, a card by name, anything else by its display name."""
        if isinstance(value, list):
            return ", ".join(self.describe(v) for v in value)
        record = self.ent.get(value) if isinstance(value, str) else None
        if record is None:
            return self.label(value)
        kind = record.get("kind")
        if kind == "cell":
            return self.describe_cell(record)
        if kind == "corner":
            return self.describe_corner(record)
        display = self.presentation.get("display") or {}
        if kind == display.get("kind"):
            return self.describe_space(record, display)
        return self.label(value)

    def cell_title(self, record: dict) -> str:
        board = self.presentation.get("board", {})
        attribute = board.get("cell_label")
        if attribute and record.get(attribute) is not None:
            return f"{self.label(record[attribute])} {record['id']}"
        if attribute:
            return f"{self.text(board.get('blank_label', 'blank'))} {record['id']}"
        return f"{record['id']}"

    def describe_cell(self, record: dict) -> str:
        pieces = (self.presentation.get("board", {}).get("pieces") or {}).get("attribute")
        contents = self.label(record.get(pieces) or {}) if pieces else ""
        marker = self.cell_marker(record["id"])
        if marker is not None:
            contents += f"{'; ' if contents else ''}{marker[0]}: {self.label(marker[1])}"
        return self.cell_title(record) + (f" ({contents})" if contents else "")

    def describe_corner(self, record: dict) -> str:
        around = []
        for cell in self.corner_cells(record["id"]):
            if cell in self.ent:
                around.append(self.cell_title(self.ent[cell]))
        token = (self.presentation.get("board", {}).get("corner_token") or {}).get("attribute")
        held = f" [{self.label(record[token])}]" if token and record.get(token) is not None else ""
        return f"{self.text('corner of')} " + " / ".join(around) + held

    def beside(self, space_id: str) -> tuple[Any, str | None] | None:
        """The token a ``per_space`` box puts beside this space (the i-th token of the box
        belongs to the i-th space of its section), and its palette; None if there is none."""
        if not hasattr(self, "_beside"):
            self._beside: dict[str, tuple[Any, str | None]] = {}
            boxes = (self.presentation.get("display") or {}).get("boxes") or {}
            for section, spaces in self.display_sections():
                box = boxes.get(section)
                if box and box.get("per_space"):
                    values = self.read(box["from"]) or []
                    for space, value in zip(spaces, values if isinstance(values, list) else [values]):
                        self._beside[space["id"]] = (value, box.get("palette"))
        return self._beside.get(space_id)

    def describe_space(self, record: dict, display: dict) -> str:
        name = self.label(record["id"])
        param = (display.get("param") or {}).get("attribute")
        value = record.get(param) if param else None
        said = [] if value is None or re.search(rf"(?<!\w){re.escape(self.items(value).lower())}(?!\w)",
                                                 name.lower()) else [self.items(value)]
        beside = self.beside(record["id"])
        if beside is not None:
            said.append(self.label(beside[0]))
        return f"{name}: {', '.join(said)}" if said else name


def centre(cell: str, size: float) -> tuple[float, float]:
    """The centre of a flat-topped hex at axial ``"q,r"``."""
    q, r = parse_cell(cell)
    return size * 1.5 * q, size * 3 ** 0.5 * (r + q / 2)


def with_defaults(ruleset: Any, state: dict) -> dict:
    """The ruleset's presentation, completed for whatever it does not declare: a grey
    hex grid, every game attribute as a counter, a panel per player with its attributes.
    One that declares its counters, rows and panels does not depend on the state: it is made
    once per ruleset and shared by its scenes (nothing changes a scene's presentation)."""
    kept = _COMPLETE.get(id(ruleset))
    if kept is not None and kept[0] is ruleset:
        return kept[1]
    declared = json.loads(json.dumps(getattr(ruleset, "presentation", {}) or {}))
    out = {"palettes": {}, "board": {}, "rows": [], "counters": [], "log": {"lines": 10}, **declared}
    game = state["ent"].get("game", {})
    shown = [k for k in game if k not in ("kind", "id", "name", "seen_by")]
    cards = [k for k in shown if isinstance(game[k], list) and game[k] and all(isinstance(v, str) and v in ruleset.cards for v in game[k])]
    if "counters" not in declared:
        out["counters"] = [{"from": f"game.{k}", "label": k} for k in shown if k not in cards]
    if "rows" not in declared:
        out["rows"] = [{"from": f"game.{k}", "label": k, "as": "cards"} for k in cards]
    if "panels" not in declared:
        players = [state["ent"][p] for p in state["players"] if p in state["ent"]]
        attributes = sorted({k for r in players for k in r} - {"kind", "id", "name", "seen_by"})
        out["panels"] = {"kind": "player", "fields": [{"attribute": a, "label": a} for a in attributes]}
    out["panels"].setdefault("kind", "player")
    if all(k in declared for k in ("counters", "rows", "panels")):
        with _COMPLETING:
            if len(_COMPLETE) >= COMPLETE_KEPT:
                _COMPLETE.pop(next(iter(_COMPLETE)))
            _COMPLETE[id(ruleset)] = (ruleset, out)
    return out


COMPLETE_KEPT = 32   # rulesets whose completed presentation is kept (a server's rulesets and mods)
_COMPLETE: dict[int, tuple[Any, dict]] = {}   # id(ruleset) -> (the ruleset, its presentation)
_COMPLETING = threading.Lock()
