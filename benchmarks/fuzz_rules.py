"""Study: load many mutated copies of a ruleset's files; count internal errors (there must
be none: every failure must be a positioned rule error).

    python benchmarks/fuzz_rules.py                      # original, 300 mutations, seed 1
    python benchmarks/fuzz_rules.py marine 200 --seed 5

Prints each new kind of internal error with the mutation that caused it, then a summary;
exits 1 if there was any. The mutations are in tests/support/fuzz_rules.py.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from support.fuzz_rules import SPECIAL_FILES, copy_ruleset, load_outcome, mutated_runs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", nargs="?", default="original")
    parser.add_argument("count", nargs="?", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    kinds: Counter = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        folder = copy_ruleset(args.ruleset, Path(tmp))
        for label, data in SPECIAL_FILES.items():
            path = folder / "zz_special.yaml"
            path.write_bytes(data)
            error = load_outcome(folder)
            path.unlink()
            if error:
                kinds[error.strip().splitlines()[-1]] += 1
                print(f"special '{label}': {error}")
        started = time.process_time()
        for label, error in mutated_runs(folder, args.count, args.seed):
            if error:
                last = error.strip().splitlines()[-1]
                kinds[last] += 1
                if kinds[last] == 1:
                    print(f"{label}:\n{error}")
        spent = time.process_time() - started
    print(f"{args.ruleset}: {args.count} mutations + {len(SPECIAL_FILES)} special files, "
          f"{sum(kinds.values())} internal errors ({len(kinds)} kinds), {spent:.1f} s CPU")
    return 1 if kinds else 0


if __name__ == "__main__":
    raise SystemExit(main())
