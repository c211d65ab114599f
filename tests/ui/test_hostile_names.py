"""Names are never markup: players and tables named like Rich/Textual markup show literally.

Player and table names come from other people (over the network, or advertised on the LAN)
and may hold brackets. Read as markup, "[/]" raises MarkupError inside a Static, a toast or
a dialog (which ends the app), "[bold]x" restyles the screen and "[@click=app.quit]q" is a
live link. Each test runs the real app against a real table on loopback and drives it to
where such names are shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

from lobby_helpers import running_table
from table_helpers import first_move_player, record_notices, screen_text, wait_until
from test_match_over_loopback import key_for
from textual.pilot import Pilot
from textual.widgets import DataTable, Static
from textual.widgets._toast import Toast

from netproto.client import TableClient
from netproto.wire.framing import encode_frame
from netproto.wire.messages import Error
from ono99tui.game import Scoring, preset
from ono99tui.game.state import MATCH_OVER
from ono99tui.host.journal.history import replay_match
from ono99tui.ui.app import Ono99App
from ono99tui.ui.screens.lobby import LobbyScreen
from ono99tui.ui.screens.results import MatchEndScreen, RoundEndScreen
from ono99tui.ui.screens.table import TableScreen
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

# An unbalanced closing tag (MarkupError), a style, a click action, an escaped bracket.
CLOSER, BOLD, CLICK, ESCAPED = "[/]", "[bold]x", "[@click=app.quit]q", "\\[x]"


def opponent(port: int, name: str) -> AbstractAsyncContextManager[TableClient]:
    """A player seated at the table on `port` as `name`, playing its first legal move."""
    return first_move_player(port, name)


async def play_at_the_keyboard(app: Ono99App, pilot: Pilot[Any], until: Any) -> None:
    """Press the app's first legal move whenever it is its turn, until `until()` holds."""
    pressed_at = -1
    for _ in range(3000):
        if until():
            return
        if isinstance(app.screen, RoundEndScreen):
            await pilot.press("enter")
        key = key_for(app)
        if key is not None and isinstance(app.screen, TableScreen) and pressed_at != app.session.view_seq:
            pressed_at = app.session.view_seq
            await pilot.press(key)
        await pilot.pause(0.01)
    raise AssertionError(f"the match did not get there in time (on {app.screen})")


def out_notice(notices: list[str]) -> str | None:
    """The first "... out of the match." notification, if any."""
    return next((notice for notice in notices if notice.endswith("out of the match.")), None)


async def test_names_at_the_table_and_in_the_results_are_shown_literally() -> None:
    # Seed 11, everyone playing their first legal move: CLOSER goes out first (a toast names
    # them), then this app; BOLD wins, so the match-over dialog's title names them.
    async with running_table(name=CLICK, capacity=3, start_when=3, seed=11) as server:
        async def seated() -> TableClient:
            return await TableClient.connect("127.0.0.1", server.port, name=ESCAPED)

        app = Ono99App(seated, start_screen=WaitingRoomScreen, ascii_glyphs=False,
                       sixteen_colours=False)
        notices = record_notices(app)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await wait_until(pilot, lambda: app.session.lobby is not None)  # seated first: seat 1
            async with opponent(server.port, CLOSER), contextlib.AsyncExitStack() as later:
                await wait_until(pilot, lambda: app.session.lobby is not None
                                 and len(app.session.lobby.seats) == 2)
                await pilot.pause()
                room = screen_text(app)
                assert f"Waiting room: {CLICK}  (" in room
                assert f"{ESCAPED}  (you" in room and f"{CLOSER}  " in room
                # The third seat: the table deals.
                await later.enter_async_context(opponent(server.port, BOLD))
                await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                                 and app.session.view is not None)
                await pilot.pause()
                table = screen_text(app)
                assert f"{ESCAPED} (you)" in table and f"  {CLOSER}  " in table
                assert f"  {BOLD}  " in table

                await play_at_the_keyboard(app, pilot, lambda: out_notice(notices) is not None)
                notice = out_notice(notices)
                assert notice == f"{CLOSER} is out of the match."
                # The toast, drawn (its period tells it from the log's line).
                await wait_until(pilot, lambda: notice in screen_text(app), timeout=3)

                await play_at_the_keyboard(
                    app, pilot, lambda: app.session.view is not None and app.session.view.phase == MATCH_OVER)
                await wait_until(pilot, lambda: isinstance(app.screen, MatchEndScreen))
                await pilot.pause()
                results = screen_text(app)
                assert f"Match over: {BOLD} wins!" in results
                assert f"1. {BOLD}" in results and f"3. {CLOSER}" in results
        assert app.return_code in (None, 0)


async def test_a_table_named_like_markup_in_the_lobby_and_its_waiting_room(
        tmp_path: Path) -> None:
    """Listed, highlighted, joined when full (the toast says "you are watching" and names
    the table), and its waiting room."""
    from test_lobby import LOOPBACK, advertised, listed, row_texts

    name = f"{CLOSER} {secrets.token_hex(3)}"  # other runs may advertise on loopback too
    # Full of people, so a newcomer watches (a bot would give up its seat).
    async with running_table(name=name, capacity=2) as server, \
            opponent(server.port, BOLD), opponent(server.port, "zed"), advertised(server):
        lobby = LobbyScreen(LOOPBACK, config_directory=tmp_path, name="ana")
        app = Ono99App(start_screen=lobby, ascii_glyphs=False, sixteen_colours=False)
        notices = record_notices(app)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await wait_until(pilot, lambda: listed(lobby, name) and row_texts(
                lobby, name)[0][3] == "2/2", timeout=15)
            assert row_texts(lobby, name) == [[name, BOLD, "2022", "2/2", "waiting",
                                               "no"]]
            for _ in range(lobby.query_one("#tables", DataTable).row_count):
                selected = lobby.selected_table()
                if selected is not None and selected.info.name == name:
                    break
                await pilot.press("down")
            await pilot.pause()
            assert f"{name} by {BOLD} at 127.0.0.1:{server.port}" in screen_text(app)

            await pilot.press("enter")  # join: the table is full, so watch
            await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen)
                             and app.session.lobby is not None)
            toast = f"{name} is full or already playing: you are watching."
            assert toast in notices
            await wait_until(pilot, lambda: app.screen.query(Toast))
            assert toast in str(app.screen.query_one(Toast).render())
            await pilot.pause()
            room = screen_text(app)
            assert f"Waiting room: {name}  (watching)" in room
            # The host's row says "host" in its status column, after the name as it is.
            assert f"{BOLD}  (you" not in room and re.search(re.escape(BOLD) + r" +host", room)


async def _refuse_with_markup(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A table that refuses every hello, in words that look like markup."""
    header = await reader.readexactly(4)
    await reader.readexactly(int.from_bytes(header, "big"))
    refusal = Error(code="bad-name", reason=f"no {CLOSER} or {CLICK} here", ref="hello")
    writer.write(encode_frame(refusal.to_wire()))
    await writer.drain()
    await reader.read()


async def test_a_tables_refusal_in_markup_is_shown_literally(tmp_path: Path) -> None:
    from foreign_servers import serving

    async with serving(_refuse_with_markup) as port:
        lobby = LobbyScreen(None, config_directory=tmp_path, name="ana")
        app = Ono99App(start_screen=lobby, ascii_glyphs=False, sixteen_colours=False)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot.press("a", *f"127.0.0.1:{port}", "enter")
            await wait_until(pilot, lambda: app.screen.query(Toast))
            await pilot.pause()
            reason = f"no {CLOSER} or {CLICK} here"
            assert reason in str(app.screen.query_one(Toast).render()).replace("\n", " ")
            assert reason in str(lobby.query_one("#lobby-status", Static).render())


async def test_names_in_the_round_and_match_tables_are_shown_literally() -> None:
    """Tokens scoring: each bust ends a round, whose dialog has a row per player, and the
    match-over dialog a column per player for the rounds."""
    rules = preset("2022").replace(scoring=Scoring.TOKENS, tokens=0)  # one bust and out
    async with running_table(name="den", capacity=3, start_when=3, seed=11,
                             rules=rules) as server:
        async def seated() -> TableClient:
            return await TableClient.connect("127.0.0.1", server.port, name=ESCAPED)

        app = Ono99App(seated, start_screen=WaitingRoomScreen, ascii_glyphs=False,
                       sixteen_colours=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.lobby is not None)  # seated first: seat 1
            async with opponent(server.port, CLOSER), opponent(server.port, BOLD):
                await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
                await play_at_the_keyboard(app, pilot,
                                           lambda: isinstance(app.screen, RoundEndScreen))
                await pilot.pause()
                dialog = screen_text(app)
                assert "Round 1 is over" in dialog
                for name in (ESCAPED, CLOSER, BOLD):  # a row each, at the dialog's edge
                    assert f"█  {name} " in dialog

                await play_at_the_keyboard(app, pilot,
                                           lambda: isinstance(app.screen, MatchEndScreen))
                await pilot.pause()
                results = screen_text(app)
                assert f"Round  {ESCAPED}  {CLOSER}  {BOLD}" in results


async def test_a_replay_of_a_table_and_players_named_like_markup() -> None:
    """`ono99 replay`: the table's name (from the journal's file name) in the title, the
    players' names in the seats, the hands and the last step's line."""
    from dataclasses import replace

    from test_replay_screen import golden, replay_app

    match, _ = golden("2022")
    hostile = (CLOSER, BOLD, CLICK, ESCAPED)[: len(match.names)]
    # (No "/" in a file's name: the table is named with a click action instead.)
    match = replace(match, path=match.path.with_name(f"{CLICK}-0123456789ab.journal"),
                    names=hostile)
    app = replay_app(match, replay_match(match))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: screen_text(app).startswith(" Replay"))
        assert screen_text(app).startswith(f" Replay: {CLICK}, match 1  Rules 2022")
        await pilot.press("end")
        await pilot.pause()
        shown = screen_text(app)
        winner = hostile[match.winners[0]]
        assert f"Match over: {winner} wins." in shown
        for name in hostile:
            assert f"  {name} " in shown


async def test_rules_named_like_markup_from_a_rogue_table() -> None:
    """A table (not ours: ours names its rules after a preset) may call its rules anything:
    the table's title and the rules page (F1) show the name as it is."""
    from table_helpers import LocalMatch, RecordingApp, lobby_for, open_local

    rules = preset("2022").replace(name=CLOSER)
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, LocalMatch(rules, 3, seed=1), lobby_for(3))
        await pilot.pause()
        assert screen_text(app).startswith(f" Rules {CLOSER}  Round 1")
        await pilot.press("f1")
        await wait_until(pilot, lambda: f"Rules: {CLOSER} (" in screen_text(app), timeout=3)
