"""Agents: whatever makes a seat's decisions (a person, a random pick, a search).

One module per agent; :mod:`.base` holds the seat handle, the interface and the exceptions,
:mod:`.registry` makes agents by name. Games are played by :func:`speciation.play.play`.
"""
from .base import Agent, GameTooLong, QuitGame, SeatView, UndoRequest, seat_views
from .greedy import GreedyAgent
from .human import HumanAgent
from .mcts import MctsAgent
from .random_agent import RandomAgent
from .registry import AGENT_NAMES, make_agent, make_agents

__all__ = ["AGENT_NAMES", "Agent", "GameTooLong", "GreedyAgent", "HumanAgent", "MctsAgent", "QuitGame",
           "RandomAgent", "SeatView", "UndoRequest", "make_agent", "make_agents", "seat_views"]
