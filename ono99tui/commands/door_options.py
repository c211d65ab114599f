"""The `ono99 host` flags that ask for doors (`--ssh-*`, `--web-*`), and the doors they describe.

Not a sub-command (cli.py maps none to it). The two doors take the same six settings
(`ono99tui.host.door_settings.DoorSettings`), so their flags are declared once, by
`_add_door_settings`, and read back once, by `_door_settings`; each door adds its own.
Parsing imports nothing heavy: asyncssh, aiohttp and textual-serve are loaded only when a door
is checked or opened.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ono99tui.i18n import _

if TYPE_CHECKING:
    from ono99tui.ssh.host_door import SSHDoorOptions
    from ono99tui.web.host_door import WebDoorOptions

# A password on the command line is visible to every user in `ps`; the environment is not.
SSH_PASSWORD_ENV = "ONO99_SSH_PASSWORD"
WEB_PASSWORD_ENV = "ONO99_WEB_PASSWORD"


def _add_door_settings(group: argparse._ArgumentGroup, door: str, password_env: str, *,
                       password_help: str, idle_help: str,
                       own_ways_in: Callable[[argparse._ArgumentGroup], None] | None = None,
                       ) -> None:
    ssh = door == "ssh"
    group.add_argument(
        f"--{door}-port", type=int, metavar="PORT", default=None,
        help=(_("open the SSH door on this port (0: any free port)") if ssh
              else _("open the web door on this port (0: any free port)")),
    )
    group.add_argument(
        f"--{door}-password", metavar="PASSWORD", default=None,
        help=_("{password_help} (or set {variable})").format(password_help=password_help,
                                                            variable=password_env),
    )
    if own_ways_in is not None:
        own_ways_in(group)
    group.add_argument(
        f"--{door}-open", action="store_true",
        help=(_("let anyone in without a password or key (trusted networks only)") if ssh
              else _("let any browser in without a password (trusted networks only)")),
    )
    group.add_argument(
        f"--{door}-max-sessions", type=int, metavar="N", default=8,
        help=(_("most SSH players at once (default: 8)") if ssh
              else _("most browser players at once (default: 8)")),
    )
    group.add_argument(
        f"--{door}-idle-timeout", type=float, metavar="SECONDS", default=1800.0,
        help=_("{idle_help} after this long without a keypress (default: 1800; 0: never)").format(
            idle_help=idle_help),
    )


def _door_settings(args: argparse.Namespace, door: str, password_env: str) -> dict[str, Any]:
    """The six settings a door's flags give (`DoorSettings`'s fields, by name)."""
    return {
        "port": getattr(args, f"{door}_port"),
        "bind_host": args.bind or "",
        "password": getattr(args, f"{door}_password") or os.environ.get(password_env) or None,
        "open_access": getattr(args, f"{door}_open"),
        "max_sessions": getattr(args, f"{door}_max_sessions"),
        "idle_timeout": getattr(args, f"{door}_idle_timeout"),
    }


def _add_authorized_keys(group: argparse._ArgumentGroup) -> None:
    group.add_argument(
        "--ssh-authorized-keys", type=Path, metavar="FILE", default=None,
        help=_("let in the public keys listed in this authorized_keys file"),
    )


def add_door_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the --ssh-* and --web-* flags to the `ono99 host` parser."""
    ssh = parser.add_argument_group(
        _("SSH door"), _("let players with only an ssh client in: ssh -p PORT NAME@HOST")
    )
    _add_door_settings(ssh, "ssh", SSH_PASSWORD_ENV, password_help=_("password for the door"),
                       idle_help=_("close a session"), own_ways_in=_add_authorized_keys)
    web = parser.add_argument_group(
        _("web door"), _("let players in from a browser: http://HOST:PORT/ (needs ono99[web]; "
                         "plain HTTP, so a password can be read on the network: see docs/WEB.md)")
    )
    _add_door_settings(web, "web", WEB_PASSWORD_ENV,
                       password_help=_("password for the door's login page"),
                       idle_help=_("close a tab's game"))


def ssh_door_from_args(args: argparse.Namespace) -> SSHDoorOptions | None:
    """The SSH door the parsed flags ask for, or None without `--ssh-port`.

    Not checked here: `SSHDoorOptions.problem()` says what is wrong with it.
    """
    if args.ssh_port is None:
        return None
    from ono99tui.ssh.host_door import SSHDoorOptions

    return SSHDoorOptions(**_door_settings(args, "ssh", SSH_PASSWORD_ENV),
                          authorized_keys=args.ssh_authorized_keys)


def web_door_from_args(args: argparse.Namespace) -> WebDoorOptions | None:
    """The web door the parsed flags ask for, or None without `--web-port`.

    Not checked here: `WebDoorOptions.problem()` says what is wrong with it.
    """
    if args.web_port is None:
        return None
    from ono99tui.web.host_door import WebDoorOptions

    return WebDoorOptions(**_door_settings(args, "web", WEB_PASSWORD_ENV), table_name=args.name)
