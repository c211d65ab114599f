"""The `ono99 host` flags that open the SSH door, and starting the door they describe.

Importing this module is cheap (the CLI imports every command's options at start-up);
asyncssh is loaded only when a door is actually opened.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from netproto.addresses import Address, loopback_for
from ono99tui.config import config_dir, ssh_host_key_path

if TYPE_CHECKING:
    from ono99tui.ssh.door import DoorConfig, SSHDoor

# A password on the command line is visible to every user in `ps`; the environment is not.
PASSWORD_ENV = "ONO99_SSH_PASSWORD"
PLAYERS_SUBDIR = "ssh-players"


def add_door_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the --ssh-* flags to the `ono99 host` parser."""
    group = parser.add_argument_group(
        "SSH door", "let players with only an ssh client in: ssh -p PORT NAME@HOST"
    )
    group.add_argument(
        "--ssh-port", type=int, metavar="PORT", default=None,
        help="open the SSH door on this port (0: any free port)",
    )
    group.add_argument(
        "--ssh-password", metavar="PASSWORD", default=None,
        help=f"password for the door (or set {PASSWORD_ENV})",
    )
    group.add_argument(
        "--ssh-authorized-keys", type=Path, metavar="FILE", default=None,
        help="let in the public keys listed in this authorized_keys file",
    )
    group.add_argument(
        "--ssh-open", action="store_true",
        help="let anyone in without a password or key (trusted networks only)",
    )
    group.add_argument(
        "--ssh-max-sessions", type=int, metavar="N", default=8,
        help="most SSH players at once (default: 8)",
    )
    group.add_argument(
        "--ssh-idle-timeout", type=float, metavar="SECONDS", default=1800.0,
        help="close a session after this long without a keypress (default: 1800; 0: never)",
    )


def table_address_for(bind: str, port: int) -> str:
    """HOST:PORT where the door's sessions reach a table bound to *bind* on this machine."""
    return str(Address(loopback_for(bind), port))


def door_config_from_args(args: argparse.Namespace, table_port: int) -> DoorConfig | None:
    """The door the parsed flags describe, or None when --ssh-port was not given.

    Raises DoorConfigError when the flags leave the door unusable (no way in, bad port…).
    """
    from ono99tui.ssh.door import DoorConfig

    if getattr(args, "ssh_port", None) is None:
        return None
    bind = getattr(args, "bind", "") or ""
    config = DoorConfig(
        table_address=table_address_for(bind, table_port),
        host_key_path=ssh_host_key_path(),
        players_dir=config_dir() / PLAYERS_SUBDIR,
        bind_host=bind,
        port=args.ssh_port,
        password=args.ssh_password or os.environ.get(PASSWORD_ENV) or None,
        authorized_keys=args.ssh_authorized_keys,
        open_access=args.ssh_open,
        max_sessions=args.ssh_max_sessions,
        idle_timeout=args.ssh_idle_timeout,
    )
    config.validate()
    return config


def door_arguments_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the --ssh-* flags (checked before the table opens), or None."""
    from ono99tui.ssh.door import DoorConfigError

    try:
        door_config_from_args(args, 0)
    except DoorConfigError as error:
        return str(error)
    return None


async def open_door(args: argparse.Namespace, table_port: int) -> SSHDoor | None:
    """Start the door the flags ask for (None without --ssh-port); raises OSError, DoorConfigError."""
    config = door_config_from_args(args, table_port)
    if config is None:
        return None
    from ono99tui.ssh.door import start_ssh_door

    return await start_ssh_door(config)


def door_announcement(door: SSHDoor, host: str = "HOST") -> str:
    """The JSON line a headless host prints once its door is open."""
    return json.dumps(
        {
            "event": "ssh-door",
            "port": door.port,
            "fingerprint": door.fingerprint,
            "command": door.ssh_command(host),
        }
    )
