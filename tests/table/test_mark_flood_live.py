"""A seat flipping its waiting-room mark (ready, rated) as fast as it can write, over real
sockets, beside a player and twenty watchers: it is refused `slow-down` (to it alone), and everyone
else stays connected and answered. Before the limit, 20,000 flips
had the table build a lobby for every connection per flip, and every other connection was
dropped as not reading (over 1 MiB unsent)."""

from __future__ import annotations

import asyncio
import struct

import msgpack
import pytest
from host_table_helpers import FAST_CLIENT, FAST_LIMITS, config

from netproto.client import TableClient
from netproto.wire.messages import PROTOCOL_VERSION, Pong
from ono99tui.host.journal.ratings_file import Ratings
from ono99tui.host.ratings import RatingBook
from ono99tui.host.server import TableServer

FLIPS = 20_000


def frame(message: dict[str, object]) -> bytes:
    body = msgpack.packb(message)
    return struct.pack(">I", len(body)) + body


async def read_all(reader: asyncio.StreamReader) -> list[dict[str, object]]:
    """Every frame the server sends until it closes the connection."""
    frames = []
    unpacker = msgpack.Unpacker()
    buffer = b""
    while chunk := await reader.read(65536):
        buffer += chunk
        while len(buffer) >= 4:
            (length,) = struct.unpack(">I", buffer[:4])
            if len(buffer) < 4 + length:
                break
            unpacker.feed(buffer[4:4 + length])
            frames.extend(unpacker)
            buffer = buffer[4 + length:]
    return frames


@pytest.mark.parametrize("kind", ["ready", "rated"])
async def test_a_seat_flipping_its_mark_is_closed_and_nobody_else_is(kind: str) -> None:
    # A table that rates (`rated` is for one).
    server = await TableServer(config(capacity=4), limits=FAST_LIMITS,
                               ratings=Ratings(RatingBook())).start("127.0.0.1", 0)
    try:
        honest = await TableClient.connect("127.0.0.1", server.port, name="Honest",
                                           settings=FAST_CLIENT)
        watchers = [await TableClient.connect("127.0.0.1", server.port, name=f"W{number}",
                                              spectate=True, settings=FAST_CLIENT)
                    for number in range(20)]
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(frame({"kind": "hello", "proto": PROTOCOL_VERSION, "name": "Flipper"}))
        writer.write(b"".join(frame({"kind": kind, kind: number % 2 == 0})
                              for number in range(FLIPS)))
        await writer.drain()
        frames = await asyncio.wait_for(read_all(reader), 60)
        writer.close()
        # Each change past the limit (about half the flips: the others ask for the mark
        # it has already, and change nothing) is answered to the flipper alone (`slow-down`, not
        # charged, as a fast talker's line is not); it is closed once it stops answering
        # the heartbeat (a raw socket never does).
        codes = [f.get("code") for f in frames if f.get("kind") == "error"]
        assert codes.count("slow-down") > FLIPS // 3 and set(codes) == {"slow-down"}
        lobbies = [f for f in frames if f.get("kind") == "lobby"]
        assert len(lobbies) < 20  # a few changes went through, not thousands
        for number, client in enumerate([honest, *watchers], start=1):
            await client.ping(nonce=number)
            pong = await client.wait_for(Pong, 30, lambda m, n=number: m.nonce == n)
            assert pong.nonce == number
            await client.close()
    finally:
        await server.stop()
