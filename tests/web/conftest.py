"""Fixtures for the web door's tests: doors on loopback, and a real browser."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import CHROMIUM, PASSWORD, probe_command

from ono99tui.web.config import WebDoorConfig


def missing_browser() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not os.path.exists(CHROMIUM):
        return f"{CHROMIUM} is not installed (.ci/run installs Debian's chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (the test extra has it)"
    return None


@pytest.fixture
def door_config(tmp_path: Path) -> WebDoorConfig:
    """A password-protected door on loopback that runs the probe instead of the game."""
    return WebDoorConfig(
        table_address="127.0.0.1:9",
        players_dir=tmp_path / "players",
        bind_host="127.0.0.1",
        password=PASSWORD,
        command=probe_command,
    )


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Debian chromium driven by Playwright (never `playwright install`)."""
    problem = missing_browser()
    if problem is not None:
        pytest.skip(problem)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
        try:
            yield chromium
        finally:
            chromium.close()
