"""`ono99 host --headless --ssh-port`: the flags, the announcement, and the TXT record."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from ssh_helpers import HeadlessHost, Screen, connect_to_port

from netproto.lan.discovery import TableBrowser

pytestmark = pytest.mark.ssh


def test_host_refuses_a_door_nobody_may_enter(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ono99tui", "host", "--headless", "--port", "0", "--ssh-port", "0"],
        capture_output=True, text=True, timeout=60,
        env={"ONO99_CONFIG_DIR": str(tmp_path), "PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path)},
    )
    assert result.returncode == 2
    assert "--ssh-password" in result.stderr and "--ssh-open" in result.stderr
    assert not (tmp_path / "ssh_host_key").exists()


async def test_headless_host_opens_the_door_and_advertises_its_port(tmp_path: Path) -> None:
    name = f"ssh door {uuid.uuid4().hex[:8]}"
    host = HeadlessHost(
        "--name", name, "--seats", "3", "--bots", "2", "--ssh-port", "0", "--ssh-open",
        "--mdns-interface", "127.0.0.1", env={"ONO99_CONFIG_DIR": str(tmp_path)},
    )
    try:
        door = host.wait_for_event("ssh-door")
        assert door["fingerprint"].startswith("SHA256:")
        assert door["command"].startswith(f"ssh -p {door['port']} NAME@")
        assert (tmp_path / "ssh_host_key").exists()

        async with TableBrowser(["127.0.0.1"]) as browser:
            for _ in range(200):
                found = [t for t in browser.tables.values() if t.info.name == name]
                if found:
                    break
                await asyncio.sleep(0.05)
        assert found, "the table was not heard on loopback"
        assert found[0].info.ssh_port == door["port"]

        # A stock client's view: the door lets an open-access player in and the app draws.
        async with connect_to_port(door["port"], "dee", password=None) as conn:
            process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
            screen = Screen(process.stdout)
            await screen.wait_for("dee")
            process.close()
    finally:
        assert host.stop() == 0


def test_the_door_never_brings_textual_into_a_headless_host() -> None:
    # The door's sessions run the app as child processes; the host itself stays UI-free.
    code = (
        "import sys\n"
        "import ono99tui.host.headless, ono99tui.ssh.door, ono99tui.ssh.host_door, ono99tui.ssh.session\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                            env={"PYTHONPATH": ":".join(sys.path), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


@pytest.mark.tmux
@pytest.mark.skipif(shutil.which("ssh") is None or shutil.which("tmux") is None,
                    reason="needs the OpenSSH client and tmux")
def test_a_door_player_is_told_when_the_host_stops(tmp_path: Path) -> None:
    # OpenSSH in a real terminal at the app, through the door of a headless host that is
    # then stopped: the player's terminal is reset and says why. ssh on a terminal showed
    # nothing of it (the door closed the connection before its last words were taken).
    from testkit.tmux import TmuxSession

    host = HeadlessHost("--seats", "3", "--no-advertise", "--ssh-port", "0", "--ssh-open",
                        env={"ONO99_CONFIG_DIR": str(tmp_path)})
    pane = TmuxSession()
    try:
        port = host.wait_for_event("ssh-door")["port"]
        pane.start(["ssh", "-tt", "-p", str(port), "-F", "/dev/null", "-o", "BatchMode=yes",
                    "-o", "StrictHostKeyChecking=no",
                    "-o", f"UserKnownHostsFile={tmp_path / 'known'}", "zoe@127.0.0.1"],
                   {"TERM": "xterm-256color", "LANG": "C.UTF-8"})
        pane.wait_for(r"Waiting room")
        assert host.stop() == 0
        pane.wait_for(r"\[exit \d+\]")  # ssh has ended
        assert "ono99: the table has closed." in pane.capture()
        assert "Waiting room" not in pane.capture()  # the app's screen is gone
    finally:
        pane.kill()
        host.stop()
