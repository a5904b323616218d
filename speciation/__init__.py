"""Speciation: a rules language and interpreter for the Dominant Species games.

>>> from speciation import load_ruleset, Game
>>> ruleset = load_ruleset("original")
>>> game = Game.new(ruleset, players=3, seed=7)
>>> game.current_player in (0, 1, 2)
True
"""
from .dsl.errors import (ArgumentError, CompileError, IllegalActionError, LoadError, ParseError, ReplayError,
                         RuleError, RuleErrors, RuleRuntimeError, SaveFileError, SchemaError, SpeciationError)
from .interpreter.ruleset import Ruleset, available_rulesets, load_ruleset
from .interpreter.game import Action, Game, LegalActions
from .interpreter.pending import Decision
from .api import determinize, load_save, replay, save_json

__all__ = ["Action", "ArgumentError", "CompileError", "Decision", "Game", "IllegalActionError", "LegalActions",
           "LoadError", "ParseError", "ReplayError", "RuleError", "RuleErrors", "RuleRuntimeError",
           "Ruleset", "SaveFileError", "SchemaError", "SpeciationError", "available_rulesets",
           "determinize", "load_ruleset", "load_save", "replay", "save_json"]
__version__ = "0.1.0"
