"""The table's event log as a player sees it: through a whole long match, across a rematch,
scrolled with the keyboard, in ASCII, and after coming back from a dropped link."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from table_helpers import (
    CuttableProxy,
    LocalMatch,
    RecordingApp,
    lobby_for,
    open_local,
    screen_text,
    wait_until,
)
from table_items import lobby_updated
from testkit.screens import screen_lines
from textual.app import App, ComposeResult
from textual.pilot import Pilot

from netproto.client import Disconnected, Reconnected, TableClient
from netproto.wire.messages import Welcome
from ono99tui.commands.solo import solo_config
from ono99tui.game import MATCH_OVER, Card, Played, legal_moves, preset, start_match
from ono99tui.host.server import TableServer
from ono99tui.ui.app import Ono99App
from ono99tui.ui.requests import TableItem
from ono99tui.ui.screens.results import MatchEndScreen, RoundEndScreen
from ono99tui.ui.screens.table import TableScreen
from ono99tui.ui.widgets.log import EventLog


def visible_log_rows(app: Ono99App) -> list[str]:
    """The rows of the terminal inside the log, as drawn (not as the widget holds them)."""
    log = app.screen.query_one(EventLog)
    region = log.content_region
    rows = screen_text(app).split("\n")[region.y: region.bottom]
    return [row[region.x: region.right].rstrip() for row in rows]


def last_shown_line(app: Ono99App) -> str:
    """The newest event line the log shows on screen, its wrapped rows joined again."""
    rows = [row for row in visible_log_rows(app) if row]
    assert rows, "the log shows nothing"
    line = rows[-1]
    index = len(rows) - 1
    while line.startswith("  ") and index > 0:  # a continuation row of a wrapped line
        index -= 1
        line = rows[index] + " " + line.strip()
    return line


def long_1980_match(seed: int = 5, *, seats: int = 4, tokens: int = 3) -> LocalMatch:
    """1980 rules with tokens: four players with three tokens each make about 400 moves
    and 15 rounds; three players with two tokens (seed 5) about 190 moves and 7 rounds."""
    return LocalMatch(preset("1980").replace(tokens=tokens), seats, seed=seed)


async def dismiss_results(pilot: Pilot[Any]) -> None:
    """As a player would: Enter on a round's results, Esc on the match's."""
    app = pilot.app
    while isinstance(app.screen, (RoundEndScreen, MatchEndScreen)):
        await pilot.press("enter" if isinstance(app.screen, RoundEndScreen) else "escape")


async def play_to_the_end(app: Ono99App, pilot: Pilot[Any], match: LocalMatch, *,
                          check_every_move: bool = True) -> int:
    """Random legal moves until the match is over; with `check_every_move`, the view is
    shown after each and the screen's last log line checked against the app's (else it
    is shown once at the end). Returns the number of moves."""
    moves = 0
    while match.state.phase != MATCH_OVER:
        match.step(lambda state, seat: match.rng.choice(legal_moves(state, seat)))
        moves += 1
        if check_every_move:
            await match.show(app, pilot)
            await dismiss_results(pilot)
            assert last_shown_line(app) == app.log_lines[-1], f"after move {moves}"
    if not check_every_move:
        await match.show(app, pilot)
        await dismiss_results(pilot)
    return moves


async def test_the_log_follows_its_newest_line_past_200_lines() -> None:
    """The log used to keep 200 lines, and once full it stopped repainting: the screen
    froze on an old line while play went on."""
    match = long_1980_match(seats=3, tokens=2)
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(3))
        await play_to_the_end(app, pilot, match)
        assert len(app.log_lines) > 220  # past the old limit of 200


async def test_each_match_starts_on_a_fresh_page_and_the_last_one_is_above_it() -> None:
    match = long_1980_match()
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(4))
        await play_to_the_end(app, pilot, match, check_every_move=False)
        last_of_first = app.log_lines[-1]
        assert last_of_first.startswith("Match over")
        # The rematch: the table deals round 1 of a new match.
        match.state, match.pending = start_match(preset("1980"), 4, random.Random(9))
        await match.show(app, pilot)
        rows = [row for row in visible_log_rows(app) if row]
        assert rows[0] == "── Match 2 ──"
        assert rows[1].startswith("Round 1:")
        assert not any("Match over" in row or "Round 15" in row for row in rows)
        assert app.log_lines == [line for line in app.log_lines if "Match over" not in line]
        # The previous match is a page up, above the separator.
        await pilot.press("pageup")
        rows = [row for row in visible_log_rows(app) if row]
        assert any(last_of_first.startswith(row.strip()) for row in rows), rows
        assert "── Match 2 ──" in rows
        # New lines do not pull the player down while they read ...
        match.step()
        await match.show(app, pilot)
        assert any(last_of_first.startswith(row.strip()) for row in visible_log_rows(app) if row)
        # ... and End goes back to the newest line, which the log follows again.
        await pilot.press("end")
        assert last_shown_line(app) == app.log_lines[-1]
        match.step()
        await match.show(app, pilot)
        assert last_shown_line(app) == app.log_lines[-1]


async def test_the_log_scrolls_with_the_keyboard() -> None:
    match = long_1980_match()
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(4))
        while len(match.pending) < 40:
            match.step()
        await match.show(app, pilot)
        await dismiss_results(pilot)
        log = app.screen.query_one(EventLog)
        newest = visible_log_rows(app)
        await pilot.press("up")
        assert visible_log_rows(app) == ["", *newest[:-1]] or visible_log_rows(app)[1:] == newest[:-1]
        assert not log.following
        await pilot.press("down")
        assert visible_log_rows(app) == newest
        assert log.following
        await pilot.press("home")
        assert visible_log_rows(app)[0].startswith("Round 1:")
        await pilot.press("pagedown", "pagedown", "pagedown", "pagedown", "pagedown")
        assert visible_log_rows(app) == newest
        # The log's title says how.
        assert "Log (PgUp/PgDn)" in screen_text(app)


async def test_ascii_mode_leaves_no_unicode_in_the_log() -> None:
    """F2 used to leave the arrows of the lines already written."""
    match = long_1980_match()
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(4))
        for _ in range(8):
            match.step()
        await match.show(app, pilot)
        assert any("→" in row for row in visible_log_rows(app))
        await pilot.press("f2")
        await pilot.pause()
        rows = visible_log_rows(app)
        assert any(" -> " in row for row in rows)
        assert all(row.isascii() for row in rows), rows
        assert all(line.isascii() for line in app.log_lines)
        match.step()
        await match.show(app, pilot)
        assert all(row.isascii() for row in visible_log_rows(app))
        await pilot.press("f2")
        await pilot.pause()
        assert any("→" in row for row in visible_log_rows(app))


async def test_after_a_drop_the_log_says_what_a_bot_played_for_you() -> None:
    match = long_1980_match()
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(4))
        app.post_message(TableItem(Disconnected("link lost", will_retry=True)))
        await pilot.pause()
        mine = []
        while len(mine) < 2:  # the stand-in plays for seat 0 twice meanwhile
            for event in match.step():
                if isinstance(event, Played) and event.seat == 0:
                    mine.append(event.card.label(match.state.rules))
        app.post_message(TableItem(Reconnected(1)))
        await match.show(app, pilot)
        expected = f"While you were away a bot played for you: {', '.join(mine)}"
        assert app.log_lines[-1] == expected
        assert last_shown_line(app) == expected
        # Only once: the next move is the player's own again.
        match.step()
        await match.show(app, pilot)
        assert not app.log_lines[-1].startswith("While you were away")


async def test_a_new_connection_that_resumes_a_seat_says_what_was_played() -> None:
    """`ono99 join` again after the terminal died: the first view brings the events the
    table kept for the seat, the stand-in's moves among them."""
    match = long_1980_match()
    for _ in range(12):
        match.step()
    mine = [event.card.label(match.state.rules) for event in match.pending
            if isinstance(event, Played) and event.seat == 0]
    assert mine
    match.pending = match.pending[3:]  # the table keeps what happened since the drop
    mine = [event.card.label(match.state.rules) for event in match.pending
            if isinstance(event, Played) and event.seat == 0]
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.post_message(TableItem(Welcome(proto=1, role="player", seat=0, token="t")))
        await open_local(app, pilot, match, lobby_for(4))  # a lobby with a match under way
        assert app.log_lines[-1] == f"While you were away a bot played for you: {', '.join(mine)}"


def test_the_stand_in_line_leaves_out_a_move_sent_before_the_drop() -> None:
    from ono99tui.ui.present import stand_in_line

    rules = preset("1980")
    events = [Played(0, Card.SEVEN, 7), Played(1, Card.TWO, 9), Played(0, Card.HOLD, 9)]
    assert stand_in_line(events, 0, rules) == "While you were away a bot played for you: 7, Hold"
    assert stand_in_line(events, 0, rules, skip_first=True) == "While you were away a bot played for you: Hold"
    assert stand_in_line(events[:2], 0, rules, skip_first=True) is None
    assert stand_in_line(events, 2, rules) is None


async def test_a_player_seated_before_the_deal_is_told_of_no_stand_in() -> None:
    """The welcome's lobby is a waiting room: the first view's moves are all news."""
    match = long_1980_match()
    for _ in range(12):
        match.step()
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.post_message(TableItem(Welcome(proto=1, role="player", seat=0, token="t")))
        app.post_message(lobby_updated(replace(lobby_for(4), phase="waiting")))
        await open_local(app, pilot, match, lobby_for(4))
        assert any(line.startswith("ana played") for line in app.log_lines)
        assert not any(line.startswith("While you were away") for line in app.log_lines)


async def test_past_its_limit_the_log_drops_its_oldest_lines_and_still_follows() -> None:
    class LogApp(App[None]):
        def compose(self) -> ComposeResult:
            log = EventLog()
            log.MAX_LINES = 30
            yield log

    app = LogApp()
    async with app.run_test(size=(40, 10)) as pilot:
        log = app.query_one(EventLog)
        for number in range(100):
            log.add(f"line {number}")
            await pilot.pause()
            rows = [row.rstrip() for row in screen_lines(app)]
            assert [row for row in rows if row][-1] == f"line {number}"
        assert log.line_count == 30 and log.lines[0] == "line 70"
        log.to_top()
        await pilot.pause()
        rows = [row.rstrip() for row in screen_lines(app)]
        assert rows[0] == "line 70"


async def test_over_a_real_table_the_log_says_what_the_stand_in_played() -> None:
    """The link drops on the player's turn, the grace period runs out, a bot plays the
    seat; when the link comes back the log says what it played."""
    config = replace(solo_config(bots=2, rules="1980", seed=4, bot_delay=0.0),
                            grace_seconds=0.2)
    async with TableServer(config) as server:
        proxy = await CuttableProxy(server.port).start()

        async def through_proxy() -> TableClient:
            client = await TableClient.connect("127.0.0.1", proxy.port, name="ana")
            for _ in range(2):
                server.table.add_bot("greedy")
            return client

        app = Ono99App(through_proxy, start_screen=TableScreen, ascii_glyphs=False,
                       sixteen_colours=False)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_until(pilot, lambda: app.session.view is not None and bool(app.session.view.legal_moves))
                seat = app.session.view.seat
                moves_before = sum(1 for move in server.table.journal[-1].moves if move["seat"] == seat)
                await proxy.go_down()
                await wait_until(pilot, lambda: sum(
                    1 for move in server.table.journal[-1].moves if move["seat"] == seat)
                    >= moves_before + 2)  # the stand-in has played twice for ana
                await proxy.come_back()
                await wait_until(pilot, lambda: app.session.connection_state == "connected")
                await wait_until(pilot, lambda: any(
                    line.startswith("While you were away a bot played for you: ")
                    for line in app.log_lines))
                line = next(line for line in app.log_lines if line.startswith("While you were away"))
                assert len(line.split(": ", 1)[1].split(", ")) >= 2
        finally:
            await proxy.stop()


async def test_wide_characters_wrap_by_cells_and_nothing_is_cut_off() -> None:
    # Played through the web door: "» Lea: hi from Lea 日本語 wide chars" showed as
    # "» Lea: hi from Lea 日本語 wid" / "  chars" — wrapped by characters, the row was wider
    # than the log and its last cell, the "e", was cut off.
    from rich.cells import cell_len

    from ono99tui.ui.widgets.log import chat_entry

    class LogApp(App[None]):
        CSS = "EventLog { width: 29; }"

        def compose(self) -> ComposeResult:
            yield EventLog()

    said = "hi from Lea 日本語 wide chars and 絵文字😀😀😀😀😀😀😀😀😀😀😀😀😀😀 too"
    app = LogApp()
    async with app.run_test(size=(40, 12)) as pilot:
        log = app.query_one(EventLog)
        log.add(chat_entry("Lea", said))
        await pilot.pause()
        rows = list(log.lines)
        assert all(cell_len(row) <= 29 for row in rows), rows
        # Every character is on some row (a word longer than a row is split across two).
        assert "".join("".join(rows).split()) == "".join(f"» Lea: {said}".split())
        assert rows[0] == "» Lea: hi from Lea 日本語", rows  # " wide" makes 30 cells
