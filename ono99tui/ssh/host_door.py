"""The SSH door as one of a hosted table's doors (`ono99tui.host.doors`).

`SSHDoorOptions` is the door `ono99 host --ssh-port …` asks for (the command builds it from
its flags); `hosting` opens it once the table listens, which gives an `OpenSSHDoor`.
Importing this module is cheap (the command line imports it when it builds its options);
asyncssh is loaded only when a door is checked or opened.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from netproto.addresses import Address, loopback_for
from ono99tui.host.door_settings import DoorSettings, StartedDoor
from ono99tui.host.doors import DoorError, TrustDoor
from ono99tui.i18n import _
from ono99tui.user_settings import config_dir, ssh_host_key_path

if TYPE_CHECKING:
    from ono99tui.ssh.door import DoorConfig, SSHDoor

PLAYERS_SUBDIR = "ssh-players"


def table_address_for(bind: str, port: int) -> str:
    """HOST:PORT where the door's sessions reach a table bound to *bind* on this machine."""
    return str(Address(loopback_for(bind), port))


def ssh_invitation_line(ssh_command: str, fingerprint: str = "") -> str:
    """The host's invitation for the SSH door, and the door's host-key fingerprint, which a
    friend's ssh shows on first connect: the same one means it is this door."""
    line = _("Or with only ssh: {command}").format(command=ssh_command)
    return (line + "\n  " + _("(host key {fingerprint})").format(fingerprint=fingerprint)
            if fingerprint else line)


def _players_dir() -> Path:
    return config_dir() / PLAYERS_SUBDIR


@dataclass(frozen=True, kw_only=True)
class SSHDoorOptions(DoorSettings):
    """The SSH door a host asks for, before its table (and so the table's port) exists.

    Access is closed unless one of *password*, *authorized_keys* or *open_access* is given
    (`problem` says so before anything opens).
    """

    authorized_keys: Path | None = None
    host_key_path: Path = field(default_factory=ssh_host_key_path)
    # Each SSH player gets a config directory of their own under this one.
    players_dir: Path = field(default_factory=_players_dir)

    @property
    def title(self) -> str:
        """What the door is, for messages."""
        return f"the SSH door on port {self.port}"

    def door_config(self, table_port: int) -> DoorConfig:
        """The settings of the door onto the table listening on *table_port*.

        Raises DoorConfigError (a ValueError) when they leave the door unusable.
        """
        from ono99tui.ssh.door import DoorConfig

        config = DoorConfig(
            **self.door_settings(),
            table_address=table_address_for(self.bind_host, table_port),
            host_key_path=self.host_key_path,
            players_dir=self.players_dir,
            authorized_keys=self.authorized_keys,
        )
        config.validate()
        return config

    def problem(self) -> str | None:
        """What makes this door unusable (checked before the table opens), or None."""
        from ono99tui.ssh.door import DoorConfigError

        try:
            self.door_config(0)
        except DoorConfigError as error:
            return str(error)
        return None

    async def open(self, table_port: int, trust: TrustDoor | None = None) -> OpenSSHDoor:
        """Start the door onto the table at *table_port*; raises OSError or DoorError.
        `trust` is not used: each SSH session is an `ono99 join` process of its own, which
        says hello as any program on this machine does."""
        from ono99tui.ssh.door import start_ssh_door

        try:
            return OpenSSHDoor(await start_ssh_door(self.door_config(table_port)))
        except ValueError as error:
            # DoorConfigError, or asyncssh's KeyImportError for a damaged host key or
            # authorized_keys file: a reason for the terminal, not a traceback.
            raise DoorError(str(error)) from None


class OpenSSHDoor(StartedDoor):
    """A started SSH door, as `hosting` and the runners around it see an open door."""

    advert_field = "ssh_port"

    def __init__(self, door: SSHDoor) -> None:
        super().__init__(door)
        self.door: SSHDoor = door

    @property
    def fingerprint(self) -> str:
        """The host key's SHA256 fingerprint, for players to check on first connect."""
        return self.door.fingerprint

    def ssh_command(self, host: str) -> str:
        """The line to give friends: `ssh -p PORT NAME@HOST`."""
        return self.door.ssh_command(host)

    def announcement(self, host: str) -> Mapping[str, object]:
        """The "ssh-door" event a headless host prints once its door is open."""
        return {
            "event": "ssh-door",
            "port": self.port,
            "fingerprint": self.fingerprint,
            "command": self.ssh_command(host),
        }

    def log_line(self, host: str) -> str:
        """The host's log line: how to come in, and the key to check."""
        return f"SSH door open: {self.ssh_command(host)}  (host key {self.fingerprint})"

    def invitation_line(self, host: str) -> str:
        """The line of the host's invitation for this door."""
        return ssh_invitation_line(self.ssh_command(host), self.fingerprint)
