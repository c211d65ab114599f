"""The palette's "Language: …" entries: choosing one remembers it in the settings (the next
start speaks it), says so in that language, and leaves this session's language alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from table_helpers import LocalMatch, RecordingApp, lobby_for, open_local, wait_until

from ono99tui import i18n
from ono99tui import user_settings as config
from ono99tui.game import preset


@pytest.fixture(autouse=True)
def own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "config"
    monkeypatch.setenv(config.CONFIG_DIR_ENV, str(directory))
    return directory


async def test_choosing_a_language_in_the_palette_remembers_it(own_config: Path) -> None:
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, LocalMatch(preset("2022"), 2, seed=5), lobby_for(2, bots=(1,)))
        await pilot.press("ctrl+p", *"Language: বাংলা")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: any("বাংলা" in str(n.message) for n in app._notifications))
        notice = next(str(n.message) for n in app._notifications if "বাংলা" in str(n.message))
        # Said in Bengali ("from the next start of ono99 on"), not in English.
        assert "next start" not in notice and "ono99" in notice
        assert i18n.current_language() == "en"  # this session goes on in English
    assert config.load_settings(own_config).language == "bn"
    assert i18n.choose_language(None, config.load_settings(own_config).language, {}) == "bn"
