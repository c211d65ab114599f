"""The command palette's "Screenshot" saves a file even where there is no Downloads folder
(issue 12: it only said "Failed to save screenshot" there)."""

from __future__ import annotations

from pathlib import Path

import pytest
from table_helpers import LocalMatch, RecordingApp, lobby_for, open_local, record_notices
from testkit.waiting import pilot_wait_until as wait_until

from ono99tui.game import preset
from ono99tui.ui.terminal_app import screenshot_directory
from ono99tui.user_settings import CONFIG_DIR_ENV


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home with no Downloads folder (and no XDG user-dirs saying otherwise)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / ".config"))
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "ono99-config"))
    return tmp_path


async def test_without_downloads_the_screenshot_goes_to_the_config_directory(home: Path) -> None:
    app = RecordingApp()
    notices = record_notices(app)
    async with app.run_test(size=(80, 24)) as pilot:
        app.deliver_screenshot("table.svg")
        saved = home / "ono99-config" / "screenshots" / "table.svg"
        await wait_until(pilot, lambda: saved.exists() and any("Saved" in n for n in notices),
                         what="the screenshot")
    assert saved.read_text().startswith("<svg")
    assert not any("Failed" in notice for notice in notices)
    assert (saved.parent.stat().st_mode & 0o777) == 0o700


def test_an_existing_downloads_folder_is_used(home: Path) -> None:
    (home / "Downloads").mkdir()
    assert screenshot_directory() == home / "Downloads"


async def test_the_palette_command_at_the_table_saves_it_and_says_where(home: Path) -> None:
    app = RecordingApp()
    notices = record_notices(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, LocalMatch(preset("2022"), 2, seed=5), lobby_for(2, bots=(1,)))
        await pilot.press("ctrl+p", *"Screenshot")
        await pilot.pause()
        await pilot.press("enter")
        await wait_until(pilot, lambda: any("screenshot" in notice.lower() for notice in notices),
                         what="the word on the screenshot")
        assert app._exception is None
    saved = list((home / "ono99-config" / "screenshots").glob("*.svg"))
    assert len(saved) == 1, notices
    assert any(str(saved[0]) in notice for notice in notices)
    assert not (home / "Downloads").exists()
