"""The asyncio server pump: sockets in, `Connection` state machines, an application out.

The pump owns everything that is not the application's business: the connection caps,
the handshake and heartbeat timeouts, answering pings (at a limited rate), reporting
violations (an `error` reply, or `bye` and close for fatal ones), the per-connection error
budget (which also counts the netproto errors the application raises, such as `bad-token`),
the per-address throttle on bad resume tokens, and slow readers. The application sees only
well-formed messages that are allowed in the connection's state, through
`Application.on_message`, and `on_close` once per connection.

Fair admission: one address must not be able to keep everyone else out by opening sockets.
Connections past the handshake ("established": the application welcomed them) are never
closed to make room. Connections still in their handshake are limited per address and in
all; when an address passes its share, its own oldest unfinished handshake is closed
(`too-many-connections`), so a flood from one address only ever displaces itself. The caps
on established connections are applied to `hello`, never to `resume`: a seat's holder
always gets back in (the application bounds seats; it refuses a bad token), however many
others are connected.

Guessing: a bad resume token counts toward its address's throttle, which refuses further
bad tokens with `resume-throttled` but never a good one. A `hello` carrying a password or
a host key that the application refuses (`bad-password`, `bad-host-key`) is a wrong guess
for `netproto.limits.GuessThrottle`: past a few, that address (and, under a guessing
attack from many, every address that guessed wrong) waits longer and longer before its
next such hello is looked at (`rate-limited`).

Doors: a door in the host's own process (the web door's phones) speaks for many users it
let in itself, all from one loopback address. The host trusts it with a key of its own
(`Server.trust_door`); a `hello` carrying that key, from this machine, is counted under the
door's own cap instead of its address's and the server's (`Peer.door` names the door for
the application). A wrong key is a wrong guess, as a wrong password is; without a key a
connection from loopback is held to every limit above, like any other.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import itertools
import logging
import math
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from netproto.limits import (
    FailureWindow,
    GuessPolicy,
    GuessThrottle,
    QuietLog,
    TokenBucket,
    address_key,
)
from netproto.receiving import BufferedReceiver
from netproto.wire.connection import Connection, ConnectionClosed, Role, State, Violation
from netproto.wire.errors import (
    BadDoorKey,
    BadHostKey,
    BadPassword,
    BadToken,
    HandshakeTimeout,
    HeartbeatTimeout,
    LocalProtocolError,
    ProtocolError,
    RateLimited,
    ResumeThrottled,
    ServerFull,
    SlowConsumer,
    TooManyConnections,
    TruncatedFrame,
)
from netproto.wire.framing import MAX_FRAME_SIZE
from netproto.wire.messages import Bye, Error, Hello, Message, Ping, Pong, Resume

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ServerLimits:
    """Every limit the server enforces (docs/PROTOCOL.md §4); tests shorten the timeouts."""

    # Established connections (past the handshake), in all and from one address. A `hello`
    # over either is refused; an established connection is never closed to make room, and
    # a `resume` is never refused for room (the application holds at most one connection
    # per seat).
    max_connections: int = 64
    max_connections_per_address: int = 32
    # Connections still in their handshake, in all and from one address. Over the address's
    # share, that address's oldest unfinished handshake is closed to make room; over the
    # total, the oldest of the address holding the most (unless that is the newcomer's).
    max_handshakes: int = 64
    max_handshakes_per_address: int = 8
    handshake_timeout: float = 10.0
    heartbeat_interval: float = 5.0
    heartbeat_timeout: float = 20.0
    error_budget: int = 32
    # Pings answered per connection: a burst of this many, then this many per second.
    ping_burst: int = 16
    pings_per_second: float = 4.0
    # Bad resume tokens from one address within the window before its bad tokens are
    # answered with a close (a good one always gets in).
    bad_tokens_per_address: int = 16
    bad_token_window: float = 60.0
    # Wrong passwords and host keys in `hello`: per address and in all.
    guesses: GuessPolicy = field(default_factory=GuessPolicy)
    # Lines about misbehaving peers: one per kind per this many seconds, with a count.
    log_interval: float = 60.0
    max_frame_size: int = MAX_FRAME_SIZE
    # Unsent bytes allowed to pile up for one peer before it counts as not reading.
    max_write_buffer: int = 1024 * 1024
    # How long a slow consumer's `bye` may take to drain before the connection is cut.
    slow_consumer_linger: float = 2.0


@dataclass(frozen=True)
class TrustedDoor:
    """A door the host trusts (`Server.trust_door`): its name, its key, and how many
    connections it may hold at once past their handshake."""

    name: str
    key: str = field(repr=False)
    max_connections: int


def is_loopback(host: str) -> bool:
    """Whether `host` (a `Peer.host`) is an address of this machine's loopback."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# asyncio's words when accept() fails for want of descriptors (it then retries in 1 s).
_ACCEPT_OUT_OF_RESOURCE = "socket.accept() out of system resource"


def quiet_accept_errors(loop: asyncio.AbstractEventLoop,
                        interval: float = 60.0) -> None:
    """Have `loop` log accept() failures for want of descriptors once per `interval`, with
    a count, instead of once per failure and listening socket (a flood of connections at
    the descriptor limit wrote 61,713 such lines). Other errors go where they went before.
    Idempotent: a loop is set up once."""
    previous = loop.get_exception_handler()
    if getattr(previous, "quiets_accept_errors", False):
        return
    quiet = QuietLog(logging.getLogger("netproto.accept"), interval=interval)

    def flush() -> None:
        quiet.flush(loop.time())

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") == _ACCEPT_OUT_OF_RESOURCE:
            error = context.get("exception")
            quiet.log(loop.time(), logging.ERROR, "accept",
                      "cannot accept connections: %s (out of file descriptors? "
                      "`ulimit -n` raises the limit)", error)
            loop.call_later(interval, flush)
        elif previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    handler.quiets_accept_errors = True  # type: ignore[attr-defined]
    loop.set_exception_handler(handler)


class Application(Protocol):
    """What the server drives: the card table, or a test's echo application."""

    def on_message(self, peer: Peer, message: Message) -> None:
        """Handle one valid message (hello/resume included: answer with peer.send(Welcome)).

        Raising a ProtocolError makes the pump answer with an `error` (or `bye` if fatal)
        carrying the message's kind as `ref` and its `seq` if it has one. netproto's own
        errors (`BadToken`, `BadPassword`, `BadName`) count toward the connection's error
        budget, an `ApplicationError` only if made with `charged=True`; a `BadToken`
        raised for a `Resume` also counts toward the address's bad-token throttle. So an
        application refuses a token by raising `BadToken`, not by sending the error itself.
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
        peername = transport.get_extra_info("peername")
        self.address: str = f"{peername[0]}:{peername[1]}" if peername else "?"
        # The IP address this connection's limits are counted under.
        self.host: str = address_key(peername)
        now = server._clock()
        self.connected_at = now
        self.last_received = now
        self.last_ping_sent = now
        self._ping_nonce = itertools.count(1)
        self._pings = TokenBucket(server.limits.pings_per_second, server.limits.ping_burst, now)
        # The trusted door this connection came through (its hello carried the door's key),
        # or None: counted under the door's cap, not `host`'s (`Server.trust_door`).
        self.door: str | None = None
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

    def _say_bye_and_drain(self, error: ProtocolError, linger: float) -> None:
        # Queue the bye behind the backlog and end our side once it is written, but keep
        # reading (and ignoring) what the peer still sends: closing a socket with unread
        # input resets it, and the peer would lose the backlog and the bye with it. A peer
        # that has not read it all after `linger` seconds is cut off.
        if not self.connection.bye_sent:
            with contextlib.suppress(LocalProtocolError):
                self._transport.write(self.connection.send(Bye(code=error.code,
                                                               reason=error.reason)))
        if self._transport.can_write_eof():
            self._transport.write_eof()
        else:
            self._transport.close()
        asyncio.get_running_loop().call_later(linger, self.abort)

    def abort(self) -> None:
        """Drop the connection at once, without flushing (for peers that do not read)."""
        self._transport.abort()

    def _ping(self) -> None:
        self.last_ping_sent = self._server._clock()
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
        refusal = self._server._admit(peer)
        if refusal is not None:
            self._server._quiet_log(logging.INFO, "refused", "refused %s: %s (%s)",
                                    peer.address, refusal.code, refusal.reason)
            peer._closed_reported = True  # the application never saw it
            peer.close(refusal.code, refusal.reason)
            return
        self._server._peers[peer.id] = peer

    def data_received(self, data: memoryview) -> None:
        peer = self._peer
        if peer is None or peer.state is State.CLOSED:
            return
        peer.last_received = self._server._clock()
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
        # The peer stopped reading and its backlog passed the limit: nothing more is queued
        # for it. Its `bye` goes behind the backlog, so it is delivered only if the peer
        # reads again soon; if not, the connection is cut after the linger.
        peer = self._peer
        if peer is None or not peer.is_open:
            return
        limits = self._server.limits
        error = SlowConsumer(
            f"the client did not read: over {limits.max_write_buffer} bytes unsent")
        self._server._quiet_log(logging.WARNING, "slow-consumer", "dropping %s: %s", peer,
                                error.reason)
        peer._say_bye_and_drain(error, limits.slow_consumer_linger)


class Server:
    """A listening socket whose connections are served to one Application."""

    def __init__(self, application: Application, limits: ServerLimits | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.application = application
        self.limits = limits or ServerLimits()
        # Every time the pump reads (timeouts, rates); tests may pass a fake clock.
        self._clock = clock
        self._bad_tokens = FailureWindow(self.limits.bad_tokens_per_address,
                                         self.limits.bad_token_window)
        self._guesses = GuessThrottle(self.limits.guesses, now=clock())
        # Lines about misbehaving peers: a flood of them must not flood the log.
        self._peer_log = QuietLog(log, interval=self.limits.log_interval)
        self._peers: dict[int, Peer] = {}
        self._ids = itertools.count(1)
        self._server: asyncio.Server | None = None
        self._watchdog: asyncio.Task[None] | None = None
        self._doors: dict[str, TrustedDoor] = {}

    def trust_door(self, name: str, max_connections: int) -> str:
        """Trust the door `name` (one in this process) with up to `max_connections`
        connections past their handshake, counted apart from every address's and the
        server's own caps; returns its key (256 random bits), for its hellos. Asked again
        for the same name, the door gets a new key and the old one stops working."""
        if max_connections < 1:
            raise ValueError("a door must be allowed at least one connection")
        key = secrets.token_urlsafe(32)
        self._doors[name] = TrustedDoor(name, key, max_connections)
        return key

    def _door_of(self, key: str) -> TrustedDoor | None:
        """The door whose key is `key` (compared in constant time), or None."""
        found = None
        for door in self._doors.values():
            if hmac.compare_digest(door.key.encode(), key.encode()):
                found = door
        return found

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
        quiet_accept_errors(loop)
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

    def _admit(self, newcomer: Peer) -> ProtocolError | None:
        """Decide whether a new connection may stay: None, or why it is refused.

        Only unfinished handshakes are counted here: what the connection asks for (a new
        place, or its seat back) is not known yet (`_room_for_hello`). May close other
        connections that are still in their handshake (never established ones) to make
        room: see the module docstring and `ServerLimits`.
        """
        limits = self.limits
        address = newcomer.host
        handshakes: dict[str, list[Peer]] = {}
        for peer in self._peers.values():  # in order of arrival: oldest first
            if peer.is_open and peer.state is State.HANDSHAKE:
                handshakes.setdefault(peer.host, []).append(peer)
        mine = handshakes.get(address, [])
        if len(mine) >= limits.max_handshakes_per_address:
            self._displace(mine[0], TooManyConnections(
                f"at most {limits.max_handshakes_per_address} unfinished handshakes from "
                f"one address: the oldest is closed"))
        elif sum(map(len, handshakes.values())) >= limits.max_handshakes:
            busiest = max(handshakes.values(), key=len)
            if len(busiest) <= len(mine):
                return TooManyConnections(
                    f"the server holds {limits.max_handshakes} unfinished handshakes and "
                    f"this address as many of them as any")
            self._displace(busiest[0], TooManyConnections(
                f"the server holds {limits.max_handshakes} unfinished handshakes: the "
                f"oldest of the address holding the most is closed"))
        return None

    def _room_for_hello(self, newcomer: Peer) -> ProtocolError | None:
        """Whether a `hello` may be welcomed: None, or why not (the caps on established
        connections: a door's own for its connections, which the others never count). A
        `resume` is never asked this: a seat's holder always gets back in."""
        limits = self.limits
        if newcomer.door is not None:
            door = self._doors[newcomer.door]
            held = sum(1 for peer in self._peers.values()
                       if peer.door == door.name and peer.is_open
                       and peer.state is not State.HANDSHAKE)
            if held >= door.max_connections:
                return ServerFull(f"this server takes at most {door.max_connections} "
                                  f"connections through {door.name}")
            return None
        established = established_here = 0
        for peer in self._peers.values():
            if peer.is_open and peer.state is not State.HANDSHAKE and peer.door is None:
                established += 1
                if peer.host == newcomer.host:
                    established_here += 1
        if established >= limits.max_connections:
            return ServerFull(f"this server takes at most {limits.max_connections} connections")
        if established_here >= limits.max_connections_per_address:
            return TooManyConnections(
                f"this server takes at most {limits.max_connections_per_address} "
                f"connections from one address")
        return None

    def _quiet_log(self, level: int, kind: str, message: str, *args: Any) -> None:
        self._peer_log.log(self._clock(), level, kind, message, *args)

    def _displace(self, peer: Peer, error: ProtocolError) -> None:
        self._quiet_log(logging.INFO, "displaced", "closing %s to make room: %s", peer,
                        error.reason)
        peer.close(error.code, error.reason)

    def _handle_events(self, peer: Peer, events: list[Any]) -> None:
        for event in events:
            if isinstance(event, Violation):
                self._report(peer, event.error)
            elif isinstance(event, ConnectionClosed):
                peer.close(event.code, event.reason)
            elif isinstance(event, Ping):
                self._answer_ping(peer, event)
            elif isinstance(event, (Pong, Bye)):
                continue
            else:
                self._dispatch(peer, event)

    def _answer_ping(self, peer: Peer, ping: Ping) -> None:
        if peer._pings.take(self._clock()):
            peer.send(Pong(nonce=ping.nonce))
            return
        limits = self.limits
        self._refuse(peer, RateLimited(
            f"at most {limits.ping_burst} pings at once and {limits.pings_per_second:g} "
            f"per second", ref=ping.kind))

    def _dispatch(self, peer: Peer, message: Message) -> None:
        if isinstance(message, Hello):
            self._dispatch_hello(peer, message)
        elif isinstance(message, Resume):
            self._dispatch_resume(peer, message)
        else:
            self._deliver(peer, message)

    def _deliver(self, peer: Peer, message: Message) -> ProtocolError | None:
        """Hand `message` to the application; its refusal is answered, and returned."""
        try:
            self.application.on_message(peer, message)
        except ProtocolError as error:
            seq = getattr(message, "seq", None)  # a move's: how its sender matches the refusal
            self._refuse(peer, error, ref=message.kind,
                         seq=seq if isinstance(seq, int) else None)
            return error
        return None

    def _dispatch_hello(self, peer: Peer, hello: Hello) -> None:
        if hello.door_key is not None and not self._through_door(peer, hello):
            return
        room = self._room_for_hello(peer)
        if room is not None:
            self._quiet_log(logging.INFO, "refused", "refused %s: %s (%s)", peer.address,
                            room.code, room.reason)
            self._refuse(peer, room, ref=hello.kind)
            return
        if not (hello.password or hello.host_key):
            self._deliver(peer, hello)
            return
        # A password or a key: a guess, unless this address (or everyone) must wait.
        now = self._clock()
        wait = self._guesses.begin(peer.host, now)
        if wait > 0:
            self._quiet_log(logging.WARNING, "guess-throttled",
                            "refused a password or key from %s unread: too many wrong ones",
                            peer.host)
            self._refuse(peer, RateLimited(
                f"too many wrong passwords or keys: try again in {math.ceil(wait)} s",
                ref=hello.kind))
            return
        refusal = self._deliver(peer, hello)
        wrong = isinstance(refusal, (BadPassword, BadHostKey))
        self._guesses.finish(peer.host, not wrong, self._clock())
        if wrong:
            self._quiet_log(logging.WARNING, "wrong-guess",
                            "a wrong table password or host key from %s", peer.host)

    def _through_door(self, peer: Peer, hello: Hello) -> bool:
        """Whether `hello`'s door key is a trusted door's, from this machine: then `peer`
        is that door's (`Peer.door`). If not, the hello is refused as a wrong guess (or
        unread, while its address must wait) and False returned. The right key always gets
        in, as a good resume token does: 256 random bits are not guessed, and a guesser on
        this machine must not lock the door's users out by making loopback wait."""
        assert hello.door_key is not None
        door = self._door_of(hello.door_key)
        if door is not None and is_loopback(peer.host):
            peer.door = door.name
            return True
        now = self._clock()
        wait = self._guesses.begin(peer.host, now)
        if wait > 0:
            self._quiet_log(logging.WARNING, "guess-throttled",
                            "refused a door key from %s unread: too many wrong ones", peer.host)
            self._refuse(peer, RateLimited(
                f"too many wrong passwords or keys: try again in {math.ceil(wait)} s",
                ref=hello.kind))
            return False
        self._guesses.finish(peer.host, False, now)
        self._quiet_log(logging.WARNING, "wrong-guess", "a wrong door key from %s", peer.host)
        self._refuse(peer, BadDoorKey("this key is no door's of this table", ref=hello.kind))
        return False

    def _dispatch_resume(self, peer: Peer, resume: Resume) -> None:
        # A good token always gets in, whatever came from its address before: everyone
        # behind one NAT shares it. Bad ones count, and past the limit each one closes
        # its connection (a guesser pays a connection per guess).
        now = self._clock()
        wait = self._bad_tokens.retry_after(peer.host, now)
        try:
            self.application.on_message(peer, resume)
        except BadToken as error:
            if wait > 0:
                self._quiet_log(logging.INFO, "throttled",
                                "refused a resume from %s: too many bad tokens", peer.host)
                self._refuse(peer, ResumeThrottled(
                    f"{self.limits.bad_tokens_per_address} bad resume tokens from this "
                    f"address in {self.limits.bad_token_window:g} s: resume again in "
                    f"{math.ceil(wait)} s", ref=resume.kind))
            else:
                self._bad_tokens.record(peer.host, self._clock())
                self._refuse(peer, error, ref=resume.kind)
        except ProtocolError as error:
            self._refuse(peer, error, ref=resume.kind)

    def _refuse(self, peer: Peer, error: ProtocolError, *, ref: str | None = None,
                seq: int | None = None) -> None:
        """Answer a refused message: `error` (counted if charged), or `bye` if fatal.

        As for the connection's own violations, the message that goes past the error
        budget gets only the `bye{too-many-errors}` (the connection is closed first).
        """
        events = [] if error.fatal else peer.connection.charge(error)
        self._report(peer, error, ref=ref or error.ref,
                     seq=seq if seq is not None else error.seq)
        self._handle_events(peer, events)

    def _report(self, peer: Peer, error: ProtocolError, *, ref: str | None = None,
                seq: int | None = None) -> None:
        if isinstance(error, TruncatedFrame):
            self._quiet_log(logging.INFO, "truncated", "peer %s: %s", peer, error.reason)
        else:
            log.debug("peer %s: %s (%s)", peer, error.code, error.reason)
        if error.fatal:
            peer.close(error.code, error.reason)
        else:
            peer.send(Error(code=error.code, reason=error.reason, ref=ref or error.ref,
                            seq=seq if seq is not None else error.seq))

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
            now = self._clock()
            self._peer_log.flush(now)
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
