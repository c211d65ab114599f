"""`ono99 host` with an app at the table: the table server, its advertisement and the host's seat.

Everything runs on one event loop: `hosted_table` opens the server, the doors (the SSH door
with `--ssh-port`) and the advertisement first, then the app (made by the caller: this package
never imports the UI) connects to the table over loopback like any player, with the host key
that gives it host rights. Quitting the app closes the table and withdraws its advertisement.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol, TypeVar

import ifaddr

from netproto.addresses import Address, loopback_for
from netproto.lan.interfaces import default_interfaces
from ono99tui.host.hosting import HostedTable, hosted_table
from ono99tui.host.options import HostOptions
from ono99tui.i18n import _


class SeatedApp(Protocol):
    """What the host's app must offer here (the Textual app does)."""

    @property
    def return_code(self) -> int | None:
        """The exit status the app asks for, once it has quit."""

    def exit(self) -> None:
        """Quit (the table closes once the app is gone)."""

    def tell_host(self, text: str) -> None:
        """Say something about the table the person hosting it must know now (its
        journal could not be written, was deleted, can be written again)."""


def invitation(addresses: Sequence[str], port: int, *door_lines: str,
               advertised: bool = True) -> str:
    """What the host tells friends to type, one line per way in: the table's own (at the
    first of `addresses`; the lobby lists it too when it is `advertised`), then each door's
    line (`OpenDoor.invitation_line`)."""
    lines = []
    if addresses:
        where = Address(addresses[0], port)
        lines.append(_("Others join with: ono99 join   (or ono99 join {address})").format(
            address=where) if advertised
            else _("Others join with: ono99 join {address}").format(address=where))
    lines.extend(line for line in door_lines if line)
    return "\n".join(lines)


def address_to_give(bind: str, advertised_on: Sequence[str]) -> str:
    """The address of this machine a friend types to reach a table bound to `bind`: the
    first interface it is advertised on; else the bind address itself, unless it is every
    interface (`0.0.0.0`, `::`): then this machine's first IPv4 address on a network
    (loopback where it has none)."""
    if advertised_on:
        return advertised_on[0]
    if loopback_for(bind) == bind:  # a given address or host name: that is where it listens
        return bind
    return default_interfaces(list(ifaddr.get_adapters()))[0]


def invitation_for(hosted: HostedTable, bind: str = "0.0.0.0") -> str:
    """The invitation for a table that is open (its port, interfaces and doors), bound to
    `bind`: the `ono99 join HOST:PORT` line is there whether or not it is advertised."""
    host = address_to_give(bind, hosted.interfaces)
    return invitation([host], hosted.server.port,
                      *(door.invitation_line(host) for door in hosted.doors),
                      advertised=bool(hosted.interfaces))


AppT = TypeVar("AppT", bound=SeatedApp)


async def host_table(
    options: HostOptions,
    make_app: Callable[[HostedTable], AppT],
    run_app: Callable[[AppT], Awaitable[None]],
) -> int:
    """Serve the table `options` describe, advertise it, run the host's app; everything
    stops when it quits.

    `make_app` builds the app for the open table; `run_app` runs it until it quits (in the
    terminal, or driven by Textual's Pilot in tests). Returns the app's exit status.

    The person quitting the app (status 0) closes the table on purpose: a match being
    played ends for good (`TableServer.closing_on_purpose`). A signal, a crash of the app
    (another status) or a terminal that went away leave it to be taken up by a restart.
    """
    loop = asyncio.get_running_loop()
    async with hosted_table(options) as hosted:
        app = make_app(hosted)
        if hosted.journal is not None:
            hosted.journal.on_trouble = app.tell_host
        signalled = False

        def stopped_by_signal() -> None:
            # A terminal closed under the host (SIGHUP) or a kill (SIGTERM) ends the app the
            # normal way, so leaving `hosted_table` still withdraws the advertisement; and
            # the host did not choose it, so players hold on for its return (going_away).
            nonlocal signalled
            signalled = True
            hosted.server.going_away()
            app.exit()

        for signal_number in (signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(signal_number, stopped_by_signal)
        try:
            await run_app(app)
        finally:
            for signal_number in (signal.SIGTERM, signal.SIGHUP):
                loop.remove_signal_handler(signal_number)
            if hosted.journal is not None:
                hosted.journal.on_trouble = None
        if not signalled and not app.return_code:
            hosted.server.closing_on_purpose()
        return app.return_code or 0
