"""The statistics of a comparison of two configurations played in pairs (the same seed and
seats with and without the change), from statsmodels and SciPy:

- per seat, winning animal/faction and agent: the two win shares, their paired difference
  with a 95% interval (the t interval of the mean of the per-pair differences,
  ``DescrStatsW.tconfint_mean``) and McNemar's exact test (``contingency_tables.mcnemar``),
  Holm-adjusted over the seats (``multipletests``);
- the question "does the change move a seat's win share by *detect* points?": *moved* when
  a seat's adjusted McNemar p is below the error rate, *not moved* when every seat's paired
  two one-sided tests (``ttost_paired``) put its change within ±detect, else *undecided*;
- power (``TTestPower``): before a study, how many pairs detect a change of *detect* points;
  after, the change the study would have detected, and the largest change its intervals allow;
- sequential looks (Haybittle-Peto: every interim look decides only at p < 0.001, the final
  analysis at what the looks actually made leave of the error rate, so the overall error
  rate stays within it by Bonferroni; a study stopped early by its time budget keeps what its
  unmade looks would have spent).
"""
from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

ALPHA = 0.05
POWER = 0.8
INTERIM_ALPHA = 0.001  # Haybittle-Peto: the error rate of each look before the last


def _libraries():
    try:
        import numpy
        from statsmodels.stats import power, weightstats
        from statsmodels.stats.contingency_tables import mcnemar
        from statsmodels.stats.multitest import multipletests
    except ImportError as exc:
        raise RuntimeError("comparisons need statsmodels: pip install 'speciation[balance]'") from exc
    return numpy, power, weightstats, mcnemar, multipletests


def pairs_of(first: Sequence, second: Sequence) -> list[tuple]:
    """The pairs (game i of each configuration) in which both games were completed."""
    return [(a, b) for a, b in zip(first, second) if a.completed and b.completed]


def _difference(x: list[int], y: list[int], detect: float | None) -> dict:
    """Paired win indicators of one category: the shares, the difference with its interval,
    McNemar's exact test, and (with *detect*) the equivalence test within ±detect."""
    numpy, _, weightstats, mcnemar, _ = _libraries()
    n = len(x)
    d = numpy.array(y, dtype=float) - numpy.array(x, dtype=float)
    both = sum(1 for a, b in zip(x, y) if a and b)
    only_first = sum(1 for a, b in zip(x, y) if a and not b)
    only_second = sum(1 for a, b in zip(x, y) if b and not a)
    entry: dict = {"pairs": n, "first": sum(x) / n, "second": sum(y) / n, "difference": float(d.mean()),
             "only_first": only_first, "only_second": only_second, "both": both,
             "sd": float(d.std(ddof=1)) if n > 1 else None}
    if n > 1 and entry["sd"]:
        low, high = weightstats.DescrStatsW(d).tconfint_mean(alpha=ALPHA)
        entry["ci95"] = [float(low), float(high)]
    else:  # every pair the same (or one pair): no spread for a t interval; the exact one of the pairs that differ
        entry["ci95"] = _still_interval(n, entry["difference"])
    table = [[both, only_first], [only_second, n - both - only_first - only_second]]
    entry["p_value"] = float(mcnemar(table, exact=True).pvalue)
    if detect is not None:
        entry["equivalence_p"] = _equivalence(numpy.array(y, dtype=float), numpy.array(x, dtype=float), d, detect)
    return entry


def _still_interval(n: int, difference: float) -> list[float]:
    """The 95% interval of a difference that is the same in all *n* pairs. A difference in a
    win share is at most the share of pairs whose winners differ; with none differing in *n*
    pairs, that share's exact (Clopper-Pearson) interval bounds it: n identical pairs rule out
    only what n pairs can (0 of 30: up to 11.6 points), never every change."""
    from statsmodels.stats.proportion import proportion_confint
    moved = n if difference else 0
    low, high = (float(v) for v in proportion_confint(moved, n, alpha=ALPHA, method="beta"))
    if not difference:
        return [-high, high]
    return [low, high] if difference > 0 else [-high, -low]


def _equivalence(y, x, d, detect: float) -> float:
    """The p-value of the paired TOST that the difference lies within ±detect; when every pair
    has the same difference (no spread for a t test), the exact binomial test that fewer than
    *detect* of the pairs differ (a difference is at most that share)."""
    _, _, weightstats, _, _ = _libraries()
    if len(d) < 2 or not d.std():
        if abs(float(d.mean())) >= detect:
            return 1.0
        from scipy.stats import binomtest
        return float(binomtest(int((d != 0).sum()), len(d), detect, alternative="less").pvalue)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(weightstats.ttost_paired(y, x, -detect, detect)[0])


def compare_paired(first: Sequence, second: Sequence, detect: float | None = None, alpha: float = ALPHA) -> dict:
    """How the second configuration differs from the first, pair by pair (see the module)."""
    _, _, _, _, multipletests = _libraries()
    pairs = pairs_of(first, second)
    result: dict = {"pairs": len(pairs), "played": min(len(first), len(second)),
                    "identical_pairs": sum(1 for a, b in pairs if a.scores == b.scores and a.winner == b.winner
                                           and a.actions == b.actions),
                    "detect": detect, "alpha": alpha, "by_seat": {}, "by_label": {}, "by_agent": {}}
    if len(pairs) < 2:
        result["answer"] = "undecided"
        return result
    players = max(len(a.scores) for a, _ in pairs)
    for seat in range(players):
        result["by_seat"][seat + 1] = _difference([a.winner == seat for a, _ in pairs],
                                                  [b.winner == seat for _, b in pairs], detect)
    labels = sorted({r.winner_label for pair in pairs for r in pair if r.winner_label}, key=str)
    for label in labels:
        result["by_label"][label] = _difference([a.winner_label == label for a, _ in pairs],
                                                [b.winner_label == label for _, b in pairs], None)
    specs = sorted({spec for a, _ in pairs for spec in a.agents})
    if len(specs) > 1:
        for spec in specs:
            result["by_agent"][spec] = _difference(
                [a.winner is not None and a.agents[a.winner] == spec for a, _ in pairs],
                [b.winner is not None and b.agents[b.winner] == spec for _, b in pairs], None)
    seats = list(result["by_seat"].values())
    adjusted = multipletests([e["p_value"] for e in seats], method="holm")[1]
    for entry, p in zip(seats, adjusted):
        entry["p_holm"] = float(p)
    result["answer"] = decide(result, alpha)
    result.update(power_after(result, alpha))
    return result


def decide(result: dict, alpha: float) -> str:
    """``moved`` (a seat's change detected), ``not moved`` (every seat within ±detect) or
    ``undecided``, at error rate *alpha*."""
    seats = list(result["by_seat"].values())
    if any(e["p_holm"] < alpha for e in seats):
        return "moved"
    if result["detect"] is not None and seats and all(e["equivalence_p"] < alpha for e in seats):
        return "not moved"
    return "undecided"


def power_after(result: dict, alpha: float = ALPHA, power: float = POWER) -> dict:
    """After a study: the change in a seat's win share it would detect with the given power
    (from the largest measured spread of the per-pair differences), and the largest change
    the seats' 95% intervals leave open."""
    _, power_module, _, _, _ = _libraries()
    seats = list(result["by_seat"].values())
    n = result["pairs"]
    sd = max((e["sd"] or 0.0) for e in seats) if seats else 0.0
    bound = max((max(abs(e["ci95"][0]), abs(e["ci95"][1])) for e in seats), default=None)
    detectable = None
    if n > 1 and sd > 0:
        effect = power_module.TTestPower().solve_power(nobs=n, alpha=alpha, power=power, alternative="two-sided")
        detectable = float(effect) * sd
    return {"largest_change_allowed": bound, "detectable": detectable, "sd_of_differences": sd}


def pairs_needed(detect: float, players: int, sd: float | None = None, alpha: float = ALPHA,
                 power: float = POWER) -> dict:
    """Before a study: how many pairs detect a change of *detect* (a share, 0.05 for 5 points)
    in one seat's win share, and how many show that no seat moves by more (equivalence, when
    there is no change), with *power*. *sd*: the spread of the per-pair differences of a win
    indicator; unknown before a study, it is taken as for unpaired games at the fair share
    (``sqrt(2 p (1 - p))``, p = 1 / players): pairs that share draws need fewer."""
    _, power_module, _, _, _ = _libraries()
    share = 1.0 / players
    sd = sd if sd else math.sqrt(2 * share * (1 - share))
    analysis = power_module.TTestPower()
    detect_n = analysis.solve_power(effect_size=detect / sd, alpha=alpha, power=power, alternative="two-sided")
    same_n = analysis.solve_power(effect_size=detect / sd, alpha=alpha, power=1 - (1 - power) / 2,
                                  alternative="larger")
    return {"detect": detect, "sd": sd, "alpha": alpha, "power": power,
            "pairs_to_detect": math.ceil(float(detect_n)), "pairs_to_rule_out": math.ceil(float(same_n))}


def looks(max_pairs: int, every: int) -> list[int]:
    """The numbers of pairs at which a sequential study looks (the last: *max_pairs*)."""
    points = list(range(every, max_pairs, every)) if every > 0 else []
    return points + [max_pairs]


def look_alpha(number: int, count: int, alpha: float = ALPHA) -> float:
    """The error rate of look *number* (1-based) of *count* planned: Haybittle-Peto, the last
    look gets what the interim looks leave of *alpha* (Bonferroni: the overall rate is at most
    *alpha*)."""
    if number < count:
        return INTERIM_ALPHA
    return final_alpha(count - 1, alpha)


def final_alpha(interim_looks: int, alpha: float = ALPHA) -> float:
    """The error rate of the final analysis after *interim_looks* looks were made (each at
    ``INTERIM_ALPHA``): what they leave of *alpha*. A study stopped before its planned end
    (a time budget, Ctrl-C) has made fewer looks than planned and keeps what the others would
    have spent: by Bonferroni the chance of a wrong answer over all its analyses is still at
    most *alpha* (the number of looks made depends on when the study was stopped, not on
    what the looks found)."""
    return max(alpha - INTERIM_ALPHA * interim_looks, INTERIM_ALPHA)


def paired_shift(first: Sequence, second: Sequence, read) -> dict | None:
    """The mean of a number read from each game (*read(record)*) in both configurations and
    the paired difference with its 95% t interval, over the complete pairs."""
    numpy, _, weightstats, _, _ = _libraries()
    values = [(read(a), read(b)) for a, b in pairs_of(first, second)]
    values = [(x, y) for x, y in values if isinstance(x, (int, float)) and isinstance(y, (int, float))]
    if len(values) < 2:
        return None
    x = numpy.array([v[0] for v in values], dtype=float)
    y = numpy.array([v[1] for v in values], dtype=float)
    d = y - x
    interval = weightstats.DescrStatsW(d).tconfint_mean(alpha=ALPHA) if d.std() else (d.mean(), d.mean())
    return {"first_mean": float(x.mean()), "second_mean": float(y.mean()), "difference": float(d.mean()),
            "ci95": [float(interval[0]), float(interval[1])]}


def card_figures(records: Sequence, cards: Sequence[str]) -> dict:
    """The own figures of *cards* (labels, such as the cards a mod brings) in a study: times
    taken, in how many games, and the share of its takers who won (Wilson interval)."""
    from .stats import share
    done = [r for r in records if r.completed]
    found = {}
    for card in cards:
        takes = [(r, seat) for r in done for label, seat in r.taken if label == card]
        found[card] = {"taken": len(takes), "games": len(done),
                       "games_taken": len({id(r) for r, _ in takes}),
                       "per_game": len(takes) / len(done) if done else 0.0,
                       "taker_won": share(sum(seat == r.winner for r, seat in takes), len(takes))}
    return found
