"""One move at a time: keys pressed before the table has answered the last move are ignored."""

from __future__ import annotations

from typing import Any

from table_helpers import HoldingProxy, first_playable, record_notices, start_solo_table, wait_until

from netproto.client import TableClient
from netproto.messages import Move
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
                await wait_until(pilot, lambda: app.view is not None and bool(app.view.legal_moves)
                                 and first_playable(app) is not None)
                before = app.view_seq
                key = str(first_playable(app) + 1)
                proxy.hold()  # the table's answer is on its way, slowly
                await pilot.press(key)
                await wait_until(pilot, lambda: len(moves_received) == 1)
                await pilot.press(key)  # the same key again, impatiently
                await pilot.click(CardWidget)  # and a click, for good measure
                await pilot.pause()
                proxy.release()
                await wait_until(pilot, lambda: app.view_seq > before)
                # The table's answer to a second move, if one had gone, was held back with
                # the view and came through with it.
                await pilot.pause(0.2)
                assert len(moves_received) == 1
                assert [notice for notice in notices if "out of the match" not in notice] == []
        finally:
            await proxy.stop()
