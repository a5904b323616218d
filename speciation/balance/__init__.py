"""Balance studies: many games with chosen agents, and what they say about a ruleset, a variant
or a mod (win shares with confidence intervals, scores, lengths, endings, cards), optionally
compared with another configuration. Used by ``speciation balance``.

:mod:`.runner` plays the games (here, on local worker processes, or on a Dask cluster),
:mod:`.study` plays a comparison in pairs (sequentially if asked), :mod:`.stats` turns
games into figures (intervals and tests from SciPy), :mod:`.paired` compares the pairs
(paired intervals, McNemar, equivalence, power: statsmodels), :mod:`.report` prints them as
text, JSON or an HTML page with plots.
"""
from .paired import compare_paired, pairs_needed
from .runner import Config, GameRecord, run_study
from .stats import compare, summarize, wilson_interval

__all__ = ["Config", "GameRecord", "compare", "compare_paired", "pairs_needed", "run_study", "summarize",
           "wilson_interval"]
