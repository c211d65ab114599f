"""What a table stopped by a signal tells its players: `going-away` (they hold on for its
return) while a match is being played, which a restart takes up; `shutdown` otherwise."""

from __future__ import annotations

import asyncio

from netproto.client import ClientSettings, Closed, Disconnected, Reconnected, TableClient
from netproto.wire.connection import State
from netproto.wire.errors import GOING_AWAY
from netproto.wire.messages import View
from ono99tui.host.server import start_table
from ono99tui.host.table_config import TableConfig

HOLD_ON = ClientSettings(backoff_initial=0.05, backoff_max=0.2, reconnect_for=30)


async def test_players_hold_on_when_a_host_stops_by_a_signal_mid_match() -> None:
    server = await start_table(TableConfig(capacity=2, start_when=2, bot_delay=0.0, seed=5))
    clients = [await TableClient.connect("127.0.0.1", server.port, name=name,
                                         settings=HOLD_ON) for name in ("ana", "bo")]
    try:
        for client in clients:
            await client.wait_for(View, timeout=10)
        server.going_away()
        await server.stop()
        for client in clients:
            while True:
                item = await client.recv(timeout=10)
                if isinstance(item, Disconnected | Closed):
                    break
            assert isinstance(item, Disconnected) and item.will_retry, item
            assert GOING_AWAY in item.reason, item.reason
            assert client.closed is None
    finally:
        for client in clients:
            await client.close()


async def test_a_table_stopped_between_matches_says_shutdown() -> None:
    server = await start_table(TableConfig(capacity=3, bot_delay=0.0, seed=5))
    client = await TableClient.connect("127.0.0.1", server.port, name="ana", settings=HOLD_ON)
    try:
        server.going_away()  # nothing to take up: the players are told it is over
        await server.stop()
        async with asyncio.timeout(10):
            while client.closed is None:
                await client.recv()
        assert client.closed.code == "shutdown"
    finally:
        await client.close()


async def test_a_spectator_goes_on_watching_when_the_host_comes_back() -> None:
    config = TableConfig(capacity=2, start_when=2, bot_delay=0.0, seed=5, grace_seconds=60)
    server = await start_table(config)
    port = server.port
    players = [await TableClient.connect("127.0.0.1", port, name=name, settings=HOLD_ON)
               for name in ("ana", "bo")]
    watcher = await TableClient.connect("127.0.0.1", port, name="cy", spectate=True,
                                        settings=HOLD_ON)
    again = None
    try:
        await watcher.wait_for(View, timeout=10)
        assert watcher.role == "spectator"
        server.going_away()
        await server.stop()
        dropped = await watcher.recv(timeout=10)
        while not isinstance(dropped, Disconnected | Closed):
            dropped = await watcher.recv(timeout=10)
        assert isinstance(dropped, Disconnected) and dropped.will_retry, dropped
        again = await start_table(config, port=port)  # back on the same address
        async with asyncio.timeout(20):
            while not isinstance(await watcher.recv(), Reconnected):
                pass
        assert watcher.role == "spectator" and watcher.closed is None
        assert watcher.state is State.SPECTATING  # welcomed again, watching
    finally:
        for client in (*players, watcher):
            await client.close()
        if again is not None:
            await again.stop()
