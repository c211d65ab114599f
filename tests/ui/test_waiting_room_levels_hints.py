"""The waiting room's bot level and hints switch, with Pilot against a real table on
loopback: the host picks a level and allows hints; a player sees both, and may change
neither."""

from __future__ import annotations

from pathlib import Path

from lobby_helpers import running_table
from testkit.waiting import pilot_wait_until as wait_until
from textual.widgets import Checkbox, Select

from netproto.addresses import Address
from ono99tui.bots import LEVEL_NAMES
from ono99tui.ui.app import Ono99App
from ono99tui.ui.host_app import host_app
from ono99tui.ui.screens.lobby import LobbyScreen
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

HOST_KEY = "the-host-key-for-tests"


def room(app: Ono99App) -> WaitingRoomScreen:
    screen = app.screen
    assert isinstance(screen, WaitingRoomScreen)
    return screen


async def test_the_host_picks_a_bot_level_and_allows_hints(tmp_path: Path) -> None:
    async with running_table(name="den", capacity=4, host_key=HOST_KEY) as server:
        host = host_app(server, player="ana")
        guest = Ono99App(start_screen=LobbyScreen(
            None, config_directory=tmp_path, name="bob",
            join_address=Address("127.0.0.1", server.port)))
        async with host.run_test(size=(80, 24)) as pilot, guest.run_test(size=(80, 24)) as gp:
            await wait_until(gp, lambda: guest.session.lobby is not None and len(guest.session.lobby.seats) == 2,
                             what="both seats")
            await wait_until(pilot, lambda: host.session.lobby is not None
                             and len(host.session.lobby.seats) == 2, what="the host's room")
            screen = room(host)
            level = screen.query_one("#bot-kind", Select)
            options = [str(label) for label, _ in level._options]  # what the host picks from
            assert options[: len(LEVEL_NAMES)] == list(LEVEL_NAMES) and level.value == "normal"
            level.value = "easy"
            await pilot.press("b")
            await wait_until(pilot, lambda: [s.name for s in host.session.lobby.seats][-1] == "Easy bot",
                             what="the easy bot")

            hints = screen.query_one("#table-hints", Checkbox)
            assert hints.value is False and host.session.lobby.options["hints"] is False
            hints.focus()
            await pilot.press("space")
            await wait_until(pilot, lambda: host.session.lobby.options["hints"] is True, what="hints on")
            seen = room(guest).query_one("#table-hints", Checkbox)
            await wait_until(gp, lambda: seen.value is True, what="the player sees it")
            assert seen.disabled  # only the host may switch it
            await gp.press("tab", "space")  # nothing a player presses changes the table
            await pilot.pause(0.2)
            assert host.session.lobby.options["hints"] is True


async def test_the_bot_level_starts_at_the_tables_own_level() -> None:
    # `ono99 host --level hard`: its stand-ins and first bots were hard, but "b" in the
    # waiting room added a normal bot, the select's default (found by play-testing).
    async with running_table(name="den", capacity=5, host_key=HOST_KEY,
                             takeover_bot="hard") as server:
        host = host_app(server, player="ana")
        async with host.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: host.session.lobby is not None
                             and len(host.session.lobby.seats) == 1, what="the host's room")
            assert host.session.lobby is not None and host.session.lobby.options["bot_level"] == "hard"
            level = room(host).query_one("#bot-kind", Select)
            await wait_until(pilot, lambda: level.value == "hard", what="the table's level")
            await pilot.press("b")
            await wait_until(pilot, lambda: [s.name for s in host.session.lobby.seats][-1] == "Hard bot",
                             what="a hard bot")
            level.value = "easy"  # the host's own choice then stays, lobby after lobby
            await pilot.press("b")
            await wait_until(pilot, lambda: [s.name for s in host.session.lobby.seats][-1] == "Easy bot",
                             what="an easy bot")
            assert level.value == "easy"
