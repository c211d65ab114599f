"""Doors: other ways into a table than its own port (the SSH door, later the web door).

The host package opens and closes doors but never imports one: the command that starts the
host builds each door from its own flags and hands it over in `HostOptions.doors`. A door
only has to offer what `hosting` and the runners around it need, described here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol, runtime_checkable

# What `hosting` hands a door as it opens: `trust(name, max_connections)` is the key the
# door's own connections to the table say hello with (netproto's `Server.trust_door`), so
# that the users the door let in are counted under the door's cap, not as one loopback
# address's (docs/WEB.md "Cap"). A door that runs its users in child processes may ignore it.
TrustDoor = Callable[[str, int], str]


class DoorError(Exception):
    """A door could not be opened for a reason other than its socket; the message says why."""


class OpenDoor(Protocol):
    """A door that is open: players come in through it until `close`."""

    @property
    def port(self) -> int:
        """The TCP port the door listens on."""
        ...

    @property
    def advert_field(self) -> str:
        """The field of the table's advertisement (`netproto.lan.discovery.TableInfo`) that
        carries this door's port, e.g. "ssh_port"."""
        ...

    def announcement(self, host: str) -> Mapping[str, object]:
        """The event a headless host prints (as one JSON line) once the door is open;
        `host` is the name or address players reach this machine by."""
        ...

    def log_line(self, host: str) -> str:
        """One line for the host's log saying the door is open and how to check it."""
        ...

    def invitation_line(self, host: str) -> str:
        """The line of the host's invitation that tells friends how to come in this way."""
        ...

    async def close(self) -> None:
        """Let no one else in and end the sessions still open (their seats are held)."""
        ...


class Door(Protocol):
    """A door asked for but not yet open: `hosting` opens it once the table listens."""

    @property
    def title(self) -> str:
        """What the door is, for messages: "the SSH door on port 2222"."""
        ...

    async def open(self, table_port: int, trust: TrustDoor | None = None) -> OpenDoor:
        """Open the door onto the table listening on `table_port` on this machine; `trust`
        gives the door a key of its own for its connections to the table (None: they
        are counted as any connection from loopback is).

        Raises OSError when the door's socket cannot be had, DoorError for anything else.
        """
        ...


@runtime_checkable
class JoinCodeDoor(Protocol):
    """An open door that lets people in with a join code in its address (the web door's
    one-step join: docs/WEB.md "Joining in one step"); a headless host prints the address
    and replaces the code on request without knowing which door it is."""

    def join_announcement(self, host: str) -> Mapping[str, object]:
        """The event a headless host prints with the one-step join address at `host` (an
        IP literal of this machine)."""
        ...

    def replace_join_code(self) -> None:
        """Make a new join code: the old address stops letting anyone in."""
        ...


@runtime_checkable
class HostLinkDoor(Protocol):
    """An open door that can let the host in from a phone: a headless host hands it the
    table's host key (its operator key) and prints the address, which gives the phone
    that opens it host rights (the web door's `/host/KEY`: docs/WEB.md "The host's
    phone")."""

    def host_link_announcement(self, host: str, host_key: str) -> Mapping[str, object]:
        """Take `host_key` and return the event a headless host prints with the host's
        phone address at `host` (an IP literal of this machine)."""
        ...
