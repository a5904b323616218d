"""The machine's steps that draw on chance or make and unmake entities: ``draw``, ``roll``
and ``shuffle`` (scripted outcomes, a chance source, the game's generator, or one stream per
source: rng.py), and ``create``/``destroy`` of entities of a kind with a 'max'. A base of
:class:`~.machine.Machine`, which gives them ``state``, ``ent``, ``ruleset``, ``limits``,
``meter``, ``label`` and the log."""
from __future__ import annotations

import marshal
from copy import deepcopy
from itertools import filterfalse
from typing import Any

from . import rng
from .limits import BudgetError, check_sequence


class Steps:
    """Chance steps and entities made in play (mixed into the machine)."""

    __slots__ = ()
    state: dict
    ent: dict
    ruleset: Any
    limits: Any
    meter: Any
    chance_source: Any
    keep_log: bool
    phrases: dict

    def label(self, value: Any) -> str:  # pragma: no cover - the machine's
        raise NotImplementedError

    def add_log_line(self, line, text: str) -> None:  # pragma: no cover - the machine's
        raise NotImplementedError

    def random_below(self, n: int) -> int:
        """Every chance step's outcome (0 to n - 1): the chance source's, else the generator's."""
        if self.chance_source is not None:
            return self.chance_source.take(n)
        self.state["rng"], value = rng.next_value(self.state["rng"])
        return value % n

    def draw(self, items: list) -> Any:
        """A chance step: take one item out of the list, scripted or at random."""
        if not items:
            return None
        script = self.state["chance"]
        if script:
            value = script.pop(0)
            if value not in items:
                raise ValueError(f"the scripted chance outcome {self.label(value)} is not available "
                                 f"(there are: {self.label(sorted(set(items), key=str))})")
            items.remove(value)
            return value
        streams = self.state["rng"]
        if streams.__class__ is dict and self.chance_source is None:  # one stream per source (rng.py)
            return items.pop(rng.pick(streams, rng.source_of(self.ent, items), items))
        return items.pop(self.random_below(len(items)))

    def roll(self, faces: Any) -> Any:
        """A chance step with listed outcomes, none used up: a die of *faces* sides (1 to faces)
        or one of a list of faces; the next scripted outcome (a face), else the generator's."""
        if isinstance(faces, bool) or not isinstance(faces, (int, list)):
            raise ValueError(f"roll takes a number of sides or a list of faces, not {self.label(faces)}")
        if isinstance(faces, int):
            check_sequence(self.limits, faces, "a die's sides")
        outcomes = range(1, faces + 1) if isinstance(faces, int) else faces
        if not outcomes:
            raise ValueError("a roll of a die without faces")
        script = self.state["chance"]
        if script:
            value = script.pop(0)
            if value not in outcomes or (isinstance(faces, int) and isinstance(value, bool)):
                raise ValueError(f"the scripted chance outcome {self.label(value)} is not a face of the die "
                                 f"({self.label(list(outcomes)) if len(outcomes) <= 20 else f'1 to {faces}'})")
        elif self.state["rng"].__class__ is dict and self.chance_source is None:  # one stream per source
            value = outcomes[rng.pick(self.state["rng"], f"roll {faces!r}", list(outcomes))]
        else:
            value = outcomes[self.random_below(len(outcomes))]
        if self.keep_log:
            line = self.phrases.get("  roll → {}", "  roll → {}").replace("{}", self.label(value), 1)
            self.add_log_line(line, line)
        return value

    def created(self, kind: str) -> list:
        """The entities of a kind whose entities are created in play (its declared ones, then
        those that exist of its numbered ids), or [] for no kind."""
        declared, ids = self.ruleset.creatable.get(kind, ((), ()))
        ent = self.ent
        out = list(filter(ent.__contains__, declared))  # (filters: the loops at C speed)
        if len(ids) <= len(ent):
            return out + list(filter(ent.__contains__, ids))
        # A kind may create more (often hundreds) than the game holds entities: its entities
        # are found among those, in the order of its ids.
        rank = self.ruleset.created_rank[kind]
        made = list(filter(rank.__contains__, ent))
        made.sort(key=rank.__getitem__)
        return out + made

    def create(self, kind: Any) -> str:
        """A new entity of *kind* (declared with a 'max'): the lowest of its ids kind#1 ...
        kind#max not in use, with the kind's attributes; an error past the max."""
        if not isinstance(kind, str) or kind not in self.ruleset.creatable:
            raise ValueError(f"{self.label(kind)} is not a kind whose entities can be created (a kind "
                             "needs a 'max' in its declaration)")
        ids = self.ruleset.creatable[kind][1]
        ident = next(filterfalse(self.ent.__contains__, ids), None)
        if ident is None:
            raise BudgetError(f"no more than {len(ids)} entities of kind '{kind}' may exist at once (its 'max')")
        defaults = self.ruleset.kind_defaults.get(kind, {})
        record = {"kind": str(kind), "id": str(ident)}  # plain text: states are marshalled
        try:  # the defaults are plain data: copied by marshal (C speed)
            record.update(marshal.loads(marshal.dumps(defaults)))
        except ValueError:  # pragma: no cover - not plain data after all
            record.update(deepcopy(defaults))
        self.ent[ident] = record
        self.meter.left -= 1 + len(record)
        return ident

    def destroy(self, entity: Any) -> None:
        record = self.ent.get(entity) if isinstance(entity, str) else None
        if record is None or record["kind"] not in self.ruleset.creatable:
            raise ValueError(f"cannot destroy {self.label(entity)}: only an entity of a kind with a 'max' "
                             "can be destroyed")
        del self.ent[entity]

    def shuffle(self, items: list) -> None:
        if self.state["rng"].__class__ is dict and self.chance_source is None:  # one stream per source
            return rng.order(self.state["rng"], rng.source_of(self.ent, items), items)
        for i in range(len(items) - 1, 0, -1):
            j = self.random_below(i + 1)
            items[i], items[j] = items[j], items[i]

