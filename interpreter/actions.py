"""The actions of the decision protocol: an :class:`Action` is one legal option of the
pending decision; ``Game.legal_actions()`` returns them as a :class:`LegalActions`, a
sequence that makes each action only when it is read (choosing one of 96 options at random
makes one object, not 96)."""
from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from operator import index as _as_index
from typing import Any

from .views import copy_plain as _copy

class Action:
    """One legal option of the pending decision. ``value`` is plain data (a copy: changing
    it changes nothing in the game; an action from ``legal_actions`` copies it from the
    decision's options when it is first read); ``label`` is its display text (computed when first
    asked for); ``decision`` the id of the decision it answers (``Game.decision_id``), so
    that it is refused by any other decision or game."""

    __slots__ = ("value", "_label", "_offer")

    def __init__(self, value: Any, label: str | None = None, describe=None, decision: str | None = None):
        self.value = value
        self._label = label
        self._offer = (describe, decision)  # shared by the actions of one decision (see _Offered)

    @property
    def decision(self) -> str | None:
        return self._offer[1]

    @property
    def label(self) -> str:
        if self._label is None:
            describe = self._offer[0]
            self._label = describe(self.value) if describe else repr(self.value)
        return self._label

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and other.value == self.value and other.label == self.label

    def __hash__(self) -> int:
        return hash(repr(self.value))

    def __repr__(self) -> str:
        return f"Action({self.value!r}, {self.label!r})"


class Offer:
    """What the actions of one listing share: the pending decision, and its id and option
    describer, each made only when an action's ``decision`` or ``label`` is first read (a
    batch run reads neither). Indexed as the ``(describer, decision id)`` pair a plain
    :class:`Action` holds."""

    __slots__ = ("pending", "_machine", "_id", "_env", "_describe")

    def __init__(self, machine, pending: dict, decision: tuple[str, int] | str, env: dict):
        self.pending = pending
        self._machine = machine
        self._id: tuple[str, int] | str = decision  # (the game's token, the decision's number), joined when read
        self._env = env  # the names of the block that asks (copied when a label is first asked)
        self._describe = None

    def __getitem__(self, index: int):
        if index == 1:
            decision = self._id
            if decision.__class__ is not str:
                decision = self._id = f"{decision[0]}/{decision[1]}"
            return decision
        if index == 0:
            if self._describe is None:
                self._describe = self._machine.option_describer(self.pending, self._env)
            return self._describe
        raise IndexError(index)


class _Offered(Action):
    """An action made by ``legal_actions`` (cheaper to make: one shared offer, and its value
    copied from the decision's options only when first read). It knows its option's index
    (None: the pass, whose value is None and label :data:`PASS_LABEL`), so that ``apply`` of
    it at its own decision needs no search."""

    __slots__ = ("_raw", "_index")

    def __init__(self, raw: Any, offer: tuple, index: int | None, label: str | None = None):
        self._raw = raw  # the option as the pending decision holds it (_COPIED once copied)
        self._label = label
        self._offer = offer
        self._index = index  # None: the pass (its value None, its label PASS_LABEL)

    @property
    def value(self) -> Any:
        raw = self._raw
        if raw is _COPIED:
            return _VALUE.__get__(self)
        if raw.__class__ in _IMMUTABLE:
            return raw
        value = _copy(raw)
        _VALUE.__set__(self, value)
        self._raw = _COPIED
        return value

    @value.setter
    def value(self, value: Any) -> None:
        _VALUE.__set__(self, value)
        self._raw = _COPIED


_VALUE = Action.value  # type: ignore[misc]  # the slot _Offered's property keeps a copied value in (its descriptor)
_COPIED = object()


PASS_LABEL = "pass (decline)"


_IMMUTABLE = frozenset({str, int, bool, float, type(None)})


class LegalActions(Sequence):
    """The legal actions of one decision, in the order the rules list them (the pass last,
    when the decision may be declined). A read-only sequence: ``len``, indexing, slices,
    iteration, ``in``, and ``==`` with a list or tuple of actions work as on a list; each
    read makes its action then (an action read twice is made twice, and the two are equal).
    ``list(actions)`` gives a plain list."""

    __slots__ = ("_options", "_offer", "_count")

    def __init__(self, options: list, offer: Offer | None, optional: bool):
        self._options = options
        self._offer = offer
        self._count = len(options) + (1 if optional else 0)

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index):
        if index.__class__ is not int:
            if isinstance(index, slice):
                return [self[i] for i in range(*index.indices(self._count))]
            index = _as_index(index)
        count = self._count
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError(f"legal action {index} of {count}: out of range")
        options = self._options
        if index < len(options):
            return _Offered(options[index], self._offer, index)
        return _Offered(None, self._offer, None, PASS_LABEL)

    def __iter__(self):
        options = self._options
        yield from map(_Offered, options, repeat(self._offer), range(len(options)))
        if self._count > len(options):
            yield _Offered(None, self._offer, None, PASS_LABEL)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, LegalActions)):
            return len(other) == self._count and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # like a list

    def __add__(self, other):
        return list(self) + list(other)

    def __radd__(self, other):
        return list(other) + list(self)

    def __repr__(self) -> str:
        return repr(list(self))


EMPTY = LegalActions([], None, False)


def option_index(value: Any, options: list) -> int | None:
    """The index of value among the options (True is not 1, 1 is not 1.0), or None."""
    try:
        index = options.index(value)  # the first equal option: most often the one
    except ValueError:
        return None
    if type(options[index]) is type(value):
        return index
    for index, option in enumerate(options):
        if value == option and type(value) is type(option):
            return index
    return None
