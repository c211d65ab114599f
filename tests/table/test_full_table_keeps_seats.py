"""A table full of watchers keeps room for its seats (issue 23, item 8), on loopback sockets.

Before: 63 idle watchers from two addresses filled the server's cap of 64 connections, and a
seated player whose link dropped was refused with `server-full` when it came back, which
its client took as final ("ono99 bot: the session ended early: server-full", exit 1). Now
the table takes at most `max_spectators` watchers (48), the server never refuses a `resume`
for room, and a newcomer to a free seat finds room too."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from netproto.client import ClientSettings, Reconnected, TableClient
from netproto.wire.framing import FrameDecoder, encode_frame
from netproto.wire.messages import PROTOCOL_VERSION, Lobby, TablePhase
from ono99tui.host.server import TableServer
from ono99tui.host.table_config import DEFAULT_MAX_SPECTATORS, TableConfig

FAST = ClientSettings(backoff_initial=0.02, reconnect_for=20.0)


class Watcher:
    """A raw watcher from a chosen loopback address: says hello (spectate) and then only
    answers the table's pings, as an idle app watching the table does."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.decoder = FrameDecoder()
        self.pending: list[dict[str, Any]] = []
        self.task: asyncio.Task[None] | None = None

    @classmethod
    async def join(cls, port: int, source: str, name: str) -> tuple[Watcher, str]:
        """A watcher, and its first answer: "welcome" or the refusal's code."""
        reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                      local_addr=(source, 0))
        watcher = cls(reader, writer)
        writer.write(encode_frame({"kind": "hello", "proto": PROTOCOL_VERSION, "name": name,
                                   "spectate": True}))
        frame = await watcher.next()
        if frame.get("kind") == "welcome":
            watcher.task = asyncio.create_task(watcher.answer_pings())
            return watcher, "welcome"
        writer.close()
        return watcher, str(frame.get("code"))

    async def next(self) -> dict[str, Any]:
        """The next frame; pings are answered ({} once the table closed)."""
        while True:
            while self.pending:
                frame = self.pending.pop(0)
                if frame.get("kind") == "ping":
                    self.writer.write(encode_frame({"kind": "pong",
                                                    "nonce": frame.get("nonce", 0)}))
                else:
                    return frame
            try:
                data = await asyncio.wait_for(self.reader.read(65536), 30)
            except (ConnectionError, TimeoutError):
                return {}
            if not data:
                return {}
            self.pending.extend(f for f in self.decoder.feed(data) if isinstance(f, dict))

    async def answer_pings(self) -> None:
        while await self.next():
            pass

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        self.writer.close()


@asynccontextmanager
async def crowd_of_watchers(port: int, per_address: dict[str, int]) -> AsyncIterator[
        list[str]]:
    """Watchers from each address, the first answer each got ("welcome", or the bye's
    code); those let in stay until the block ends."""
    watchers: list[Watcher] = []
    answers: list[str] = []
    try:
        for source, count in per_address.items():
            for number in range(count):
                watcher, answer = await Watcher.join(port, source, f"w{source[-1]}-{number}")
                watchers.append(watcher)
                answers.append(answer)
        yield answers
    finally:
        for watcher in watchers:
            watcher.close()


async def test_a_seated_player_and_a_newcomer_get_in_past_a_crowd_of_watchers() -> None:
    config = TableConfig(capacity=3, start_when=None, bot_delay=0)
    async with TableServer(config) as server:
        ann = await TableClient.connect("127.0.0.1", server.port, name="Ann", settings=FAST)
        try:
            async with crowd_of_watchers(server.port, {"127.0.0.4": 32,
                                                       "127.0.0.5": 31}) as answers:
                # The first 48 watch; the rest are refused, and nobody seated was touched.
                assert answers.count("welcome") == DEFAULT_MAX_SPECTATORS
                assert set(answers[DEFAULT_MAX_SPECTATORS:]) == {"server-full"}
                # A newcomer still finds the free seat.
                bob = await TableClient.connect("127.0.0.1", server.port, name="Bob",
                                                settings=FAST)
                assert bob.role == "player" and bob.seat == 1
                # Mid-match, a player whose link drops gets back to the same seat.
                server.table.start()
                await ann.wait_for(Lobby, 10, lambda lobby: lobby.phase == TablePhase.PLAYING)
                seat = ann.seat
                ann.abort_link()
                await ann.wait_for(Reconnected, 10)
                assert ann.seat == seat and ann.role == "player"
                await bob.close()
        finally:
            await ann.close()


async def keep_the_table_full(port: int, kept: list[Watcher]) -> None:
    """Another watcher every few milliseconds from 127.0.0.6, kept if welcomed: any room
    that opens (a seated player's dropped link) is taken at once."""
    while True:
        watcher, answer = await Watcher.join(port, "127.0.0.6", f"late-{len(kept)}")
        if answer == "welcome":
            kept.append(watcher)
        else:
            await asyncio.sleep(0.005)


async def test_ono99_bot_takes_its_seat_back_at_a_table_full_of_watchers() -> None:
    config = TableConfig(capacity=2, start_when=2, bot_delay=0.05)
    async with TableServer(config) as server:
        server.table.add_bot("greedy")
        watcher = await TableClient.connect("127.0.0.1", server.port, name="eve", spectate=True)
        bot = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "ono99tui", "bot", f"127.0.0.1:{server.port}",
            "--name", "netbot", "--matches", "2", "--seed", "3",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            await watcher.wait_for(Lobby, 30, lambda lobby: lobby.phase == TablePhase.PLAYING)
            kept: list[Watcher] = []
            async with crowd_of_watchers(server.port, {"127.0.0.4": 32, "127.0.0.5": 31}):
                crowd = asyncio.create_task(keep_the_table_full(server.port, kept))
                try:
                    # The bot's link drops while watchers keep the table as full as it gets.
                    seat = next(seat for seat in server.table.seats if seat.name == "netbot")
                    peer = next(peer for peer in server.server.peers if peer.id == seat.peer)
                    peer.abort()
                    async with asyncio.timeout(60):
                        _, err = await bot.communicate()
                finally:
                    crowd.cancel()
                    for watcher in kept:
                        watcher.close()
            assert bot.returncode == 0, err.decode()
            assert b"Traceback" not in err and b"server-full" not in err, err.decode()
        finally:
            if bot.returncode is None:
                bot.kill()
                await bot.wait()
            await watcher.close()
