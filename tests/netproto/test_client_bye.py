"""A client's bye reaches the table even when the table is busy and still talking.

Closing a TCP socket that has unread input makes the kernel send a reset instead of a
normal end; a table that then writes to that connection before it has read the bye gets
the reset first and never reads the bye: it saw the player vanish ("eof") and held the
seat for the grace period. Seen with `ono99 bot` at a busy table (the lobbies of other
players leaving still arriving as it left). The client now ends its side after the bye and
reads on until the table closes (`ClientSettings.bye_linger`).
"""

from __future__ import annotations

import asyncio

from loopback_helpers import FAST_LIMITS, EchoTable

from netproto.client import TableClient
from netproto.server import Server
from netproto.wire.messages import Lobby, View


async def test_the_bye_is_heard_though_the_table_was_busy_and_still_sending() -> None:
    table = EchoTable()
    server = Server(table, FAST_LIMITS)
    await server.start("127.0.0.1", 0)
    try:
        client = await TableClient.connect("127.0.0.1", server.port, name="Ann")
        await client.ready()  # playing: views come
        await client.wait_for(Lobby, 2, lambda lobby: lobby.phase == "playing")
        peer = table.peers[0]
        # The table is busy (it does not read this connection for now) and has views on
        # their way to the client, unread as the client leaves.
        peer._transport.pause_reading()
        for seq in range(1, 10):
            peer.send(View(seq=seq, view={"filler": "x" * 2000}))
        await client.close("leaving")
        # The table writes again (another player's move) before it gets to read the bye.
        peer.send(View(seq=10, view={"after": "the bye"}))
        peer._transport.resume_reading()
        async with asyncio.timeout(5):
            while not table.closed:
                await asyncio.sleep(0.01)
        assert table.closed == [(peer.id, "normal")]
    finally:
        await server.stop()
