"""The SSH door as a hosted table's door: `SSHDoorOptions` opens an `OpenSSHDoor` that says
what the headless output, the log and the invitation need; a door that cannot open is a
`DoorError` with the reason, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from ono99tui.host.doors import DoorError
from ono99tui.ssh.host_door import SSHDoorOptions, ssh_invitation_line


def door_options(tmp_path: Path, **changes: object) -> SSHDoorOptions:
    settings: dict[str, object] = {
        "bind_host": "127.0.0.1", "open_access": True,
        "host_key_path": tmp_path / "ssh_host_key", "players_dir": tmp_path / "players"}
    settings.update(changes)
    return SSHDoorOptions(**settings)  # type: ignore[arg-type]


async def test_an_open_door_says_how_to_come_in(tmp_path: Path) -> None:
    door = await door_options(tmp_path).open(9099)
    try:
        assert door.advert_field == "ssh_port" and door.port > 0
        assert door.door.config.table_address == "127.0.0.1:9099"
        assert dict(door.announcement("myhost")) == {
            "event": "ssh-door", "port": door.port, "fingerprint": door.fingerprint,
            "command": f"ssh -p {door.port} NAME@myhost"}
        assert door.fingerprint.startswith("SHA256:")
        assert door.log_line("myhost") == (
            f"SSH door open: ssh -p {door.port} NAME@myhost  (host key {door.fingerprint})")
        command = f"ssh -p {door.port} NAME@myhost"
        # With the key a friend's ssh asks them to trust on first connect (issue 12).
        assert door.invitation_line("myhost") == ssh_invitation_line(command, door.fingerprint)
        assert door.invitation_line("myhost").splitlines() == [
            f"Or with only ssh: {command}", f"  (host key {door.fingerprint})"]
        assert ssh_invitation_line(command) == f"Or with only ssh: {command}"
    finally:
        await door.close()


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"open_access": False}, "the SSH door lets nobody in by default"),
        ({"port": 70000}, "not a port number: 70000"),
    ],
)
async def test_settings_that_cannot_make_a_door(
    tmp_path: Path, changes: dict[str, object], reason: str
) -> None:
    options = door_options(tmp_path, **changes)
    assert (options.problem() or "").startswith(reason)
    with pytest.raises(DoorError, match=f"^{reason}"):
        await options.open(9099)


async def test_a_damaged_host_key_is_a_door_error(tmp_path: Path) -> None:
    (tmp_path / "ssh_host_key").write_text("not a key\n")
    options = door_options(tmp_path)
    assert options.problem() is None  # only opening reads the key
    with pytest.raises(DoorError, match="Invalid private key"):
        await options.open(9099)
