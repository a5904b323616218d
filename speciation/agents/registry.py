"""The agents by name: ``make_agent("mcts:iterations=400")``, ``make_agents("human,greedy", 2)``.

The only module that imports every agent (no agent imports it), so that the agents stand
below whatever names them: the command line, batches, balance studies, the table.
"""
from __future__ import annotations

import inspect
from typing import Any

from .base import Agent
from .greedy import GreedyAgent
from .human import HumanAgent
from .mcts import MctsAgent
from .random_agent import RandomAgent

AGENT_NAMES = ("random", "greedy", "mcts", "human")
MAKERS = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MctsAgent}


def make_agents(spec: str, players: int, seed: int = 0) -> list[Agent]:
    """Agents from a comma list such as "human,mcts:iterations=400:cutoff=10,greedy": one
    per player, or one for everybody. Each is a name and options ``:key=value``. Raises
    ValueError for an unknown name or option, or a wrong count.

    >>> [type(a).__name__ for a in make_agents("greedy, random", 2)]
    ['GreedyAgent', 'RandomAgent']
    """
    specs = [n.strip() for n in spec.split(",") if n.strip()] or ["random"]
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise ValueError(f"--agents names {len(specs)} agents for {players} players")
    return [make_agent(text, seed, seat) for seat, text in enumerate(specs)]


def make_agent(spec: str, seed: int = 0, seat: int = 0) -> Agent:
    """One agent from "name" or "name:key=value:key=value", seeded for *seat*."""
    name, *parts = [p.strip() for p in spec.split(":")]
    name = name.lower()
    options: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise ValueError(f"agent option '{part}' is not key=value (in '{spec}')")
        options[key.strip()] = _number(value.strip())
    if name == "human":
        if options:
            raise ValueError("the human agent takes no options")
        return HumanAgent()
    if name not in MAKERS:
        raise ValueError(f"unknown agent '{name}' (use {', '.join(AGENT_NAMES)})")
    try:
        return MAKERS[name](seed, seat, **options)
    except TypeError:
        known = [p for p in inspect.signature(MAKERS[name]).parameters if p not in ("seed", "seat")]
        raise ValueError(f"agent '{name}' has options {', '.join(known) or 'none'}, not "
                         f"{', '.join(options)}") from None


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
