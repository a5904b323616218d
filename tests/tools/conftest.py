"""The fixtures the browser test modules share (test_table_browser*.py): a table server of
their own and the system's Chromium under Playwright, each started once per module and only
for a test that asks for it (those modules skip first without Playwright or the table).
test_table_leaks.py and test_table_seats.py start their own server (a fixture of the same name)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from support.table_support import CHROMIUM_ARGS, RunningTable, chromium


@pytest.fixture(scope="module")
def running() -> Iterator[RunningTable]:
    server = RunningTable()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright import sync_api  # the module that imports this has skipped without it

    path = chromium()
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield launched
        launched.close()
