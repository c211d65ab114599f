"""Reconnecting through a link that fails during the resume handshake: the client keeps
trying (with backoff) and resumes its seat once the link holds; only the server's own
final answer ends reconnecting."""

from __future__ import annotations

import asyncio
import contextlib

from loopback_helpers import EchoTable

from netproto.client import ClientSettings, Closed, Disconnected, Reconnected, TableClient
from netproto.server import Peer, Server
from netproto.wire.messages import Lobby, Message, Resume, View

FAST_CLIENT = ClientSettings(heartbeat_timeout=5.0, backoff_initial=0.01, backoff_max=0.05,
                             reconnect_for=5.0)


class FlakyRelay:
    """A TCP relay on 127.0.0.1 in front of a server. While `failures_left` > 0, each new
    connection is accepted, its first bytes (the client's resume) read, and then it is
    dropped: alternately closed (EOF) and reset. After that it relays both ways."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.failures_left = 0
        self.dropped = 0
        self.relayed = 0
        self._links: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._server: asyncio.Server | None = None

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        return self._server.sockets[0].getsockname()[1]

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.failures_left > 0:
            self.failures_left -= 1
            self.dropped += 1
            with contextlib.suppress(OSError):
                await reader.read(1)  # the handshake has begun
            if self.dropped % 2:
                writer.close()
            else:
                writer.transport.abort()
            return
        self.relayed += 1
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self._links |= {writer, up_writer}
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pipe(source, sink))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.CancelledError):
            while data := await source.read(65536):
                sink.write(data)
                await sink.drain()
        sink.close()

    def cut(self) -> None:
        """Reset every relayed link (the network drops)."""
        for writer in list(self._links):
            writer.transport.abort()
        self._links.clear()

    async def stop(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        for task in list(self._tasks):
            task.cancel()


async def test_dropped_resume_handshakes_are_retried_until_the_seat_is_back(
        echo_server: tuple[Server, EchoTable]) -> None:
    server, table = echo_server
    relay = FlakyRelay(server.port)
    port = await relay.start()
    try:
        client = await TableClient.connect("127.0.0.1", port, name="Ann", settings=FAST_CLIENT)
        token = client.token
        relay.failures_left = 4
        relay.cut()
        assert (await client.wait_for(Disconnected, 3)).will_retry
        resumed = await client.wait_for(Reconnected, 5)
        assert relay.dropped == 4 and relay.relayed == 2
        assert resumed.attempts == 5
        assert client.seat == 0 and client.token == token and len(table.names) == 1
        await client.ready()
        await client.wait_for(Lobby, 2, lambda lobby: lobby.phase == "playing")
        await client.send_move({"after": "resume"}, seq=3)
        assert (await client.wait_for(View, 2)).view == {"after": "resume"}
        assert table.moves[-1] == (0, {"after": "resume"})
        await client.close()
    finally:
        await relay.stop()


async def test_a_final_bye_during_the_resume_ends_reconnecting(
        echo_server: tuple[Server, EchoTable]) -> None:
    server, table = echo_server
    client = await TableClient.connect("127.0.0.1", server.port, name="Ann", settings=FAST_CLIENT)
    answer = table.on_message

    def shutting_down(peer: Peer, message: Message) -> None:
        if isinstance(message, Resume):
            peer.close("shutdown", "the table is closing")
        else:
            answer(peer, message)

    table.on_message = shutting_down  # type: ignore[method-assign]
    table.peers[0].abort()
    assert (await client.wait_for(Disconnected, 3)).will_retry
    closed = None
    async for item in client:
        if isinstance(item, Closed):
            closed = item
        assert not isinstance(item, Reconnected)
    assert closed is not None and closed.code == "shutdown"
