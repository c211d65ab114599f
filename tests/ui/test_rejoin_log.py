"""Back at the table mid-match, the app's log and round results tell the match so far.

Over real loopback tables: an app that lost its connection (or a new one resuming the seat
with its token, as `ono99 join` run again or a reloaded web page) gets the match's earlier
events in its first view (`view.history`, docs/PROTOCOL.md §3) and shows them as if it
had watched: every event once, none twice, no dialog or toast for what is past. Also
after the host was killed and restarted from its journal.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from table_helpers import (
    CuttableProxy,
    HoldingProxy,
    first_playable,
    record_notices,
    screen_text,
    wait_until,
)
from textual.pilot import Pilot

from netproto.client import ClientSettings, TableClient
from ono99tui.client.names import names_of
from ono99tui.commands.solo import solo_config
from ono99tui.game import Event
from ono99tui.game.codec import event_from_wire
from ono99tui.host.server import TableServer
from ono99tui.ui.app import Ono99App
from ono99tui.ui.glyphs import glyphs_for
from ono99tui.ui.present import bust_lines, event_line
from ono99tui.ui.screens.table import TableScreen
from ono99tui.ui.widgets.log import EventLog

FAST_RECONNECT = ClientSettings(backoff_initial=0.05, backoff_max=0.2, reconnect_for=60)


def table_1980(seed: int) -> TableServer:
    """A 1980 table (tokens: many rounds) for ana and two instant bots (`seat_bots` once
    she sits), not started."""
    return TableServer(solo_config(bots=2, rules="1980", seed=seed, bot_delay=0.0))


def seat_bots(server: TableServer) -> None:
    """The two bots sit down after the player (the first human hosts): the deal follows."""
    if len(server.table.seats) == 1:
        for _ in range(2):
            server.table.add_bot("greedy")


def app_for(connect: Callable[[], Any]) -> Ono99App:
    return Ono99App(connect, start_screen=TableScreen, ascii_glyphs=False,
                    sixteen_colours=False)


def my_turn(app: Ono99App) -> bool:
    return (isinstance(app.screen, TableScreen) and app.session.view is not None
            and bool(app.session.view.legal_moves) and app.session.connection_state == "connected")



def bust_lines_of(app: Ono99App) -> dict[int, list[str]]:
    """Each finished round's bust lines, as its round-end dialog shows them."""
    return {number: [line for chunk in chunks
                     for line in bust_lines(chunk.events, chunk.names, chunk.viewer)]
            for number, chunks in app.session.story.busts.chunks.items()}

async def play_until(app: Ono99App, pilot: Pilot[Any], done: Callable[[], bool]) -> None:
    """Play the first playable card at each turn (closing the round dialogs and bust
    banners) until `done()` holds at one of the app's turns."""
    for _ in range(400):
        await wait_until(pilot, lambda: my_turn(app) or not isinstance(app.screen, TableScreen))
        if not isinstance(app.screen, TableScreen):
            await pilot.press("enter")
            continue
        if done():
            return
        index = first_playable(app)
        before = app.session.view_seq
        await pilot.press("s" if index is None else str(index + 1))
        await wait_until(pilot, lambda before=before: app.session.view_seq > before)
    raise AssertionError(f"never got there: {app.screen!r} {app.log_lines[-8:]}")


def story_lines(server: TableServer, app: Ono99App) -> list[str]:
    """The log lines the table's whole account of the match makes for `app`'s seat."""
    assert app.session.view is not None and app.session.lobby is not None
    names = names_of(app.session.view, app.session.lobby.seats)
    events: list[Event] = [event_from_wire(wire) for wire in server.table.core.match_events]
    lines = [event_line(event, names, app.session.view, glyphs_for(False)) for event in events]
    return [line for line in lines if line is not None]


async def test_an_app_resuming_the_seat_anew_shows_the_match_so_far() -> None:
    """`ono99 join` run again (or a reloaded web page) after the first app lost its link:
    the new app's log, round results and busts are the first one's, and it opens no
    dialog and shows no toast for what is past."""
    async with table_1980(seed=5) as server:
        proxy = await CuttableProxy(server.port).start()
        try:
            async def through_proxy() -> TableClient:
                client = await TableClient.connect("127.0.0.1", proxy.port, name="ana")
                seat_bots(server)
                return client

            first = app_for(through_proxy)
            async with first.run_test(size=(100, 30)) as pilot:
                await play_until(first, pilot, lambda: len(first.session.story.round_results) >= 1
                                 and sum("ana played" in line for line in first.log_lines) >= 5)
                assert first.client is not None and first.client.token is not None
                token = first.client.token
                lines, results = list(first.log_lines), list(first.session.story.round_results)
                busts = bust_lines_of(first)
                await proxy.go_down()  # the laptop closed: the table holds the seat
                await wait_until(pilot, lambda: first.session.connection_state != "connected")
        finally:
            await proxy.stop()
        assert any("BUSTED" in line for line in lines) and busts

        async def resume() -> TableClient:
            return await TableClient.connect("127.0.0.1", server.port, name="ana", token=token)

        second = app_for(resume)
        notices = record_notices(second)
        async with second.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: my_turn(second))
            await pilot.pause()
            assert second.session.welcome is not None and second.session.welcome.seat == 0
            assert second.log_lines == lines  # each event once, as the first app showed it
            assert second.session.story.round_results == results
            assert bust_lines_of(second) == busts
            # The table screen, with the log on it: no round dialog, no toast of the past.
            assert isinstance(second.screen, TableScreen)
            assert notices == []
            shown = " ".join(row.strip() for row in second.screen.query_one(EventLog).lines)
            assert all(line in shown for line in lines)  # the log pane holds them all
            assert lines[-1][:16] in screen_text(second)  # and shows the newest
            # And play goes on from there.
            before = len(second.log_lines)
            await play_until(second, pilot, lambda: len(second.log_lines) > before)


async def test_views_lost_with_a_dropped_link_reach_the_log_once() -> None:
    """The link drops while the table's views to the app are still on their way: the
    table counts them as sent, the app never saw them. The resumed view's history brings
    them, and the log tells the whole match, each event exactly once."""
    async with table_1980(seed=8) as server:
        proxy = await HoldingProxy(server.port).start()
        try:
            async def through_proxy() -> TableClient:
                client = await TableClient.connect("127.0.0.1", proxy.port, name="ana",
                                                   settings=FAST_RECONNECT)
                seat_bots(server)
                return client

            app = app_for(through_proxy)
            async with app.run_test(size=(100, 30)) as pilot:
                await play_until(app, pilot, lambda: sum(
                    "ana played" in line for line in app.log_lines) >= 3)
                seat = server.table.core.seats[0]
                sent = seat.seq
                proxy.hold()  # the views from here on never reach the app
                index = first_playable(app)
                await pilot.press("s" if index is None else str(index + 1))
                await wait_until(pilot, lambda: seat.seq >= sent + 2
                                 and server.table.core.state is not None
                                 and 0 in _acting(server))
                assert app.session.view_seq == sent
                # The app has not seen the end of the story the table has told.
                told = story_lines(server, app)
                assert len(app.log_lines) < len(told) and told[:len(app.log_lines)] == app.log_lines
                proxy.cut()  # the link dies with them
                proxy.release()
                await wait_until(pilot, lambda: app.session.view_seq == seat.seq
                                 and app.session.connection_state == "connected")
                await pilot.pause()
                assert app.log_lines == told == story_lines(server, app)
        finally:
            await proxy.stop()


def _acting(server: TableServer) -> tuple[int, ...]:
    from ono99tui.game import acting_seats

    state = server.table.core.state
    return () if state is None else tuple(acting_seats(state))


async def test_after_the_host_restarts_from_its_journal_the_log_is_whole_and_single(
    host_process: Callable[..., Any], tmp_path: Path,
) -> None:
    """A real `ono99 host --headless` killed mid-match and started again on its journal:
    the app that reconnects by itself shows no event twice, and an app started anew with
    the seat's token (as every browser tab of a web door is, its children gone with the
    host) shows the same log."""
    env = {"ONO99_DATA_DIR": str(tmp_path)}
    options = ("--name", "Kitchen", "--seats", "3", "--bots", "2", "--bot-delay", "0",
               "--seed", "13", "--rules", "1980", "--turn-time", "off")
    first = host_process(*options, env=env)
    await asyncio.to_thread(first.start)

    async def join() -> TableClient:
        return await TableClient.connect("127.0.0.1", first.port, name="ana",
                                         settings=FAST_RECONNECT)

    app = app_for(join)
    async with app.run_test(size=(100, 30)) as pilot:
        await play_until(app, pilot, lambda: len(app.session.story.round_results) >= 1
                         and sum("ana played" in line for line in app.log_lines) >= 4)
        lines, results = list(app.log_lines), list(app.session.story.round_results)
        seq = app.session.view_seq
        first.kill()
        await wait_until(pilot, lambda: app.session.connection_state == "reconnecting")
        second = host_process(*options, env=env)
        second.port = first.port
        await asyncio.to_thread(second.start)
        await wait_until(pilot, lambda: app.session.view_seq > seq and my_turn(app), timeout=30)
        await pilot.pause()
        assert app.log_lines == lines and app.session.story.round_results == results
        assert app.client is not None and app.client.token is not None
        token = app.client.token

        async def anew() -> TableClient:
            return await TableClient.connect("127.0.0.1", second.port, name="ana",
                                             token=token)

        fresh = app_for(anew)
        notices = record_notices(fresh)
        async with fresh.run_test(size=(100, 30)) as fresh_pilot:
            await wait_until(fresh_pilot, lambda: my_turn(fresh), timeout=30)
            await fresh_pilot.pause()
            assert fresh.log_lines == lines and fresh.session.story.round_results == results
            assert notices == [] and isinstance(fresh.screen, TableScreen)
