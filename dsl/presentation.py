"""Check a ruleset's ``presentation`` section: how its state looks.

The section is plain data (its structure is checked by ``schemas/presentation.json``);
this module checks what the schema cannot: that every attribute, entity, kind, palette and
symbol list it names exists. Errors point at the word, like every rule error. Drawing is
:mod:`speciation.render`'s job; nothing here knows any game.
"""
from __future__ import annotations

from typing import Any

from .errors import CompileError, RuleError, Span, did_you_mean, msg


class _Checker:
    def __init__(self, presentation: dict, spans: dict[tuple, Span], kinds: dict[str, dict],
                 entities: dict[str, dict], symbols: dict[str, Any], origin: Span,
                 functions: dict[str, list[str]] | None = None):
        self.functions = functions or {}
        self.p, self.spans, self.kinds, self.entities = presentation, spans, kinds, entities
        self.symbols, self.origin = symbols, origin
        self.errors: list[RuleError] = []
        self.palettes = presentation.get("palettes", {})

    def span(self, path: tuple) -> Span:
        while path and path not in self.spans:
            path = path[:-1]
        return self.spans.get(path, self.origin)

    def error(self, message: str, path: tuple, hint: str | None = None) -> None:
        self.errors.append(CompileError(message, self.span(path), hint))

    def attributes_of(self, kind: str) -> set[str]:
        names = set(self.kinds.get(kind, {})) | {"id", "name", "kind"}
        for record in self.entities.values():
            if record.get("kind") == kind:
                names |= set(record)
        if kind == "cell":
            names |= {"q", "r"}
        return names

    def kind(self, path: tuple) -> str | None:
        kind = _get(self.p, path)
        if kind is None:
            return None
        if kind not in self.kinds:
            self.error(msg("unknown kind '{kind}'", kind=kind), path, did_you_mean(kind, self.kinds))
            return None
        return kind

    def attribute(self, kind: str, path: tuple) -> None:
        name = _get(self.p, path)
        if name is None:
            return
        known = self.attributes_of(kind)
        if name not in known:
            self.error(msg("a {kind} has no attribute '{name}'", kind=kind, name=name), path, did_you_mean(name, known))

    def palette(self, path: tuple) -> None:
        name = _get(self.p, path)
        if name is not None and name not in self.palettes:
            self.error(msg("no palette named '{name}'", name=name), path, did_you_mean(name, self.palettes))

    def coloured(self, kind: str, path: tuple) -> None:
        if _get(self.p, path) is not None:
            self.attribute(kind, path + ("attribute",))
            self.palette(path + ("palette",))

    def function(self, path: tuple, arity: int) -> None:
        name = _get(self.p, path + ("function",))
        if name is None:
            return
        if name not in self.functions:
            self.error(msg("no rule function named '{name}'", name=name), path + ("function",), did_you_mean(name, self.functions))
        elif len(self.functions[name]) != arity:
            self.error(msg("'{name}' takes {count} values; a marker's function takes {arity} (the cell)", name=name,
                           count=len(self.functions[name]), arity=arity), path + ("function",))
        self.palette(path + ("palette",))

    def source(self, path: tuple) -> None:
        text, of_kind = _get(self.p, path + ("from",)), _get(self.p, path + ("kind",))
        if text is None or of_kind is not None:  # a row of every entity of a kind
            if (text is None) == (of_kind is None):
                rows = path[0] == "rows"
                self.error(msg("name either 'from' (entity.attribute) or 'kind'") if rows
                           else msg("name 'from' (entity.attribute)"), path)
                return
            if path[0] != "rows" or _get(self.p, path + ("as",)) == "pile":
                self.error(msg("only a row that is not a pile may name a 'kind' instead of 'from'"), path + ("kind",))
                return
            kind = self.kind(path + ("kind",))
            if kind is not None:
                self.attribute(kind, path + ("detail",))
            self.palette(path + ("palette",))
            return
        ident, _, attribute = text.rpartition(".")
        ident = ident or "game"
        record_kind = "game" if ident == "game" else self.entities.get(ident, {}).get("kind")
        if record_kind is None:
            self.error(msg("no entity '{name}'", name=ident), path + ("from",), did_you_mean(ident, self.entities))
            return
        known = self.attributes_of(record_kind) | set(self.entities.get(ident, {}))
        if attribute not in known:
            self.error(msg("'{name}' has no attribute '{attribute}'", name=ident, attribute=attribute), path + ("from",), did_you_mean(attribute, known))
        self.palette(path + ("palette",))
        if isinstance(_get(self.p, path + ("of",)), str):
            self.arity(path + ("of",), 0, msg("what a list counts toward is a function of no values"))

    def run(self) -> list[RuleError]:
        board = ("board",)
        self.coloured("cell", board + ("cell_fill",))
        self.attribute("cell", board + ("cell_label",))
        self.coloured("cell", board + ("pieces",))
        self.coloured("corner", board + ("corner_token",))
        self.function(board + ("cell_marker",), 1)
        self.check_display()
        for section in ("rows", "counters"):
            for i in range(len(self.p.get(section, []))):
                self.source((section, i))
        self.check_panels()
        self.check_tableau()
        return self.errors

    def check_tableau(self) -> None:
        tableau = self.p.get("tableau")
        if tableau is None:
            return
        self.palette(("tableau", "palette"))
        if "places" in tableau:
            self.source(("tableau", "places"))
        seats = tableau.get("seats", {})
        kind = self.kind(("tableau", "seats", "kind")) if "kind" in seats else "player"
        for key in ("row", "hand"):
            if kind is not None:
                self.attribute(kind, ("tableau", "seats", key))
        anywhere = set().union(*(self.attributes_of(k) for k in self.kinds))
        for path in [("tableau", "seats", "items"), ("tableau", "seats", "hidden")] + \
                [("tableau", part, "counters", i) for part in ("places", "seats")
                 for i in range(len(tableau.get(part, {}).get("counters", [])))] + [("tableau", "places", "detail")] + \
                [("tableau", "seats", "faces", i) for i in range(len(seats.get("faces", [])))]:
            name = _get(self.p, path)
            if name is not None and name not in anywhere:
                self.error(msg("no kind of entity has an attribute '{name}'", name=name), path, did_you_mean(name, anywhere))
        if "stack" in tableau:
            self.source(("tableau", "stack"))
        if "levels" in seats:
            self.check_levels(("tableau", "seats", "levels"))

    def check_levels(self, path: tuple) -> None:
        """A tableau's ``levels``: its kind, the attributes it reads, its flags' functions."""
        kind = self.kind(path + ("kind",))
        if kind is None:
            return
        for key in ("owner", "level", "place", "items", "off", "gone"):
            self.attribute(kind, path + (key,))
        for i, flag in enumerate(_get(self.p, path + ("flags",)) or []):
            where = path + ("flags", i)
            if ("attribute" in flag) == ("function" in flag):
                self.error(msg("a flag names either an 'attribute' or a 'function'"), where)
            self.attribute(kind, where + ("attribute",))
            self.arity(where + ("function",), 1, msg("a flag's function takes 1 (the entity)"))

    def arity(self, path: tuple, arity: int, what: str) -> None:
        """The rule function named at *path* exists and takes *arity* values."""
        name = _get(self.p, path)
        if name is None:
            return
        if name not in self.functions:
            self.error(msg("no rule function named '{name}'", name=name), path, did_you_mean(name, self.functions))
        elif len(self.functions[name]) != arity:
            self.error(msg("'{name}' takes {count} values; {what}", name=name, count=len(self.functions[name]), what=what), path)

    def check_display(self) -> None:
        display = self.p.get("display")
        if display is None:
            return
        kind = self.kind(("display", "kind"))
        if kind is None:
            if "kind" not in display:
                self.error(msg("the display names no 'kind' of entity for its spaces"), ("display",))
            return
        for key in ("section", "skip_if"):
            self.attribute(kind, ("display", key))
        for key in ("param", "pawn"):
            self.coloured(kind, ("display", key))
        order = display.get("order")
        if order is not None and order not in self.symbols:
            self.error(msg("no symbol list named '{name}'", name=order), ("display", "order"), did_you_mean(order, self.symbols))
        for section in display.get("boxes", {}):
            if order in self.symbols and section not in self.symbols[order]:
                self.error(msg("'{name}' is not one of the symbols '{order}'", name=section, order=order), ("display", "boxes", section),
                           did_you_mean(section, self.symbols[order]))
            self.source(("display", "boxes", section))

    def check_panels(self) -> None:
        panels = self.p.get("panels")
        if panels is None:
            return
        kind = self.kind(("panels", "kind")) if "kind" in panels else "player"
        if kind is None:
            return
        for key in ("show_if", "owner"):
            self.attribute(kind, ("panels", key))
        self.palette(("panels", "palette"))
        for i in range(len(panels.get("fields", []))):
            self.attribute(kind, ("panels", "fields", i, "attribute"))
            self.palette(("panels", "fields", i, "palette"))


def _get(data: Any, path: tuple) -> Any:
    for step in path:
        if isinstance(data, dict):
            data = data.get(step)
        elif isinstance(data, list) and isinstance(step, int) and step < len(data):
            data = data[step]
        else:
            return None
    return data


def check_presentation(presentation: dict, spans: dict[tuple, Span], kinds: dict[str, dict],
                       entities: dict[str, dict], symbols: dict[str, Any], origin: Span,
                       functions: dict[str, list[str]] | None = None) -> list[RuleError]:
    """Every name the presentation uses that the ruleset does not define (*functions*:
    rule function name -> its parameters)."""
    if not presentation:
        return []
    return _Checker(presentation, spans, kinds, entities, symbols, origin, functions).run()
