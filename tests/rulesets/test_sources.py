"""docs/sources.md: every GF-… citation in the rule files resolves to an entry of the page
(a section, or a row of its table), and every entry is cited."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "sources.md").read_text(encoding="utf-8")


def _generator():
    spec = importlib.util.spec_from_file_location("gen_sources", ROOT / "docs" / "gen_sources.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _entries() -> dict[str, str]:
    parts = re.split(r"^## GF-([A-C](?:\.\d+)+)$", PAGE, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def test_every_citation_resolves():
    cited = _generator().citations()
    assert len(cited) > 50
    entries = _entries()
    for (section, row), where in cited.items():
        assert section in entries, f"GF-{section} cited in {where[0]} is not in docs/sources.md"
        body = entries[section]
        assert "not found" not in body, section
        if row:
            assert re.search(rf"^\| {row} \|", body, re.M), f"GF-{section} #{row} ({where[0]}): no such row"
        assert f"`{where[0]}`" in body, (section, where[0])


def test_every_entry_is_cited_and_has_its_confidence():
    cited = {section for section, _ in _generator().citations()}
    entries = _entries()
    assert set(entries) == cited, "run: python docs/gen_sources.py"
    for section, body in entries.items():
        assert "Confidence: " in body, section
