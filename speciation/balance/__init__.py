"""Balance studies: many games with chosen agents, and what they say about a ruleset, a variant
or a mod (win shares with confidence intervals, scores, lengths, endings, cards), optionally
compared with another configuration. Used by ``speciation balance``.

:mod:`.runner` plays the games (here, on local worker processes, or on a Dask cluster),
:mod:`.stats` turns them into figures (intervals and tests from SciPy), :mod:`.report`
prints them as text or an HTML page with plots.
"""
from .runner import Config, GameRecord, run_study
from .stats import compare, summarize, wilson_interval

__all__ = ["Config", "GameRecord", "compare", "run_study", "summarize", "wilson_interval"]
