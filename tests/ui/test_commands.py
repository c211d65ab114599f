"""`ono99 join` and the app's `ono99 host` refuse bad input in words, before any screen opens."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import ifaddr
import pytest

from netproto.addresses import loopback_for
from netproto.interfaces import default_interfaces
from ono99tui.host.with_app import address_to_give, invitation
from ono99tui.ssh.host_door import ssh_invitation_line


def ono99(*args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ono99tui", *args],
        capture_output=True, text=True, timeout=60,
        env={"PATH": "/usr/bin:/bin", "ONO99_CONFIG_DIR": str(tmp_path),
             "ONO99_MDNS_INTERFACES": "127.0.0.1", "LANG": "C.UTF-8"},
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("join", "host:99999"), "is not a port"),
        (("join", "[::1"), "missing ']'"),
        (("join", "--mdns-interface", "no-such-interface0"), "no interface named"),
    ],
)
def test_join_refuses_bad_input(args: tuple[str, ...], message: str, tmp_path: Path) -> None:
    result = ono99(*args, tmp_path=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_host_reports_a_busy_port(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = ono99("host", "--bind", "127.0.0.1", "--port", str(port), "--no-advertise",
                       tmp_path=tmp_path)
    assert result.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr


def test_host_refuses_bad_table_options(tmp_path: Path) -> None:
    result = ono99("host", "--seats", "4", "--bots", "5", "--no-advertise", tmp_path=tmp_path)
    assert result.returncode == 2 and "--bots" in result.stderr


def test_where_the_host_app_connects_and_what_it_tells_others() -> None:
    assert loopback_for("0.0.0.0") == "127.0.0.1"
    assert loopback_for("::") == "::1"
    assert loopback_for("198.18.0.1") == "198.18.0.1"
    assert loopback_for("myhost.lan") == "myhost.lan"
    assert invitation([], 9099) == ""
    # Not advertised: the line that joins, without the lobby's way.
    assert invitation(["192.168.1.20"], 9100, advertised=False) == (
        "Others join with: ono99 join 192.168.1.20:9100")
    assert invitation(["::1"], 9100, advertised=False) == "Others join with: ono99 join [::1]:9100"
    # Where a friend reaches the table: where it is advertised, else where it listens, else
    # (every interface) this machine's first address on a network.
    assert address_to_give("0.0.0.0", ("192.168.1.20",)) == "192.168.1.20"
    assert address_to_give("198.18.0.1", ()) == "198.18.0.1"
    assert address_to_give("myhost.lan", ()) == "myhost.lan"
    assert address_to_give("0.0.0.0", ()) in default_interfaces(list(ifaddr.get_adapters()))
    lines = invitation(["192.168.1.20"], 9100,
                       ssh_invitation_line("ssh -p 2222 NAME@192.168.1.20")).splitlines()
    assert lines == ["Others join with: ono99 join   (or ono99 join 192.168.1.20:9100)",
                     "Or with only ssh: ssh -p 2222 NAME@192.168.1.20"]
    # The SSH door's host-key fingerprint, which a friend's ssh shows on first connect.
    fingerprint = "SHA256:" + "x" * 43
    lines = invitation(["192.168.1.20"], 9100,
                       ssh_invitation_line("ssh -p 2222 NAME@192.168.1.20", fingerprint)
                       ).splitlines()
    assert lines[1:] == ["Or with only ssh: ssh -p 2222 NAME@192.168.1.20",
                         f"  (host key {fingerprint})"]
