"""One move at a time: keys pressed before the table has answered the last move are ignored."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from table_helpers import HoldingProxy, first_playable, record_notices, start_solo_table, wait_until

from netproto.client import TableClient
from netproto.wire.errors import ApplicationError
from netproto.wire.messages import Move
from ono99tui.game import preset
from ono99tui.host.server import TableServer
from ono99tui.host.table_config import TableConfig
from ono99tui.ui.app import Ono99App
from ono99tui.ui.screens.table import TableScreen
from ono99tui.ui.widgets.cards import CardWidget


async def test_a_second_press_before_the_answer_sends_nothing() -> None:
    async with start_solo_table(bots=2, seed=4) as server:
        proxy = await HoldingProxy(server.port).start()
        moves_received: list[Move] = []
        receive = server.table.on_message

        def counting(peer: Any, message: Any) -> None:
            if isinstance(message, Move):
                moves_received.append(message)
            receive(peer, message)

        server.table.on_message = counting  # type: ignore[method-assign]

        async def through_proxy() -> TableClient:
            client = await TableClient.connect("127.0.0.1", proxy.port, name="ana")
            for _ in range(2):
                server.table.add_bot("greedy")
            return client

        app = Ono99App(through_proxy, start_screen=TableScreen, ascii_glyphs=False,
                       sixteen_colours=False)
        notices = record_notices(app)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_until(pilot, lambda: app.session.view is not None and bool(app.session.view.legal_moves)
                                 and first_playable(app) is not None)
                before = app.session.view_seq
                key = str(first_playable(app) + 1)
                proxy.hold()  # the table's answer is on its way, slowly
                await pilot.press(key)
                await wait_until(pilot, lambda: len(moves_received) == 1)
                await pilot.press(key)  # the same key again, impatiently
                await pilot.click(CardWidget)  # and a click, for good measure
                await pilot.pause()
                proxy.release()
                await wait_until(pilot, lambda: app.session.view_seq > before)
                # The table's answer to a second move, if one had gone, was held back with
                # the view and came through with it.
                await pilot.pause(0.2)
                assert len(moves_received) == 1
                assert [notice for notice in notices if "out of the match" not in notice] == []
        finally:
            await proxy.stop()


async def _play_whenever_asked(client: TableClient) -> None:
    """Play the first legal move each time the table gives this seat one (until cancelled)."""
    async for item in client:
        view = client.view
        if item is view and view is not None and view.view.get("legal_moves"):
            await client.send_move(view.view["legal_moves"][0], seq=view.seq)


@pytest.mark.parametrize(("capacity", "refusal"), [
    (3, "stale-seq"),  # bob leaves, the match goes on: ana's move is based on an old view
    (2, "unexpected-message"),  # bob leaves, ana has won: her move arrives after the end
])
async def test_a_move_that_crossed_a_change_is_news_not_an_error(
        capacity: int, refusal: str) -> None:
    config = TableConfig(rules=preset("2022"), capacity=capacity, start_when=capacity,
                         abandon_policy="eliminate", grace_seconds=0.0, bot_delay=0.3, seed=4)
    async with TableServer(config) as server:
        proxy = await HoldingProxy(server.port).start()
        refusals: list[str] = []
        receive = server.table.on_message

        def watching(peer: Any, message: Any) -> None:
            try:
                receive(peer, message)
            except ApplicationError as error:
                refusals.append(error.code)
                raise

        server.table.on_message = watching  # type: ignore[method-assign]
        bob: TableClient | None = None

        async def ana_through_proxy() -> TableClient:
            nonlocal bob
            client = await TableClient.connect("127.0.0.1", proxy.port, name="ana")
            bob = await TableClient.connect("127.0.0.1", server.port, name="bob")
            if capacity == 3:
                server.table.add_bot("greedy")
            return client

        app = Ono99App(ana_through_proxy, start_screen=TableScreen, ascii_glyphs=False,
                       sixteen_colours=False)
        notices = record_notices(app)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_until(pilot, lambda: bob is not None)
                assert bob is not None
                bob_plays = asyncio.create_task(_play_whenever_asked(bob))
                await wait_until(pilot, lambda: first_playable(app) is not None
                                 and app.session.lobby is not None and app.session.lobby.phase == "playing")
                proxy.hold()  # what the table says to ana from now on is slow to arrive
                bob_plays.cancel()
                await bob.close()  # gone for good: the table takes bob out of the match
                await wait_until(pilot, lambda: server.table.seats[1].resigned)
                await pilot.press(str(first_playable(app) + 1))
                await asyncio.sleep(0.2)  # the move reaches the table and is refused
                proxy.release()
                await wait_until(pilot, lambda: any("moved on" in notice for notice in notices))
                if refusal == "stale-seq":
                    assert refusals == ["stale-seq"]
                else:
                    assert server.table.phase == "finished" and refusals == []
                assert not any("based on view" in notice or "not allowed in state" in notice
                               for notice in notices)
        finally:
            await proxy.stop()
