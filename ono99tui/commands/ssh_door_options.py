"""The `ono99 host` flags that ask for an SSH door (`--ssh-*`), and the door they describe.

Not a sub-command (cli.py maps none to it). Parsing imports nothing heavy: asyncssh is
loaded only when the door is checked or opened.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ono99tui.ssh.host_door import SSHDoorOptions

# A password on the command line is visible to every user in `ps`; the environment is not.
PASSWORD_ENV = "ONO99_SSH_PASSWORD"


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


def ssh_door_from_args(args: argparse.Namespace) -> SSHDoorOptions | None:
    """The SSH door the parsed flags ask for, or None without `--ssh-port`.

    Not checked here: `SSHDoorOptions.problem()` says what is wrong with it.
    """
    if args.ssh_port is None:
        return None
    from ono99tui.ssh.host_door import SSHDoorOptions

    return SSHDoorOptions(
        port=args.ssh_port,
        bind_host=args.bind or "",
        password=args.ssh_password or os.environ.get(PASSWORD_ENV) or None,
        authorized_keys=args.ssh_authorized_keys,
        open_access=args.ssh_open,
        max_sessions=args.ssh_max_sessions,
        idle_timeout=args.ssh_idle_timeout,
    )
