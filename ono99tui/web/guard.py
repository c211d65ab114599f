"""The web door's connections before they play: how many, for how long, and what is logged.

Anyone who reaches the door's port may open connections, password or not, and aiohttp
takes every one and waits for its request as long as it likes: 400 idle or one-byte-a-
second sockets stayed open 80 s, and 1,400 of them at a limit of 1,024 descriptors locked
out the table's port too. `ConnectionGuard` stands between the listening socket and
aiohttp's request handler (`aiohttp.web.Server`, its documented low-level protocol
factory), and holds every connection that is not running a game in an `AdmissionPool`:

- at most `HttpLimits.per_address` from one address and `in_all` in all; a newcomer with no
  room displaces the oldest idle one of its own address (over its share) or of the address
  holding the most, so a browser always gets in while the door is full of idle sockets;
- a request's headers must be in within `header_timeout` of its first byte (or of the
  connection, for the first request), a kept-alive connection may wait `idle_timeout` for
  its next request, and a request may take `request_timeout` to be served; the game's
  websocket leaves the pool once its game runs (the session cap and heartbeat bound it);
- while fewer than the reserve of descriptors is free (`DescriptorBudget`), a new
  connection is closed at once, so the table keeps its own.

`QuietHttpLog` makes aiohttp's one traceback per malformed request one line per cause a
minute, with a count (500 bad requests wrote 358 KB).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from netproto.admission import AdmissionPool
from netproto.descriptors import DescriptorBudget
from netproto.limits import QuietLog, address_key
from ono99tui.web.config import HttpLimits

log = logging.getLogger("ono99tui.web")

# Stages of a connection in the pool: an idle one (or one still sending its headers) goes
# before one whose request is being served.
WAITING = 0
SERVING = 1
_TICK = 0.25
_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 5\r\n"
         b"Content-Type: text/plain; charset=utf-8\r\nContent-Length: 45\r\n\r\n"
         b"The door is busy: try again in a few seconds\n")


class _Guarded(asyncio.Protocol):
    """One connection: aiohttp's request handler behind the guard's checks."""

    def __init__(self, guard: ConnectionGuard, inner: asyncio.Protocol) -> None:
        self.guard = guard
        self.inner = inner
        self.transport: asyncio.Transport | None = None
        self.address = "?"
        # Whether bytes of a request arrived since the last response (its header clock).
        self.reading = False
        self.admitted = False
        self.requests = 0  # requests being served now (a pipelined one may overlap)
        self.served = False  # a request was served: the next one's clock starts anew
        self.playing = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.address = address_key(transport.get_extra_info("peername"))
        self.admitted = self.guard.admit(self)
        if self.admitted:
            self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if not self.admitted:
            return  # answered 503 and closing: what it sent is not read
        if not self.reading and not self.requests and not self.playing:
            self.reading = True
            self.guard.request_started_arriving(self)
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.forget(self)
        if self.admitted:  # aiohttp never saw a refused one
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


class ConnectionGuard:
    """Admission, deadlines and the descriptor reserve for one web door (module doc)."""

    def __init__(self, limits: HttpLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.pool: AdmissionPool[_Guarded] = AdmissionPool(limits.per_address, limits.in_all)
        self.descriptors = DescriptorBudget(clock, reserve=limits.descriptor_reserve)
        self._by_transport: dict[asyncio.BaseTransport, _Guarded] = {}
        self._admitted: set[_Guarded] = set()
        self._log = QuietLog(log)
        self._watch: asyncio.Task[None] | None = None
        self.refused = 0  # connections closed at once, for tests and figures

    def protocol_factory(self, server: web.Server) -> Callable[[], asyncio.Protocol]:
        """What `loop.create_server` calls for each connection."""
        return lambda: _Guarded(self, server())

    def start(self) -> None:
        """Start the timer that closes connections past their deadline."""
        self._watch = asyncio.create_task(self._watch_connections(), name="web-door-guard")

    def stop(self) -> None:
        """Stop the timer and write the log's last counts."""
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        self._log.close(self.clock())

    def quiet_log(self, level: int, kind: str, message: str, *args: object,
                  exc_info: Any = None) -> None:
        """A line about what a client does: one per kind a minute, with a count."""
        self._log.log(self.clock(), level, kind, message, *args, exc_info=exc_info)

    @property
    def connections(self) -> int:
        """Connections open through the guard (playing ones too)."""
        return len(self._admitted)

    # -- what the protocol and the middleware tell it -----------------------------------

    def admit(self, connection: _Guarded) -> bool:
        """Whether a new connection may stay; if not, it is answered 503 and closed."""
        transport = connection.transport
        assert transport is not None
        now = self.clock()
        if not self.descriptors.room():
            self.quiet_log(logging.ERROR, "descriptors",
                           "web door: refused a connection from %s, to keep %d file "
                           "descriptors free for the table", connection.address,
                           self.descriptors.reserve)
            self._refuse(transport)
            return False
        admission = self.pool.admit(connection, connection.address, now,
                                    now + self.limits.header_timeout)
        for victim in admission.displaced:
            self.quiet_log(logging.WARNING, "displaced", "web door full: %s",
                           admission.reason)
            self._close(victim)
        if not admission.admitted:
            self.quiet_log(logging.WARNING, "refused",
                           "web door: refused a connection from %s: %s", connection.address,
                           admission.reason)
            self._refuse(transport)
            return False
        self._by_transport[transport] = connection
        self._admitted.add(connection)
        return True

    def request_started_arriving(self, connection: _Guarded) -> None:
        """The first bytes of a request came: its headers must all be in soon (the first
        request's clock started with the connection)."""
        if connection.served and connection in self.pool:
            self.pool.set_stage(connection, WAITING,
                                self.clock() + self.limits.header_timeout)

    def request_began(self, transport: asyncio.BaseTransport | None) -> None:
        """aiohttp parsed a request's headers and runs its handler."""
        connection = self._by_transport.get(transport) if transport is not None else None
        if connection is None:
            return
        connection.reading = False
        connection.requests += 1
        self.pool.set_stage(connection, SERVING, self.clock() + self.limits.request_timeout)

    def request_ended(self, transport: asyncio.BaseTransport | None) -> None:
        """A request's handler returned: the connection is idle (kept alive) again."""
        connection = self._by_transport.get(transport) if transport is not None else None
        if connection is None:
            return
        connection.requests = max(0, connection.requests - 1)
        connection.served = True
        if not connection.requests and not connection.playing:
            self.pool.set_stage(connection, WAITING, self.clock() + self.limits.idle_timeout)

    def playing(self, transport: asyncio.BaseTransport | None) -> None:
        """This connection's websocket runs a game: the session cap and the websocket's
        heartbeat bound it from now on, not the pool."""
        connection = self._by_transport.get(transport) if transport is not None else None
        if connection is not None:
            connection.playing = True
            self.pool.forget(connection)

    def forget(self, connection: _Guarded) -> None:
        """The connection closed."""
        self.pool.forget(connection)
        self._admitted.discard(connection)
        if connection.transport is not None:
            self._by_transport.pop(connection.transport, None)

    def middleware(self) -> Callable[..., Awaitable[web.StreamResponse]]:
        """The aiohttp middleware that tells the guard when each request is served."""

        @web.middleware
        async def track(request: web.Request, handler: Any) -> web.StreamResponse:
            self.request_began(request.transport)
            try:
                response: web.StreamResponse = await handler(request)
                return response
            finally:
                self.request_ended(request.transport)

        return track

    # -- closing -------------------------------------------------------------------------

    def _refuse(self, transport: asyncio.Transport) -> None:
        self.refused += 1
        transport.write(_BUSY)
        transport.close()

    def _close(self, connection: _Guarded) -> None:
        if connection.transport is not None:
            connection.transport.close()

    async def _watch_connections(self) -> None:
        while True:
            await asyncio.sleep(_TICK)
            self.check_deadlines(self.clock())

    def check_deadlines(self, now: float) -> None:
        """Close every connection past its deadline (the guard's timer calls this)."""
        for connection in self.pool.expired(now):
            if connection.requests:
                kind, what = "slow-request", "a request not served within %g s"
                limit = self.limits.request_timeout
            elif connection.reading:
                kind, what = "slow-headers", "a request's headers not in within %g s"
                limit = self.limits.header_timeout
            else:
                kind, what = "idle", "no request for %g s"
                limit = self.limits.idle_timeout
            self.quiet_log(logging.INFO, kind, "web door: closed a connection from %s: " + what,
                           connection.address, limit)
            self._close(connection)
        self._log.flush(now)


class QuietHttpLog(logging.Filter):
    """A filter for the logger aiohttp's request handlers write to: each failed request
    becomes one line per cause a minute, with a count, instead of a traceback each.

    A malformed request (aiohttp's `HttpProcessingError`: what scanners and attackers
    send) is a line without a traceback; any other failure keeps its traceback on the first
    line of its kind in a minute (it is a bug of the door's to look at).
    """

    def __init__(self, quiet: Callable[..., None]) -> None:
        super().__init__()
        self._quiet = quiet

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.ERROR or record.exc_info is None:
            return True
        error = record.exc_info[1]
        remote = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
        if isinstance(error, HttpProcessingError):
            text = (str(getattr(error, "message", "")) or str(error)).strip()
            words = text.splitlines()[0][:200] if text else type(error).__name__
            self._quiet(logging.WARNING, f"bad-request:{type(error).__name__}",
                        "web door: a malformed HTTP request from %s: %s", remote, words)
        else:
            self._quiet(logging.ERROR, f"failed:{type(error).__name__}",
                        "web door: an HTTP request from %s failed: %s: %s", remote,
                        type(error).__name__, str(error)[:200], exc_info=record.exc_info)
        return False
