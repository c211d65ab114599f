"""The quit dialog says what quitting does where the player is: a solo game ends, the
host's table closes for everyone, a joined table's seat is held (then a bot plays it, or
the seat resigns)."""

from __future__ import annotations

from typing import Any

from lobby_helpers import running_table
from table_helpers import solo, start_solo_table
from testkit.waiting import pilot_wait_until as wait_until
from textual.pilot import Pilot
from textual.widgets import Static

from netproto.client import TableClient
from ono99tui.ui.app import Ono99App
from ono99tui.ui.host_app import host_app
from ono99tui.ui.screens.confirm_quit import ConfirmQuitScreen
from ono99tui.ui.screens.table import TableScreen

HOST_KEY = "host-key-of-the-quit-tests"


async def quit_dialog_text(app: Ono99App, pilot: Pilot[Any]) -> tuple[str, str]:
    """Wait for the match on the table screen, press q; the dialog's question and text."""
    await wait_until(pilot, lambda: isinstance(app.screen, TableScreen) and app.session.view is not None
                     and app.session.lobby is not None, what="the match")
    await pilot.press("q")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmQuitScreen), what="the dialog")
    question, explanation = (str(app.screen.query_one(f"#{part}", Static).render())
                             for part in ("question", "explanation"))
    await pilot.press("n")
    await wait_until(pilot, lambda: isinstance(app.screen, TableScreen), what="back to the table")
    return question, explanation


async def test_solo_quitting_ends_the_game() -> None:
    async with start_solo_table(bots=2, seed=4) as server:
        app = solo(server, bots=2)
        async with app.run_test(size=(80, 24)) as pilot:
            question, explanation = await quit_dialog_text(app, pilot)
    assert question == "Quit the game?"
    assert "solo game" in explanation and "ends it" in explanation
    assert "bot plays" not in explanation and "seat is held" not in explanation


async def test_the_host_quitting_closes_the_table_for_everyone() -> None:
    async with running_table(name="den", capacity=2, start_when=2, host_key=HOST_KEY) as server:
        app = host_app(server, player="ana")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.lobby is not None, what="the waiting room")
            server.table.add_bot("greedy")
            question, explanation = await quit_dialog_text(app, pilot)
    assert question == "Close the table?"
    assert "closes it" in explanation and "everyone" in explanation
    assert "bot plays" not in explanation


async def joined_dialog(**table: Any) -> tuple[str, str]:
    async with running_table(name="den", capacity=2, start_when=2, **table) as server:
        async def join() -> TableClient:
            client = await TableClient.connect("127.0.0.1", server.port, name="bob")
            server.table.add_bot("greedy")
            return client

        app = Ono99App(join, start_screen=TableScreen, ascii_glyphs=False, sixteen_colours=False)
        async with app.run_test(size=(80, 24)) as pilot:
            return await quit_dialog_text(app, pilot)


async def test_a_joined_player_is_told_a_bot_takes_the_seat() -> None:
    question, explanation = await joined_dialog(grace_seconds=45.0)
    assert question == "Leave the match?"
    assert "held for 45 s" in explanation and "then a bot plays it" in explanation


async def test_a_joined_player_at_an_eliminating_table_is_told_they_drop_out() -> None:
    question, explanation = await joined_dialog(abandon_policy="eliminate")
    assert question == "Leave the match?"
    assert "you are out of the match" in explanation and "bot" not in explanation


async def test_the_host_leaving_the_waiting_room_with_others_seated_is_asked_first() -> None:
    from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

    async with running_table(name="den", capacity=3, host_key=HOST_KEY) as server:
        app = host_app(server, player="ana")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.lobby is not None, what="the waiting room")
            guest = await TableClient.connect("127.0.0.1", server.port, name="bob")
            try:
                await wait_until(pilot, lambda: app.session.lobby is not None and len(app.session.lobby.seats) == 2,
                                 what="bob in the waiting room")
                await pilot.press("q")
                await wait_until(pilot, lambda: isinstance(app.screen, ConfirmQuitScreen), what="the dialog")
                question, explanation = (str(app.screen.query_one(f"#{part}", Static).render())
                                         for part in ("question", "explanation"))
                assert question == "Close the table?"
                assert "closes it" in explanation and "everyone" in explanation
                await pilot.press("n")
                await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen), what="back")
                assert app.is_running
                await pilot.press("q")
                await wait_until(pilot, lambda: isinstance(app.screen, ConfirmQuitScreen), what="the dialog")
                await pilot.press("y")
                await wait_until(pilot, lambda: not app.is_running, what="the app to quit")
            finally:
                await guest.close()


async def test_the_host_alone_with_bots_quits_the_waiting_room_at_once() -> None:
    async with running_table(name="den", capacity=3, host_key=HOST_KEY) as server:
        app = host_app(server, player="ana")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.lobby is not None, what="the waiting room")
            server.table.add_bot("greedy")
            await wait_until(pilot, lambda: app.session.lobby is not None and len(app.session.lobby.seats) == 2,
                             what="the bot in the waiting room")
            await pilot.press("q")
            await wait_until(pilot, lambda: not app.is_running, what="the app to quit")
