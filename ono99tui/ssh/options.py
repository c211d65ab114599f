"""The `ono99 host` flags that open the SSH door, and the DoorConfig they describe."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from ono99tui.config import config_dir, ssh_host_key_path
from ono99tui.ssh.door import DoorConfig

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


def door_config_from_args(args: argparse.Namespace, table_address: str) -> DoorConfig | None:
    """The door described by the parsed flags, or None when --ssh-port was not given.

    *table_address* is HOST:PORT where the door's sessions reach the table (loopback).
    Raises DoorConfigError when the flags leave the door with no way in.
    """
    if args.ssh_port is None:
        return None
    config = DoorConfig(
        table_address=table_address,
        host_key_path=ssh_host_key_path(),
        players_dir=config_dir() / PLAYERS_SUBDIR,
        bind_host=getattr(args, "bind", None) or "",
        port=args.ssh_port,
        password=args.ssh_password or os.environ.get(PASSWORD_ENV) or None,
        authorized_keys=args.ssh_authorized_keys,
        open_access=args.ssh_open,
        max_sessions=args.ssh_max_sessions,
        idle_timeout=args.ssh_idle_timeout,
    )
    config.validate()
    return config
