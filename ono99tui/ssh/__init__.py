"""The SSH door: play at a table with nothing but an ssh client (`ono99 host --ssh-port`).

`ssh_command_line` is cheap to import (the lobby uses it to show the line to give to
friends); the door itself, which needs asyncssh, is imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ono99tui.ssh.door import DoorConfig, DoorConfigError, SSHDoor, start_ssh_door

__all__ = ["DoorConfig", "DoorConfigError", "SSHDoor", "ssh_command_line", "start_ssh_door"]


def ssh_command_line(host: str, port: int, player: str = "NAME") -> str:
    """The command that brings a friend to the table through its door: `ssh -p PORT NAME@HOST`."""
    if ":" in host:  # an IPv6 address: ssh takes it bare, without brackets, with -p
        host = host.strip("[]")
    return f"ssh -p {port} {player}@{host}"


def __getattr__(name: str) -> Any:
    # asyncssh takes ~0.2 s to import; only the host that opens a door should pay for it.
    if name in {"DoorConfig", "DoorConfigError", "SSHDoor", "start_ssh_door"}:
        from ono99tui.ssh import door

        return getattr(door, name)
    raise AttributeError(f"module 'ono99tui.ssh' has no attribute {name!r}")
