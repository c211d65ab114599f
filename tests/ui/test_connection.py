"""The app and the network: drops and automatic resume, refusals in words, spectating."""

from __future__ import annotations

from table_helpers import (
    CuttableProxy,
    first_playable,
    prompt_text,
    record_notices,
    solo,
    start_solo_table,
    wait_until,
)

from netproto.client import TableClient
from ono99tui.game import Card, Play
from ono99tui.ui.app import Ono99App
from ono99tui.ui.requests import MoveChosen
from ono99tui.ui.screens.table import TableScreen
from ono99tui.ui.widgets.banner import ConnectionBanner


async def test_lost_connection_shows_a_banner_and_resumes_the_seat() -> None:
    async with start_solo_table(bots=2, seed=4) as server:
        proxy = await CuttableProxy(server.port).start()

        async def through_proxy() -> TableClient:
            client = await TableClient.connect("127.0.0.1", proxy.port, name="ana")
            for _ in range(2):
                server.table.add_bot("greedy")
            return client

        app = Ono99App(through_proxy, start_screen=TableScreen, ascii_glyphs=False, sixteen_colours=False)
        notices = record_notices(app)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_until(pilot, lambda: app.session.view is not None and bool(app.session.view.legal_moves))
                seat = app.session.view.seat
                banner = app.screen.query_one(ConnectionBanner)
                assert not banner.display or not banner.has_class("-shown")

                await proxy.go_down()
                await wait_until(pilot, lambda: app.session.connection_state == "reconnecting")
                await pilot.pause()
                assert banner.has_class("-shown")
                assert "reconnecting" in str(banner.content)
                assert "Connection lost: reconnecting..." in notices

                await proxy.come_back()
                await wait_until(pilot, lambda: app.session.connection_state == "connected")
                await pilot.pause()
                assert not banner.has_class("-shown")
                assert "Reconnected: your seat is back." in notices
                assert proxy.connections == 2  # the same client came back, not a new player
                assert len(server.table.seats) == 3
                assert app.client is not None and app.client.seat == seat

                # Play goes on over the new link.
                await wait_until(pilot, lambda: first_playable(app) is not None)
                await pilot.press(str(first_playable(app) + 1))
                await wait_until(pilot, lambda: any(line.startswith("ana played") for line in app.log_lines))
        finally:
            await proxy.stop()


async def test_a_refused_move_is_explained_in_words_and_play_goes_on() -> None:
    async with start_solo_table(bots=2, seed=4) as server:
        app = solo(server, bots=2)
        notices = record_notices(app)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.view is not None and bool(app.session.view.legal_moves))
            view = app.session.view
            missing = next(card for card in Card if card not in view.hand)
            app.post_message(MoveChosen(Play(view.seat, missing)))
            await wait_until(pilot, lambda: any("rules forbid" in notice for notice in notices))
            refusal = next(notice for notice in notices if "rules forbid" in notice)
            assert "Traceback" not in refusal and f"you hold no {missing.label(view.rules)}" in refusal
            before = app.session.view_seq
            await pilot.press(str(first_playable(app) + 1))
            await wait_until(pilot, lambda: app.session.view_seq > before)


async def test_an_unreachable_table_is_said_in_words() -> None:
    async with start_solo_table(bots=1) as server:
        port = server.port
    # The table is gone: nothing listens on its port any more.

    async def connect() -> TableClient:
        return await TableClient.connect("127.0.0.1", port, name="ana")

    app = Ono99App(connect, start_screen=TableScreen, ascii_glyphs=False, sixteen_colours=False)
    notices = record_notices(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.session.connection_state == "closed")
        await pilot.pause()
        # Issue 12: the closed port is said as such (it was "cannot reach the table: [Errno
        # 111] Connect call failed ('127.0.0.1', PORT)").
        assert f"Disconnected from the table: nothing is listening at 127.0.0.1:{port}" in notices
        banner = app.screen.query_one(ConnectionBanner)
        assert banner.has_class("-shown") and "Disconnected" in str(banner.content)
        assert app.session.in_game is False


async def test_a_spectator_watches_a_running_match() -> None:
    async with start_solo_table(bots=2, seed=4) as server:
        player = solo(server, bots=2)
        async with player.run_test(size=(80, 24)) as player_pilot:
            await wait_until(player_pilot, lambda: player.session.view is not None)

            async def watch() -> TableClient:
                return await TableClient.connect("127.0.0.1", server.port, name="zed", spectate=True)

            spectator = Ono99App(watch, ascii_glyphs=False, sixteen_colours=False)
            async with spectator.run_test(size=(80, 24)) as pilot:
                await wait_until(pilot, lambda: spectator.session.view is not None and isinstance(spectator.screen, TableScreen))
                await wait_until(pilot, lambda: prompt_text(spectator).startswith("Watching:"))
                assert spectator.session.view.seat is None and spectator.session.view.hand == ()
                assert len(spectator.screen.query("CardWidget")) == 0
                await wait_until(player_pilot, lambda: player.session.lobby is not None and player.session.lobby.spectators == 1)
                await player_pilot.pause()
                assert "1 watching" in str(player.screen.query_one("#spectators").content)


async def test_a_failing_connection_factory_is_said_in_words() -> None:
    async def broken() -> TableClient:
        raise ValueError("no such rules preset 'x'")

    app = Ono99App(broken, start_screen=TableScreen, ascii_glyphs=False, sixteen_colours=False)
    notices = record_notices(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.session.connection_state == "closed")
        assert "Disconnected from the table: could not join the table: no such rules preset 'x'" in notices
        assert app.is_running


async def test_a_pong_is_taken_quietly() -> None:
    async with start_solo_table(bots=2, seed=4) as server:
        app = solo(server, bots=2)
        notices = record_notices(app)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.view is not None and bool(app.session.view.legal_moves))
            assert app.client is not None
            await app.client.ping(7)
            # The table answers in order: the pong arrives before the view after this move.
            before = app.session.view_seq
            await pilot.press(str(first_playable(app) + 1))
            await wait_until(pilot, lambda: app.session.view_seq > before)
            await pilot.pause()
            assert notices == [], notices


async def test_a_spectator_whose_link_drops_goes_on_watching() -> None:
    # A spectator's app gave up at the first drop ("Disconnected from the table"): it had
    # no seat's token to come back with. It says hello again now, and says so in words
    # that fit a spectator.
    from lobby_helpers import running_table

    async with running_table(name="den", capacity=2, start_when=2, bot_delay=30.0) as server:
        for _ in range(2):
            server.table.add_bot("greedy")  # a match under way, bots slow to move
        proxy = await CuttableProxy(server.port).start()

        async def watching() -> TableClient:
            return await TableClient.connect("127.0.0.1", proxy.port, name="cy", spectate=True)

        app = Ono99App(watching, start_screen=TableScreen, ascii_glyphs=False,
                       sixteen_colours=False)
        notices = record_notices(app)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_until(pilot, lambda: app.session.view is not None)
                assert app.session.welcome is not None and app.session.welcome.role == "spectator"
                banner = app.screen.query_one(ConnectionBanner)
                await proxy.go_down()
                await wait_until(pilot, lambda: app.session.connection_state == "reconnecting")
                await pilot.pause()
                assert "to go on watching" in str(banner.content)
                await proxy.come_back()
                await wait_until(pilot, lambda: app.session.connection_state == "connected")
                await pilot.pause()
                assert "Reconnected: watching again." in notices
                assert "Reconnected: your seat is back." not in notices
                assert app.session.view is not None and proxy.connections == 2
        finally:
            await proxy.stop()
