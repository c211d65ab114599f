"""`ono99 host` with an app at the table: the table server, its advertisement and the host's seat.

Everything runs on one event loop: `hosted_table` opens the server, the SSH door (with
`--ssh-port`) and the advertisement first, then the app (made by the caller: this package
never imports the UI) connects to the table over loopback like any player, with the host key
that gives it host rights. Quitting the app closes the table and withdraws its advertisement.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import signal
import socket
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

from ono99tui.host.hosting import HostedTable, hosted_table
from ono99tui.host.settings import TableConfig


class SeatedApp(Protocol):
    """What the host's app must offer here (the Textual app does)."""

    @property
    def return_code(self) -> int | None:
        """The exit status the app asks for, once it has quit."""

    def exit(self) -> None:
        """Quit (the table closes once the app is gone)."""


def loopback_for(bind: str) -> str:
    """The address the host's own app connects to for a server bound to `bind`."""
    try:
        address = ipaddress.ip_address(bind)
    except ValueError:
        return bind  # a host name
    if address.is_unspecified:
        return "::1" if address.version == 6 else "127.0.0.1"
    return bind


def invitation(addresses: list[str], port: int, ssh_command: str = "",
               ssh_fingerprint: str = "") -> str:
    """What the host tells friends to type (one line per way in), and the SSH door's host-key
    fingerprint, which their ssh shows on first connect: the same one means it is this door."""
    lines = []
    if addresses:
        lines.append(f"Others join with: ono99 join   (or ono99 join {addresses[0]}:{port})")
    if ssh_command:
        lines.append(f"Or with only ssh: {ssh_command}")
        if ssh_fingerprint:
            lines.append(f"  (host key {ssh_fingerprint})")
    return "\n".join(lines)


def invitation_for(hosted: HostedTable) -> str:
    """The invitation for a table that is open (its port, interfaces and SSH door)."""
    interfaces, door = hosted.interfaces, hosted.door
    if door is None:
        return invitation(interfaces, hosted.server.port)
    ssh_command = door.ssh_command(interfaces[0] if interfaces else socket.gethostname())
    return invitation(interfaces, hosted.server.port, ssh_command, door.fingerprint)


AppT = TypeVar("AppT", bound=SeatedApp)


async def host_table(
    args: argparse.Namespace,
    config: TableConfig,
    make_app: Callable[[HostedTable], AppT],
    run_app: Callable[[AppT], Awaitable[None]],
) -> int:
    """Serve the table, advertise it, run the host's app; everything stops when it quits.

    `make_app` builds the app for the open table; `run_app` runs it until it quits (in the
    terminal, or driven by Textual's Pilot in tests). Returns the app's exit status.
    """
    loop = asyncio.get_running_loop()
    async with hosted_table(args, config) as hosted:
        app = make_app(hosted)
        # A terminal closed under the host (SIGHUP) or a kill (SIGTERM) ends the app the
        # normal way, so leaving `hosted_table` still withdraws the advertisement.
        for signal_number in (signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(signal_number, app.exit)
        try:
            await run_app(app)
        finally:
            for signal_number in (signal.SIGTERM, signal.SIGHUP):
                loop.remove_signal_handler(signal_number)
        return app.return_code or 0
