"""`ono99 bot` in the waiting room the host opens after a match: on real loopback sockets,
a network bot says ready again there, after each change of the rules, so a table that deals
once everyone is ready (nobody holding host rights: a headless table whose operator opened
the room and left it) is not held up by it, and it plays the next match by the new rules."""

from __future__ import annotations

import asyncio

from host_table_helpers import FAST_CLIENT, FAST_LIMITS, config

from netproto.client import TableClient
from ono99tui.bots import make_bot
from ono99tui.client.bot_player import play_matches
from ono99tui.game import preset
from ono99tui.game.codec import rules_to_wire
from ono99tui.host.outputs import TableSummary
from ono99tui.host.server import TableServer

LIMIT = 60.0  # seconds for both matches: generous, for a loaded machine


async def test_a_network_bot_says_ready_in_the_reopened_room_and_plays_the_new_rules() -> None:
    loop = asyncio.get_running_loop()
    reopened = asyncio.Event()

    def changed(summary: TableSummary) -> None:
        # The first match is over: before the rematch can settle, the operator takes the
        # table back to the waiting room and changes the preset there.
        if summary.phase == "finished" and not reopened.is_set():
            reopened.set()
            loop.call_soon(server.table.open_room)
            loop.call_soon(server.table.set_options, {"preset": "1980"})

    # A secret nobody here holds: no seat has host rights, so the room deals by itself
    # only once every live person (the network bots) is ready.
    server = TableServer(config(capacity=2, start_when=2, host_key="nobody-has-it",
                                deal_settle_seconds=1.0, rules="2022"),
                         limits=FAST_LIMITS, on_change=changed)
    await server.start("127.0.0.1", 0)
    try:
        clients = [await TableClient.connect("127.0.0.1", server.port, name=name,
                                             settings=FAST_CLIENT) for name in ("Ann", "Bob")]
        async with asyncio.timeout(LIMIT):
            reports = await asyncio.gather(*(play_matches(client, make_bot("greedy"), 2)
                                             for client in clients))
    finally:
        await server.stop()
    assert reopened.is_set()
    assert [report.matches for report in reports] == [2, 2]
    journal = server.table.journal
    assert [record.rules for record in journal] == [rules_to_wire(preset("2022")),
                                                    rules_to_wire(preset("1980"))]
