"""`ono99 join` and the app's `ono99 host` refuse bad input in words, before any screen opens."""

from __future__ import annotations

import http.server
import socket
import subprocess
import sys
import threading
from pathlib import Path

import ifaddr
import pytest

from netproto.addresses import loopback_for
from netproto.lan.interfaces import default_interfaces
from ono99tui.host.with_app import address_to_give, invitation
from ono99tui.ssh.host_door import ssh_invitation_line


def ono99(*args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ono99tui", *args],
        capture_output=True, text=True, timeout=60,
        env={"PATH": "/usr/bin:/bin", "ONO99_CONFIG_DIR": str(tmp_path),
             "ONO99_DATA_DIR": str(tmp_path / "data"),
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


def test_a_web_address_with_no_table_behind_it_gets_the_line_to_use(tmp_path: Path) -> None:
    # A web server that is not a table's door (it has no /table.json): said in one line,
    # with the `ono99 join` line to type instead; before any screen opens.
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port = server.server_address[1]
        result = ono99("join", f"http://127.0.0.1:{port}/", "--player", "zoe", tmp_path=tmp_path)
    finally:
        server.shutdown()
        server.server_close()
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"ono99 join: http://127.0.0.1:{port}/ is a web address, for a browser; it is a web "
        "page (HTTP 404 for /table.json), not an ono99 table's web door. Join with the "
        "table's own address, the line the host's screen shows after 'Others join with': "
        "ono99 join 127.0.0.1:9099 (if the host kept the usual port)"]


def test_a_web_address_where_nothing_listens(tmp_path: Path) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    result = ono99("join", f"http://127.0.0.1:{port}/", tmp_path=tmp_path)
    assert result.returncode == 2
    assert "nothing answers there (Connection refused)" in result.stderr
    assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr


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
