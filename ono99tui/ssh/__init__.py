"""The SSH door: play at a table with nothing but an ssh client (`ono99 host --ssh-port`)."""

from ono99tui.ssh.door import DoorConfig, DoorConfigError, SSHDoor, start_ssh_door

__all__ = ["DoorConfig", "DoorConfigError", "SSHDoor", "start_ssh_door"]
