"""A balance study as text, JSON data or an HTML page with plots (Matplotlib SVG, inline)."""
from __future__ import annotations

import html
import io
import json
from typing import Any


def _pct(entry: dict) -> str:
    if entry.get("share") is None:
        return "-"
    low, high = entry["ci95"]
    return f"{100 * entry['share']:5.1f}% [{100 * low:.1f}, {100 * high:.1f}] ({entry['count']}/{entry['of']})"


def _spread_line(spread: dict | None) -> str:
    if not spread:
        return "-"
    q = spread["quantiles"]
    return (f"mean {spread['mean']:.1f} (sd {spread['sd']:.1f}), median {spread['median']:g}, "
            f"10-90% {q['10']:g}-{q['90']:g}, range {spread['min']:g}-{spread['max']:g}")


def format_text(record: dict, summary: dict, comparison: dict | None = None, second: dict | None = None) -> str:
    lines = [f"{record['ruleset_name']} {record['ruleset_version']} ({record['ruleset_digest'][:12]}), "
             f"{record['players']} players, agents {record['agents']}{' rotated' if record['rotate'] else ''}, "
             f"variants {record['variants'] or 'none'}, mods {record['mods'] or 'none'}, "
             f"seeds {record['seeds'][0]}-{record['seeds'][1]}",
             f"games completed: {summary['completed']} of {summary['games']}  (shares with 95% Wilson intervals)"]
    sections = [("wins by animal/faction", summary["wins_by_label"]), ("wins by seat", summary["wins_by_seat"]),
                ("wins by agent", summary["wins_by_agent"]), ("how games ended", summary["endings"])]
    for title, table in sections:
        if table:
            lines.append(f"{title}:")
            lines += [f"  {key}: {_pct(entry)}" for key, entry in table.items()]
    lines.append(f"turns: {_spread_line(summary['turns'])}")
    lines.append(f"actions: {_spread_line(summary['actions'])}")
    lines.append(f"winning score: {_spread_line(summary['winning_scores'])}")
    for seat, spread in summary["scores_by_seat"].items():
        lines.append(f"score of seat {seat}: {_spread_line(spread)}")
    if summary["cards"]:
        lines.append("cards taken (times per game; share of takers who won):")
        for card, entry in summary["cards"].items():
            lines.append(f"  {card}: {entry['per_game']:.2f}; {_pct(entry['taker_won'])}")
    for stop in summary["stopped"]:
        lines.append(f"stopped game {stop['index'] + 1} (seed {stop['seed']}), not counted: {stop['error']}")
    for failure in summary["failed"]:
        lines.append(f"error in game {failure['index'] + 1} (seed {failure['seed']}): {failure['error']}")
    if comparison is not None:
        lines.append("compared with the second configuration (difference = second - first; Fisher's exact test):")
        for label, entry in comparison["wins"].items():
            lines.append(f"  {label}: {100 * entry['difference']:+.1f} points, p = {entry['p_value']:.3g}")
        for key, title in (("wins_table", "win table"), ("endings", "endings")):
            if comparison[key]:
                lines.append(f"  {title}: chi-squared {comparison[key]['chi2']:.2f}, p = {comparison[key]['p_value']:.3g}")
        for key in ("turns", "winning_scores"):
            if comparison[key]:
                c = comparison[key]
                lines.append(f"  {key.replace('_', ' ')}: {c['first_mean']:.1f} -> {c['second_mean']:.1f}, "
                             f"Mann-Whitney p = {c['p_value']:.3g}")
    return "\n".join(lines)


def to_json(record: dict, summary: dict, records: list, comparison: dict | None = None,
            second: dict | None = None) -> str:
    data: dict[str, Any] = {"study": record, "summary": summary, "games": [r.to_dict() for r in records]}
    if comparison is not None:
        data["second"] = second
        data["comparison"] = comparison
    return json.dumps(data, indent=1, default=str)


def _svg(figure) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight")
    import matplotlib.pyplot as plt
    plt.close(figure)
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def _share_plot(title: str, tables: list[tuple[str, dict]]):
    import matplotlib.pyplot as plt
    keys = sorted({k for _, t in tables for k in t}, key=str)
    figure, axes = plt.subplots(figsize=(7, 0.45 * max(3, len(keys) * len(tables)) + 1))
    height = 0.8 / len(tables)
    for number, (name, table) in enumerate(tables):
        ys = [i + number * height for i in range(len(keys))]
        shares = [100 * (table.get(k, {}).get("share") or 0) for k in keys]
        low = [s - 100 * (table[k]["ci95"][0] if table.get(k, {}).get("ci95") else 0) for s, k in zip(shares, keys)]
        high = [100 * (table[k]["ci95"][1] if table.get(k, {}).get("ci95") else 0) - s for s, k in zip(shares, keys)]
        axes.barh(ys, shares, height=height, xerr=[low, high], capsize=3, label=name)
    axes.set_yticks([i + 0.4 - height / 2 for i in range(len(keys))], [str(k) for k in keys])
    axes.set_xlabel("% of games (bars: 95% interval)")
    axes.set_title(title)
    if len(tables) > 1:
        axes.legend()
    return figure


def _box_plot(title: str, groups: dict, xlabel: str):
    import matplotlib.pyplot as plt
    figure, axes = plt.subplots(figsize=(7, 3.5))
    names = [str(k) for k, v in groups.items() if v]
    axes.boxplot([v["values"] for v in groups.values() if v])
    axes.set_xticks(range(1, len(names) + 1), names)
    axes.set_title(title)
    axes.set_xlabel(xlabel)
    return figure


def _card_plot(cards: dict):
    import matplotlib.pyplot as plt
    names = list(cards)
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 0.3 * len(names) + 1.5), sharey=True)
    left.barh(names, [cards[c]["per_game"] for c in names])
    left.set_xlabel("times taken per game")
    right.barh(names, [100 * (cards[c]["taker_won"]["share"] or 0) for c in names])
    right.set_xlabel("% of takers who won")
    left.invert_yaxis()
    return figure


def format_html(record: dict, summary: dict, comparison: dict | None = None, second: dict | None = None) -> str:
    try:
        import matplotlib
    except ImportError as exc:
        raise RuntimeError("--html needs Matplotlib: pip install 'speciation[ai]'") from exc
    matplotlib.use("Agg")
    one = [("first" if second else "games", summary)] + ([("second", second)] if second else [])
    plots = [_share_plot("Wins by animal/faction", [(n, s["wins_by_label"]) for n, s in one]),
             _share_plot("Wins by seat", [(n, s["wins_by_seat"]) for n, s in one]),
             _share_plot("How games ended", [(n, s["endings"]) for n, s in one]),
             _box_plot("Scores by seat", summary["scores_by_seat"], "seat"),
             _box_plot("Game length", {n: s["turns"] for n, s in one}, "turns")]
    if summary["cards"]:
        plots.append(_card_plot(summary["cards"]))
    text = format_text(record, summary, comparison, second)
    body = "\n".join(f"<figure>{_svg(p)}</figure>" for p in plots)
    return ("<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>Balance study: "
            f"{html.escape(record['ruleset_name'])}</title><style>body{{font-family:sans-serif;max-width:72em;"
            "margin:auto}} figure{display:inline-block;margin:1em} pre{background:#f4f4f4;padding:1em}</style>"
            f"</head><body><h1>Balance study: {html.escape(record['ruleset_name'])}</h1>{body}"
            f"<h2>Figures</h2><pre>{html.escape(text)}</pre>"
            f"<h2>How to reproduce</h2><pre>{html.escape(json.dumps(record, indent=1))}</pre></body></html>\n")
