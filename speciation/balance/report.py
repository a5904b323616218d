"""A balance study as text, JSON data or an HTML page with plots (Matplotlib SVG, inline)."""
from __future__ import annotations

import html
import io
import json
from typing import Any

from .stats import LONG_GAME


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
             f"seeds {record['seeds'][0]}-{record['seeds'][1]}, random streams {record.get('streams', 'single')}"]
    if record.get("compare"):
        lines.append(f"compared with: {compared_name(record['compare'])}; games in pairs (the same seed and "
                     "seats with and without it), figures below are of the games without it")
    if record.get("command"):
        lines.append(f"to reproduce: {record['command']}")
    lines.append(f"games completed: {summary['completed']} of {summary['games']}  (shares with 95% Wilson intervals)")
    if summary.get("interrupted"):
        lines.append(f"study stopped: {summary['interrupted']}")
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
    if summary.get("long_games"):
        lines.append(f"long games (over {LONG_GAME} actions: a stall, most likely; counted): "
                     + ", ".join(f"game {g['index'] + 1} (seed {g['seed']}, {g['actions']} actions)"
                                 for g in summary["long_games"]))
    for stop in summary["stopped"]:
        lines.append(f"stopped game {stop['index'] + 1} (seed {stop['seed']}), not counted: {stop['error']}")
    for failure in summary["failed"]:
        lines.append(f"error in game {failure['index'] + 1} (seed {failure['seed']}): {failure['error']}")
    if comparison is not None:
        lines += comparison_lines(comparison)
    return "\n".join(lines)


def compared_name(compare: dict) -> str:
    """What a comparison adds, by name: each mod with its version and path, each variant."""
    parts = [f"mod {m['name']}{' version ' + str(m['version']) if m.get('version') else ''} ({m['path']})"
             for m in compare.get("mods", [])]
    parts += [f"variant {v}" for v in compare.get("variants", [])]
    return ", ".join(parts) or "nothing"


def _points(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:+.1f}"


def comparison_lines(c: dict) -> list[str]:
    """The paired comparison as text: the answer, the power statement, the differences with
    their intervals, the added cards' own figures, and how the study ran."""
    lines = [f"compared with {compared_name(c.get('compared', {}))}: {c['pairs']} complete pairs of "
             f"{c['played']} played ({c['identical_pairs']} pairs ended exactly alike)"]
    if c.get("stopped"):
        lines.append(f"  study stopped: {c['stopped']}")
    for look in c.get("looks", []):
        lines.append(f"  look {look['look']}: {look['pairs']} pairs, error rate {look['alpha']:g}: {look['answer']}")
    if c.get("detect") is not None:
        question = f"does it move a seat's win share by {100 * c['detect']:g} points?"
        made = len(c.get("looks", []))
        why = ""
        if made and not str(c.get("stopped") or "").startswith("decided"):
            why = f", what the {made} look{'s' if made > 1 else ''} made leave of the study's error rate"
        lines.append(f"  answer at error rate {c['alpha']:g}{why} ({question}): {c['answer'].upper()}")
    if c.get("largest_change_allowed") is not None and c.get("answer") != "moved":
        lines.append(f"  no detectable difference larger than \u00b1{100 * c['largest_change_allowed']:.1f} points "
                     f"at 95% with {c['pairs']} pairs ({2 * c['pairs']} games): every seat's interval lies within it")
    if c.get("detectable") is not None:
        lines.append(f"  power: with {c['pairs']} pairs a change of {100 * c['detectable']:.1f} points in a seat's "
                     f"win share is detected 80% of the time (spread of the per-pair differences "
                     f"{c['sd_of_differences']:.3f})")
    before = c.get("power_before")
    if before:
        lines.append(f"  planned: {before['pairs_to_detect']} pairs detect a {100 * before['detect']:g}-point change "
                     f"and {before['pairs_to_rule_out']} rule it out (80% power, spread {before['sd']:.3f} assumed)")
    for title, key in (("win share by seat", "by_seat"), ("win share by animal/faction", "by_label"),
                       ("win share by agent", "by_agent")):
        if c.get(key):
            lines.append(f"  {title} (second - first, points; 95% paired interval; McNemar exact p):")
            for name, e in c[key].items():
                extra = f", Holm p = {e['p_holm']:.3g}" if "p_holm" in e else ""
                lines.append(f"    {name}: {100 * e['first']:.1f}% -> {100 * e['second']:.1f}%, "
                             f"{_points(e['difference'])} [{_points(e['ci95'][0])}, {_points(e['ci95'][1])}], "
                             f"p = {e['p_value']:.3g}{extra}")
    for card, e in c.get("cards", {}).items():
        won = e["taker_won"]
        lines.append(f"  card {card}: taken {e['taken']} times in {e['games_taken']} of {e['games']} games "
                     f"({e['per_game']:.2f} per game); its takers won {won['count']} "
                     + (f"({100 * won['share']:.1f}% [{100 * won['ci95'][0]:.1f}, {100 * won['ci95'][1]:.1f}])"
                        if won["share"] is not None else "(never taken)"))
    for key, title in (("turns", "turns"), ("winning_scores", "winning score")):
        if c.get(key):
            e = c[key]
            lines.append(f"  {title}: {e['first_mean']:.1f} -> {e['second_mean']:.1f} (paired difference "
                         f"{e['difference']:+.2f} [{e['ci95'][0]:+.2f}, {e['ci95'][1]:+.2f}])")
    return lines


def to_json(record: dict, summary: dict, records: list, comparison: dict | None = None,
            second: dict | None = None, second_records: list | None = None) -> str:
    data: dict[str, Any] = {"study": record, "summary": summary, "games": [r.to_dict() for r in records]}
    if comparison is not None:
        data["second"] = second
        data["comparison"] = comparison
        if second_records is not None:
            data["second_games"] = [r.to_dict() for r in second_records]
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
    if comparison is not None and comparison.get("by_seat"):
        plots.append(_difference_plot(comparison))
    text = format_text(record, summary, comparison, second)
    body = "\n".join(f"<figure>{_svg(p)}</figure>" for p in plots)
    return ("<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>Balance study: "
            f"{html.escape(record['ruleset_name'])}</title><style>body{{font-family:sans-serif;max-width:72em;"
            "margin:auto}} figure{display:inline-block;margin:1em} pre{background:#f4f4f4;padding:1em}</style>"
            f"</head><body><h1>Balance study: {html.escape(record['ruleset_name'])}</h1>{body}"
            f"<h2>Figures</h2><pre>{html.escape(text)}</pre>"
            f"{_compared_html(record, comparison)}"
            f"<h2>How to reproduce</h2>{_command_html(record)}<pre>{html.escape(json.dumps(record, indent=1))}</pre>"
            "</body></html>\n")


def _command_html(record: dict) -> str:
    return f"<p><code>{html.escape(record['command'])}</code></p>" if record.get("command") else ""


def _compared_html(record: dict, comparison: dict | None) -> str:
    """The comparison's own section: what was compared, the answer and the power statement."""
    if comparison is None:
        return ""
    lines = comparison_lines(comparison)
    return (f"<h2>Compared with {html.escape(compared_name(record.get('compare', {})))}</h2>"
            f"<pre>{html.escape(chr(10).join(lines))}</pre>")


def _difference_plot(comparison: dict):
    """Per seat: the paired difference of win shares with its 95% interval."""
    import matplotlib.pyplot as plt
    seats = list(comparison["by_seat"])
    entries = [comparison["by_seat"][s] for s in seats]
    figure, axes = plt.subplots(figsize=(7, 0.5 * len(seats) + 1.5))
    middle = [100 * e["difference"] for e in entries]
    low = [m - 100 * e["ci95"][0] for m, e in zip(middle, entries)]
    high = [100 * e["ci95"][1] - m for m, e in zip(middle, entries)]
    axes.errorbar(middle, range(len(seats)), xerr=[low, high], fmt="o", capsize=4)
    axes.axvline(0, color="grey")
    if comparison.get("detect"):
        for edge in (-100 * comparison["detect"], 100 * comparison["detect"]):
            axes.axvline(edge, color="grey", linestyle="--")
    axes.set_yticks(range(len(seats)), [f"seat {s}" for s in seats])
    axes.set_xlabel("change in win share, points (second - first; bars: 95% paired interval)")
    axes.set_title("Win share by seat: paired differences")
    return figure
