"""The new-game page uploads a mod (Playwright driving the system's Chromium; issue 21): the
files chosen are checked against the ruleset (what each brings, or every error positioned in
the file's own name), and the game starts with them. Skips, saying why, without the
``table`` extra or Chromium."""
from __future__ import annotations

import pytest

from support.table_support import SCREENSHOTS, need_table_extra

need_table_extra()
pytest.importorskip("playwright.sync_api", reason="browser tests need Playwright: bash scripts/setup")

SHORTER = ("mod: shorter\ntitle: A shorter Aquatic text\ncards:\n  aquatic:\n"
           "    text: Place up to 4 species on one tile.\n")
BROKEN = "mod: broken\nfunctions:\n  lucky(f): len(occupied_by(f)) +* 2\n"


def test_the_new_game_page_checks_an_uploaded_mod_and_starts_the_game_with_it(running, browser, tmp_path):
    (tmp_path / "lucky.yaml").write_text(BROKEN)
    (tmp_path / "shorter.yaml").write_text(SHORTER)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        page.goto(running.url + "/")
        page.wait_for_selector("body[data-ready='1']")
        page.select_option("#ruleset", "original")
        page.set_input_files("#mod-files", str(tmp_path / "lucky.yaml"))
        page.wait_for_selector("body[data-mods='refused']", timeout=60_000)
        error = page.inner_text("#mod-error")
        assert error.startswith("lucky.yaml:3:") and "/tmp" not in error and "speciation-uploads" not in error
        page.set_input_files("#mod-files", str(tmp_path / "shorter.yaml"))
        page.wait_for_selector("body[data-mods='checked']", timeout=60_000)
        assert page.inner_text("#mod-uploads").startswith("A shorter Aquatic text (shorter.yaml)")
        assert page.inner_text("#mod-error") == ""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "new-game-uploaded-mod.png"), full_page=True)
        games = set(running.table.sessions)
        page.click("#start")
        page.wait_for_url("**/play/**", timeout=60_000)
        (ident,) = set(running.table.sessions) - games
        ruleset = running.table.sessions[ident].game.ruleset
        assert ruleset.cards["aquatic"].text == "Place up to 4 species on one tile."
        assert len(ruleset.mod_digests) == 1
    finally:
        context.close()
