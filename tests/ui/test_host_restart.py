"""The app at a host that crashed and came back without the match (no journal to resume
from): its old token gets it a new seat, and the new table's views, numbered from 1 again,
are shown rather than dropped as older than the last one."""

from __future__ import annotations

from table_helpers import CuttableProxy, first_playable, start_solo_table, wait_until

from netproto.client import ClientSettings, TableClient
from ono99tui.ui.app import Ono99App
from ono99tui.ui.screens.table import TableScreen

FAST_RECONNECT = ClientSettings(backoff_initial=0.05, backoff_max=0.2, reconnect_for=30)


async def test_the_app_shows_the_new_table_after_a_host_restart() -> None:
    first, second = start_solo_table(bots=1, seed=4), start_solo_table(bots=1, seed=9)
    async with first, second:
        second.table.add_bot("greedy")
        proxy = await CuttableProxy(first.port).start()

        async def through_proxy() -> TableClient:
            client = await TableClient.connect("127.0.0.1", proxy.port, name="ana",
                                               settings=FAST_RECONNECT)
            if len(first.table.seats) == 1:
                first.table.add_bot("greedy")
            return client

        app = Ono99App(through_proxy, start_screen=TableScreen, ascii_glyphs=False,
                       sixteen_colours=False)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                # Play a few cards, so that this session's view numbers are past the new
                # table's first ones.
                while app.session.view_seq < 5:
                    await wait_until(pilot, lambda: first_playable(app) is not None
                                     or (app.session.view is not None and app.session.view.phase != "playing"))
                    playable = first_playable(app)
                    if playable is None:
                        break  # the match ended first: its views are numbered far enough
                    before = app.session.view_seq
                    await pilot.press(str(playable + 1))
                    await wait_until(pilot, lambda before=before: app.session.view_seq > before)
                old = app.session.view_seq
                assert old >= 3

                await proxy.go_down()  # the host dies; another comes up at its address
                proxy.target_port = second.port
                await proxy.come_back()
                await wait_until(pilot, lambda: app.session.view_seq < old, timeout=30)
                assert app.client is not None and app.client.view is not None
                assert app.session.view_seq == app.client.view.seq
                assert [seat.name for seat in second.table.seats][-1] == "ana"
        finally:
            await proxy.stop()


async def test_a_new_seat_after_a_finished_match_goes_to_the_waiting_room() -> None:
    # Played: a host killed at a finished table and started again gives a joiner a new
    # seat in its waiting room; the joiner's app stayed on the old match's results, named
    # after the new seats ("Match over: you win!" for someone else).
    from ono99tui.host.server import TableServer
    from ono99tui.host.table_config import TableConfig
    from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

    first = start_solo_table(bots=1, seed=4)
    second = TableServer(TableConfig(name="Solo", capacity=3, seed=9))
    async with first, second:
        second.table.add_bot("greedy")
        proxy = await CuttableProxy(first.port).start()

        async def through_proxy() -> TableClient:
            client = await TableClient.connect("127.0.0.1", proxy.port, name="ana",
                                               settings=FAST_RECONNECT)
            if len(first.table.seats) == 1:
                first.table.add_bot("greedy")
            return client

        app = Ono99App(through_proxy, start_screen=WaitingRoomScreen, ascii_glyphs=False,
                       sixteen_colours=False)  # as `ono99 join` and the host's app open
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                while app.session.view is None or app.session.view.phase != "match_over":
                    await wait_until(pilot, lambda: first_playable(app) is not None
                                     or (app.session.view is not None
                                         and app.session.view.phase == "match_over"), timeout=30)
                    playable = first_playable(app)
                    if playable is not None:
                        before = app.session.view_seq
                        await pilot.press(str(playable + 1))
                        await wait_until(pilot, lambda before=before: app.session.view_seq > before
                                         or (app.session.view is not None
                                             and app.session.view.phase == "match_over"))
                await proxy.go_down()  # the host dies; it comes back without the match
                proxy.target_port = second.port
                await proxy.come_back()
                await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen)
                                 and app.session.lobby is not None and app.session.lobby.phase == "waiting",
                                 timeout=30)
                assert app.session.view is None and app._table_screen() is None
                assert [seat.name for seat in second.table.seats][-1] == "ana"
        finally:
            await proxy.stop()
