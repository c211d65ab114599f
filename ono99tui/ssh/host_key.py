"""The door's SSH host key: made on first use, then kept so players' clients can trust it."""

from __future__ import annotations

import os
from pathlib import Path

import asyncssh


def load_or_create_host_key(path: Path) -> asyncssh.SSHKey:
    """Return the Ed25519 host key stored at *path*, generating and saving it the first time.

    The file is created with mode 0600 in a directory made with mode 0700: a host key anyone
    else on the machine can read lets them impersonate the door.
    """
    if path.exists():
        return asyncssh.read_private_key(path)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="ono99 ssh door")
    data = key.export_private_key()
    # O_EXCL: two hosts starting at once must not overwrite each other's fresh key.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return asyncssh.read_private_key(path)
    with os.fdopen(fd, "wb") as file:
        file.write(data)
    return key


def fingerprint(key: asyncssh.SSHKey) -> str:
    """The key's SHA256 fingerprint, as `ssh` prints it when it first meets the host."""
    return key.get_fingerprint("sha256")
