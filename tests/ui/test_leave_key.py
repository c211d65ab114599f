"""`l` (leave the table, back to the lobby) and the host's closing of the table, with real
tables on loopback, real TableClients as the other players, and Textual's Pilot.

Who has `l`: only a player who came from the lobby (`ono99 join`). The host of
`ono99 host` has no lobby to go back to (it closes the table with `q`, after asking),
and solo opens straight on the table.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from lobby_helpers import running_table
from table_helpers import solo, start_solo_table
from testkit.waiting import pilot_wait_until as wait_until
from textual.pilot import Pilot
from textual.widgets import Static

from netproto.addresses import Address
from netproto.client import Closed, TableClient
from ono99tui.cli import build_parser
from ono99tui.commands.host import host_options_from_args
from ono99tui.commands.host_with_app import serve_with_app
from ono99tui.ui.app import Ono99App
from ono99tui.ui.screens.confirm_quit import ConfirmQuitScreen
from ono99tui.ui.screens.lobby import LobbyScreen
from ono99tui.ui.screens.table import TableScreen
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen
from ono99tui.user_settings import CONFIG_DIR_ENV, load_settings


def seat_names(app: Ono99App) -> list[str]:
    return [seat.name for seat in app.session.lobby.seats] if app.session.lobby else []


def client_seat_names(client: TableClient) -> list[str]:
    return [seat.name for seat in client.lobby.seats] if client.lobby else []


def dialog_text(app: Ono99App) -> tuple[str, str]:
    screen = app.screen
    assert isinstance(screen, ConfirmQuitScreen)
    return tuple(str(screen.query_one(f"#{part}", Static).render())  # type: ignore[return-value]
                 for part in ("question", "explanation"))


def joining_app(port: int, name: str, config_directory: Path) -> tuple[Ono99App, LobbyScreen]:
    """A player's `ono99 join 127.0.0.1:PORT --player NAME`: the lobby joins at once."""
    lobby = LobbyScreen(None, config_directory=config_directory, name=name,
                        join_address=Address("127.0.0.1", port))
    return Ono99App(start_screen=lobby, ascii_glyphs=False, sixteen_colours=False), lobby


async def seated_first_then_cy(pilot: Pilot[Any], app: Ono99App, port: int) -> TableClient:
    """Wait for the app's player in the waiting room, then seat "cy" (a real client)."""
    await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen)
                     and seat_names(app) == ["bob"], what="bob in the waiting room")
    cy = await TableClient.connect("127.0.0.1", port, name="cy")
    await wait_until(pilot, lambda: seat_names(app) == ["bob", "cy"], what="cy sitting down")
    return cy


async def test_a_player_hosting_a_keyless_table_leaves_it_running_for_the_others(
    tmp_path: Path,
) -> None:
    # A table without a host key or admin password (made in-process) makes the first
    # person seated its host. Leaving hands the host's rights on; nothing closes, so
    # there is nothing to confirm and nobody is told the table closed.
    async with running_table(name="den", capacity=3) as server:
        app, lobby = joining_app(server.port, "bob", tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            cy = await seated_first_then_cy(pilot, app, server.port)
            try:
                assert app.session.lobby is not None and app.session.lobby.host_seat == app.session.lobby.you == 0
                assert app.screen.check_action("leave", ()) is True
                await pilot.press("l")
                await wait_until(pilot, lambda: app.screen is lobby, what="the lobby")
                assert not any(isinstance(s, ConfirmQuitScreen) for s in app.screen_stack)
                assert "You left the table" in str(lobby.query_one("#lobby-status", Static).render())
                assert app.session.lobby is None and app.is_running
                await wait_until(pilot, lambda: client_seat_names(cy) == ["cy"], what="bob's seat freed")
                assert cy.lobby is not None and cy.lobby.host_seat == cy.lobby.you == 0  # cy hosts now
                assert cy.closed is None and cy.lobby.phase == "waiting"
                assert [seat.name for seat in server.table.seats] == ["cy"]
            finally:
                await cy.close()


async def test_a_player_hosting_a_keyless_table_is_told_the_match_goes_on_if_they_quit(
    tmp_path: Path,
) -> None:
    # The same table, mid-match: quitting does not close it either, so the dialog must
    # not say "Close the table?": the seat is held, then a bot plays it.
    async with running_table(name="den", capacity=2, start_when=2, grace_seconds=30.0) as server:
        app, _lobby = joining_app(server.port, "bob", tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            cy = await seated_first_then_cy(pilot, app, server.port)
            try:
                await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                                 and app.session.view is not None, what="the match")
                assert app.session.lobby is not None and app.session.lobby.host_seat == app.session.lobby.you
                await pilot.press("q")
                await wait_until(pilot, lambda: isinstance(app.screen, ConfirmQuitScreen),
                                 what="the dialog")
                question, explanation = dialog_text(app)
                assert question == "Leave the match?"
                assert "held for 30 s" in explanation and "then a bot plays it" in explanation
                assert "close" not in explanation
                await pilot.press("n")
                await wait_until(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
                assert app.is_running and cy.closed is None
            finally:
                await cy.close()


async def test_a_guest_leaves_at_once_and_the_host_keeps_the_table(tmp_path: Path) -> None:
    async with running_table(name="den", capacity=3, host_key="the-key") as server:
        ana = await TableClient.connect("127.0.0.1", server.port, name="ana", host_key="the-key")
        try:
            lobby = LobbyScreen(None, config_directory=tmp_path, name="bob",
                                join_address=Address("127.0.0.1", server.port))
            app = Ono99App(start_screen=lobby, ascii_glyphs=False, sixteen_colours=False)
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_until(pilot, lambda: seat_names(app) == ["ana", "bob"], what="bob seated")
                await pilot.press("l")
                await wait_until(pilot, lambda: app.screen is lobby, what="the lobby")
                assert not any(isinstance(s, ConfirmQuitScreen) for s in app.screen_stack)
                await wait_until(pilot, lambda: client_seat_names(ana) == ["ana"], what="seat freed")
                assert ana.closed is None and ana.is_host
        finally:
            await ana.close()


async def test_solo_has_no_leave_key() -> None:
    async with start_solo_table(bots=2, seed=4) as server:
        app = solo(server, bots=2)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                             and app.session.view is not None, what="the match")
            assert "l" not in app.screen.active_bindings
            await pilot.press("l")
            await pilot.pause()
            assert isinstance(app.screen, TableScreen) and app.is_running
            assert len(server.table.seats) == 3 and all(s.peer is not None or not s.human
                                                        for s in server.table.seats)


async def test_the_host_has_no_leave_key_and_closing_the_table_sends_everyone_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The whole `ono99 host --player ana` (no mDNS), its app driven by Pilot: `l` is not
    # offered, `q` asks, "Stay" keeps everyone seated, "Leave" closes the table for real.
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))
    args = build_parser().parse_args(
        ["host", "--bind", "127.0.0.1", "--port", "0", "--no-advertise", "--player", "ana"])
    options = host_options_from_args(args, headless=False)
    options = replace(options, table=replace(options.table, host_key="the-key"))
    guests: list[TableClient] = []

    async def play(app: Ono99App) -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.client is not None and seat_names(app) == ["ana"],
                             what="ana in her waiting room")
            assert app.client is not None
            bob = await TableClient.connect("127.0.0.1", app.client.port, name="bob")
            guests.append(bob)
            await wait_until(pilot, lambda: seat_names(app) == ["ana", "bob"], what="bob seated")
            room = app.screen
            assert isinstance(room, WaitingRoomScreen) and room.check_action("leave", ()) is False
            assert "l" not in app.screen.active_bindings
            await pilot.press("l")
            await pilot.pause()
            assert app.screen is room and app.is_running

            await pilot.press("q")
            await wait_until(pilot, lambda: isinstance(app.screen, ConfirmQuitScreen), what="the dialog")
            assert dialog_text(app) == (
                "Close the table?",
                "You host this table: quitting closes it for everyone waiting at it.")
            await pilot.press("n")
            await wait_until(pilot, lambda: app.screen is room, what="back in the waiting room")
            await pilot.pause()
            assert app.is_running and seat_names(app) == ["ana", "bob"]
            assert client_seat_names(bob) == ["ana", "bob"] and bob.closed is None

            await pilot.press("q")
            await wait_until(pilot, lambda: isinstance(app.screen, ConfirmQuitScreen), what="the dialog")
            await pilot.press("y")
            await wait_until(pilot, lambda: not app.is_running, what="the app to quit")
            assert bob.closed is None  # the table closes when the app is gone, not before

    try:
        assert await serve_with_app(options, args.player, run_app=play) == 0
        closed = await guests[0].wait_for(Closed, timeout=10)
        assert closed.code == "shutdown"
        assert load_settings(tmp_path).player_name == "ana"  # --player is remembered
    finally:
        for guest in guests:
            await guest.close()
