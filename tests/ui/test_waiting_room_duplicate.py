"""The waiting room's "Duplicate sets" switch (docs/DUPLICATE.md), with Pilot against a real
table on loopback: the host switches it on, the table deals sets from then on, and the
room says so."""

from __future__ import annotations

from lobby_helpers import running_table
from testkit.waiting import pilot_wait_until as wait_until
from textual.widgets import Checkbox, Static

from ono99tui.ui.host_app import host_app
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

HOST_KEY = "the-host-key-for-tests"


async def test_the_host_switches_duplicate_sets_on_and_off() -> None:
    async with running_table(name="den", capacity=3, host_key=HOST_KEY) as server:
        host = host_app(server, player="ana")
        async with host.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: host.session.lobby is not None
                             and len(host.session.lobby.seats) == 1, what="the host's room")
            screen = host.screen
            assert isinstance(screen, WaitingRoomScreen)
            box = screen.query_one("#table-duplicate", Checkbox)
            assert box.value is False and host.session.lobby.options["duplicate"] is False
            box.focus()
            await pilot.press("space")
            await wait_until(pilot, lambda: host.session.lobby.options["duplicate"] is True,
                             what="duplicate on")
            assert server.table.core.table_options()["duplicate"] is True
            summary = screen.query_one("#rules-summary", Static)
            await wait_until(pilot, lambda: "Duplicate sets: each deal once per seat rotation"
                             in str(summary.content), what="the room says so")
            await pilot.press("space")
            await wait_until(pilot, lambda: host.session.lobby.options["duplicate"] is False,
                             what="duplicate off")
            assert "Duplicate" not in str(summary.content)
