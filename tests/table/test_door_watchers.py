"""A door's users at a real table (issue 25: fifty phones at one door): watchers who came
through a door the host trusts count under the door's cap, not the table's spectators or
their loopback address's connections; anyone else from loopback is held to those as before."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from netproto.client import ClientSettings, TableClient
from netproto.client_errors import HandshakeRefused
from netproto.server import ServerLimits
from ono99tui.host.server import TableServer
from ono99tui.host.table_config import TableConfig

FAST = ClientSettings(backoff_initial=0.02, reconnect_for=0.5)
# A small table: 2 watchers, 6 connections from one address; the door takes 12.
CONFIG = TableConfig(capacity=2, max_spectators=2, bot_delay=0.0)
LIMITS = replace(ServerLimits(), max_connections=8, max_connections_per_address=6)


async def watch(port: int, name: str, door_key: str | None = None) -> TableClient:
    return await TableClient.connect("127.0.0.1", port, name=name, spectate=True,
                                     door_key=door_key, settings=FAST)


async def test_a_doors_watchers_are_the_doors_to_bound() -> None:
    async with TableServer(CONFIG, LIMITS) as table:
        key = table.trust_door("the web door", 12)
        clients = [await watch(table.port, f"phone {n}", key) for n in range(12)]
        try:
            # Twelve watchers: six times the table's cap, twice the address's.
            assert all(client.welcome is not None and client.welcome.role == "spectator"
                       for client in clients)
            assert len(table.table.spectators) == 12
            with pytest.raises(HandshakeRefused) as past_the_door:
                await watch(table.port, "phone 12", key)
            assert past_the_door.value.code == "server-full"
            # A watcher without the key, from the same loopback address, still finds the
            # table's two places (the door's twelve are not in them), and no third.
            for name in ("Lou", "Lea"):
                clients.append(await watch(table.port, name))
            with pytest.raises(HandshakeRefused) as third:
                await watch(table.port, "Lim")
            assert third.value.code == "server-full"
            assert "at most 2 spectators" in third.value.reason
            # A seat is still to be had, by anyone.
            player = await TableClient.connect("127.0.0.1", table.port, name="Ann",
                                               settings=FAST)
            clients.append(player)
            assert player.seat == 0
            # A door's watcher who leaves is forgotten: its place is the door's again.
            await clients.pop(0).close()
            clients.append(await watch(table.port, "phone 13", key))
        finally:
            for client in clients:
                await client.close()
        # Every one gone: the table remembers none of them as the door's.
        for _ in range(500):
            if not table.table.spectators:
                break
            await asyncio.sleep(0.01)
        assert table.table.core._door_peers == set()


async def test_a_door_player_seated_through_the_door_plays_as_anyone() -> None:
    async with TableServer(CONFIG, LIMITS) as table:
        key = table.trust_door("the web door", 12)
        ann = await TableClient.connect("127.0.0.1", table.port, name="Ann", door_key=key,
                                        settings=FAST)
        bo = await TableClient.connect("127.0.0.1", table.port, name="Bo", settings=FAST)
        try:
            assert (ann.seat, bo.seat) == (0, 1)
            assert [seat.name for seat in table.table.seats] == ["Ann", "Bo"]
        finally:
            await ann.close()
            await bo.close()
