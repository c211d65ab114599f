"""The asyncio server pump: sockets in, `Connection` state machines, an application out.

The pump owns everything that is not the application's business: the connection cap, the
handshake and heartbeat timeouts, answering pings, reporting violations (an `error` reply,
or `bye` and close for fatal ones), the per-connection error budget and slow readers. The
application sees only well-formed messages that are allowed in the connection's state,
through `Application.on_message`, and `on_close` once per connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from netproto.connection import Connection, ConnectionClosed, Role, State, Violation
from netproto.errors import (
    HandshakeTimeout,
    HeartbeatTimeout,
    LocalProtocolError,
    ProtocolError,
    ServerFull,
    SlowConsumer,
)
from netproto.framing import MAX_FRAME_SIZE
from netproto.messages import Bye, Error, Message, Ping, Pong
from netproto.receiving import BufferedReceiver

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ServerLimits:
    """Every limit the server enforces; tests shorten the timeouts."""

    max_connections: int = 64
    handshake_timeout: float = 10.0
    heartbeat_interval: float = 5.0
    heartbeat_timeout: float = 20.0
    error_budget: int = 32
    max_frame_size: int = MAX_FRAME_SIZE
    # Unsent bytes allowed to pile up for one peer before it counts as not reading.
    max_write_buffer: int = 1024 * 1024


class Application(Protocol):
    """What the server drives: the card table, or a test's echo application."""

    def on_message(self, peer: Peer, message: Message) -> None:
        """Handle one valid message (hello/resume included: answer with peer.send(Welcome)).

        Raising a ProtocolError makes the pump answer with an `error` (or `bye` if fatal).
        """

    def on_close(self, peer: Peer, code: str, reason: str) -> None:
        """The connection ended (for any reason); called exactly once per peer."""


class Peer:
    """One accepted connection, as the application sees it."""

    def __init__(self, peer_id: int, server: Server, transport: asyncio.Transport,
                 connection: Connection) -> None:
        self.id = peer_id
        self._server = server
        self._transport = transport
        self.connection = connection
        sockname = transport.get_extra_info("peername")
        self.address: str = f"{sockname[0]}:{sockname[1]}" if sockname else "?"
        now = time.monotonic()
        self.connected_at = now
        self.last_received = now
        self.last_ping_sent = now
        self._ping_nonce = itertools.count(1)
        # Free slot for the application (the table keeps the seat here).
        self.session: Any = None
        self._closed_reported = False

    @property
    def state(self) -> State:
        """The connection's protocol state."""
        return self.connection.state

    @property
    def is_open(self) -> bool:
        """Whether messages can still be sent to this peer."""
        return self.connection.state is not State.CLOSED and not self._transport.is_closing()

    def send(self, message: Message) -> None:
        """Send a message now; silently dropped if the connection is already closing."""
        if not self.is_open:
            return
        self._transport.write(self.connection.send(message))

    def send_error(self, code: str, reason: str = "", ref: str | None = None) -> None:
        """Refuse something with a typed error; the connection goes on."""
        self.send(Error(code=code, reason=reason, ref=ref))

    def close(self, code: str = "normal", reason: str = "") -> None:
        """Say bye with a reason and close the connection (pending output is flushed)."""
        if not self.connection.bye_sent and not self._transport.is_closing():
            with contextlib.suppress(LocalProtocolError):
                self._transport.write(self.connection.send(Bye(code=code, reason=reason)))
        self._transport.close()

    def abort(self) -> None:
        """Drop the connection at once, without flushing (for peers that do not read)."""
        self._transport.abort()

    def _ping(self) -> None:
        self.last_ping_sent = time.monotonic()
        self.send(Ping(nonce=next(self._ping_nonce)))

    def __repr__(self) -> str:
        return f"<Peer {self.id} {self.address} {self.state.value}>"


class _PeerProtocol(BufferedReceiver):
    def __init__(self, server: Server) -> None:
        super().__init__()
        self._server = server
        self._peer: Peer | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        limits = self._server.limits
        transport.set_write_buffer_limits(high=limits.max_write_buffer)
        connection = Connection(Role.SERVER, max_frame_size=limits.max_frame_size,
                                error_budget=limits.error_budget)
        peer = Peer(next(self._server._ids), self._server, transport, connection)
        self._peer = peer
        if len(self._server._peers) >= limits.max_connections:
            error = ServerFull(f"this server takes at most {limits.max_connections} connections")
            peer._closed_reported = True  # the application never saw it
            peer.close(error.code, error.reason)
            return
        self._server._peers[peer.id] = peer

    def data_received(self, data: memoryview) -> None:
        peer = self._peer
        if peer is None or peer.state is State.CLOSED:
            return
        peer.last_received = time.monotonic()
        self._server._pump(peer, data)

    def eof_received(self) -> bool | None:
        peer = self._peer
        if peer is not None and peer.state is not State.CLOSED:
            self._server._pump(peer, b"")
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        peer = self._peer
        if peer is None:
            return
        if peer.state is not State.CLOSED:
            peer.connection.receive_data(b"")
        self._server._forget(peer, peer.connection.close_code or "eof",
                             "connection lost" if exc is None else str(exc))

    def pause_writing(self) -> None:
        # The peer stopped reading and its backlog passed the limit: cut it loose.
        peer = self._peer
        if peer is not None:
            error = SlowConsumer("the client does not read its messages")
            peer.connection._close(error.code, error.reason)
            peer.abort()


class Server:
    """A listening socket whose connections are served to one Application."""

    def __init__(self, application: Application, limits: ServerLimits | None = None) -> None:
        self.application = application
        self.limits = limits or ServerLimits()
        self._peers: dict[int, Peer] = {}
        self._ids = itertools.count(1)
        self._server: asyncio.Server | None = None
        self._watchdog: asyncio.Task[None] | None = None

    @property
    def peers(self) -> list[Peer]:
        """Every open connection."""
        return list(self._peers.values())

    @property
    def sockets(self) -> list[tuple[str, int]]:
        """The (address, port) pairs the server listens on."""
        if self._server is None:
            return []
        return [sock.getsockname()[:2] for sock in self._server.sockets]

    @property
    def port(self) -> int:
        """The port actually bound (useful after binding port 0)."""
        return self.sockets[0][1]

    async def start(self, host: str | Sequence[str] | None = "127.0.0.1", port: int = 0) -> None:
        """Bind and start accepting connections."""
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(lambda: _PeerProtocol(self), host, port)
        self._watchdog = asyncio.create_task(self._watch(), name="netproto-watchdog")

    async def stop(self, code: str = "shutdown", reason: str = "the server is stopping") -> None:
        """Say bye to every peer, close every connection and stop listening."""
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        if self._server is not None:
            self._server.close()
        for peer in self.peers:
            peer.close(code, reason)
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None
        # Let the transports run connection_lost so the application hears of every close.
        for _ in range(3):
            if not self._peers:
                break
            await asyncio.sleep(0)

    def _pump(self, peer: Peer, data: bytes | memoryview) -> None:
        # One event at a time: the application's replies to a frame (which may change the
        # connection's state) happen before the next frame is checked against that state.
        connection = peer.connection
        connection.feed(data)
        while (event := connection.next_event()) is not None:
            self._handle_events(peer, [event])

    def _handle_events(self, peer: Peer, events: list[Any]) -> None:
        for event in events:
            if isinstance(event, Violation):
                self._report(peer, event.error)
            elif isinstance(event, ConnectionClosed):
                peer.close(event.code, event.reason)
            elif isinstance(event, Ping):
                peer.send(Pong(nonce=event.nonce))
            elif isinstance(event, (Pong, Bye)):
                continue
            else:
                self._dispatch(peer, event)

    def _dispatch(self, peer: Peer, message: Message) -> None:
        try:
            self.application.on_message(peer, message)
        except ProtocolError as error:
            if error.fatal:
                peer.close(error.code, error.reason)
            else:
                peer.send(Error(code=error.code, reason=error.reason, ref=message.kind))

    def _report(self, peer: Peer, error: ProtocolError) -> None:
        log.debug("peer %s: %s (%s)", peer, error.code, error.reason)
        if error.fatal:
            peer.close(error.code, error.reason)
        else:
            peer.send(Error(code=error.code, reason=error.reason, ref=error.ref))

    def _forget(self, peer: Peer, code: str, reason: str) -> None:
        self._peers.pop(peer.id, None)
        if peer._closed_reported:
            return
        peer._closed_reported = True
        try:
            self.application.on_close(peer, code, reason)
        except Exception:  # the application's bug must not take the server down
            log.exception("on_close failed for %s", peer)

    async def _watch(self) -> None:
        limits = self.limits
        tick = max(0.01, min(limits.handshake_timeout, limits.heartbeat_interval) / 4)
        while True:
            await asyncio.sleep(tick)
            now = time.monotonic()
            for peer in self.peers:
                if not peer.is_open:
                    continue
                if peer.state is State.HANDSHAKE:
                    if now - peer.connected_at > limits.handshake_timeout:
                        error: ProtocolError = HandshakeTimeout(
                            f"no handshake within {limits.handshake_timeout:g} s")
                        peer.close(error.code, error.reason)
                    continue
                if now - peer.last_received > limits.heartbeat_timeout:
                    error = HeartbeatTimeout(
                        f"nothing heard for {limits.heartbeat_timeout:g} s")
                    peer.close(error.code, error.reason)
                elif now - peer.last_ping_sent >= limits.heartbeat_interval:
                    peer._ping()
