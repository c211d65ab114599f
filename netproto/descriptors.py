"""How many file descriptors this process has left, so that a door never takes the last ones.

A flood of 1,400 connections at the usual limit of 1,024 descriptors used to take them all:
accept() failed for every listening socket, the table's port included, and asyncio logged
each failure. A door asks `DescriptorBudget.room` before it keeps a new connection: past
the reserve, the connection is closed at once and the descriptors stay for the table.
"""

from __future__ import annotations

import os
import resource
from collections.abc import Callable

# Where this process's open descriptors are listed (Linux, then the BSDs and macOS).
_FD_DIRS = ("/proc/self/fd", "/dev/fd")


def descriptor_limit() -> int:
    """The soft limit on open descriptors (RLIMIT_NOFILE); a large number if unlimited."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def open_descriptors() -> int | None:
    """How many descriptors this process has open, or None where that cannot be read."""
    for path in _FD_DIRS:
        try:
            # The listing itself holds one while it runs.
            return max(0, len(os.listdir(path)) - 1)
        except OSError:
            continue
    return None


def default_reserve(limit: int) -> int:
    """Descriptors kept free for the table: a quarter of the limit, at least 128."""
    return max(128, limit // 4)


class DescriptorBudget:
    """Whether one more connection may be kept while `reserve` descriptors stay free.

    Counting the open descriptors lists a directory; under a flood that is done at most
    every `recount_every` seconds, and the connections taken since the last count are
    added to it.
    """

    def __init__(self, clock: Callable[[], float], *, reserve: int | None = None,
                 recount_every: float = 0.1) -> None:
        self._clock = clock
        self.limit = descriptor_limit()
        self.reserve = default_reserve(self.limit) if reserve is None else reserve
        self._recount_every = recount_every
        self._counted_at = -float("inf")
        self._count = 0
        self._taken_since = 0

    def room(self) -> bool:
        """Whether a connection just accepted may be kept (it is counted as taken)."""
        now = self._clock()
        if now - self._counted_at >= self._recount_every:
            count = open_descriptors()
            if count is None:
                return True  # nothing to count with: the doors' own caps still hold
            self._count, self._taken_since, self._counted_at = count, 0, now
        else:
            self._taken_since += 1
        return self.limit - (self._count + self._taken_since) > self.reserve
