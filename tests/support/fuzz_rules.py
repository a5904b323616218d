"""Mutations of rule files for the fuzz test (tests/dsl/test_fuzz_rules.py) and the longer study
(benchmarks/fuzz_rules.py): each mutation is a function of (text, random) -> text, plus the
hand-made kinds of bad input an audit found. Loading a mutated ruleset may fail with rule
errors; any other exception is a bug."""
from __future__ import annotations

import random
import shutil
import traceback
from pathlib import Path

from speciation.dsl.errors import RuleErrors
from speciation.dsl.layers import builtin_root
from speciation.interpreter.ruleset import load_ruleset

CHARS = list("{}[]()<>:;,.-+*/%=!&|#'\"\\@`?~^$ \t\n0123456789abcxyz_") + ["\u00e9", "\x00", "\ufeff"]
WORDS = ["if", "else:", "for", "in", "choose", "draw", "none", "true", "9" * 5000, "1e999", "-", "!!float",
         "!!int", "!!binary", "!!set", "!!python/object:os.system", "*a", "&a", "<<:", "? ", "\\x", "{{", "]]"]


def _lines(text: str, rng: random.Random) -> tuple[list[str], int]:
    lines = text.split("\n")
    return lines, rng.randrange(len(lines))


def delete_char(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text))
    return text[:i] + text[i + 1:]


def insert_char(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text) + 1)
    return text[:i] + rng.choice(CHARS) + text[i:]


def insert_word(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text) + 1)
    return text[:i] + rng.choice(WORDS) + text[i:]


def replace_char(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text))
    return text[:i] + rng.choice(CHARS) + text[i + 1:]


def duplicate_line(text: str, rng: random.Random) -> str:
    lines, i = _lines(text, rng)
    return "\n".join(lines[:i + 1] + lines[i:])


def delete_line(text: str, rng: random.Random) -> str:
    lines, i = _lines(text, rng)
    return "\n".join(lines[:i] + lines[i + 1:])


def swap_lines(text: str, rng: random.Random) -> str:
    lines, i = _lines(text, rng)
    j = rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def reindent(text: str, rng: random.Random) -> str:
    lines, i = _lines(text, rng)
    lines[i] = " " * rng.choice([1, 2, 3, 5, 8]) + lines[i]
    return "\n".join(lines)


def replace_number(text: str, rng: random.Random) -> str:
    digits = [i for i, c in enumerate(text) if c.isdigit()]
    if not digits:
        return insert_word(text, rng)
    i = rng.choice(digits)
    return text[:i] + rng.choice(["9" * 5000, "-1", "0", "99999999999999999999", "1.5", "1e400"]) + text[i + 1:]


def replace_name(text: str, rng: random.Random) -> str:
    lines, i = _lines(text, rng)
    words = lines[i].split()
    if not words:
        return text
    k = rng.randrange(len(words))
    words[k] = rng.choice(["xyzzy", "none", "game", "p", "self", "[]", "{}", "''", words[k] * 2])
    lines[i] = " " * (len(lines[i]) - len(lines[i].lstrip())) + " ".join(words)
    return "\n".join(lines)


MUTATIONS = [delete_char, insert_char, insert_word, replace_char, duplicate_line, delete_line, swap_lines,
             reindent, replace_number, replace_name]

# The kinds of bad input an audit found crashing the loader, as whole files or additions.
SPECIAL_FILES = {
    "non-utf8": b"macros:\n  x: |\n    log(\"\xff\xfe\")\n",
    "deep yaml": ("a: " + "[" * 400 + "]" * 400 + "\n").encode(),
    "deep yaml maps": ("".join("  " * i + f"k{i}:\n" for i in range(300)) + "  " * 300 + "v: 1\n").encode(),
    "nested ifs": ("macros:\n  deep(): |\n" + "".join("    " + "    " * i + "if true:\n" for i in range(300))
                   + "    " * 301 + "log(\"x\")\n").encode(),
    "nested brackets": ("functions:\n  deep(): \"" + "(" * 500 + "1" + ")" * 500 + "\"\n").encode(),
    "nested lists": ("functions:\n  deep(): \"" + "[" * 500 + "1" + "]" * 500 + "\"\n").encode(),
    "huge yaml number": ("tables:\n  big: {a: " + "9" * 5000 + "}\n").encode(),
    "huge effect number": ("functions:\n  big(): \"" + "9" * 5000 + "\"\n").encode(),
    "bad float tag": b"tables:\n  t: {a: !!float x}\n",
    "bad int tag": b"tables:\n  t: {a: !!int x}\n",
    "bad bool tag": b"tables:\n  t: {a: !!bool x}\n",
    "binary tag": b"tables:\n  t: {a: !!binary aGVsbG8=}\n",
    "python tag": b"tables:\n  t: {a: !!python/object/apply:os.system [ls]}\n",
    "tag on a list": b"symbols:\n  s: !!set [a, b]\n",
    "tag on a map": b"tables:\n  t: !mine {a: 1}\n",
    "bad escape": b"functions:\n  f(): \"\\x\"\n",
    "recursive alias": b"tables:\n  t: &a [*a]\n",
    "alias bomb": (b"a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                   b"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                   b"e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
                   b"g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]\n"),
    "infinity": b"tables:\n  t: {a: .inf}\n",
    "null byte": b"macros:\n  x: |\n    log(\"\x00\")\n",
    "huge file": b"# " + b"x" * (3 * 2 ** 20) + b"\n",
    "bad escape in effect": b"macros:\n  x: |\n    log(\"\\x\")\n",
    "long or chain": ("functions:\n  many(): \"" + " or ".join(["1 == 2"] * 1000) + "\"\n").encode(),
    "many nested loops": ("macros:\n  loops(): |\n" + "".join("    " + "    " * i + f"for i{i} in [1]:\n"
                                                          for i in range(30)) + "    " * 31 + "log(\"x\")\n").encode(),
}


def copy_ruleset(name: str, into: Path) -> Path:
    target = into / name
    shutil.copytree(builtin_root() / name, target)
    return target


def load_outcome(folder: Path) -> str | None:
    """None if the ruleset loads or fails with rule errors; else the internal error."""
    try:
        load_ruleset(str(folder))
    except RuleErrors as errors:
        if not errors.errors:
            return "RuleErrors without errors"
        errors.format()
    except Exception:  # exactly what we look for
        return traceback.format_exc(limit=-3)
    return None


def mutated_runs(folder: Path, count: int, seed: int):
    """Yield (description, internal error or None) for *count* mutations of *folder*'s files."""
    files = sorted(p for p in folder.rglob("*.yaml"))
    rng = random.Random(seed)
    for number in range(count):
        path = rng.choice(files)
        original = path.read_bytes()
        mutation = rng.choice(MUTATIONS)
        text = original.decode("utf-8")
        for _ in range(rng.choice([1, 1, 2, 3])):
            text = mutation(text, rng)
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        try:
            yield f"{number}: {mutation.__name__} of {path.relative_to(folder)}", load_outcome(folder)
        finally:
            path.write_bytes(original)
