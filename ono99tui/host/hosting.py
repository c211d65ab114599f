"""Open one table for hosting: its server, bots, SSH door and mDNS advertisement, in order.

Both ways of hosting use this: the headless host (`ono99tui.host.headless`) and the host with
its own app (`ono99tui.host.with_app`). Keeping the start-up order and the teardown in one
place matters: the bots are seated before the first advertisement so it counts them, the
door's port goes into that advertisement, and on every way out the door closes first (no
new players), then the server, then the advertisement is withdrawn.

Never imports Textual: the headless host runs on machines with no terminal.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from netproto.messages import PROTOCOL_VERSION
from ono99tui.gc_freeze import startup_objects_frozen
from ono99tui.ssh.options import open_door
from ono99tui.host.outputs import TableSummary
from ono99tui.host.server import TableServer
from ono99tui.host.settings import TableConfig

if TYPE_CHECKING:
    from netproto.discovery import TableAdvertiser, TableInfo
    from ono99tui.ssh.door import SSHDoor


class HostError(Exception):
    """The table could not be opened; the message says why, for the terminal."""


@dataclass(frozen=True, slots=True)
class HostedTable:
    """A table open for play: what the caller runs beside it needs these."""

    server: TableServer
    door: SSHDoor | None
    # The mDNS interfaces advertised on; empty with --no-advertise.
    interfaces: list[str]


def table_info(summary: TableSummary, port: int, ssh_port: int | None = None) -> TableInfo:
    """The discovery record for a table summary (with the SSH door's port, if one is open)."""
    from netproto.discovery import TableInfo, TableState

    return TableInfo(
        protocol_version=PROTOCOL_VERSION, name=summary.name, host_player=summary.host_player,
        rules=summary.rules, seats_taken=summary.seats_taken, seats_total=summary.capacity,
        state=TableState(summary.phase), password_required=summary.password_required,
        port=port, ssh_port=ssh_port)


@contextlib.asynccontextmanager
async def hosted_table(
    args: argparse.Namespace,
    config: TableConfig,
    on_summary: Callable[[TableSummary], None] | None = None,
) -> AsyncIterator[HostedTable]:
    """Open the table `args` describes and keep its advertisement current until exit.

    `on_summary` is called after every change at the table (seats, phase). Raises
    `HostError` when the interfaces, the port, the door or the advertisement cannot be had.
    """
    from netproto.discovery import InvalidTableInfo, TableAdvertiser
    from netproto.interfaces import InterfaceError, resolve_interfaces

    loop = asyncio.get_running_loop()
    advertiser: TableAdvertiser | None = None
    door: SSHDoor | None = None
    # Advertisement updates run as tasks; references are kept so none is collected early.
    updates: set[asyncio.Task[None]] = set()

    def on_change(summary: TableSummary) -> None:
        if on_summary is not None:
            on_summary(summary)
        if advertiser is not None:
            info = table_info(summary, server.port, door.port if door is not None else None)
            task = loop.create_task(advertiser.update(info))
            updates.add(task)
            task.add_done_callback(updates.discard)

    try:
        interfaces = [] if args.no_advertise else resolve_interfaces(args.mdns_interface)
    except InterfaceError as error:
        raise HostError(str(error)) from None
    server = TableServer(config, on_change=on_change)
    try:
        await server.start(args.bind, args.port)
    except OSError as error:
        raise HostError(
            f"cannot listen on {args.bind}:{args.port}: {error.strerror or error}"
        ) from None
    try:
        for _ in range(args.bots):
            server.table.add_bot(args.bot)
        try:
            door = await open_door(args, server.port)
        except (OSError, ValueError) as error:  # ValueError: DoorConfigError
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            raise HostError(f"cannot open the SSH door on port {args.ssh_port}: {reason}") from None
        if interfaces:
            try:
                advertiser = TableAdvertiser(
                    table_info(server.table.summary(), server.port,
                               door.port if door is not None else None),
                    interfaces,
                )
            except InvalidTableInfo as error:
                raise HostError(str(error)) from None
            await advertiser.start()
        with startup_objects_frozen():
            yield HostedTable(server=server, door=door, interfaces=interfaces)
    finally:
        if door is not None:
            await door.close()
        await server.stop()
        for task in list(updates):
            task.cancel()
        if advertiser is not None:
            with contextlib.suppress(Exception):
                await advertiser.close()
