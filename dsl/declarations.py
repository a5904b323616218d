"""What a ruleset declares for the engine and the tools, checked once at load.

**Conventions** (the manifest's ``conventions`` section): the rule functions that tools
call by role rather than by a name written in their code. Each role has a fixed number of
values; a role the manifest does not name is the function of the same name if the ruleset
has one. ``score`` is required. The result, ``Ruleset.conventions``, maps each role the
ruleset fills to its function's name, and is the only place tools look.

**Hidden information** (the ``hidden`` section of the rule files, merged layer by layer):
what a seat may not see, parsed into one :class:`Hidden` used by views and by
determinisation.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import CompileError, RuleError, Span, did_you_mean, msg

# role -> (values it is called with, what calls it); the docs' table is written from this
ROLES: dict[str, tuple[tuple[str, ...], str]] = {
    "score": (("player",), "a player's score: the table's scores, reports, the winner when there is no `winner`"),
    "winner": ((), "the winning player once the game is over (`Game.winner`; default: the best score)"),
    "winner_label": ((), "words naming the winner (`simulate`, `play`, batch and balance reports)"),
    "turn_count": ((), "how many turns the game took (batch and balance reports)"),
    "end_reason": ((), "why the game ended (balance reports)"),
    "cards_taken": ((), "`[taker, card]` pairs, every card taken in order (balance reports)"),
    "evaluate": (("player",), "how good the position is for a player (search agents; default: `score`)"),
    "features": (("player",), "a player's position as numbers (learning agents; default: every `score`)"),
    "alike": (("option",), "a key for an option of the pending decision: options with the same key (not none) "
                           "lead to positions the evaluation values alike (search agents value one of them)"),
    "trigger_controller": (("card",), "the seat that orders a card's triggers (naming it turns owner-ordered triggers on)"),
    "turn_order": ((), "the seats from the active one in turn order (owner-ordered triggers; default: p1, p2, ...)"),
}
REQUIRED = ("score",)
OPT_IN = ("trigger_controller", "turn_order",  # roles for owner-ordered triggers (interpreter/triggers.py)
          "alike")  # a search hint only where it holds exactly (docs/agents.md)


def check_conventions(manifest: Any, functions: dict[str, tuple[list[str], Any, Span]],
                      origin: Span) -> tuple[dict[str, str], list[RuleError]]:
    """The conventions of a ruleset (role -> function name) from its manifest's
    ``conventions`` section and the functions it defines (name -> (parameters, text,
    span)), with an error at the author's line for a missing function or a wrong arity."""
    declared = manifest.get("conventions") if isinstance(manifest, dict) else None
    declared = declared if isinstance(declared, dict) else {}
    out: dict[str, str] = {}
    errors: list[RuleError] = []
    for role, (params, _) in ROLES.items():
        name = declared.get(role)
        where = declared.where(role) if name is not None and hasattr(declared, "where") else origin
        if name is None:
            if role not in functions:
                if role in REQUIRED:
                    errors.append(CompileError(msg("the ruleset has no '{role}({params})' function", role=role,
                                                   params=", ".join(params)), origin))
                continue
            name, where = role, functions[role][2]
        name = str(name)
        if name not in functions:
            errors.append(CompileError(msg("the '{role}' convention names no rule function '{name}'", role=role, name=name), where,
                                       did_you_mean(name, functions)))
            continue
        have = functions[name][0]
        if len(have) != len(params):
            wanted = (msg("{count} value ({params})", count=len(params), params=", ".join(params)) if len(params) == 1
                      else msg("{count} values ({params})", count=len(params), params=", ".join(params))) if params \
                else msg("no values")
            takes = msg("'{name}' takes {count} value, but the '{role}' convention calls it with {wanted}",
                        name=name, count=len(have), role=role, wanted=wanted) if len(have) == 1 else \
                msg("'{name}' takes {count} values, but the '{role}' convention calls it with {wanted}",
                    name=name, count=len(have), role=role, wanted=wanted)
            errors.append(CompileError(takes, where))
            continue
        out[role] = name
    return out, errors


# ---- hidden information ----------------------------------------------------------------------

@dataclass(frozen=True)
class Hidden:
    """What a seat may not see (the ``hidden`` section), as views and determinisation use it.

    ``order``: attributes whose order is secret (shown sorted); ``contents``: attributes whose
    contents are secret (shown as ``"?"``); ``shown_heads``: {attribute: flag}, the first
    item of a secret list is face up while the entity's flag is true; ``private``: attributes
    only the controlling player sees; ``tails``: {attribute: N}, the last N items were
    shuffled apart; ``groups``: attributes between which hidden items may trade places;
    ``faces``: {kind: :class:`Face`}, the attributes of an entity of that kind that a seat
    sees only while it sees the entity (its visibility, ``interpreter/visibility.py``)."""

    order: frozenset = frozenset()
    contents: frozenset = frozenset()
    shown_heads: dict = field(default_factory=dict)
    private: frozenset = frozenset()
    tails: dict = field(default_factory=dict)
    groups: tuple = ()
    faces: dict = field(default_factory=dict)

    @property
    def attributes(self) -> frozenset:
        """Every attribute something is hidden in."""
        faces = frozenset(a for face in self.faces.values() for a in face.attributes)
        return self.order | self.contents | self.private | faces


@dataclass(frozen=True)
class Face:
    """The face of the entities of one kind (``hidden: {faces: {kind: ...}}``): its
    *attributes*, and who sees an entity of the kind that nothing revealed or hid
    (*seen_by*: ``controller``, ``nobody`` or ``all``)."""

    attributes: frozenset
    seen_by: str = "controller"


HIDDEN_KEYS = ("order", "contents", "shown_heads", "private", "tails", "groups", "faces")
FACE_DEFAULTS = ("controller", "nobody", "all")


# the tables that declared hidden information before the 'hidden' section: now an error,
# so that a ruleset written for them never shows what it meant to hide
FORMER_TABLES = {"hidden_lists": "order", "secret_lists": "contents", "shown_heads": "shown_heads",
                 "private_attributes": "private", "hidden_tails": "tails", "hidden_groups": "groups"}


def hidden_of(section: dict, spans: dict, attributes: set[str], origin: Span,
              tables: dict[str, tuple[Any, Span]] | None = None,
              kinds: set[str] | None = None, decks: frozenset | set = frozenset()) -> tuple[Hidden, list[RuleError]]:
    """The :class:`Hidden` a merged ``hidden`` section declares, with an error for an
    attribute no kind or entity has (*spans*: where each merged entry was written), for a
    ``faces`` entry naming neither a kind (*kinds*, when given) nor a deck (*decks*: a deck's
    face is its cards', as ``visibility.face_of`` reads it) and for a table that still
    declares hidden information the former way (*tables*)."""
    errors: list[RuleError] = [
        CompileError(msg("the table '{name}' no longer declares hidden information: write it as "
                         "'{instead}' in a 'hidden' section", name=name, instead=FORMER_TABLES[name]), span)
        for name, (_, span) in (tables or {}).items() if name in FORMER_TABLES]

    def known(name: Any, path: tuple) -> bool:
        if isinstance(name, str) and name in attributes:
            return True
        errors.append(CompileError(msg("in 'hidden' → '{section}': no kind or entity has an attribute '{name}'",
                                       section=path[0], name=name),
                                   spans.get(path, spans.get(path[:1], origin)), did_you_mean(str(name), sorted(attributes))))
        return False

    def names(key: str) -> frozenset:
        return frozenset(n for i, n in enumerate(section.get(key) or ()) if known(n, (key, i)))

    def mapping(key: str) -> dict:
        return {k: v for k, v in (section.get(key) or {}).items() if known(k, (key, k))}

    heads = mapping("shown_heads")
    for attr, flag in heads.items():
        known(flag, ("shown_heads", attr))
    groups = tuple(tuple(n for n in group if known(n, ("groups", i))) for i, group in enumerate(section.get("groups") or ()))
    faces = {}
    for kind, spec in (section.get("faces") or {}).items():
        where = spans.get(("faces", kind), spans.get(("faces",), origin))
        if kinds is not None and kind not in kinds and kind not in decks:
            none = msg("in 'hidden' → 'faces': there is no kind or deck '{name}'", name=kind) if decks \
                else msg("in 'hidden' → 'faces': there is no kind '{name}'", name=kind)
            errors.append(CompileError(none, where,
                                       did_you_mean(str(kind), sorted(set(kinds) | set(decks)))))
            continue
        listed = spec.get("attributes") if isinstance(spec, dict) else spec
        default = spec.get("seen_by", "controller") if isinstance(spec, dict) else "controller"
        faces[kind] = Face(frozenset(n for n in listed or () if known(n, ("faces", kind))), default)
    hidden = Hidden(order=names("order"), contents=names("contents"), shown_heads=heads,
                    private=names("private"), tails=mapping("tails"), groups=groups, faces=faces)
    return hidden, errors
