"""No chat text changes any cell of the screen but the log rows that show it.

A property test (hypothesis): any text at all — Rich markup, terminal escape sequences,
bidi overrides and isolates, zero-width joiners, line breaks, stacked combining marks,
wide characters — goes the way a real line goes (the table's `clean_chat_text`, then the
app's `ChatReceived` handler, which cleans it again and hands it to the log) to a table
screen at 80x24. Every cell outside the log rows of the new line must be exactly as before
(character and style), and no cell anywhere may hold a control or format character that
would reach the terminal.
"""

from __future__ import annotations

import asyncio
import unicodedata

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from table_helpers import LocalMatch, RecordingApp, lobby_for, open_local, wait_until
from table_items import chat_received
from testkit.screens import screen_cells

from netproto.wire.chat_text import EmptyChat, clean_chat_text
from netproto.wire.messages import MAX_CHAT_TEXT, Chat
from ono99tui.game import preset
from ono99tui.ui.widgets.log import EventLog

# Pieces that have broken terminals and TUIs before, mixed in with any characters at all.
NASTY = (
    "\x1b[2J", "\x1b[31m", "\x1b]0;title\x07", "\x1b]8;;http://x\x1b\\", "\x1bc", "\x9b1m",
    "\x1bP+q\x1b\\", "\r", "\n", "\t", "\x08", "\x7f", "\x00", "\u0085", "\u2028",
    "\u202e", "\u2066", "\u2069", "\u200d", "\u200b", "\ufeff", "\ufe0f", "\u0301" * 12,
    "[bold red]", "[/]", "[link=http://x]", "[@click=app.quit]", "\\[", ":smile:",
    "👨\u200d👩\u200d👧", "☺", "全角", "ｗ", "\U000e0041", "\ud7ff", "\U0010fffd",
)
chat_texts = st.lists(st.one_of(st.characters(), st.sampled_from(NASTY)),
                      max_size=60).map(lambda parts: "".join(parts)[:MAX_CHAT_TEXT])

async def changed_cells(text: str) -> tuple[set[tuple[int, int]], set[tuple[int, int]], str]:
    """Show `text` as bob's line at a table at 80x24: the cells that changed, the cells of
    the log rows the line takes, and every character on screen afterwards."""
    match = LocalMatch(preset("2022"), 3, seed=21)
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(3, bots=(2,)))
        log = app.screen.query_one("#log", EventLog)
        log.clear()  # an empty log: the line cannot scroll older lines around
        await pilot.pause()
        before = screen_cells(app)
        app.post_message(chat_received(Chat(name="bob", text=text, seat=1)))
        await wait_until(pilot, lambda: any(entry.chat for entry in log._entries))
        await pilot.pause()
        after = screen_cells(app)
        region = log.content_region
        rows = range(region.y, region.y + log.line_count)
        allowed = {(x, y) for y in rows for x in range(region.x, region.right)}
        changed = {(x, y) for y, (old, new) in enumerate(zip(before, after, strict=True))
                   for x in range(max(len(old), len(new)))
                   if x >= len(old) or x >= len(new) or old[x] != new[x]}
        shown = "".join(cell.text for row in after for cell in row)
    return changed, allowed, shown


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=chat_texts)
@example(raw="0" + "\u0301" * 12)  # marks take no cell of their own: found by hypothesis
def test_no_chat_text_changes_any_other_cell(raw: str) -> None:
    try:
        text = clean_chat_text(raw)  # what the table sends on
    except EmptyChat:
        assume(False)
        return
    changed, allowed, shown = asyncio.run(changed_cells(text))
    assert changed, "the line must show"
    assert changed <= allowed, sorted(changed - allowed)[:10]
    assert not [char for char in shown
                if unicodedata.category(char) in ("Cc", "Cf") and char != "\n"]


def test_a_raw_hostile_line_from_a_rogue_table_is_inert_too() -> None:
    """A table that does not clean (not ours): the app's own cleaning still holds."""
    raw = "\x1b[2J\x1b[H[bold red]owned[/]\u202e\r\nsecond line\x1b]0;pwned\x07"
    changed, allowed, shown = asyncio.run(changed_cells(raw))
    assert changed <= allowed
    assert "[bold red]owned[/]" in shown and "second line" in shown
    assert "\x1b" not in shown and "\u202e" not in shown
