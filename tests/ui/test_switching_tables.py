"""Leaving one table for another: nothing of the first table leaks into the second."""

from __future__ import annotations

from pathlib import Path

from lobby_helpers import running_table
from table_helpers import first_playable
from table_items import view_updated
from testkit.waiting import pilot_wait_until as wait_until
from textual.widgets import Input

from netproto.addresses import Address
from ono99tui.ui.app import Ono99App
from ono99tui.ui.screens.lobby import LobbyScreen
from ono99tui.ui.screens.table import TableScreen
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen


def seat_names(app: Ono99App) -> list[str]:
    return [seat.name for seat in app.session.lobby.seats] if app.session.lobby else []


async def test_leave_a_table_join_another_and_play_there(tmp_path: Path) -> None:
    async with running_table(name="first", capacity=2, start_when=2, seed=3) as first, \
            running_table(name="second", capacity=2, start_when=2, seed=5) as second:
        lobby = LobbyScreen(None, config_directory=tmp_path, name="bob",
                            join_address=Address("127.0.0.1", first.port))
        app = Ono99App(start_screen=lobby, ascii_glyphs=False, sixteen_colours=False)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen)
                             and seat_names(app) == ["bob"], what="the first table's room")
            first.table.add_bot("greedy")  # the first table deals: views of its match arrive
            # Bob's turn: the first table waits for him, so no further view comes.
            await wait_until(pilot, lambda: isinstance(app.screen, TableScreen) and app.session.view is not None
                             and bool(app.session.view.legal_moves) and first_playable(app) is not None,
                             what="the first table's match, shown")
            first_connection = app.client
            first_view = app.session.view
            app.pop_screen()  # back in the first table's waiting room (its match goes on)
            await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen), what="the room")
            await pilot.press("l")
            await wait_until(pilot, lambda: app.screen is lobby, what="the lobby")

            lobby.query_one("#address", Input).value = f"127.0.0.1:{second.port}"
            lobby.query_one("#address", Input).focus()
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen)
                             and seat_names(app) == ["bob"], what="the second table's room")
            # Nothing of the first table is left: no view, no match in progress, new client.
            assert app.session.view is None and app.session.view_seq == -1 and not app.session.in_game
            assert app.client is not first_connection
            # A view the first table's connection reported late (it was still queued when
            # the player switched tables) must not hide the second table's first views.
            late = view_updated(50, first_view, ())
            late.connection = 1
            app.post_message(late)
            await pilot.pause()
            assert app.session.view is None
            second.table.add_bot("greedy")  # the second seat is taken: the table deals

            await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                             and app.session.view is not None and first_playable(app) is not None,
                             what="bob's turn at the second table")
            assert app.client is not None and app.client.port == second.port
            await pilot.press(str(first_playable(app) + 1))
            await wait_until(pilot, lambda: any(line.startswith("bob played") for line in app.log_lines),
                             what="bob's move at the second table")
            assert any(move.get("seat") == 0 for move in second.table.journal[-1].moves)
