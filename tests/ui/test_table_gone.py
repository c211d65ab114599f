"""When the host closes the table, a joined player is told so and can go back to the lobby
(issue 12: they sat at a frozen table saying "the server is stopping", with only Ctrl+Q).

Real tables on loopback, the app as `ono99 join HOST:PORT` makes it, driven with Pilot.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lobby_helpers import running_table
from testkit.waiting import pilot_wait_until as wait_until
from textual.pilot import Pilot
from textual.widgets import Button, Static

from ono99tui.client.joining import Address
from ono99tui.client.session import TABLE_GONE
from ono99tui.game import RoundEnded
from ono99tui.ui.app import Ono99App
from ono99tui.ui.screens.lobby import LobbyScreen
from ono99tui.ui.screens.results import RoundEndScreen
from ono99tui.ui.screens.table import TableScreen
from ono99tui.ui.screens.table_gone import TableGoneScreen
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen
from ono99tui.ui.widgets.banner import ConnectionBanner


def joining_app(port: int, tmp_path: Path, interfaces: list[str] | None = None,
                ) -> tuple[Ono99App, LobbyScreen]:
    """`ono99 join 127.0.0.1:PORT --player ana`: the lobby goes straight to the table."""
    lobby = LobbyScreen(interfaces, config_directory=tmp_path, name="ana",
                        join_address=Address("127.0.0.1", port))
    return Ono99App(start_screen=lobby, ascii_glyphs=False, sixteen_colours=False), lobby


def dialog(app: Ono99App) -> tuple[str, list[str]]:
    """The table-gone dialog's headline and buttons."""
    screen = app.screen
    assert isinstance(screen, TableGoneScreen)
    headline = str(screen.query_one("#headline", Static).render())
    return headline, [str(button.label) for button in screen.query(Button)]


def lobby_status(app: Ono99App) -> str:
    return str(app.screen.query_one("#lobby-status", Static).render())


async def in_the_waiting_room(pilot: Pilot[Any], app: Ono99App) -> None:
    await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen)
                     and app.session.lobby is not None, what="the waiting room")


async def test_closed_while_waiting_l_goes_back_to_the_lobby(tmp_path: Path) -> None:
    async with running_table(name="den", capacity=3) as server:
        app, lobby = joining_app(server.port, tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await in_the_waiting_room(pilot, app)
            await server.stop()
            await wait_until(pilot, lambda: isinstance(app.screen, TableGoneScreen),
                             what="the table-gone dialog")
            await pilot.pause()
            assert dialog(app) == ("The host closed the table.",
                                   ["Back to the lobby (l)", "Quit (q)"])
            await pilot.press("l")
            await wait_until(pilot, lambda: app.screen is lobby, what="the lobby")
            assert len(app.screen_stack) == 2  # Textual's default screen, then the lobby
            assert lobby_status(app).startswith("The host closed the table. Pick another")
            assert app.session.lobby is None and app.session.view is None and app.client is None
            assert app.is_running


async def test_closed_during_a_match_behind_a_results_dialog(tmp_path: Path) -> None:
    async with running_table(name="den", capacity=3) as server:
        app, lobby = joining_app(server.port, tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await in_the_waiting_room(pilot, app)
            await pilot.press("b")  # ana is seated first: she is the table's host
            await wait_until(pilot, lambda: len(app.session.lobby.seats) == 2, what="the bot")
            await pilot.press("s")
            await wait_until(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
            app.push_screen(RoundEndScreen(RoundEnded(1, (0, 0), (0, 0), (3, 2))))
            await pilot.pause()
            await server.stop()
            await wait_until(pilot, lambda: isinstance(app.screen, TableGoneScreen),
                             what="the table-gone dialog")
            await pilot.pause()
            assert dialog(app) == ("The host closed the table.",
                                   ["Back to the lobby (l)", "Quit (q)"])
            # Behind the dialog, the table's banner says why too (it said "Disconnected from
            # the table. Press Ctrl+Q to quit.", which the dialog contradicted).
            table = next(screen for screen in app.screen_stack if isinstance(screen, TableScreen))
            assert str(table.query_one(ConnectionBanner).render()) == "The host closed the table."
            await pilot.click("#lobby")
            await wait_until(pilot, lambda: app.screen is lobby, what="the lobby")
            assert not app.screen.query(TableScreen) and app.session.view is None
            assert not app.session.in_game


async def test_straight_to_a_table_then_back_to_browsing_the_lobby(tmp_path: Path) -> None:
    # `ono99 join HOST:PORT` does not browse the network; coming back to its lobby does.
    async with running_table(name="den", capacity=3) as server:
        app, lobby = joining_app(server.port, tmp_path, interfaces=["127.0.0.1"])
        async with app.run_test(size=(80, 24)) as pilot:
            await in_the_waiting_room(pilot, app)
            assert not [worker for worker in app.workers if worker.group == "browse"]
            await server.stop()
            await wait_until(pilot, lambda: isinstance(app.screen, TableGoneScreen),
                             what="the table-gone dialog")
            await pilot.pause()
            await pilot.press("l")
            await wait_until(pilot, lambda: app.screen is lobby, what="the lobby")
            assert [worker for worker in app.workers if worker.group == "browse"]


async def test_without_a_lobby_the_only_way_on_is_quit(tmp_path: Path) -> None:
    from netproto.client import TableClient

    async with running_table(name="den", capacity=3) as server:
        async def connect() -> TableClient:
            return await TableClient.connect("127.0.0.1", server.port, name="ana")

        app = Ono99App(connect, start_screen=WaitingRoomScreen, ascii_glyphs=False,
                       sixteen_colours=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.lobby is not None, what="the table")
            await server.stop()
            await wait_until(pilot, lambda: isinstance(app.screen, TableGoneScreen),
                             what="the table-gone dialog")
            await pilot.pause()
            assert dialog(app) == ("The host closed the table.", ["Quit (q)"])
            await pilot.press("l")  # no lobby to go back to: nothing happens
            assert isinstance(app.screen, TableGoneScreen)
            await pilot.press("q")
            await wait_until(pilot, lambda: not app.is_running, what="the app to quit")


def dialog_over_an_empty_app(*, lobby: bool, ascii_glyphs: bool = False) -> Ono99App:
    """The dialog alone (what is behind it belongs to other screens' snapshots)."""

    class DialogApp(Ono99App):
        def on_mount(self) -> None:
            super().on_mount()
            self.push_screen(TableGoneScreen(*TABLE_GONE["shutdown"], lobby=lobby))

    return DialogApp(ascii_glyphs=ascii_glyphs, sixteen_colours=False)


def test_the_dialog_80x24(snap_compare) -> None:
    assert snap_compare(dialog_over_an_empty_app(lobby=True), terminal_size=(80, 24))


def test_the_dialog_ascii_without_a_lobby(snap_compare) -> None:
    assert snap_compare(dialog_over_an_empty_app(lobby=False, ascii_glyphs=True),
                        terminal_size=(60, 16))
