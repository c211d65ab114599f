"""Seats for live players, operator rights and start_when for rematches, over real sockets
and real processes on loopback (the fake-clock tests are tests/host/test_core_seats.py).
"""

from __future__ import annotations

import asyncio
import json
import socket
import struct
import sys
from typing import Any

import pytest
from host_table_helpers import FAST_CLIENT, serve

from netproto.client import TableClient
from netproto.client_errors import HandshakeRefused
from netproto.wire.connection import Connection, Role
from netproto.wire.messages import PROTOCOL_VERSION, Error, Hello, Lobby, Welcome

ONO99 = [sys.executable, "-m", "ono99tui"]
HEADLESS = ["host", "--headless", "--bind", "127.0.0.1", "--port", "0", "--bot-delay", "0",
            "--seed", "3", "--no-advertise"]


async def ghost_seat(port: int, name: str, barrier: asyncio.Barrier | None = None) -> None:
    """Say hello, take the seat the welcome gives, then reset the connection (no bye);
    with a `barrier`, only once every ghost waiting on it has its seat."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    connection = Connection(Role.CLIENT)
    writer.write(connection.send(Hello(proto=PROTOCOL_VERSION, name=name)))
    welcome = None
    while welcome is None:
        data = await asyncio.wait_for(reader.read(65536), 10)
        assert data, "the table closed the ghost's connection"
        connection.feed(data)
        while (event := connection.next_event()) is not None:
            if isinstance(event, Welcome):
                welcome = event
    assert welcome.role == "player"
    if barrier is not None:
        await asyncio.wait_for(barrier.wait(), 10)
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()  # SO_LINGER 0: the kernel sends a reset


async def test_hello_then_reset_three_times_deals_nothing_and_players_get_the_seats() -> None:
    server = await serve(capacity=3, start_when=3, grace_seconds=60.0)
    watcher = await TableClient.connect("127.0.0.1", server.port, name="Watcher",
                                        spectate=True, settings=FAST_CLIENT)
    players: list[TableClient] = []
    try:
        for number in range(3):
            await ghost_seat(server.port, f"Ghost {number}")
            # The reset frees the seat at once: the watcher sees the table empty again.
            await watcher.wait_for(Lobby, 10, lambda lobby: len(lobby.seats) == 1)
            await watcher.wait_for(Lobby, 10, lambda lobby: not lobby.seats)
        assert server.table.phase == "waiting" and server.table.seats == []
        for name in ("Ann", "Bob", "Cy"):
            players.append(await TableClient.connect("127.0.0.1", server.port, name=name,
                                                     settings=FAST_CLIENT))
        assert [client.role for client in players] == ["player"] * 3
        lobby = await watcher.wait_for(Lobby, 10, lambda lobby: lobby.phase == "playing")
        assert [seat.name for seat in lobby.seats] == ["Ann", "Bob", "Cy"]
        assert all(seat.connected for seat in lobby.seats)
    finally:
        for client in [*players, watcher]:
            await client.close()
        await server.stop()


# --- a real headless host -------------------------------------------------------------------
# Clients keep the default settings: the host pings every 5 s, so FAST_CLIENT's 2 s of
# allowed silence would drop a watcher while nothing happens at the table.


async def start_headless(*options: str) -> tuple[asyncio.subprocess.Process, dict[str, Any]]:
    process = await asyncio.create_subprocess_exec(
        *ONO99, *HEADLESS, *options, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL)
    assert process.stdout is not None
    listening = json.loads(await asyncio.wait_for(process.stdout.readline(), 30))
    assert listening["event"] == "listening"
    return process, listening


async def stop(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        process.terminate()
        await asyncio.wait_for(process.wait(), 15)


async def ono99_bot(port: int, name: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        *ONO99, "bot", f"127.0.0.1:{port}", "--name", name, "--seed", "1",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def bot_report(process: asyncio.subprocess.Process) -> dict[str, Any]:
    stdout, stderr = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, stderr.decode()
    return json.loads(stdout)


async def test_a_headless_table_deals_nothing_to_hellos_reset_all_together() -> None:
    # All three say hello before any is reset: without the headless settle time the third
    # hello deals a match to three seats nobody plays and the players watch it.
    host, listening = await start_headless("--seats", "3")
    port = int(listening["port"])
    watcher = await TableClient.connect("127.0.0.1", port, name="Watcher", spectate=True)
    players: list[TableClient] = []
    try:
        barrier = asyncio.Barrier(3)  # all three seated at once, then all reset
        await asyncio.gather(*(ghost_seat(port, f"Ghost {number}", barrier)
                               for number in range(3)))
        await watcher.wait_for(Lobby, 10, lambda lobby: len(lobby.seats) == 3)
        await watcher.wait_for(Lobby, 10, lambda lobby: not lobby.seats)
        for name in ("Ann", "Bob", "Cy"):
            players.append(await TableClient.connect("127.0.0.1", port, name=name))
        assert [client.role for client in players] == ["player"] * 3
        lobby = await watcher.wait_for(Lobby, 10, lambda lobby: lobby.phase == "playing")
        assert sorted(seat.name for seat in lobby.seats) == ["Ann", "Bob", "Cy"]
    finally:
        for client in [*players, watcher]:
            await client.close()
        await stop(host)


def deals(lobbies: list[Lobby]) -> list[list[str]]:
    """The names seated in each match dealt (sorted: the bots' processes race to sit
    down), from every lobby a watcher got, in order."""
    dealt, previous = [], None
    for lobby in lobbies:
        if lobby.phase == "playing" and previous != "playing":
            dealt.append(sorted(seat.name for seat in lobby.seats))
        previous = lobby.phase
    return dealt


async def test_start_when_holds_for_the_first_match_and_for_newcomers_at_a_finished_table(
) -> None:
    host, listening = await start_headless("--seats", "4", "--start-when", "3")
    port = int(listening["port"])
    watcher = await TableClient.connect("127.0.0.1", port, name="Watcher", spectate=True)
    lobbies: list[Lobby] = []

    async def watch_until(condition: Any) -> None:
        def record(lobby: Lobby) -> bool:
            lobbies.append(lobby)
            return bool(condition(lobby))

        await watcher.wait_for(Lobby, 60, record)

    try:
        first = [await ono99_bot(port, "Ann"), await ono99_bot(port, "Bob")]
        await watch_until(lambda lobby: len(lobby.seats) == 2)
        assert lobbies[-1].phase == "waiting"
        first.append(await ono99_bot(port, "Cy"))
        for report in [await bot_report(process) for process in first]:
            assert report["matches"] == 1 and report["moves"] > 0
        # Everyone who played has left: a finished, empty table. Two newcomers arrive and
        # ready up; the table deals only once a third one is seated and ready.
        await watch_until(lambda lobby: lobby.phase == "finished" and not lobby.seats)
        newcomers = [await ono99_bot(port, "Dee"), await ono99_bot(port, "Eve")]
        await watch_until(lambda lobby: len(lobby.seats) == 2
                          and all(seat.ready for seat in lobby.seats))
        newcomers.append(await ono99_bot(port, "Fay"))
        for report in [await bot_report(process) for process in newcomers]:
            assert report["matches"] == 1
        await watch_until(lambda lobby: lobby.phase == "finished" and len(deals(lobbies)) == 2)
        assert deals(lobbies) == [["Ann", "Bob", "Cy"], ["Dee", "Eve", "Fay"]]
    finally:
        await watcher.close()
        await stop(host)


async def test_at_a_headless_table_only_the_admin_runs_the_table() -> None:
    host, listening = await start_headless("--seats", "4", "--admin-password", "s3cret",
                                           "--bots", "1")
    port = int(listening["port"])
    clients: list[TableClient] = []

    async def connect(name: str, **options: Any) -> TableClient:
        client = await TableClient.connect("127.0.0.1", port, name=name,
                                           **options)
        clients.append(client)
        return client

    try:
        guest = await connect("Guest")
        assert not guest.is_host
        for action in (guest.start(), guest.add_bot("greedy"), guest.remove_bot(0),
                       guest.set_options(preset="1980")):
            await action
            error = await guest.wait_for(Error, 10)
            assert error.code == "not-host"
        with pytest.raises(HandshakeRefused) as refused:
            await connect("Mallory", host_key="s3cre")
        assert refused.value.code == "bad-host-key"
        admin = await connect("Admin", host_key="s3cret")
        assert admin.is_host and not guest.is_host
        lobby = await guest.wait_for(Lobby, 10, lambda lobby: len(lobby.seats) == 3)
        assert lobby.host_seat == 2 and lobby.options["start_when"] == 4
        await admin.remove_bot(0)
        await admin.set_options(preset="1980")
        await guest.wait_for(Lobby, 10, lambda lobby: len(lobby.seats) == 2
                             and lobby.options["preset"] == "1980")
        await admin.start()  # early: two seats of --start-when 4
        await guest.wait_for(Lobby, 10, lambda lobby: lobby.phase == "playing")
    finally:
        for client in clients:
            await client.close()
        await stop(host)


async def test_the_operator_key_printed_at_start_gives_host_rights() -> None:
    host, listening = await start_headless("--seats", "3")
    port = int(listening["port"])
    key = listening["operator_key"]
    assert isinstance(key, str) and len(key) >= 20
    first = await TableClient.connect("127.0.0.1", port, name="First")
    operator = await TableClient.connect("127.0.0.1", port, name="Operator", host_key=key)
    try:
        assert not first.is_host and operator.is_host
        await operator.start()
        await first.wait_for(Lobby, 10, lambda lobby: lobby.phase == "playing")
    finally:
        await first.close()
        await operator.close()
        await stop(host)
