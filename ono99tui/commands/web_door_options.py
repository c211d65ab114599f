"""The `ono99 host` flags that ask for a web door (`--web-*`), and the door they describe.

Not a sub-command (cli.py maps none to it). Parsing imports nothing heavy: aiohttp and
textual-serve are loaded only when the door is opened.
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ono99tui.web.host_door import WebDoorOptions

# A password on the command line is visible to every user in `ps`; the environment is not.
PASSWORD_ENV = "ONO99_WEB_PASSWORD"


def add_web_door_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the --web-* flags to the `ono99 host` parser."""
    group = parser.add_argument_group(
        "web door", "let players in from a browser: http://HOST:PORT/ (needs ono99[web]; "
                    "plain HTTP, so a password can be read on the network: see docs/WEB.md)"
    )
    group.add_argument(
        "--web-port", type=int, metavar="PORT", default=None,
        help="open the web door on this port (0: any free port)",
    )
    group.add_argument(
        "--web-password", metavar="PASSWORD", default=None,
        help=f"password for the door's login page (or set {PASSWORD_ENV})",
    )
    group.add_argument(
        "--web-open", action="store_true",
        help="let any browser in without a password (trusted networks only)",
    )
    group.add_argument(
        "--web-max-sessions", type=int, metavar="N", default=8,
        help="most browser players at once (default: 8)",
    )
    group.add_argument(
        "--web-idle-timeout", type=float, metavar="SECONDS", default=1800.0,
        help="close a tab's game after this long without a keypress (default: 1800; 0: never)",
    )


def web_door_from_args(args: argparse.Namespace) -> WebDoorOptions | None:
    """The web door the parsed flags ask for, or None without `--web-port`.

    Not checked here: `WebDoorOptions.problem()` says what is wrong with it.
    """
    if args.web_port is None:
        return None
    from ono99tui.web.host_door import WebDoorOptions

    return WebDoorOptions(
        port=args.web_port,
        bind_host=args.bind or "",
        password=args.web_password or os.environ.get(PASSWORD_ENV) or None,
        open_access=args.web_open,
        max_sessions=args.web_max_sessions,
        idle_timeout=args.web_idle_timeout,
        table_name=args.name,
    )
