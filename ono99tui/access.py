"""The names by which a player asks for accessibility, wherever they come from.

`ono99 join`, `solo` and `host` read them from their options and the environment; the SSH
door passes the environment variables through from the client (OpenSSH's SendEnv) and
accepts the one command that asks for line mode. Kept here, apart from the front ends,
so that the door, the commands and the app agree on them without importing one another.
"""

from __future__ import annotations

import os

# Line mode (`--plain`, `ono99tui.line`) asked for by environment.
PLAIN_ENV = "ONO99_PLAIN"
# The one command the SSH door accepts: `ssh -t -p PORT NAME@HOST plain`.
PLAIN_COMMAND = "plain"
# The full-screen app's high-contrast theme (`--high-contrast`) asked for by environment.
HIGH_CONTRAST_ENV = "ONO99_HIGH_CONTRAST"


def asked_by_environment(name: str) -> bool:
    """Is the variable `name` set to something other than "" or "0"?"""
    return os.environ.get(name, "") not in ("", "0")
