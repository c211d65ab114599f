"""The app freezes its long-lived objects once it has settled, and hands them back on exit."""

from __future__ import annotations

import gc

import pytest
from table_helpers import solo, start_solo_table, wait_until

from ono99tui.ui import terminal_app as app_module


async def test_the_app_freezes_what_it_built_once_settled(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_module, "SETTLE_SECONDS", 0.3)
    assert gc.get_freeze_count() == 0
    async with start_solo_table(bots=2, seed=4) as server:
        app = solo(server, bots=2)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.view is not None)
            await wait_until(pilot, lambda: gc.get_freeze_count() > 0)
            # The table screen is among what was frozen, not something to walk again.
            assert not any(item is app.screen for item in gc.get_objects())
        assert gc.get_freeze_count() == 0
