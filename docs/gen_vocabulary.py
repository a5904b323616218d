"""Write the vocabulary pages, docs/vocabulary-<ruleset>.md, one per built-in ruleset.

    python docs/gen_vocabulary.py          # rewrite them
    python docs/gen_vocabulary.py --check  # exit 1 if one is out of date
"""
from __future__ import annotations

import sys
from pathlib import Path

from speciation.interpreter.ruleset import available_rulesets, load_ruleset
from speciation.vocabulary import markdown, vocabulary

DOCS = Path(__file__).parent


def pages() -> dict[Path, str]:
    """Page path → its current text, for every built-in ruleset."""
    out = {}
    for name in available_rulesets():
        title = load_ruleset(name).title
        out[DOCS / f"vocabulary-{name}.md"] = markdown(vocabulary(name), title) + "\n"
    return out


def main(argv: list[str]) -> int:
    stale = []
    for path, text in pages().items():
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if current != text:
            stale.append(path)
            if "--check" not in argv:
                path.write_text(text, encoding="utf-8")
    if "--check" in argv and stale:
        print("out of date: " + ", ".join(map(str, stale)) + " (run python docs/gen_vocabulary.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
