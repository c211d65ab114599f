"""A two-machine LAN made of two network namespaces joined by a veth pair (needs root).

The "host" namespace has 198.18.0.1/24 and the "guest" one 198.18.0.2/24 on an interface
named `lan0`, each with the multicast route that lets tools other than zeroconf (which
picks its interface itself) send mDNS out of it. Namespace names carry a random token, so
concurrent test runs never collide; the veth ends are created directly inside the
namespaces and vanish with them. Also used by bench/discovery.py.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
from types import TracebackType
from typing import Self

HOST_ADDRESS = "198.18.0.1"
GUEST_ADDRESS = "198.18.0.2"
INTERFACE = "lan0"


def netns_unavailable_reason() -> str | None:
    """Why namespaces cannot be made here, or None when they can."""
    if os.geteuid() != 0:
        return "the two-namespace LAN needs root (ip netns add)"
    if shutil.which("ip") is None:
        return "the two-namespace LAN needs the `ip` tool (Debian package iproute2)"
    probe = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=False)
    if probe.returncode != 0:
        return f"`ip netns` does not work here: {probe.stderr.strip()}"
    return None


class NamespaceLan:
    """Two namespaces on one virtual wire; delete() (or leaving the `with`) removes both."""

    def __init__(self, prefix: str = "ono99") -> None:
        token = secrets.token_hex(4)
        self.host_ns = f"{prefix}-{token}-host"
        self.guest_ns = f"{prefix}-{token}-guest"
        self.host_address = HOST_ADDRESS
        self.guest_address = GUEST_ADDRESS

    def __enter__(self) -> Self:
        try:
            self.create()
        except BaseException:
            self.delete()
            raise
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.delete()

    def create(self) -> None:
        """Make both namespaces, the veth pair, the addresses and the multicast routes."""
        _ip("netns", "add", self.host_ns)
        _ip("netns", "add", self.guest_ns)
        _ip(
            "link", "add", INTERFACE, "netns", self.host_ns, "type", "veth",
            "peer", "name", INTERFACE, "netns", self.guest_ns,
        )  # fmt: skip
        for namespace, address in (
            (self.host_ns, self.host_address),
            (self.guest_ns, self.guest_address),
        ):
            _ip("-n", namespace, "addr", "add", f"{address}/24", "dev", INTERFACE)
            _ip("-n", namespace, "link", "set", "lo", "up")
            _ip("-n", namespace, "link", "set", INTERFACE, "up")
            _ip("-n", namespace, "route", "add", "224.0.0.0/4", "dev", INTERFACE)

    def delete(self) -> None:
        """Remove both namespaces (and with them the veth pair); ignores missing ones."""
        for namespace in (self.host_ns, self.guest_ns):
            subprocess.run(["ip", "netns", "delete", namespace], capture_output=True, check=False)

    def exec_prefix(self, namespace: str) -> list[str]:
        """The command prefix that runs a program inside `namespace`."""
        return ["ip", "netns", "exec", namespace]


def _ip(*args: str) -> None:
    result = subprocess.run(["ip", *args], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)} failed: {result.stderr.strip()}")
