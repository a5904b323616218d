"""Rewrite the generated builtin reference in docs/language.md.

The part between ``<!-- builtins:start -->`` and ``<!-- builtins:end -->`` is
``speciation.dsl.signatures.reference()``; everything else is kept.

    python docs/gen_reference.py          # rewrite docs/language.md
    python docs/gen_reference.py --check  # exit 1 if it is out of date
"""
from __future__ import annotations

import sys
from pathlib import Path

from speciation.dsl.signatures import reference

START = "<!-- builtins:start -->"
END = "<!-- builtins:end -->"
LANGUAGE = Path(__file__).with_name("language.md")


def generated_part(text: str) -> str:
    """The text between the markers (without them)."""
    if text.count(START) != 1 or text.count(END) != 1 or text.index(START) > text.index(END):
        raise ValueError(f"expected one '{START}' followed by one '{END}'")
    return text[text.index(START) + len(START):text.index(END)]


def render(text: str) -> str:
    """*text* with the generated part replaced by the current reference."""
    generated_part(text)  # checks the markers
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n{reference()}{END}{tail}"


def main(argv: list[str]) -> int:
    text = LANGUAGE.read_text(encoding="utf-8")
    new = render(text)
    if "--check" in argv:
        if new != text:
            print(f"{LANGUAGE} is out of date: run python docs/gen_reference.py", file=sys.stderr)
            return 1
        return 0
    if new != text:
        LANGUAGE.write_text(new, encoding="utf-8")
        print(f"rewrote the builtin reference in {LANGUAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
