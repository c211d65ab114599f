"""`ono99 host` with its Textual app: the table server, its advertisement and the host's seat.

Everything runs on one event loop: `hosted_table` opens the server, the SSH door (with
`--ssh-port`) and the advertisement first, then the app connects to the table over
loopback like any player (with the host key that gives it host rights) and opens the
waiting room. Quitting the app closes the table and withdraws its advertisement.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import ipaddress
import secrets
import signal
import socket
import sys
from collections.abc import Awaitable, Callable
from dataclasses import replace

from netproto.client import TableClient
from netproto.errors import BadName
from netproto.names import clean_name
from ono99tui.commands.host import table_config_from_args
from ono99tui.commands.player_option import remember_player_name, remembered_player_name
from ono99tui.hosting import HostError, hosted_table
from ono99tui.table import TableServer
from ono99tui.table_config import TableConfig
from ono99tui.ui.app import Ono99App
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen


def host_player_name(requested: str | None = None) -> str:
    """The host's own name at the table: `--player` (already checked), else the remembered
    one, else the login name (if it is a usable name), else "host"."""
    if requested:
        return requested
    remembered = remembered_player_name()
    if remembered:
        return remembered
    try:
        return clean_name(getpass.getuser())
    except (BadName, KeyError, OSError):
        return "host"


async def run_in_terminal(app: Ono99App) -> None:
    """Run the host's app in this terminal until it quits."""
    await app.run_async()


def loopback_for(bind: str) -> str:
    """The address the host's own app connects to for a server bound to `bind`."""
    try:
        address = ipaddress.ip_address(bind)
    except ValueError:
        return bind  # a host name
    if address.is_unspecified:
        return "::1" if address.version == 6 else "127.0.0.1"
    return bind


def invitation(addresses: list[str], port: int, ssh_command: str = "") -> str:
    """What the host tells friends to type (one line per way in)."""
    lines = []
    if addresses:
        lines.append(f"Others join with: ono99 join   (or ono99 join {addresses[0]}:{port})")
    if ssh_command:
        lines.append(f"Or with only ssh: {ssh_command}")
    return "\n".join(lines)


def host_app(
    server: TableServer, *, player: str, connect_to: str = "127.0.0.1", invite: str = ""
) -> Ono99App:
    """The host's own app: seated at `server` with its host key, opening on the waiting room."""
    config = server.table.config

    async def connect() -> TableClient:
        return await TableClient.connect(
            connect_to, server.port, name=player, password=config.password,
            host_key=config.host_key,
        )

    return Ono99App(connect, start_screen=lambda: WaitingRoomScreen(invite=invite), hosting="host")


async def host_table(
    args: argparse.Namespace,
    config: TableConfig,
    run_app: Callable[[Ono99App], Awaitable[None]] = run_in_terminal,
) -> int:
    """Serve the table, advertise it, run the host's app; everything stops when it quits.

    `run_app` runs the app until it quits (tests drive it with Textual's Pilot instead).
    """
    loop = asyncio.get_running_loop()
    async with hosted_table(args, config) as hosted:
        server, door, interfaces = hosted.server, hosted.door, hosted.interfaces
        if args.player is not None:
            problem = remember_player_name(args.player)
            if problem is not None:  # on the terminal again once the app's screen is gone
                print(f"ono99 host: your name was not remembered: {problem}", file=sys.stderr)
        app = host_app(
            server,
            player=host_player_name(args.player),
            connect_to=loopback_for(args.bind),
            invite=invitation(
                interfaces,
                server.port,
                door.ssh_command(interfaces[0] if interfaces else socket.gethostname())
                if door is not None else "",
            ),
        )
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


def run_host(args: argparse.Namespace) -> int:
    """The non-headless `ono99 host`: returns the exit status."""
    try:
        config = table_config_from_args(args, headless=False)
    except ValueError as error:
        print(f"ono99 host: {error}", file=sys.stderr)
        return 2
    # Only the app started here may act as the host, whoever else connects first.
    config = replace(config, host_key=secrets.token_urlsafe(24))
    try:
        return asyncio.run(host_table(args, config))
    except HostError as error:
        print(f"ono99 host: {error}", file=sys.stderr)
        return 1
