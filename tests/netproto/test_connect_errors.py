"""What `TableClient.connect` raises when what it reaches is not a table: typed errors that
say which of "nothing listens", "cannot reach", and "something answers, but not in this
protocol" happened, each within seconds (real sockets on loopback)."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest
from foreign_servers import closed_port, serving, stays_silent
from loopback_helpers import EchoTable

from netproto.client import ClientSettings, TableClient
from netproto.client_errors import (
    ConnectFailed,
    HandshakeRefused,
    NothingListening,
    Unreachable,
    WrongProtocol,
)
from netproto.server import Peer, Server
from netproto.wire.messages import Message

HTTP_ANSWER = b"HTTP/1.0 400 Bad Request\r\nContent-Type: text/html\r\n\r\n<html>bad</html>"


async def answers_like_http(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Read what the client sent, answer as an HTTP server does to a bad request, close."""
    await reader.read(1024)
    writer.write(HTTP_ANSWER)
    await writer.drain()
    writer.close()


async def greets_first(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Speak first, as an SSH or SMTP server does, and keep the connection open."""
    writer.write(b"SSH-2.0-OpenSSH_9.2\r\n")
    await writer.drain()
    await reader.read()


async def connect(port: int, **settings: float) -> TableClient:
    return await TableClient.connect("127.0.0.1", port, name="ana",
                                     settings=ClientSettings(**settings))


async def test_a_closed_port_is_nothing_listening() -> None:
    port = closed_port()
    with pytest.raises(NothingListening) as caught:
        await connect(port)
    error = caught.value
    assert isinstance(error, ConnectFailed) and error.code == "nothing-listening"
    assert (error.host, error.port) == ("127.0.0.1", port)
    assert isinstance(error.os_error, ConnectionRefusedError)


async def test_an_unknown_host_name_is_unreachable() -> None:
    with pytest.raises(Unreachable) as caught:
        await TableClient.connect("no-such-host.invalid", 9099, name="ana")
    assert caught.value.code == "unreachable" and isinstance(caught.value.os_error, socket.gaierror)


async def test_an_http_answer_is_not_this_protocol_and_is_kept_as_a_sample() -> None:
    async with serving(answers_like_http) as port:
        started = time.monotonic()
        with pytest.raises(WrongProtocol) as caught:
            await connect(port)
        assert time.monotonic() - started < 1.5  # refused on the first bytes, no waiting
    error = caught.value
    assert isinstance(error, HandshakeRefused) and error.code == "wrong-protocol"
    assert (error.host, error.port) == ("127.0.0.1", port)
    assert error.sample == HTTP_ANSWER[:64]


async def test_a_server_that_speaks_first_is_not_this_protocol() -> None:
    async with serving(greets_first) as port:
        with pytest.raises(WrongProtocol) as caught:
            await connect(port)
    assert caught.value.sample.startswith(b"SSH-2.0-")


async def test_a_silent_server_is_not_this_protocol_within_the_answer_timeout() -> None:
    async with serving(stays_silent) as port:
        started = time.monotonic()
        with pytest.raises(WrongProtocol) as caught:
            await connect(port)  # default settings: 2 s to answer, where it took 10 before
        waited = time.monotonic() - started
    assert 1.9 < waited < 4.0, waited
    assert caught.value.sample == b"" and "no answer within 2 s" in caught.value.reason


async def test_a_table_that_answers_at_once_is_unaffected_by_a_short_answer_timeout(
        echo_server: tuple[Server, EchoTable]) -> None:
    server, _ = echo_server
    client = await connect(server.port, answer_timeout=0.5)
    assert client.seat is not None
    await client.close()


async def test_a_table_in_this_process_answering_late_only_because_the_loop_stalled_is_heard(
        echo_server: tuple[Server, EchoTable], monkeypatch: pytest.MonkeyPatch) -> None:
    # `ono99 solo` runs its table on the app's own event loop: a stall of that loop (a slow
    # start on a loaded machine) past the answer timeout wakes the timer in the same pass as
    # the table's answer, which must still count, not read as "no answer within 2 s".
    server, table = echo_server
    answer = table.on_message

    def stalled_answer(peer: Peer, message: Message) -> None:
        time.sleep(0.6)  # blocks the whole loop, client and table alike
        answer(peer, message)

    monkeypatch.setattr(table, "on_message", stalled_answer)
    client = await connect(server.port, answer_timeout=0.3)
    assert client.seat is not None
    await client.close()
