"""The figures of a balance study, from its game records. Intervals and tests come from SciPy
(Wilson score intervals for shares; Fisher's exact test, the chi-squared test of independence
and the Mann-Whitney U test for comparisons)."""
from __future__ import annotations

from collections import Counter
from statistics import mean, median, pstdev
from collections.abc import Iterable

CONFIDENCE = 0.95
LONG_GAME = 3000  # a game of more actions than this is listed as long (a stall, most likely)


def _scipy_stats():
    try:
        from scipy import stats
    except ImportError as exc:
        raise RuntimeError("balance studies need SciPy: pip install 'speciation[ai]'") from exc
    return stats


def wilson_interval(successes: int, trials: int, confidence: float = CONFIDENCE) -> tuple[float, float] | None:
    """The Wilson score interval of a share (None with no trials)."""
    if trials <= 0:
        return None
    ci = _scipy_stats().binomtest(successes, trials).proportion_ci(confidence_level=confidence, method="wilson")
    return (float(ci.low), float(ci.high))


def share(successes: int, trials: int) -> dict:
    """A count out of a number of trials, its share and its 95% interval."""
    interval = wilson_interval(successes, trials)
    return {"count": successes, "of": trials, "share": successes / trials if trials else None,
            "ci95": list(interval) if interval else None}


def _shares(counts: Counter, trials: int) -> dict:
    return {key: share(count, trials) for key, count in sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0])))}


def _spread(values: Iterable[float]) -> dict | None:
    values = sorted(v for v in values if isinstance(v, (int, float)))
    if not values:
        return None
    q = _scipy_stats().mstats.mquantiles(values, prob=[0.1, 0.25, 0.5, 0.75, 0.9])
    return {"n": len(values), "mean": mean(values), "sd": pstdev(values), "min": values[0],
            "max": values[-1], "median": median(values), "quantiles": {"10": float(q[0]), "25": float(q[1]),
            "50": float(q[2]), "75": float(q[3]), "90": float(q[4])}, "values": values}


def summarize(records: list) -> dict:
    """Every figure of one study."""
    done = [r for r in records if r.completed]
    n = len(done)
    players = max((len(r.scores) for r in done), default=0)
    taken: Counter[str] = Counter()
    taker_won: Counter[str] = Counter()
    for r in done:
        for card, seat in r.taken:
            taken[card] += 1
            taker_won[card] += seat == r.winner
    agent_games = Counter(spec for r in done for spec in set(r.agents))
    agent_wins = Counter(r.agents[r.winner] for r in done if r.winner is not None)
    return {
        "games": len(records), "completed": n,
        "failed": [{"index": r.index, "seed": r.seed, "error": r.error}
                   for r in records if not r.completed and not r.stopped],
        "stopped": [{"index": r.index, "seed": r.seed, "error": r.error}
                    for r in records if not r.completed and r.stopped],
        "wins_by_label": _shares(Counter(r.winner_label for r in done if r.winner_label), n),
        "wins_by_seat": {seat + 1: share(sum(r.winner == seat for r in done), n) for seat in range(players)},
        "wins_by_agent": {spec: share(agent_wins[spec], agent_games[spec]) for spec in sorted(agent_games)},
        "endings": _shares(Counter(r.ending for r in done if r.ending is not None), n),
        "scores_by_seat": {seat + 1: _spread(r.scores[seat] for r in done) for seat in range(players)},
        "winning_scores": _spread(max(r.scores) for r in done if r.scores),
        "turns": _spread(r.turns for r in done),
        "actions": _spread(r.actions for r in done),
        "cards": {card: {"taken": count, "per_game": count / n, "taker_won": share(taker_won[card], count)}
                  for card, count in sorted(taken.items(), key=lambda kv: (-kv[1], kv[0]))},
        "cpu_seconds_per_game": mean(r.seconds for r in records) if records else None,
        "long_games": [{"index": r.index, "seed": r.seed, "actions": r.actions}
                       for r in done if r.actions > LONG_GAME],
    }


def compare(first: list, second: list) -> dict:
    """How a second configuration differs from the first: per winner label, the difference
    of win shares with Fisher's exact test; the whole win table and the endings with the
    chi-squared test of independence; game length and winning scores with Mann-Whitney U."""
    stats = _scipy_stats()
    a, b = summarize(first), summarize(second)
    na, nb = a["completed"], b["completed"]
    labels = sorted(set(a["wins_by_label"]) | set(b["wins_by_label"]))
    wins = {}
    for label in labels:
        ka = a["wins_by_label"].get(label, {}).get("count", 0)
        kb = b["wins_by_label"].get(label, {}).get("count", 0)
        test = stats.fisher_exact([[ka, na - ka], [kb, nb - kb]])
        wins[label] = {"first": share(ka, na), "second": share(kb, nb),
                       "difference": (kb / nb if nb else 0) - (ka / na if na else 0),
                       "p_value": float(test.pvalue)}
    return {"wins": wins, "wins_table": _independence(a["wins_by_label"], b["wins_by_label"]),
            "endings": _independence(a["endings"], b["endings"]),
            "turns": _shift(a["turns"], b["turns"]), "winning_scores": _shift(a["winning_scores"], b["winning_scores"])}


def _independence(first: dict, second: dict) -> dict | None:
    """Chi-squared test that two count tables come from one distribution."""
    keys = sorted(set(first) | set(second))
    table = [[first.get(k, {}).get("count", 0) for k in keys], [second.get(k, {}).get("count", 0) for k in keys]]
    table = [list(col) for col in zip(*table) if sum(col) > 0]
    if len(table) < 2 or 0 in (sum(c[0] for c in table), sum(c[1] for c in table)):
        return None
    result = _scipy_stats().chi2_contingency([[c[0] for c in table], [c[1] for c in table]])
    return {"chi2": float(result.statistic), "dof": int(result.dof), "p_value": float(result.pvalue)}


def _shift(first: dict | None, second: dict | None) -> dict | None:
    """Mann-Whitney U test that one distribution lies above or below the other."""
    if not first or not second:
        return None
    result = _scipy_stats().mannwhitneyu(first["values"], second["values"], alternative="two-sided")
    return {"first_mean": first["mean"], "second_mean": second["mean"],
            "difference": second["mean"] - first["mean"], "p_value": float(result.pvalue)}
