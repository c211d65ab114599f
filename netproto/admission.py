"""Fair admission of connections that have not proved themselves yet, as a pure value.

A door (SSH, HTTP) takes any TCP connection, but until it has logged in or asked for
something worth serving, a connection costs the host a descriptor and proves nothing:
idle sockets, or a byte a second (slowloris), could fill the door and then the process.
`AdmissionPool` holds such connections per address and in all, each with a deadline its
owner sets, and at a stage its owner moves it to as it shows it is real (an SSH client that
sent its version, one that began to authenticate, an HTTP request being served). When a
newcomer finds no room, a connection is closed to make some, never the newcomer's
neighbours': the address's own oldest at the lowest stage when the address is over its
share, else the oldest at the lowest stage of the address holding the most. Only if the
newcomer's address already holds as many as any is the newcomer refused. So whatever one
address does, it only displaces itself, and a new login always finds a place while the
door is full of connections that never log in (OpenSSH's MaxStartups refuses newcomers at
random for the same end; displacing the idle keeps the newcomer).

No clock and no I/O: the owner passes the time and closes what it is told to. The owner
also calls `expired` from a timer of its own and closes what it returns.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)


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
    """Connections not proved yet, at most `per_address` from one address and `in_all`."""

    per_address: int
    in_all: int
    _entries: dict[Key, _Entry[Key]] = field(default_factory=dict)
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

    def admit(self, key: Key, address: str, now: float, deadline: float) -> Admission[Key]:
        """A new connection from `address`, to be closed at `deadline` unless moved on."""
        displaced: list[Key] = []
        reason = ""
        mine = self._of(address)
        if len(mine) >= self.per_address:
            displaced.append(self._first_to_go(mine).key)
            reason = (f"at most {self.per_address} connections not logged in from one "
                      f"address: its oldest idle one is closed")
        elif len(self._entries) >= self.in_all:
            busiest = self._busiest()
            if len(busiest) <= len(mine):
                return Admission(False, (), f"the door holds {self.in_all} connections not "
                                            f"logged in, and this address as many as any")
            displaced.append(self._first_to_go(busiest).key)
            reason = (f"the door holds {self.in_all} connections not logged in: the oldest "
                      f"idle one of the address holding the most is closed")
        for victim in displaced:
            del self._entries[victim]
        self._counter += 1
        self._entries[key] = _Entry(key, address, now, deadline, 0, self._counter)
        return Admission(True, tuple(displaced), reason)

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
        goes back to idle after each request."""
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

    def _of(self, address: str) -> list[_Entry[Key]]:
        return [entry for entry in self._entries.values() if entry.address == address]

    def _busiest(self) -> list[_Entry[Key]]:
        by_address: dict[str, list[_Entry[Key]]] = {}
        for entry in self._entries.values():
            by_address.setdefault(entry.address, []).append(entry)
        return max(by_address.values(), key=len)

    @staticmethod
    def _first_to_go(entries: list[_Entry[Key]]) -> _Entry[Key]:
        # The lowest stage first (an idle socket before a client typing its password),
        # the oldest of those.
        return min(entries, key=lambda entry: (entry.stage, entry.order))
