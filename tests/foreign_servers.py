"""Servers on 127.0.0.1 that are not ono99 tables (or are rogue ones), for every test that
needs one: "that is not a table" errors, a table that sends what a real one would not."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Awaitable, Callable

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def answers_like_http(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Read what the client sent and answer as a web server does to a bad request."""
    await reader.read(1024)
    writer.write(b"HTTP/1.0 400 Bad Request\r\nContent-Type: text/html\r\n\r\n<html></html>")
    await writer.drain()
    writer.close()


async def stays_silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Accept and wait for a request line that never comes (as `python -m http.server`)."""
    await reader.read()


@contextlib.asynccontextmanager
async def serving(handler: Handler) -> AsyncIterator[int]:
    """A plain TCP server on 127.0.0.1 running `handler` per connection; yields its port."""
    writers: list[asyncio.StreamWriter] = []

    async def keep(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writers.append(writer)
        with contextlib.suppress(OSError):
            await handler(reader, writer)

    server = await asyncio.start_server(keep, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        for writer in writers:
            writer.transport.abort()
        # Let each handler see its connection end (a handler still waiting when the loop
        # shuts down is cancelled, and asyncio logs that as an error).
        await asyncio.sleep(0)
        server.close()
        await server.wait_closed()


def rogue_table(*answers: dict[str, object]) -> Handler:
    """A table that does not clean what it sends: after the client's hello it writes each
    of `answers` (wire maps, as they are: escape sequences and all), then stays open."""
    from netproto.wire.framing import FrameDecoder, encode_frame

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        decoder = FrameDecoder()
        while not any(isinstance(frame, dict) and frame.get("kind") == "hello"
                      for frame in decoder.feed(await reader.read(4096))):
            pass
        writer.write(b"".join(encode_frame(answer) for answer in answers))
        await writer.drain()
        await reader.read()  # until the client goes

    return handler
