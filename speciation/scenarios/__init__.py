"""Scenario files: a tool that runs small YAML tests of a ruleset (a position, the
decisions taken, what must hold afterwards). See ``docs/scenarios.md``."""
from __future__ import annotations

from .runner import (ScenarioFailure, ScenarioResult, cached_ruleset, clear_cache,
                     run_scenario_file, run_scenarios, scenario_files)

__all__ = ["ScenarioFailure", "ScenarioResult", "cached_ruleset", "clear_cache",
           "run_scenario_file", "run_scenarios", "scenario_files"]
