"""Mods as packages: a mod is a file or a folder of rule files, optionally with a manifest
(``mod:`` with ``version``, ``author``, ``targets``), that may change *part* of a card of
an earlier layer (its ``text``, ``effect``, one trigger) without copying the rest. What
each mod brings is recorded, for ``speciation list`` and the JSON of ``simulate``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import CompileError, did_you_mean, msg
from .loader import Node, NodeList

CARD_PARTS = ("text", "effect", "labels", "attributes", "doc")


def mod_files(mod: Path) -> list[Path]:
    """The rule files of a mod: the file itself, or every ``*.yaml`` of the folder but
    those in its own ``scenarios/`` (its tests, not its rules)."""
    if not mod.is_dir():
        return [mod]
    return [p for p in sorted(mod.rglob("*.yaml")) if p.relative_to(mod).parts[0] != "scenarios"]


def new_info(mod: str) -> dict[str, Any]:
    path = Path(mod)
    return {"name": path.stem if path.is_file() else path.name, "path": str(mod), "version": None,
            "author": None, "targets": [], "title": None, "brings": []}


def note_manifest(info: dict[str, Any], doc: Node) -> None:
    """Take a mod document's name, version, author, targets and title."""
    info["name"] = str(doc["mod"])
    for key in ("version", "author", "title"):
        if key in doc:
            info[key] = str(doc[key])
    if "targets" in doc:
        info["targets"] = [str(t) for t in doc["targets"]]


def change_cards(defs, section: Node, info: dict[str, Any] | None) -> None:
    """Apply a ``cards:`` section: for each card id, replace the parts given and keep the rest.
    A trigger replaces the card's trigger on the same event (or is added); an ability, the
    card's ability of the same name (or is added)."""
    for ident, change in section.items():
        if ident not in defs.cards:
            defs.errors.append(CompileError(msg("cannot change card '{name}': no earlier layer defines it", name=ident),
                                            section.where_key(ident), did_you_mean(str(ident), defs.cards)))
            continue
        old, path = defs.cards[ident]
        new = _copy(old)
        changed = []
        for key in CARD_PARTS:
            if key in change:
                new[key] = change[key]
                new.key_spans[key], new.value_spans[key] = change.where_key(key), change.where(key)
                changed.append(key)
        if "triggers" in change:
            new["triggers"] = _merged_triggers(old.get("triggers", []), change["triggers"])
            changed.append("triggers on " + ", ".join(_event(t) for t in change["triggers"]))
        if "abilities" in change:  # each replaces the ability of its name, or is added
            new["abilities"] = _merged_abilities(old.get("abilities") or {}, change["abilities"])
            changed.append("abilities " + ", ".join(map(str, change["abilities"])))
        defs.cards[ident] = (new, path)
        defs.note_change("cards", ident, section.where_key(ident))
        if info is not None:
            info["brings"].append(f"card {ident} (changes {'; '.join(changed)})")


def _copy(node: Node) -> Node:
    new = Node(node)
    new.span = node.span
    new.key_spans, new.value_spans = dict(node.key_spans), dict(node.value_spans)
    return new


def _event(trigger: Any) -> str:
    return str(trigger.get("on") or trigger.get("before") or trigger.get("instead") or "").split("(")[0].strip()


def _merged_abilities(old: Any, changes: Any) -> Node:
    out = Node({**old, **changes})
    out.span = getattr(old, "span", None) or getattr(changes, "span", None)  # type: ignore[assignment]
    out.key_spans = {**getattr(old, "key_spans", {}), **getattr(changes, "key_spans", {})}
    out.value_spans = {**getattr(old, "value_spans", {}), **getattr(changes, "value_spans", {})}
    return out


def _merged_triggers(old: list, changes: list) -> NodeList:
    out = NodeList(old)
    out.span = getattr(old, "span", None) or getattr(changes, "span", None)  # type: ignore[assignment]  # None: no file
    out.item_spans = list(getattr(old, "item_spans", [out.span] * len(old)))
    for trigger, span in zip(changes, getattr(changes, "item_spans", [None] * len(changes))):
        events = [_event(t) for t in out]
        if _event(trigger) in events:
            at = events.index(_event(trigger))
            out[at], out.item_spans[at] = trigger, span
        else:
            out.append(trigger)
            out.item_spans.append(span)
    return out
