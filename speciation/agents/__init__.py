"""Agents: whatever makes a seat's decisions (a person, a random pick, a search).

One module per agent; :mod:`.base` holds the interface and the loop that plays a game.
"""
from .base import Agent, GameTooLong, QuitGame, SeatView, make_agent, make_agents, play_game, seat_views
from .greedy import GreedyAgent
from .human import HumanAgent
from .mcts import MctsAgent
from .random_agent import RandomAgent

__all__ = ["Agent", "GameTooLong", "GreedyAgent", "HumanAgent", "MctsAgent", "QuitGame", "RandomAgent", "SeatView",
           "make_agent", "make_agents", "play_game", "seat_views"]
