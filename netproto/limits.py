"""Rate limiters for the server pump, as pure values: the caller passes the time in.

No clock and no I/O here, so each limiter is tested with a fake clock; the pump passes
`Server`'s clock (time.monotonic unless a test injects one).
"""

from __future__ import annotations

import ipaddress
import logging
from collections import deque
from typing import Any


def address_key(peername: object) -> str:
    """The address a connection's limits are counted under: the peer's IP address.

    IPv4 peers seen through an IPv6 socket (``::ffff:a.b.c.d``) count as their IPv4
    address, so one machine is one address whichever socket it reached. Anything that is
    not an (address, port, ...) tuple counts as one shared address, "?".
    """
    if not isinstance(peername, tuple) or not peername or not isinstance(peername[0], str):
        return "?"
    host = peername[0]
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(address)


class TokenBucket:
    """Allows `burst` events at once, refilled at `rate` events per second."""

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._updated = now

    def take(self, now: float) -> bool:
        """Spend one token if there is one; False means the event is over the rate."""
        elapsed = max(0.0, now - self._updated)
        self._tokens = min(float(self.burst), self._tokens + elapsed * self.rate)
        self._updated = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False


class FailureWindow:
    """Counts failures per address over a sliding window; `limit` of them blocks it.

    Used for bad resume tokens: once an address has had `limit` refused within the last
    `window` seconds, `retry_after` is how long until the oldest of them falls out of the
    window and one more attempt is allowed. Blocked attempts are not failures: they never
    reach whatever could fail them.
    """

    # Past this many addresses, forget those whose failures all left the window.
    _SWEEP_AT = 1024

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._failures: dict[str, deque[float]] = {}

    def record(self, address: str, now: float) -> None:
        """One failure from `address` at `now`."""
        failures = self._failures.setdefault(address, deque())
        self._expire(failures, now)
        failures.append(now)
        if len(self._failures) > self._SWEEP_AT:
            self._sweep(now)

    def retry_after(self, address: str, now: float) -> float:
        """0 if `address` may try now, else the seconds until it may."""
        failures = self._failures.get(address)
        if failures is None:
            return 0.0
        self._expire(failures, now)
        if not failures:
            del self._failures[address]
            return 0.0
        if len(failures) < self.limit:
            return 0.0
        return failures[len(failures) - self.limit] + self.window - now

    def _expire(self, failures: deque[float], now: float) -> None:
        while failures and failures[0] <= now - self.window:
            failures.popleft()

    def _sweep(self, now: float) -> None:
        for address in list(self._failures):
            failures = self._failures[address]
            self._expire(failures, now)
            if not failures:
                del self._failures[address]


class QuietLog:
    """Log lines about what peers do, at most `burst` at once and `per_second` after that
    for each kind of line, so that a flood of bad connections cannot flood the log too.
    Lines held back are counted and the count is added to the next line of that kind."""

    def __init__(self, logger: logging.Logger, *, burst: int = 10,
                 per_second: float = 1.0) -> None:
        self.logger = logger
        self.burst = burst
        self.per_second = per_second
        self._buckets: dict[str, TokenBucket] = {}
        self._held_back: dict[str, int] = {}

    def log(self, now: float, level: int, kind: str, message: str, *args: Any) -> None:
        """Log `message % args` unless lines of `kind` are over their rate."""
        if not self.logger.isEnabledFor(level):
            return
        bucket = self._buckets.get(kind)
        if bucket is None:
            bucket = self._buckets[kind] = TokenBucket(self.per_second, self.burst, now)
        if not bucket.take(now):
            self._held_back[kind] = self._held_back.get(kind, 0) + 1
            return
        held_back = self._held_back.pop(kind, 0)
        if held_back:
            message += " (%d more like this were not logged)"
            args = (*args, held_back)
        self.logger.log(level, message, *args)
