"""Is anything still listening at an advertised address? A plain TCP connect tells.

A host that dies without an mDNS goodbye (killed, powered off, unplugged) stays in every
browser's cache until its records expire, which takes minutes. A TCP connection to its
port answers within milliseconds on a LAN: refused when the process is gone, no answer at
all when the machine or its cable is. The probe closes the connection as soon as it
opens, before any handshake, so a live server sees a peer that came and went and has
nothing to log. docs/DISCOVERY.md describes how the lobby and `ono99 list` use this.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Self

log = logging.getLogger(__name__)

# A LAN connect takes about a millisecond; two seconds leave room for one lost SYN (Linux
# resends it after one second) before a table is called silent.
PROBE_TIMEOUT_SECONDS = 2.0
PROBE_INTERVAL_SECONDS = 4.0
MAX_CONCURRENT_PROBES = 8


async def answers(address: str, port: int, timeout: float = PROBE_TIMEOUT_SECONDS) -> bool:
    """Whether a TCP connection to `address:port` (an IP address) opens within `timeout` s.

    The connection is closed at once. Refused, unreachable and silent all give False.
    """
    family = socket.AF_INET6 if ipaddress.ip_address(address).version == 6 else socket.AF_INET
    loop = asyncio.get_running_loop()
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setblocking(False)
        try:
            async with asyncio.timeout(timeout):
                await loop.sock_connect(sock, (address, port))
        except OSError:  # TimeoutError is one too
            return False
    return True


async def any_answers(
    addresses: Sequence[str], port: int, timeout: float = PROBE_TIMEOUT_SECONDS
) -> bool:
    """Whether `port` answers at one of `addresses`, tried in turn as joining tries them."""
    for address in addresses:
        if await answers(address, port, timeout):
            return True
    return False


@dataclass(frozen=True)
class _Target:
    addresses: tuple[str, ...]
    port: int


class ReachabilityWatch:
    """Probes each watched target at once and then every `interval` seconds.

    `on_change(key, answering)` is called on the event loop with a target's first answer
    and each time the answer changes. At most `max_concurrent` connections are being
    opened at any moment, however many targets there are. Use it as
    `async with ReachabilityWatch(on_change) as watch:`; leaving the block cancels every
    probe. `pause()` stops probing (a screen out of sight), `resume()` probes everything
    again at once.
    """

    def __init__(
        self,
        on_change: Callable[[str, bool], None],
        *,
        interval: float = PROBE_INTERVAL_SECONDS,
        timeout: float = PROBE_TIMEOUT_SECONDS,
        max_concurrent: int = MAX_CONCURRENT_PROBES,
    ) -> None:
        if interval <= 0 or timeout <= 0 or max_concurrent < 1:
            raise ValueError("interval and timeout must be positive, max_concurrent at least 1")
        self._on_change = on_change
        self._interval = interval
        self._timeout = timeout
        self._slots = asyncio.Semaphore(max_concurrent)
        self._targets: dict[str, _Target] = {}
        self._answering: dict[str, bool] = {}
        self._probes_made: dict[str, int] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._paused = False
        self._closed = False

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    def watch(self, key: str, addresses: Sequence[str], port: int) -> None:
        """Start probing `key`'s addresses and port, or re-probe at once if they changed."""
        if self._closed:
            return
        target = _Target(tuple(addresses), port)
        if self._targets.get(key) == target:
            return
        self._targets[key] = target
        if not self._paused:
            self._start(key)

    def forget(self, key: str) -> None:
        """Stop probing `key` and drop what is known about it."""
        self._targets.pop(key, None)
        self._answering.pop(key, None)
        self._probes_made.pop(key, None)
        task = self._tasks.pop(key, None)
        if task is not None:
            task.cancel()

    def answering(self, key: str) -> bool | None:
        """The last answer for `key`: True, False, or None before its first probe ends."""
        return self._answering.get(key)

    def probes_made(self, key: str) -> int:
        """How many probes of `key` have finished since it was first watched."""
        return self._probes_made.get(key, 0)

    def pause(self) -> None:
        """Stop probing until `resume()`; targets and answers are kept."""
        self._paused = True
        for task in self._tasks.values():
            task.cancel()
        self._tasks.clear()

    def resume(self) -> None:
        """Probe every target again at once, then on the usual interval."""
        if self._closed or not self._paused:
            return
        self._paused = False
        for key in self._targets:
            self._start(key)

    async def close(self) -> None:
        """Cancel every probe and wait until they are gone; safe to call twice."""
        self._closed = True
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _start(self, key: str) -> None:
        previous = self._tasks.pop(key, None)
        if previous is not None:
            previous.cancel()
        self._tasks[key] = asyncio.create_task(self._follow(key), name=f"probe {key}")

    async def _follow(self, key: str) -> None:
        while True:
            target = self._targets[key]
            async with self._slots:
                answering = await any_answers(target.addresses, target.port, self._timeout)
            self._probes_made[key] = self._probes_made.get(key, 0) + 1
            if self._answering.get(key) is not answering:
                self._answering[key] = answering
                try:
                    self._on_change(key, answering)
                except Exception:
                    # A faulty listener must not stop the probes.
                    log.exception("reachability listener failed on %s", key)
            await asyncio.sleep(self._interval)
