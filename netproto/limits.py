"""Rate limiters for the server pump, as pure values: the caller passes the time in.

No clock and no I/O here, so each limiter is tested with a fake clock; the pump passes
`Server`'s clock (time.monotonic unless a test injects one).
"""

from __future__ import annotations

import ipaddress
import logging
from collections import deque
from dataclasses import dataclass
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

    def give_back(self) -> None:
        """Return one token `take` spent (up to the burst)."""
        self._tokens = min(float(self.burst), self._tokens + 1.0)


class FailureWindow:
    """Counts failures per address over a sliding window; `limit` of them blocks it.

    Used for bad resume tokens: once an address has had `limit` refused within the last
    `window` seconds, `retry_after` is how long until the oldest of them falls out of the
    window. What the caller does meanwhile is its own affair (the server pump closes the
    connection of each further bad token, and lets a good one in); it records only the
    failures it answered as usual, so an address holds at most `limit` of them.
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
    """Log lines about what peers do, one line per kind per interval, with a count.

    The first line of a kind is logged at once. The others within the next `interval`
    seconds are only counted; when the interval is over, one line (the last one's words)
    says how many there were, and a new interval starts. A kind whose interval passed
    with nothing more is forgotten, so its next line is again logged at once. So a flood,
    however long, costs two lines per interval at most: a flood of connections cannot
    flood the log too. The closing line is written by the next line of its kind or by
    `flush`, which the owner calls from a timer it runs anyway.
    """

    def __init__(self, logger: logging.Logger, *, interval: float = 60.0) -> None:
        self.logger = logger
        self.interval = interval
        # For each kind: when its interval started, and the lines held back since then
        # (how many, and the last one's level, message and arguments).
        self._since: dict[str, float] = {}
        self._held: dict[str, tuple[int, int, str, tuple[Any, ...]]] = {}

    def log(self, now: float, level: int, kind: str, message: str, *args: Any,
            exc_info: Any = None) -> bool:
        """Log `message % args`, or count it if a line of `kind` was logged lately; whether
        it was written. `exc_info` (a traceback) goes with a written line only."""
        if not self.logger.isEnabledFor(level):
            return False
        since = self._since.get(kind)
        if since is not None and now - since >= self.interval and not self._close(kind, now):
            since = None  # the last interval ended quietly: the kind was forgotten
        if since is None:
            self._since[kind] = now
            self.logger.log(level, message, *args, exc_info=exc_info)
            return True
        count = self._held[kind][0] if kind in self._held else 0
        self._held[kind] = (count + 1, level, message, args)
        return False

    def flush(self, now: float) -> None:
        """Write the closing line of every kind whose interval is over."""
        for kind in [kind for kind, since in self._since.items()
                     if now - since >= self.interval]:
            self._close(kind, now)

    def close(self, now: float) -> None:
        """Write every count still held back, whatever its interval (the owner stops)."""
        for kind in list(self._since):
            if kind in self._held:
                self._close(kind, now)
        self._since.clear()

    def held_back(self, kind: str) -> int:
        """How many lines of `kind` are counted but not written yet."""
        held = self._held.get(kind)
        return held[0] if held is not None else 0

    def _close(self, kind: str, now: float) -> bool:
        """End `kind`'s interval: its count in one line (and a new interval), or forget it
        if nothing was held back. Whether a line was written."""
        held = self._held.pop(kind, None)
        if held is None:
            del self._since[kind]
            return False
        count, level, message, args = held
        elapsed = now - self._since[kind]
        self._since[kind] = now
        self.logger.log(level, message + " (%d more like this in the last %d s)", *args,
                        count, round(elapsed))
        return True


@dataclass(frozen=True)
class GuessPolicy:
    """How fast passwords may be guessed (`GuessThrottle`); docs/WEB.md and docs/SSH.md give
    the rates these defaults allow and how long a password holds at them."""

    # Per address: this many wrong guesses cost nothing; after them, each wrong guess makes
    # the next one wait first_pause, then twice as long each time, up to max_pause.
    free_per_address: int = 3
    first_pause: float = 1.0
    max_pause: float = 60.0
    # In all: once this many wrong guesses (from any addresses) are recent, the guesses of
    # addresses that were wrong before wait in turn, first_pause_in_all apart and twice as
    # long for each wrong guess more, up to max_pause_in_all.
    free_in_all: int = 10
    first_pause_in_all: float = 0.05
    max_pause_in_all: float = 1.0
    # Addresses with no wrong guess on record skip the wait in all (an honest player does
    # not queue behind a guesser) as long as first guesses stay rare: fresh_burst of them,
    # refilled at fresh_per_second; past that (many new addresses guessing, as a machine
    # with many IPv6 addresses could) they wait in turn like the others.
    fresh_burst: int = 20
    fresh_per_second: float = 1 / 30
    # A wrong guess is forgotten this long after it was made.
    forget_after: float = 600.0
    # Addresses remembered at most; past this, those with the oldest last guess go first.
    max_addresses: int = 4096

    def pause_after(self, wrong: int) -> float:
        """The wait one address owes after its `wrong`-th recent wrong guess."""
        if wrong < self.free_per_address:
            return 0.0
        return min(self.max_pause,
                   self.first_pause * 2.0 ** min(64, wrong - self.free_per_address))

    def pause_in_all(self, wrong: int) -> float:
        """How far apart the waiting guesses go while `wrong` wrong guesses are recent."""
        if wrong < self.free_in_all:
            return 0.0
        return min(self.max_pause_in_all,
                   self.first_pause_in_all * 2.0 ** min(64, wrong - self.free_in_all))

    def guesses_per_second(self, addresses: int = 1) -> float:
        """The most wrong guesses a second, held up over time, from `addresses` addresses."""
        per_address = addresses / self.max_pause
        return min(per_address, 1 / self.max_pause_in_all) + self.fresh_per_second


class _Record:
    __slots__ = ("wrong", "last", "asks", "waiting_since", "next_in_line", "in_flight")

    def __init__(self, now: float) -> None:
        self.wrong: deque[float] = deque()  # when each recent wrong guess was made
        self.last = now  # when it last asked
        self.asks = 0  # guesses turned away since its last one was checked
        self.waiting_since = now  # when the first of those was turned away
        # Its last guess was turned away only because the next turn had not come yet, and
        # it was first in line for it.
        self.next_in_line = False
        self.in_flight = False

    def place(self, now: float, asking: bool = False) -> tuple[int, int, float]:
        """Its place in line: the fewest recent wrong guesses first, then the fewest guesses
        turned away since its last check (counting the one it is `asking` now), then the
        one waiting longest (one that is not waiting yet starts to at `now`)."""
        return (len(self.wrong), self.asks + asking,
                self.waiting_since if self.asks else now)


class GuessThrottle:
    """Password guesses per address and in all, with exponential back-off (`GuessPolicy`).

    `begin(address, now)` before a password is checked: 0 means check it now (the guess is
    then in flight until `finish`), anything else is how many seconds the address must
    wait, and the password must not be looked at. `finish(address, right, now)` records
    the outcome. An address has one guess in flight at a time. A right password does not
    wipe an address's wrong ones: a guest who knows the table password must not reset the
    back-off of their guesses at the admin password; wrong guesses are forgotten with time.

    The turns in all go to the address first in line, not to the first that asks: of the
    addresses turned away since their last check, the one with the fewest recent wrong
    guesses, then the one turned away the fewest times since (guessers ask thousands of
    times a second, a person once a try), then the one waiting longest. So a player who has
    not guessed wrong (or who mistyped once) has the next turn, or waits behind addresses
    as clean that asked as seldom and came first, never starved by the guessers. (Before,
    the newest came first among equals: ten guessing addresses whose first guess came after
    a player's each went first, and the player was turned away for ten seconds; with the
    one waiting longest first, and no count, those that came before it did the same.)
    """

    def __init__(self, policy: GuessPolicy | None = None, *, now: float = 0.0) -> None:
        self.policy = policy or GuessPolicy()
        self._records: dict[str, _Record] = {}
        # Every recent wrong guess, from anywhere (as many as the pause in all can use).
        self._wrong_in_all: deque[float] = deque()
        # The earliest time the next guess that waits in turn may be checked.
        self._next_turn = now
        self._fresh = TokenBucket(self.policy.fresh_per_second, self.policy.fresh_burst, now)
        self.checked = 0  # guesses let through, for figures
        self.refused = 0  # guesses turned away unchecked, for figures and log lines

    def begin(self, address: str, now: float) -> float:
        """0 if a guess from `address` may be checked now, else the seconds it must wait."""
        policy = self.policy
        record = self._records.get(address)
        if record is None:
            record = self._records[address] = _Record(now)
            if len(self._records) > policy.max_addresses:
                self._sweep(now, keep=address)
        record.last = now
        self._expire(record.wrong, now)
        if record.in_flight:
            # One at a time: ask again once it is answered.
            return self._refuse(record, 1.0, now)
        wait = self._own_wait(record, now)
        if wait > 0:
            return self._refuse(record, wait, now)
        # A first try (no wrong guess, not turned away since its last check) may skip the
        # line while such tries stay rare.
        if record.wrong or record.asks or not self._fresh.take(now):
            self._expire(self._wrong_in_all, now)
            pause = policy.pause_in_all(len(self._wrong_in_all))
            if pause > 0:
                first = self._first_in_line(record, now)
                if self._next_turn > now:
                    return self._refuse(record, self._next_turn - now, now, next_in_line=first)
                if not first:
                    return self._refuse(record, pause, now)
                self._next_turn = now + pause
        record.in_flight = True
        record.asks = 0
        self.checked += 1
        return 0.0

    def finish(self, address: str, right: bool, now: float) -> None:
        """The outcome of the guess `begin` let through."""
        record = self._records.get(address)
        if record is None:
            return
        record.in_flight = False
        if right:
            if not record.wrong:
                self._fresh.give_back()  # an honest first try costs no one a fresh guess
            return
        record.wrong.append(now)
        record.last = now
        self._wrong_in_all.append(now)
        # Past saturation older entries change nothing: keep what the pauses can use.
        policy = self.policy
        keep = policy.free_per_address + 64
        while len(record.wrong) > keep:
            record.wrong.popleft()
        while len(self._wrong_in_all) > policy.free_in_all + 64:
            self._wrong_in_all.popleft()

    def short_wait(self, address: str, wait: float) -> bool:
        """Whether `wait` (from `begin`) is only a turn in line, worth waiting out before
        answering (a second at most) rather than refusing at once: a door that can hold a
        request a moment (the web and SSH doors) then lets a player in without a retry.
        For an address turned away once since its last check, and for one first in line
        for the next turn (it gets that turn if it asks again then); any other that keeps
        asking is answered at once. Before, an address that had been turned away twice
        was answered at once even when first in line: a player's retry was refused
        unread (and, at the SSH door, counted against its address) while it waited for a
        turn that was its own."""
        record = self._records.get(address)
        return (record is not None and (record.asks <= 1 or record.next_in_line)
                and 0 < wait <= min(self.policy.max_pause_in_all, 1.0))

    def _refuse(self, record: _Record, wait: float, now: float,
                next_in_line: bool = False) -> float:
        if not record.asks:
            record.waiting_since = now
        record.asks += 1
        record.next_in_line = next_in_line
        self.refused += 1
        return wait

    def _own_wait(self, record: _Record, now: float) -> float:
        """How long `record`'s address must still wait after its own wrong guesses."""
        wrong = len(record.wrong)
        if not wrong:
            return 0.0
        return record.wrong[-1] + self.policy.pause_after(wrong) - now

    def _first_in_line(self, record: _Record, now: float) -> bool:
        """Whether no address in line (turned away lately, and not since checked) that may
        guess now (not waiting for its own wrong guesses, none in flight) is ahead of
        `record`."""
        since = now - 2 * max(self.policy.max_pause_in_all, 1.0)
        mine = record.place(now, asking=True)
        for other in self._records.values():
            if other is record or not other.asks or other.last < since or other.in_flight:
                continue
            self._expire(other.wrong, now)
            if other.place(now) < mine and self._own_wait(other, now) <= 0:
                return False
        return True

    def wrong_guesses(self, address: str, now: float) -> int:
        """How many recent wrong guesses `address` has on record."""
        record = self._records.get(address)
        if record is None:
            return 0
        self._expire(record.wrong, now)
        return len(record.wrong)

    def _expire(self, wrong: deque[float], now: float) -> None:
        cutoff = now - self.policy.forget_after
        while wrong and wrong[0] <= cutoff:
            wrong.popleft()

    def _sweep(self, now: float, keep: str) -> None:
        for address in list(self._records):
            record = self._records[address]
            self._expire(record.wrong, now)
            if (not record.wrong and not record.in_flight and address != keep
                    and record.last < now - self.policy.forget_after):
                del self._records[address]
        excess = len(self._records) - self.policy.max_addresses * 3 // 4
        if excess > 0:  # many addresses at once: the longest quiet go first
            idle = [address for address, record in self._records.items()
                    if not record.in_flight and address != keep]
            for address in sorted(idle, key=lambda a: self._records[a].last)[:excess]:
                del self._records[address]
