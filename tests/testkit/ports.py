"""A free TCP port on loopback, for a test whose server must be started again on the same
port (a restarted host, sshd): port 0 would give a new one each time."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
