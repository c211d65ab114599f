"""Fair admission of connections that have not proved themselves yet, as a pure value.

A door (SSH, HTTP) takes any TCP connection, but until it has logged in or asked for
something worth serving, a connection costs the host a descriptor and proves nothing:
idle sockets, or a byte a second (slowloris), could fill the door and then the process.
`AdmissionPool` holds such connections per address and in all, each with a deadline its
owner sets, and at a stage its owner moves it to as it shows it is real (an SSH client that
sent its version, one that began to authenticate, an HTTP request being served) or back
(an SSH connection whose password was wrong).

When a newcomer finds no room, a connection is closed to make some, never the newcomer's
neighbours': the address's own when the address is over its share, else one of the
addresses holding the most. The one to go is the lowest stage, then the address in the
worst standing, then the oldest. An address's standing is its strikes: its connections
refused or displaced, and what its owner reports (a wrong password), in the last
`strike_window` seconds. A connection under way (at `protect_from_stage` or above) that
is younger than `protect_for` and whose address has fewer than `strikes_allowed` strikes is
never displaced, so a churning flood cannot cut every login off in its key exchange. The
newcomer is refused when its address already holds as many as any, when nothing may be
displaced, or when it is in bad standing itself and the one to go is from an address in no
worse standing (this refusal is no strike: the standing wears off however often the
address tries, and an address that was turned away a few times still displaces the
guessers, struck far more often). So whatever one address does, it only
displaces itself; a new login finds a place while the door is full of connections that
never log in, or of guessers (OpenSSH's MaxStartups refuses newcomers at random for the
same end; displacing the idle and the guessers keeps the newcomer).

No clock and no I/O: the owner passes the time and closes what it is told to. The owner
also calls `expired` from a timer of its own and closes what it returns.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)

# Strikes kept per address (more change nothing), and addresses with strikes remembered.
_MAX_STRIKES = 64
_MAX_STRUCK = 4096


@dataclass
class _Entry(Generic[Key]):
    key: Key
    address: str
    opened: float
    deadline: float
    stage: int = 0
    order: int = 0


@dataclass(frozen=True)
class Admission(Generic[Key]):
    """What `AdmissionPool.admit` decided: whether the newcomer stays, and which
    connections the owner must close to make room (`displaced`), with why."""

    admitted: bool
    displaced: tuple[Key, ...] = ()
    reason: str = ""


@dataclass
class AdmissionPool(Generic[Key]):
    """Connections not proved yet, at most `per_address` from one address and `in_all`
    (the module docstring says who goes when there is no room)."""

    per_address: int
    in_all: int
    protect_for: float = 0.0
    # Only connections at this stage or above are protected (the SSH door: those that
    # spoke SSH, not silent sockets).
    protect_from_stage: int = 1
    strikes_allowed: int = 3
    strike_window: float = 30.0
    _entries: dict[Key, _Entry[Key]] = field(default_factory=dict)
    _strikes: dict[str, deque[float]] = field(default_factory=dict)
    _counter: int = 0

    def __post_init__(self) -> None:
        if self.per_address < 1 or self.in_all < 1:
            raise ValueError("an admission pool must hold at least one connection")

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def held_by(self, address: str) -> int:
        """How many connections `address` holds in the pool."""
        return sum(1 for entry in self._entries.values() if entry.address == address)

    def admit(self, key: Key, address: str, now: float, deadline: float,
              stage: int = 0) -> Admission[Key]:
        """A new connection from `address` at `stage`, to be closed at `deadline` unless
        moved on."""
        mine = [entry for entry in self._entries.values() if entry.address == address]
        if len(mine) >= self.per_address:
            victim = self._first_to_go(mine, now)
            if victim is None:
                return self._refuse(address, now, f"this address holds {self.per_address} "
                                                  f"connections not logged in, all under way")
            reason = (f"at most {self.per_address} connections not logged in from one "
                      f"address: its oldest idle one is closed")
        elif len(self._entries) >= self.in_all:
            busiest, most = self._busiest()
            if most <= len(mine):
                return self._refuse(address, now, f"the door holds {self.in_all} connections "
                                                  f"not logged in, and this address as many "
                                                  f"as any")
            victim = self._first_to_go(busiest, now)
            if victim is None:
                return self._refuse(address, now, f"the door holds {self.in_all} connections "
                                                  f"not logged in, all under way")
            standing = self.strikes(address, now)
            if (standing >= self.strikes_allowed
                    and standing >= self.strikes(victim.address, now)):
                # No strike for this refusal: it is the address's standing at work, not
                # more of its doing. Striking it kept a person who retried every few
                # seconds (after three mistyped or throttled passwords) out for as long
                # as guessers kept the door full; now the standing wears off.
                return Admission(False, (), f"the door holds {self.in_all} connections not "
                                            f"logged in, and this address was turned away "
                                            f"lately")
            reason = (f"the door holds {self.in_all} connections not logged in: the oldest "
                      f"idle one of an address holding the most is closed")
        else:
            victim, reason = None, ""
        if victim is not None:
            del self._entries[victim.key]
            self.strike(victim.address, now)
        self._counter += 1
        self._entries[key] = _Entry(key, address, now, deadline, stage, self._counter)
        return Admission(True, () if victim is None else (victim.key,), reason)

    def strike(self, address: str, now: float) -> None:
        """Something of `address`'s was turned away (the owner's own reasons too: a wrong
        password): its connections lose their protection for a while."""
        strikes = self._strikes.get(address)
        if strikes is None:
            if len(self._strikes) >= _MAX_STRUCK:
                self._forget_old_strikes(now)
            strikes = self._strikes[address] = deque(maxlen=_MAX_STRIKES)
        strikes.append(now)

    def strikes(self, address: str, now: float) -> int:
        """How many strikes `address` has in the last `strike_window` seconds."""
        strikes = self._strikes.get(address)
        if strikes is None:
            return 0
        while strikes and strikes[0] <= now - self.strike_window:
            strikes.popleft()
        if not strikes:
            del self._strikes[address]
            return 0
        return len(strikes)

    def advance(self, key: Key, stage: int, deadline: float | None = None) -> None:
        """`key` has shown more of itself: a higher stage is displaced later. A new
        deadline replaces the old one when given."""
        entry = self._entries.get(key)
        if entry is None:
            return
        entry.stage = max(entry.stage, stage)
        if deadline is not None:
            entry.deadline = deadline

    def set_stage(self, key: Key, stage: int, deadline: float) -> None:
        """Put `key` at `stage` (lower or higher) with a new deadline: an HTTP connection
        goes back to idle after each request, an SSH one whose password was wrong down."""
        entry = self._entries.get(key)
        if entry is not None:
            entry.stage = stage
            entry.deadline = deadline

    def stage_of(self, key: Key) -> int | None:
        """The stage `key` is at, or None if the pool does not hold it."""
        entry = self._entries.get(key)
        return entry.stage if entry is not None else None

    def forget(self, key: Key) -> None:
        """`key` closed, or proved itself (logged in): the pool no longer holds it."""
        self._entries.pop(key, None)

    def expired(self, now: float) -> list[Key]:
        """Every connection past its deadline, forgotten here: the owner closes them."""
        late = [key for key, entry in self._entries.items() if entry.deadline <= now]
        for key in late:
            del self._entries[key]
        return late

    def at_stage(self, stage: int) -> Iterator[Key]:
        """The connections at exactly `stage`, oldest first."""
        return iter([entry.key for entry in self._entries.values() if entry.stage == stage])

    def _refuse(self, address: str, now: float, reason: str) -> Admission[Key]:
        self.strike(address, now)
        return Admission(False, (), reason)

    def _busiest(self) -> tuple[list[_Entry[Key]], int]:
        """The connections of the addresses holding the most (all of them, when several
        hold as many), and how many that is."""
        by_address: dict[str, list[_Entry[Key]]] = {}
        for entry in self._entries.values():
            by_address.setdefault(entry.address, []).append(entry)
        most = max(map(len, by_address.values()))
        return [entry for entries in by_address.values() if len(entries) == most
                for entry in entries], most

    def _first_to_go(self, entries: list[_Entry[Key]], now: float) -> _Entry[Key] | None:
        standing = {entry.address: self.strikes(entry.address, now) for entry in entries}
        candidates = [entry for entry in entries
                      if entry.stage < self.protect_from_stage
                      or now - entry.opened >= self.protect_for
                      or standing[entry.address] >= self.strikes_allowed]
        if not candidates:
            return None
        return min(candidates,
                   key=lambda entry: (entry.stage, -standing[entry.address], entry.order))

    def _forget_old_strikes(self, now: float) -> None:
        for address in list(self._strikes):
            self.strikes(address, now)  # drops it if its strikes are all old
        excess = len(self._strikes) - _MAX_STRUCK * 3 // 4
        if excess > 0:  # all recent: those struck longest ago go
            for address in sorted(self._strikes, key=lambda a: self._strikes[a][-1])[:excess]:
                del self._strikes[address]
