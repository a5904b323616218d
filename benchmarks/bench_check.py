"""Benchmark: `check` of a ruleset with thousands of unknown names (each error gets a
did-you-mean hint), in CPU seconds.

    python benchmarks/bench_check.py            # 2,000 functions naming 2,000 unknown names
"""
from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

from speciation import RuleErrors, load_ruleset
from speciation.dsl.layers import builtin_root


def main(count: int = 2000) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "original"
        shutil.copytree(builtin_root() / "original", folder)
        lines = ["tables:"] + [f"  t{i}: {{a: 1}}" for i in range(count)] + ["functions:"]
        lines += [f"  f{i}(): t{i}.b + q{i}" for i in range(count)]
        (folder / "zz_many.yaml").write_text("\n".join(lines) + "\n")
        started = time.process_time()
        try:
            load_ruleset(str(folder))
        except RuleErrors as errors:
            text = errors.format()
            reported = len(errors.errors)
        spent = time.process_time() - started
    hints = text.count("did you mean")
    print(f"{reported} errors ({hints} with a hint) in {spent:.2f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main(*(int(a) for a in sys.argv[1:])))
