"""The command palette's "Screenshot" where the user has no Downloads folder (a fresh
server reached over SSH): it is saved in a folder that exists and the player is told where."""

from __future__ import annotations

from pathlib import Path

import pytest
from table_helpers import (
    LocalMatch,
    RecordingApp,
    lobby_for,
    open_local,
    record_notices,
    wait_until,
)

from ono99tui import config
from ono99tui.game import preset


async def test_screenshot_without_a_downloads_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv(config.CONFIG_DIR_ENV, str(tmp_path / "config"))
    app = RecordingApp()
    notices = record_notices(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, LocalMatch(preset("2022"), 2, seed=5), lobby_for(2, bots=(1,)))
        await pilot.press("ctrl+p", *"Screenshot")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: any("screenshot" in notice.lower() for notice in notices))
        assert app._exception is None
    saved = list((tmp_path / "config" / "screenshots").glob("*.svg"))
    assert len(saved) == 1, notices
    assert any(str(saved[0]) in notice for notice in notices)
    assert not (home / "Downloads").exists()
