"""docs/language.md: the generated builtin reference is current, and its examples are valid."""
import importlib.util
import re
from pathlib import Path

import pytest

from speciation.dsl.errors import Span
from speciation.dsl.loader import load_text
from speciation.dsl.parser import parse_effect
from speciation.dsl.signatures import FUNCTIONS, VERBS, reference

DOCS = Path(__file__).resolve().parents[2] / "docs"
LANGUAGE = DOCS / "language.md"


def _generator():
    spec = importlib.util.spec_from_file_location("gen_reference", DOCS / "gen_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _blocks(language: str) -> list[tuple[int, str]]:
    """(line, text) of every fenced block tagged *language* in language.md."""
    text = LANGUAGE.read_text(encoding="utf-8")
    return [(text[:m.start()].count("\n") + 2, m.group(1))
            for m in re.finditer(rf"^```{language}\n(.*?)^```$", text, re.M | re.S)]


def test_generated_reference_is_current():
    generated = _generator().generated_part(LANGUAGE.read_text(encoding="utf-8"))
    assert generated == "\n" + reference(), "run: python docs/gen_reference.py"


def test_every_builtin_is_documented():
    generated = _generator().generated_part(LANGUAGE.read_text(encoding="utf-8"))
    for name in list(FUNCTIONS) + list(VERBS):
        assert f"`{name}(" in generated, name


def test_render_replaces_only_the_generated_part():
    gen = _generator()
    stale = f"intro\n{gen.START}\nold text\n{gen.END}\noutro\n"
    assert gen.render(stale) == f"intro\n{gen.START}\n{reference()}{gen.END}\noutro\n"
    with pytest.raises(ValueError):
        gen.render("no markers here")


@pytest.mark.parametrize("line, text", _blocks("effect"))
def test_effect_examples_parse(line, text):
    parse_effect(text, Span(str(LANGUAGE), line, 1))


@pytest.mark.parametrize("line, text", _blocks("yaml"))
def test_yaml_examples_load(line, text):
    assert isinstance(load_text(text, f"{LANGUAGE}:{line}"), dict)


def test_examples_were_found():
    assert len(_blocks("effect")) >= 10 and len(_blocks("yaml")) >= 6


def test_architecture_module_map_is_current():
    """docs/architecture.md's module map is generated from the code (docs/gen_architecture.py)."""
    spec = importlib.util.spec_from_file_location("gen_architecture", DOCS / "gen_architecture.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    page = DOCS / "architecture.md"
    text = page.read_text(encoding="utf-8")
    assert module.render(text) == text, "run: python docs/gen_architecture.py"
    assert "`interpreter/game.py`" in text and "Imports nothing of the package" in text  # dsl/ is the bottom layer
