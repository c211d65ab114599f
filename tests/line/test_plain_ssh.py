"""Line mode over SSH with the real OpenSSH client: the door's one command (`plain`), the
environment (`SendEnv ONO99_PLAIN`), and `ono99 join --plain` in a session of a real sshd.

Each player sees line mode at once, without a full-screen app first: no escape sequence
reaches them, and the SSH door player plays a whole match by number.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pexpect
import pytest
from plain_pty import HeadlessTable, PlainPlayer, line_env, play_until_over

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "ssh"))
from openssh_server import OpenSSHServer, missing_requirement, python_env

pytestmark = [
    pytest.mark.ssh,
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("ssh") is None, reason="no OpenSSH client"),
]


def door_ssh(port: int, user: str, *remote: str, send_env: str = "") -> list[str]:
    """The OpenSSH client's command line to the door on loopback (open access)."""
    options = ["-F", "/dev/null", "-o", "StrictHostKeyChecking=no",
               "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
               "-o", "PreferredAuthentications=none,password", "-o", "NumberOfPasswordPrompts=0"]
    if send_env:
        options += ["-o", f"SendEnv={send_env}"]
    return ["ssh", "-tt", "-p", str(port), *options, f"{user}@127.0.0.1", *remote]


@pytest.fixture
def door_table(tmp_path: Path):
    table = HeadlessTable(tmp_path, "--seats", "2", "--bots", "1", "--start-when", "2",
                          "--bot-delay", "0", "--seed", "31", "--turn-time", "off",
                          "--ssh-port", "0", "--ssh-open", "--name", "Door")
    table.wait_for_event("listening")
    try:
        yield table.wait_for_event("ssh-door")["port"]
    finally:
        table.stop()


def test_the_door_s_plain_command_plays_a_whole_match_in_line_mode(door_table, tmp_path: Path
                                                                    ) -> None:
    port = door_table
    player = PlainPlayer(door_ssh(port, "ana", "plain"), line_env(tmp_path, "ssh-ana"))
    try:
        player.expect("ONO 99, line mode.")
        play_until_over([player], timeout=300)
        assert "Match over:" in player.transcript
        assert "\x1b" not in player.transcript
        assert max(len(line) for line in player.transcript.split("\r\n")) <= 40
    finally:
        player.close()


def test_the_door_takes_line_mode_from_the_environment_and_refuses_other_commands(
        door_table, tmp_path: Path) -> None:
    port = door_table
    env = {**line_env(tmp_path, "ssh-bob"), "ONO99_PLAIN": "1"}
    player = PlainPlayer(door_ssh(port, "bob", send_env="ONO99_PLAIN"), env)
    try:
        player.expect("ONO 99, line mode.")
        player.prompt()
        player.send("w")
        player.expect(r"bob \(you\)")
        assert "\x1b" not in player.transcript
        player.send("q")
        player.child.expect(pexpect.EOF, timeout=30)
    finally:
        player.close()
    refused = pexpect.spawn(door_ssh(port, "cy", "ls")[0], door_ssh(port, "cy", "ls")[1:],
                            env=line_env(tmp_path, "ssh-cy"), encoding="utf-8", timeout=30)
    refused.expect(pexpect.EOF)
    refused.close()
    assert refused.exitstatus != 0
    assert "line mode" not in (refused.before or "")


@pytest.mark.skipif(missing_requirement() is not None, reason=missing_requirement() or "")
def test_join_plain_works_in_any_ssh_session(tmp_path: Path) -> None:
    table = HeadlessTable(tmp_path, "--seats", "2", "--bots", "1", "--start-when", "2",
                          "--bot-delay", "0", "--seed", "32", "--turn-time", "off",
                          "--exit-after", "1", "--name", "Sshd")
    port = table.wait_for_event("listening")["port"]
    (tmp_path / "sshd").mkdir()
    server = OpenSSHServer(tmp_path / "sshd", {
        **python_env(), "ONO99_CONFIG_DIR": str(tmp_path / "remote-config"),
        "ONO99_DATA_DIR": str(tmp_path / "remote-data"), "ONO99_MDNS_INTERFACES": "127.0.0.1"})
    server.start()
    try:
        command = server.ssh_command(
            [sys.executable, "-m", "ono99tui", "join", "--plain", f"127.0.0.1:{port}",
             "--player", "dee"])
        player = PlainPlayer(command, {**os.environ, "TERM": "xterm-256color"})
        try:
            play_until_over([player], timeout=300)
            assert "You played" in player.transcript
            assert "\x1b" not in player.transcript
        finally:
            player.close()
    finally:
        server.stop()
        table.stop()
