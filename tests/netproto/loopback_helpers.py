"""A small application and raw-socket helpers for testing the server pump on loopback."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest

from netproto.server import Peer, Server, ServerLimits
from netproto.wire.errors import BadToken
from netproto.wire.framing import FrameDecoder, encode_frame
from netproto.wire.messages import (
    PROTOCOL_VERSION,
    Hello,
    Lobby,
    Message,
    Move,
    Ready,
    Resume,
    SeatInfo,
    View,
    Welcome,
)
from netproto.wire.names import clean_name
from netproto.wire.sessions import SessionRegistry


class EchoTable:
    """Seats everyone, answers each move with a view echoing it (seq + 1)."""

    def __init__(self) -> None:
        self.sessions: SessionRegistry[int] = SessionRegistry()
        self.names: dict[int, str] = {}
        self.peers: dict[int, Peer] = {}
        self.closed: list[tuple[int, str]] = []
        self.moves: list[tuple[int, dict[str, Any]]] = []

    def on_message(self, peer: Peer, message: Message) -> None:
        if isinstance(message, Hello):
            seat = len(self.names)
            self.names[seat] = clean_name(message.name)
            self._seat(peer, seat, self.sessions.issue(seat))
        elif isinstance(message, Resume):
            seat = self.sessions.lookup(message.token)
            if seat is None:
                raise BadToken("no seat has this token")
            self._seat(peer, seat, message.token)
        elif isinstance(message, Ready):
            peer.send(self._lobby("playing" if message.ready else "waiting"))
        elif isinstance(message, Move):
            self.moves.append((peer.session, message.move))
            peer.send(View(seq=message.seq + 1, view=message.move))

    def _seat(self, peer: Peer, seat: int, token: str) -> None:
        peer.session = seat
        self.peers[seat] = peer
        peer.send(Welcome(proto=PROTOCOL_VERSION, role="player", seat=seat, token=token))
        peer.send(self._lobby("waiting"))

    def _lobby(self, phase: str) -> Lobby:
        seats = tuple(SeatInfo(seat, name, "human", False, True)
                      for seat, name in self.names.items())
        return Lobby(phase=phase, seats=seats, host_seat=0)

    def on_close(self, peer: Peer, code: str, reason: str) -> None:
        self.closed.append((peer.id, code))


FAST_LIMITS = ServerLimits(
    max_connections=16,
    handshake_timeout=0.4,
    heartbeat_interval=0.1,
    # Generous: a loaded CI machine must not drop the test's own well-behaved clients.
    heartbeat_timeout=5.0,
    error_budget=5,
)
# For the heartbeat tests themselves.
HEARTBEAT_LIMITS = replace(FAST_LIMITS, heartbeat_timeout=0.8)


@pytest.fixture
async def echo_server() -> AsyncIterator[tuple[Server, EchoTable]]:
    table = EchoTable()
    server = Server(table, FAST_LIMITS)
    await server.start("127.0.0.1", 0)
    try:
        yield server, table
    finally:
        await server.stop()


@pytest.fixture
async def heartbeat_server() -> AsyncIterator[tuple[Server, EchoTable]]:
    table = EchoTable()
    server = Server(table, HEARTBEAT_LIMITS)
    await server.start("127.0.0.1", 0)
    try:
        yield server, table
    finally:
        await server.stop()


class RawPeer:
    """A hand-driven socket: send any bytes, read whatever frames come back."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.decoder = FrameDecoder()
        self.received: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, port: int, source: str | None = None) -> RawPeer:
        """Connect to the server on 127.0.0.1, from `source` if given (on loopback every
        127.x.y.z is another address: the server counts its limits per address)."""
        local = (source, 0) if source is not None else None
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=local)
        return cls(reader, writer)

    async def send_bytes(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def send(self, wire: dict[str, Any]) -> None:
        await self.send_bytes(encode_frame(wire))

    async def next(self, timeout: float = 3.0) -> dict[str, Any]:
        """The next frame, skipping pings; raises EOFError when the server closed."""
        while True:
            while self.received:
                frame = self.received.pop(0)
                if frame.get("kind") != "ping":
                    return frame
            data = await asyncio.wait_for(self.reader.read(65536), timeout)
            if not data:
                raise EOFError
            self.received.extend(f for f in self.decoder.feed(data) if isinstance(f, dict))

    async def until_closed(self, timeout: float = 3.0) -> list[dict[str, Any]]:
        """Every frame up to the server's close."""
        frames = []
        try:
            while True:
                frames.append(await self.next(timeout))
        except (EOFError, ConnectionResetError):
            return frames

    def close(self) -> None:
        self.writer.close()


def hello_wire(name: str = "Ann") -> dict[str, Any]:
    return {"kind": "hello", "proto": PROTOCOL_VERSION, "name": name}
