"""Switching the glyph set at the table redraws everything drawn with it, and back.

The app publishes the change once (`glyphs_changed`); the widgets that draw with the set
(cards, the total, the direction, the seats, the prompt) redraw themselves.
"""

from __future__ import annotations

from table_helpers import LocalMatch, RecordingApp, lobby_for, open_local
from testkit.screens import screen_text
from testkit.waiting import pilot_wait_until

from ono99tui.game import preset


def _non_ascii(text: str) -> set[str]:
    return {char for char in text if ord(char) > 127}


async def test_f2_redraws_the_table_in_ascii_and_back() -> None:
    app = RecordingApp(ascii_glyphs=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, LocalMatch(preset("2022"), 3, seed=5), lobby_for(3))
        unicode_screen = screen_text(app)
        assert _non_ascii(unicode_screen), "the Unicode table draws boxes and symbols"

        await pilot.press("f2")
        await pilot_wait_until(pilot, lambda: not _non_ascii(screen_text(app)),
                               what="every glyph on screen redrawn in ASCII")
        assert app.glyphs.ascii

        await pilot.press("f2")
        await pilot_wait_until(pilot, lambda: _non_ascii(screen_text(app))
                               >= _non_ascii(unicode_screen) - {"…"},
                               what="the Unicode glyphs back")
