"""The headless host: a TableServer, its bots and its mDNS advertisement, and nothing else.

Never imports Textual (a test checks it): this is what runs on a server with no terminal.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import signal
import socket
import sys
from typing import TYPE_CHECKING

from netproto.messages import PROTOCOL_VERSION

from ono99tui.ssh.options import door_announcement, open_door
from ono99tui.table import FINISHED, TableServer, TableSummary
from ono99tui.table_config import TableConfig

if TYPE_CHECKING:
    from netproto.discovery import TableAdvertiser, TableInfo
    from ono99tui.ssh.door import SSHDoor

log = logging.getLogger(__name__)


def table_info(summary: TableSummary, port: int, ssh_port: int | None = None) -> TableInfo:
    """The discovery record for a table summary (with the SSH door's port, if one is open)."""
    from netproto.discovery import TableInfo, TableState

    return TableInfo(
        protocol_version=PROTOCOL_VERSION, name=summary.name, host_player=summary.host_player,
        rules=summary.rules, seats_taken=summary.seats_taken, seats_total=summary.capacity,
        state=TableState(summary.phase), password_required=summary.password_required,
        port=port, ssh_port=ssh_port)


async def serve_headless(args: argparse.Namespace, config: TableConfig) -> int:
    """Serve the table until SIGINT/SIGTERM or `--exit-after` matches; the exit status."""
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(name)s: %(message)s")
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signal_number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signal_number, stop.set)

    advertiser: TableAdvertiser | None = None
    door: SSHDoor | None = None
    updates: set[asyncio.Task[None]] = set()
    finished_matches = 0

    def on_change(summary: TableSummary) -> None:
        nonlocal finished_matches
        if summary.phase == FINISHED:
            finished_matches += 1
            if args.exit_after is not None and finished_matches >= args.exit_after:
                stop.set()
        if advertiser is not None:
            ssh_port = door.port if door is not None else None
            task = loop.create_task(advertiser.update(table_info(summary, server.port, ssh_port)))
            updates.add(task)
            task.add_done_callback(updates.discard)

    server = TableServer(config, on_change=on_change)
    await server.start(args.bind, args.port)
    try:
        # Seat the bots first, so the first advertisement already counts them.
        for _ in range(args.bots):
            server.table.add_bot(args.bot)
        try:
            door = await open_door(args, server.port)
        except OSError as error:
            print(f"ono99 host: cannot open the SSH door on port {args.ssh_port}: "
                  f"{error.strerror or error}", file=sys.stderr)
            return 1
        if not args.no_advertise:
            advertiser = await _advertise(args, server, door)
            if advertiser is None:
                return 2
        print(json.dumps({"event": "listening", "address": server.address[0],
                          "port": server.port, "name": config.name}), flush=True)
        if door is not None:
            print(door_announcement(door, socket.gethostname()), flush=True)
            log.info("SSH door open: %s  (host key %s)", door.ssh_command(socket.gethostname()),
                     door.fingerprint)
        await stop.wait()
    finally:
        if door is not None:
            await door.close()
        await server.stop()
        for task in list(updates):
            task.cancel()
        if advertiser is not None:
            with contextlib.suppress(Exception):
                await advertiser.close()
    print(json.dumps({"event": "stopped", "matches": finished_matches}), flush=True)
    return 0


async def _advertise(args: argparse.Namespace, server: TableServer,
                     door: SSHDoor | None = None) -> TableAdvertiser | None:
    from netproto.discovery import InvalidTableInfo, TableAdvertiser
    from netproto.interfaces import InterfaceError, resolve_interfaces

    try:
        interfaces = resolve_interfaces(args.mdns_interface)
        ssh_port = door.port if door is not None else None
        advertiser = TableAdvertiser(table_info(server.table.summary(), server.port, ssh_port),
                                     interfaces)
    except (InterfaceError, InvalidTableInfo) as error:
        print(f"ono99 host: {error}", file=sys.stderr)
        return None
    await advertiser.start()
    log.info("advertised as %s on %s", advertiser.service_name, ", ".join(interfaces))
    return advertiser
