"""The asyncio client: one session with a table server, kept alive across drops.

    client = await TableClient.connect("127.0.0.1", 7399, name="Ann")
    async for message in client:          # Lobby, View, Error, Welcome, Disconnected, ...
        if isinstance(message, View):
            await client.send_move({...})  # based on the latest view's seq

The client answers pings, watches the server's heartbeat and, when the link drops, reconnects
with backoff (`ClientSettings` documents the schedule) and resumes its seat with the resume
token. While it does, the iterator yields `Disconnected` and then `Reconnected`; it ends
after a final close (a `bye` from the server that is not worth retrying, `close()`, or
giving up on reconnecting).

A table whose host restarted somewhere else (another port, another address) is found again
through an optional `Relocator` (`TableClient.relocator`): between reconnect attempts it is
asked where the table may be now, and each place it names is offered the resume token only
(never a `hello`), so a session can only ever get its own seat back there, never a new seat
at some other table. `netproto.lan.refind.TableRefinder` is the mDNS-backed relocator.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from netproto.client_errors import (
    ClientError,
    ConnectFailed,
    HandshakeRefused,
    NotConnected,
    NothingListening,
    Unreachable,
    WrongProtocol,
)
from netproto.receiving import BufferedReceiver
from netproto.wire.connection import Connection, ConnectionClosed, Role, State, Violation
from netproto.wire.errors import (
    BadMessage,
    FrameTooLarge,
    LocalProtocolError,
    MalformedFrame,
    TruncatedFrame,
    UnknownKind,
)
from netproto.wire.framing import MAX_FRAME_SIZE
from netproto.wire.messages import (
    PROTOCOL_VERSION,
    AddBot,
    Bye,
    Error,
    Hello,
    Lobby,
    Message,
    Move,
    OpenRoom,
    Ping,
    Pong,
    Rated,
    Ready,
    RemoveBot,
    Resume,
    Say,
    SetOptions,
    Start,
    View,
    Welcome,
)

log = logging.getLogger(__name__)

# Server bye codes after which reconnecting is pointless (or would fight another client).
FINAL_BYE_CODES = frozenset(
    {"normal", "shutdown", "replaced", "version-mismatch", "too-many-errors", "server-full",
     "kicked"}
)
# Final for a newcomer, but not for a client that holds a seat (a resume token): the seat is
# held meanwhile, and a full server (an older host's cap, which counted everyone) may have
# room again in a moment. Such a client backs off and tries again, as after a drop.
RETRIED_WHILE_SEATED = frozenset({"server-full"})


# Event-loop passes a late answer needs to reach the inbox: the server's read of our hello,
# its reply, our read of that reply.
_PASSES_FOR_A_LATE_ANSWER = 4


async def _answer_already_sent(inbox: asyncio.Queue[Any]) -> Any:
    """The answer, if it was only held up by this event loop itself, else None.

    A table in this very process (`ono99 solo`, the host's own app) answers at once, but a
    loop stalled past the answer timeout (a slow start-up on a loaded machine) wakes with
    the timer due in the same pass as the table's read of our hello: a few more passes let
    an answer that was on its way arrive before silence is declared.
    """
    for _ in range(_PASSES_FOR_A_LATE_ANSWER):
        if not inbox.empty():
            return inbox.get_nowait()
        await asyncio.sleep(0)
    return None if inbox.empty() else inbox.get_nowait()


# What a peer that speaks some other protocol causes: its bytes are not our frames or
# messages. (A version mismatch or a message out of turn is this protocol, spoken wrong.)
_NOT_THIS_PROTOCOL = (FrameTooLarge, MalformedFrame, TruncatedFrame, BadMessage, UnknownKind)
SAMPLE_SIZE = 64


@dataclass(frozen=True)
class Disconnected:
    """Local notice: the link dropped; the client is reconnecting (if `will_retry`)."""

    reason: str
    will_retry: bool


@dataclass(frozen=True)
class Reconnected:
    """Local notice: the session was resumed after a drop; the next messages bring it up to date."""

    attempts: int


@dataclass(frozen=True)
class Closed:
    """Local notice, always the last item: the session is over for good."""

    code: str
    reason: str


Incoming = Message | Disconnected | Reconnected | Closed


class Relocator(Protocol):
    """Where a table that no longer answers at its address may be now (see the module
    docstring). Used only while the client reconnects; `close` is called once it stops."""

    async def candidates(self) -> Sequence[tuple[str, int]]:
        """(host, port) pairs to offer the resume token to, best first; may be empty."""
        ...

    async def close(self) -> None:
        """Release whatever finding the table needed (sockets); it may be asked again later."""
        ...


@dataclass(frozen=True)
class ClientSettings:
    """Timing of the client; tests shorten everything.

    Reconnect schedule: the n-th attempt after a drop waits `backoff_initial * 2**(n-1)`
    seconds, capped at `backoff_max` for the first `fast_retry_for` seconds of the outage
    (the seat is held and a restarted host is back within a second or two: it must be found
    at once) and at `backoff_max_later` after that, each wait shortened by a random part of
    up to `backoff_jitter` of it (so that a table's clients do not all knock at once). With
    the defaults: attempts at about 0.05, 0.15, 0.35, 0.75 s after the drop (up to a quarter
    earlier), then every 0.3-0.4 s for 20 s, then every 1.5-2 s until `reconnect_for` (60 s:
    75-98 attempts in all, 85 on average), then the session ends with `Closed("gave-up")`.
    """

    connect_timeout: float = 5.0
    # A table answers hello or resume at once: silence this long means it is not a table
    # (an HTTP server, say, waits for a request line that never comes).
    answer_timeout: float = 2.0
    handshake_timeout: float = 10.0
    # The server pings every few seconds; silence for this long means the link is dead.
    heartbeat_timeout: float = 20.0
    reconnect: bool = True
    backoff_initial: float = 0.05
    backoff_max: float = 0.4
    fast_retry_for: float = 20.0
    backoff_max_later: float = 2.0
    backoff_jitter: float = 0.25
    # Give up resuming after this long; a table holds a seat 60 s by default.
    reconnect_for: float = 60.0
    # After saying bye, wait at most this long for the table to close its side (`close`).
    bye_linger: float = 1.0
    max_frame_size: int = MAX_FRAME_SIZE


class _Link(BufferedReceiver):
    """One TCP connection as an asyncio Protocol around a client `Connection`.

    Bytes are turned into events right in `data_received` and handed to `listener`, so a
    view reaches the application one event-loop pass sooner than through a reader task.
    Pings are answered here; `done` resolves with (code, reason) when the link ends.
    """

    def __init__(self, max_frame_size: int) -> None:
        super().__init__()
        self.connection = Connection(Role.CLIENT, max_frame_size=max_frame_size,
                                     error_budget=1 << 30)
        self.transport: asyncio.Transport | None = None
        self.last_received = time.monotonic()
        # The first bytes the peer sent, to show what answered when it is not a table.
        self.sample = b""
        # The server's bye, if it said one: it may come before anyone listens (a full
        # server says it before reading our hello).
        self.bye: Bye | None = None
        self.done: asyncio.Future[tuple[str, str]] = asyncio.get_running_loop().create_future()
        self.listener: Callable[[Any], None] = lambda event: None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: memoryview) -> None:
        self.last_received = time.monotonic()
        if len(self.sample) < SAMPLE_SIZE:
            self.sample += bytes(data[:SAMPLE_SIZE - len(self.sample)])
        self._handle(data)

    def eof_received(self) -> bool:
        self._handle(b"")
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        if exc is None:
            self._finish("eof", "the table closed the connection")
        else:
            self._finish("connection-lost", str(exc))

    def _handle(self, data: bytes | memoryview) -> None:
        connection = self.connection
        connection.feed(data)
        while (event := connection.next_event()) is not None:
            if isinstance(event, Ping):
                with contextlib.suppress(Exception):
                    self.send(Pong(nonce=event.nonce))
            elif isinstance(event, ConnectionClosed):
                self._finish(event.code, event.reason)
                self.close()
            else:
                if isinstance(event, Bye):
                    self.bye = event
                self.listener(event)

    def _finish(self, code: str, reason: str) -> None:
        if not self.done.done():
            self.done.set_result((code, reason))

    @property
    def is_up(self) -> bool:
        """Whether messages can still be written."""
        return (self.transport is not None and not self.transport.is_closing()
                and self.connection.state is not State.CLOSED)

    def send(self, message: Message) -> None:
        assert self.transport is not None
        self.transport.write(self.connection.send(message))

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    def abort(self) -> None:
        if self.transport is not None:
            self.transport.abort()


class TableClient:
    """A session with one table server (see the module docstring)."""

    def __init__(self, host: str, port: int, *, name: str = "", password: str | None = None,
                 spectate: bool = False, host_key: str | None = None, token: str | None = None,
                 settings: ClientSettings | None = None,
                 relocator: Relocator | None = None, unrated: bool = False,
                 door_key: str | None = None) -> None:
        # Where the table is: a relocated table's new place once the session resumed there.
        self.host = host
        self.port = port
        # Asked between reconnect attempts where the table may be now (None: nowhere else).
        self.relocator = relocator
        self.name = name
        self.password = password
        self.spectate = spectate
        self.host_key = host_key
        # Ask the table not to rate this player (`Hello.unrated`); from then on what the
        # table's lobbies confirm (`_follow_rated`), not what was last sent.
        self.unrated = unrated
        # A door in the table's own process says hello with the key the host gave it
        # (netproto.server.Server.trust_door): its users count under the door's cap.
        self.door_key = door_key
        self.token = token
        self.settings = settings or ClientSettings()
        self.welcome: Welcome | None = None
        self.lobby: Lobby | None = None
        self.view: View | None = None
        self._link: _Link | None = None
        self._queue: asyncio.Queue[Incoming] = asyncio.Queue()
        self._runner: asyncio.Task[None] | None = None
        self._closing = False
        self._closed: Closed | None = None

    # --- lifecycle -----------------------------------------------------------------------

    @classmethod
    async def connect(cls, host: str, port: int, **options: Any) -> TableClient:
        """Connect and complete the handshake (resume if `token` is given, else hello).

        Raises HandshakeRefused (with the server's error code; `WrongProtocol` when what
        answered is not a server of this protocol) or ConnectFailed (`NothingListening`,
        `Unreachable`) when no connection could be made.
        """
        client = cls(host, port, **options)
        await client.open()
        return client

    async def open(self) -> None:
        """Connect and complete the handshake; then start watching the link.

        A client that comes with a seat's token is not put off by a full server
        (RETRIED_WHILE_SEATED): it tries again on the reconnect schedule, for at most
        `reconnect_for`, since its seat is held meanwhile.
        """
        settings = self.settings
        started = time.monotonic()
        delay = settings.backoff_initial
        while True:
            try:
                link, welcome, extra = await self._handshake()
                break
            except HandshakeRefused as error:
                outage = time.monotonic() - started
                if (error.final or error.code not in RETRIED_WHILE_SEATED
                        or not settings.reconnect or outage >= settings.reconnect_for):
                    raise
                log.info("the table is full; trying again to take the seat back")
            wait, delay = self._backoff(delay, outage)
            await asyncio.sleep(wait)
        self._adopt(link, welcome, extra)
        self._runner = asyncio.create_task(self._run(), name=f"table-client-{self.name}")

    async def close(self, reason: str = "", *, code: str = "normal") -> None:
        """Say bye, close the link and end the iteration.

        `code` "normal" means the player left; any other (the app sends "hangup" when its
        terminal went away) tells the server the player did not choose to go.
        """
        self._closing = True
        link = self._link
        if link is not None and link.is_up:
            try:
                link.send(Bye(code=code, reason=reason))
            except Exception:  # the link failed under us: nothing more to say on it
                log.debug("could not say bye", exc_info=True)
            else:
                await self._linger(link)
        if link is not None:
            link.close()  # the transport flushes the bye first
        if self._runner is not None and self._runner is not asyncio.current_task():
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._runner
        self._finish("normal", reason or "closed by the client")

    async def _linger(self, link: _Link) -> None:
        """After the bye, end our side of the stream and read (dropping it) whatever the
        table still sends until it closes, for at most `ClientSettings.bye_linger` seconds.

        Closing a socket that has unread input makes the kernel reset the connection, and a
        table that writes to it before reading our bye then loses the bye with the reset:
        it saw a player vanish ("eof") and held the seat for its grace period.
        """
        transport = link.transport
        if transport is None or not transport.can_write_eof():
            return
        try:
            transport.write_eof()
        except OSError:
            return
        with contextlib.suppress(TimeoutError):
            # asyncio.timeout, not wait_for: on 3.11 wait_for can drop a cancellation.
            async with asyncio.timeout(self.settings.bye_linger):
                await asyncio.shield(link.done)

    def abort_link(self) -> None:
        """Drop the TCP connection at once, as a network failure would (for tests and drills).

        The session goes on: the client reconnects and resumes its seat as after any drop.
        """
        if self._link is not None:
            self._link.abort()

    async def __aenter__(self) -> TableClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # --- state ---------------------------------------------------------------------------

    @property
    def seat(self) -> int | None:
        """This session's seat, or None for a spectator (the lobby's `you` is the latest)."""
        if self.welcome is None or self.welcome.role != "player":
            return None
        if self.lobby is not None and self.lobby.you is not None:
            return self.lobby.you
        return self.welcome.seat

    @property
    def role(self) -> str | None:
        """"player" or "spectator" once welcomed."""
        return self.welcome.role if self.welcome else None

    @property
    def is_host(self) -> bool:
        """Whether this seat may start, add bots and change options."""
        if self.lobby is not None and self.seat is not None:
            return self.lobby.host_seat == self.seat
        return bool(self.welcome and self.welcome.host)

    @property
    def state(self) -> State:
        """The protocol state of the current link (CLOSED while reconnecting)."""
        return self._link.connection.state if self._link else State.CLOSED

    @property
    def closed(self) -> Closed | None:
        """Why the session ended, once it has."""
        return self._closed

    @property
    def queued(self) -> int:
        """How many received items (messages, notices) are waiting to be taken."""
        return self._queue.qsize()

    # --- receiving -----------------------------------------------------------------------

    def __aiter__(self) -> AsyncIterator[Incoming]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Incoming]:
        while True:
            item = await self._queue.get()
            yield item
            if isinstance(item, Closed):
                return

    async def recv(self, timeout: float | None = None) -> Incoming:
        """The next incoming item (raises TimeoutError after `timeout` seconds)."""
        async with asyncio.timeout(timeout):
            return await self._queue.get()

    async def wait_for(self, kind: type[Any], timeout: float | None = None,
                       predicate: Any = None) -> Any:
        """Skip incoming items until one of type `kind` (matching `predicate`) arrives.

        Raises ClientError if the session closes first.
        """
        queue = self._queue
        # What has already arrived is looked through first, with no timer armed.
        while not queue.empty():
            item = queue.get_nowait()
            if self._wanted(item, kind, predicate):
                return item
        # asyncio.timeout rather than wait_for: no task per call on the move path.
        async with asyncio.timeout(timeout):
            while True:
                item = await queue.get()
                if self._wanted(item, kind, predicate):
                    return item

    @staticmethod
    def _wanted(item: Incoming, kind: type[Any], predicate: Any) -> bool:
        """Whether `wait_for` is done with `item`; raises ClientError once the session closed."""
        if isinstance(item, kind) and (predicate is None or predicate(item)):
            return True
        if isinstance(item, Closed):
            raise ClientError(item.code, item.reason)
        return False

    # --- sending -------------------------------------------------------------------------

    async def send(self, message: Message) -> None:
        """Send any message allowed in the current state; raises NotConnected while down."""
        link = self._link
        if link is None or not link.is_up or self._closed:
            raise NotConnected("not-connected", "the link to the table is down")
        try:
            link.send(message)
        except LocalProtocolError as error:
            raise ClientError("unexpected-message", str(error)) from None

    async def send_move(self, move: dict[str, Any], seq: int | None = None) -> None:
        """Play a move, based by default on the latest view received."""
        if seq is None:
            if self.view is None:
                raise ClientError("no-view", "no view received yet")
            seq = self.view.seq
        await self.send(Move(seq=seq, move=move))

    async def ready(self, ready: bool = True) -> None:
        """Tell the table this seat is (not) ready for the next match."""
        await self.send(Ready(ready=ready))

    async def rated(self, rated: bool) -> None:
        """Ask the table to rate this player's play (or not: `rated` false)."""
        await self.send(Rated(rated=rated))

    async def start(self) -> None:
        """Host only: start the match or the rematch."""
        await self.send(Start())

    async def open_room(self) -> None:
        """Host only, after a match: take the table back to the waiting room."""
        await self.send(OpenRoom())

    async def add_bot(self, bot: str) -> None:
        """Host only: seat a bot of kind `bot`."""
        await self.send(AddBot(bot=bot))

    async def remove_bot(self, seat: int) -> None:
        """Host only: remove the bot in `seat`."""
        await self.send(RemoveBot(seat=seat))

    async def set_options(self, **options: Any) -> None:
        """Host only: change table options."""
        await self.send(SetOptions(options=dict(options)))

    async def say(self, text: str) -> None:
        """Say a line to everyone at the table (it comes back as a `Chat`, cleaned)."""
        await self.send(Say(text=text))

    async def emote(self, emote: str) -> None:
        """Send a quick emote by its name (the table says which names it knows)."""
        await self.send(Say(emote=emote))

    async def ping(self, nonce: int = 0) -> None:
        """Send a ping (the pong arrives as an incoming `Pong`)."""
        await self.send(Ping(nonce=nonce))

    # --- internals -----------------------------------------------------------------------

    async def _handshake(self, place: tuple[str, int] | None = None,
                         *, resume_only: bool = False) -> tuple[_Link, Welcome, list[Message]]:
        """Connect to `place` (default: the table's address) and complete the handshake.

        `resume_only`: offer the token and nothing else; a `bad-token` answer is final
        instead of falling back to `hello` (a relocated place may be another table).
        """
        settings = self.settings
        host, port = place if place is not None else (self.host, self.port)
        link = await self._open_link(host, port)
        try:
            async with asyncio.timeout(settings.handshake_timeout):
                return await self._greet(link, host, port, resume_only)
        except BaseException:
            link.abort()
            raise

    async def _open_link(self, host: str, port: int) -> _Link:
        """The TCP connection, or ConnectFailed saying why there is none."""
        settings = self.settings
        loop = asyncio.get_running_loop()
        try:
            # asyncio.timeout, not wait_for: on 3.11 wait_for can drop a cancellation
            # that lands as the connection opens, and the caller would go on with it.
            async with asyncio.timeout(settings.connect_timeout):
                _, link = await loop.create_connection(
                    lambda: _Link(settings.max_frame_size), host, port)
        except ConnectionRefusedError as error:
            raise NothingListening("nothing-listening", "connection refused", host, port,
                                   error) from None
        except TimeoutError:  # asyncio.TimeoutError is TimeoutError since Python 3.11
            raise Unreachable("unreachable", f"no answer within {settings.connect_timeout:g} s",
                              host, port, None) from None
        except OSError as error:
            raise Unreachable("unreachable", error.strerror or str(error), host, port,
                              error) from None
        return link

    async def _greet(self, link: _Link, host: str, port: int,
                     resume_only: bool) -> tuple[_Link, Welcome, list[Message]]:
        answer_timeout = self.settings.answer_timeout
        answer_by = asyncio.get_running_loop().time() + answer_timeout
        heard = False  # a valid message has come: the peer speaks this protocol
        inbox: asyncio.Queue[Any] = asyncio.Queue()
        link.listener = inbox.put_nowait
        link.done.add_done_callback(lambda done: inbox.put_nowait(ConnectionClosed(
            *done.result(), by_peer=True)))
        tried_resume = self.token is not None
        # A peer that spoke first with bytes that close the connection (an SSH banner, say)
        # leaves nothing to send to: what it sent is already in the inbox.
        if link.connection.state is State.HANDSHAKE:
            link.send(Resume(proto=PROTOCOL_VERSION, token=self.token or "") if tried_resume
                      else self._hello())
        while True:
            if heard:
                event = await inbox.get()
            else:
                try:
                    async with asyncio.timeout_at(answer_by):
                        event = await inbox.get()
                except TimeoutError:
                    event = await _answer_already_sent(inbox)
                    if event is None:
                        raise WrongProtocol(f"no answer within {answer_timeout:g} s", host,
                                            port, link.sample) from None
                if isinstance(event, Violation) and isinstance(event.error, _NOT_THIS_PROTOCOL):
                    raise WrongProtocol(
                        f"what it sent is not this protocol's frames ({event.error.code})",
                        host, port, link.sample)
                if isinstance(event, ConnectionClosed) and link.bye is not None:
                    # A table that said bye before our hello was read (it is full, say):
                    # it speaks this protocol, and its bye says why.
                    raise HandshakeRefused(link.bye.code, link.bye.reason,
                                           final=self._final(link.bye.code))
                if isinstance(event, ConnectionClosed) and link.sample:
                    raise WrongProtocol(
                        "it sent bytes that are not this protocol's frames, then closed", host,
                        port, link.sample)
                heard = not isinstance(event, (Violation, ConnectionClosed))
            if isinstance(event, Welcome):
                # Lobby and view often arrive with the welcome, and more may come before
                # the caller adopts the link: keep them all, in order, for `_adopt`.
                extra: list[Any] = []
                while not inbox.empty():
                    extra.append(inbox.get_nowait())
                link.listener = extra.append
                return link, event, extra
            if isinstance(event, Error):
                if tried_resume and event.code == "bad-token" and self.name and not resume_only:
                    # The seat is gone (new table, or expired): ask for a new one.
                    tried_resume = False
                    self.token = None
                    link.send(self._hello())
                    continue
                raise HandshakeRefused(event.code, event.reason)
            if isinstance(event, Bye):
                raise HandshakeRefused(event.code, event.reason, final=self._final(event.code))
            if isinstance(event, ConnectionClosed):
                raise HandshakeRefused(event.code, event.reason, final=False)
            if isinstance(event, Violation) and event.error.fatal:
                raise HandshakeRefused(event.error.code, event.error.reason,
                                       final=self._final(event.error.code))

    def _final(self, code: str) -> bool:
        """Whether a bye with `code` ends the session (see RETRIED_WHILE_SEATED)."""
        return code in FINAL_BYE_CODES and not (
            self.token is not None and code in RETRIED_WHILE_SEATED)

    def _hello(self) -> Hello:
        return Hello(proto=PROTOCOL_VERSION, name=self.name, password=self.password,
                     spectate=self.spectate, host_key=self.host_key,
                     unrated=True if self.unrated else None, door_key=self.door_key)

    def _adopt(self, link: _Link, welcome: Welcome, extra: list[Message],
               notice: Reconnected | None = None) -> None:
        self._link = link
        link.listener = self._on_event
        self.lobby = None  # the server follows the welcome with a fresh lobby
        if notice is not None:
            self._queue.put_nowait(notice)
        self.welcome = welcome
        if welcome.token:
            self.token = welcome.token
        self._queue.put_nowait(welcome)
        for event in extra:
            if not isinstance(event, ConnectionClosed):
                self._on_event(event)

    def _deliver(self, item: Incoming) -> None:
        if isinstance(item, Lobby):
            self.lobby = item
            self._follow_rated(item)
        elif isinstance(item, View):
            self.view = item
        self._queue.put_nowait(item)

    def _follow_rated(self, lobby: Lobby) -> None:
        """Keep the rating choice the table confirmed (`lobby.seats[i].unrated` of this
        seat), for a `hello` after a host restart (which forgot the seat) to ask for again.
        Only what the table says counts, not what was sent: a `rated` it refused
        (`match-running`, `slow-down`) must not come back with the next hello. A table that
        rates nobody (`welcome.table.rates` absent) says nothing about it: the choice the
        client was started with stays."""
        welcome = self.welcome
        if lobby.you is None or welcome is None or welcome.table.get("rates") is not True:
            return
        mine = next((seat for seat in lobby.seats if seat.seat == lobby.you), None)
        if mine is not None:
            self.unrated = mine.unrated

    def _finish(self, code: str, reason: str) -> None:
        if self._closed is None:
            self._closed = Closed(code, reason)
            self._queue.put_nowait(self._closed)

    async def _run(self) -> None:
        try:
            while True:
                link = self._link
                assert link is not None  # set by `_adopt` before `_run` starts and never cleared
                code, reason = await self._pump(link)
                if self._closing:
                    return
                # A player comes back to its seat with its token; a spectator, who has
                # none, says hello again and goes on watching (the table's first view
                # tells it what it missed).
                retry = (self.settings.reconnect
                         and (self.token is not None or self.role == "spectator")
                         and not self._final(code))
                self._queue.put_nowait(Disconnected(reason=f"{code}: {reason}",
                                                    will_retry=retry))
                if not retry:
                    self._finish(code, reason)
                    return
                if not await self._reconnect():
                    return
        except asyncio.CancelledError:
            raise
        except Exception as error:  # never leave the iterator hanging
            log.exception("table client failed")
            self._finish("client-error", str(error))

    def _on_event(self, event: Any) -> None:
        if isinstance(event, Violation):
            log.warning("table sent something bad: %s", event.error)
        elif not isinstance(event, Bye):
            self._deliver(event)

    async def _pump(self, link: _Link) -> tuple[str, str]:
        """Wait until the link ends (or falls silent); return (code, reason) of its end."""
        timeout = self.settings.heartbeat_timeout
        while True:
            finished, _ = await asyncio.wait({link.done}, timeout=min(1.0, timeout / 4))
            if finished:
                return link.done.result()
            if time.monotonic() - link.last_received > timeout:
                link.abort()
                return "heartbeat-timeout", f"nothing heard from the table for {timeout:g} s"

    def _backoff(self, delay: float, outage: float) -> tuple[float, float]:
        """How long to wait before the next attempt, and the delay the one after starts from
        (see `ClientSettings` for the schedule)."""
        settings = self.settings
        cap = settings.backoff_max if outage < settings.fast_retry_for else max(
            settings.backoff_max, settings.backoff_max_later)
        delay = min(delay, cap)
        wait = delay * (1.0 - settings.backoff_jitter * random.random())
        return wait, min(delay * 2, cap)

    async def _reconnect(self) -> bool:
        settings = self.settings
        dropped = time.monotonic()
        deadline = dropped + settings.reconnect_for
        delay = settings.backoff_initial
        attempts = 0
        try:
            while time.monotonic() < deadline and not self._closing:
                wait, delay = self._backoff(delay, time.monotonic() - dropped)
                await asyncio.sleep(wait)
                attempts += 1
                try:
                    link, welcome, extra = await self._handshake()
                except HandshakeRefused as error:
                    if error.final:
                        self._finish(error.code, error.reason)
                        return False
                    # The link failed mid-handshake: look elsewhere, back off, try again.
                    resumed = await self._resume_elsewhere()
                except (ConnectFailed, OSError, TimeoutError):
                    resumed = await self._resume_elsewhere()
                else:
                    resumed = (link, welcome, extra)
                if resumed is not None and not self._closing:
                    self._adopt(*resumed, notice=Reconnected(attempts=attempts))
                    return True
                if resumed is not None:  # closed meanwhile: nobody wants the new link
                    resumed[0].abort()
            if not self._closing:
                self._finish("gave-up",
                             f"could not reach the table for {settings.reconnect_for:g} s")
            return False
        finally:
            if self.relocator is not None:
                with contextlib.suppress(Exception):
                    await self.relocator.close()

    async def _resume_elsewhere(self) -> tuple[_Link, Welcome, list[Message]] | None:
        """Resume at a place the relocator names, if any; the session moves there.

        Only the token is offered there, and any refusal (a `bad-token` from another table
        of the same name, say) just rules that place out: it was a guess.
        """
        relocator = self.relocator
        if relocator is None or self.token is None:
            return None
        try:
            places = await relocator.candidates()
        except Exception:  # finding the table again is a bonus: never end the session for it
            log.warning("looking for the table elsewhere failed", exc_info=True)
            return None
        for host, port in places:
            if (host, port) == (self.host, self.port) or self._closing:
                continue
            try:
                resumed = await self._handshake((host, port), resume_only=True)
            except (ClientError, OSError, TimeoutError) as error:
                log.info("the table is not at %s:%s: %s", host, port, error)
                continue
            log.info("the table moved to %s:%s; the session resumed there", host, port)
            self.host, self.port = host, port
            return resumed
        return None
