"""The modder's question, end to end: "does this mod move a seat's win share by 5 points?"
answered at 95% confidence, 4 players, greedy agents, within a wall-time budget (issue 23:
20 minutes on a 2-core machine).

    python benchmarks/bench_modder_question.py                      # the default two mods, 20 minutes each
    python benchmarks/bench_modder_question.py --minutes 4 --games 200   # a shorter run

For each mod of ``benchmarks/mods/`` it runs, as a modder would,

    speciation balance original --players 4 --agents greedy --compare-mod MOD --detect 5
        --sequential --look-every L --games G --workers W --json FILE

(pairs of games with and without the mod, the same seeds and seats, one random stream per
chance source; Haybittle-Peto looks; see docs/agents.md, "Balance studies"), sends it SIGTERM
when the budget is spent (the study then reports on the pairs it has), and prints the wall
time, the games played, the answer (moved / not moved / undecided), the largest change the
95% intervals allow, and the CPU time per game over both sides (a mod may lengthen its games). With ``--extrapolate``, it also says how long the pairs the question
needs would take at the measured rate (for a run shorter than the budget on a busy machine):
the planned pairs, and with the measured spread of the pairs' differences the pairs that rule
out and that detect 5 points, on an idle 2-core machine. ``--keep DIR`` keeps each study's own
JSON report (``DIR/MOD.json``, every game of both sides) to be analysed again.

The mods: ``biomass_rewritten`` (no effect: the Biomass card's text and effect written
another way, the same rule: the question a modder asks after tidying a card),
``head_start`` (a real effect: the first seat's animal scores 10 VP more) and ``rumour`` (a
Dominance card whose text does nothing, but which takes a face-up slot and a Domination
pick: an effect on the game whose size on the win shares nobody knows; not in the default
run, it needs far more pairs than the budget allows, see docs/agents.md).
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent
MODS = {"biomass_rewritten": HERE / "mods" / "biomass_rewritten", "head_start": HERE / "mods" / "head_start",
        "rumour": HERE / "mods" / "rumour"}
DEFAULT_MODS = "biomass_rewritten,head_start"  # one with no effect, one with a real one


def ask(mod: Path, games: int, look_every: int, workers: int, minutes: float, seed: int,
        keep: str | None = None) -> dict:
    """Run one study on *mod*; stop it after *minutes*; its JSON report and the wall time
    (with *keep*, the study's JSON report is also kept in that folder, as MOD.json)."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(keep or folder) / (f"{mod.name}.json" if keep else "study.json")
        command = [sys.executable, "-m", "speciation", "balance", "original", "--players", "4", "--agents", "greedy",
                   "--compare-mod", str(mod), "--detect", "5", "--sequential", "--look-every", str(look_every),
                   "--games", str(games), "--workers", str(workers), "--seed", str(seed), "--quiet",
                   "--json", str(out)]
        started = time.monotonic()
        process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        try:
            text, _ = process.communicate(timeout=minutes * 60)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGTERM)  # the study keeps its whole pairs and reports
            text, _ = process.communicate()
        wall = time.monotonic() - started
        data = json.loads(out.read_text()) if out.exists() else {}
    comparison = data.get("comparison", {})
    games = data.get("games", []) + data.get("second_games", [])  # both sides: a mod may make its games longer
    cpu = [g["seconds"] for g in games if g.get("seconds")]
    seats = comparison.get("by_seat", {}).values()
    return {"mod": mod.name, "wall_seconds": wall, "load_average": os.getloadavg(),
            "different_winners": sum(e["only_first"] for e in seats) if seats else None,
            "sd_of_differences": comparison.get("sd_of_differences"), "exit": process.returncode, "text": text,
            "pairs": comparison.get("pairs"), "played": comparison.get("played"),
            "answer": comparison.get("answer"), "stopped": comparison.get("stopped"),
            "largest_change_allowed": comparison.get("largest_change_allowed"),
            "identical_pairs": comparison.get("identical_pairs"),
            "by_seat": {seat: [e["difference"], e["ci95"]] for seat, e in comparison.get("by_seat", {}).items()},
            "cpu_seconds_per_game": _mean([g["seconds"] for g in games if g.get("seconds")]),
            "cpu_seconds_range": [min(cpu), max(cpu)] if cpu else None,
            "actions_range": [min(g["actions"] for g in games), max(g["actions"] for g in games)] if games else None,
            "needed": (comparison.get("power_before") or {}).get("pairs_to_rule_out")}


def _mean(values: list) -> float | None:
    return sum(values) / len(values) if values else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mods", default=DEFAULT_MODS,
                        help=f"which mods, of {', '.join(MODS)} (default: {DEFAULT_MODS})")
    parser.add_argument("--games", type=int, default=1500, help="most pairs to play (default 1500)")
    parser.add_argument("--look-every", type=int, default=50,
                        help="pairs between looks (default 50: a look costs the final analysis 0.001)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2, help="worker processes (default: cores)")
    parser.add_argument("--minutes", type=float, default=20.0, help="wall-time budget per mod (default 20)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--extrapolate", action="store_true",
                        help="also say how long the pairs the question needs would take at the measured rate")
    parser.add_argument("--json", help="write the results to this file")
    parser.add_argument("--keep", help="keep each study's own JSON report in this folder (MOD.json)")
    args = parser.parse_args()
    results = []
    for name in args.mods.split(","):
        found = ask(MODS[name], args.games, args.look_every, args.workers, args.minutes, args.seed, args.keep)
        results.append(found)
        print(f"{name}: {found['answer']} after {found['pairs']} complete pairs of {found['played']} played "
              f"({2 * (found['played'] or 0)} games) in {found['wall_seconds'] / 60:.1f} min wall "
              f"({args.workers} workers; {found['stopped'] or 'all games played'})")
        if found["largest_change_allowed"] is not None and found["answer"] != "moved":
            print(f"  no detectable difference larger than ±{100 * found['largest_change_allowed']:.1f} points "
                  f"at 95% with {found['pairs']} pairs")
        for seat, (difference, interval) in found["by_seat"].items():
            print(f"  seat {seat}: {100 * difference:+.1f} points [{100 * interval[0]:+.1f}, {100 * interval[1]:+.1f}]")
        if found["pairs"]:
            print(f"  {found['different_winners']} of {found['pairs']} pairs had different winners, "
                  f"{found['identical_pairs']} ended alike; load average at the end "
                  + " ".join(f"{x:.1f}" for x in found["load_average"]))
        if found["cpu_seconds_range"]:
            low, high = found["cpu_seconds_range"]
            print(f"  CPU per game (both sides): mean {found['cpu_seconds_per_game']:.1f} s, range {low:.1f}-{high:.1f} s; "
                  f"actions {found['actions_range'][0]}-{found['actions_range'][1]}")
        if args.extrapolate and found["played"]:
            rate = found["wall_seconds"] / found["played"]
            print(f"  measured {rate:.2f} s wall per pair; the {found['needed']} pairs planned without any "
                  f"pairing benefit would take {found['needed'] * rate / 60:.0f} min at this rate")
            cpu, sd = found["cpu_seconds_per_game"], found["sd_of_differences"]
            if cpu and found["needed"]:
                print(f"  at the measured {cpu:.2f} CPU s per game those {found['needed']} pairs take "
                      f"{found['needed'] * 2 * cpu / 2 / 60:.0f} min on an idle 2-core machine")
            if cpu and sd and found["answer"] == "undecided":
                from speciation.balance.paired import pairs_needed
                plan = pairs_needed(0.05, 4, sd)
                for what, needed in (("ruling out", plan["pairs_to_rule_out"]), ("detecting", plan["pairs_to_detect"])):
                    print(f"  with the measured spread of the pairs' differences (sd {sd:.3f}) {what} 5 points "
                          f"needs about {needed} pairs: {needed * 2 * cpu / 2 / 60:.0f} min on an idle 2-core "
                          f"machine at the measured {cpu:.2f} CPU s per game")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
