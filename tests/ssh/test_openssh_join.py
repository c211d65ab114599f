"""`ono99 join` in a real OpenSSH session: a whole match, a resize, a dropped link, a resume."""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

import pytest
from match_driver import MATCH_OVER, YOUR_TURN, play_until
from openssh_server import OpenSSHServer, missing_requirement, python_env
from ssh_helpers import HeadlessHost, alive, eventually_sync
from testkit.tmux import TmuxSession

pytestmark = [
    pytest.mark.ssh,
    pytest.mark.tmux,
    pytest.mark.skipif(missing_requirement() is not None, reason=missing_requirement() or ""),
]

TERMINAL_ENV = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": os.environ.get("HOME", "/root")}


def child_pids(pid: int) -> list[int]:
    """The direct children of process *pid*."""
    children: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        children += [int(child) for child in text]
    return children


def widest_line(screen: str) -> int:
    return max((len(line.rstrip()) for line in screen.splitlines()), default=0)


@pytest.fixture
def table(tmp_path: Path):
    host = HeadlessHost(
        "--seats", "2", "--bots", "1", "--bot-delay", "0.02", "--grace", "120", "--seed", "5",
        "--no-advertise", env={"ONO99_CONFIG_DIR": str(tmp_path / "host-config")},
    )
    try:
        yield host.wait_for_event("listening")["port"]
    finally:
        host.stop()


@pytest.fixture
def sshd(tmp_path: Path):
    server = OpenSSHServer(
        tmp_path,
        {**python_env(), "ONO99_CONFIG_DIR": str(tmp_path / "remote-config"),
         "ONO99_MDNS_INTERFACES": "127.0.0.1"},
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pane():
    tmux = TmuxSession(width=80, height=24)
    try:
        yield tmux
    finally:
        tmux.kill()


def test_join_over_openssh_plays_resizes_and_resumes_its_seat(table: int, sshd: OpenSSHServer, pane: TmuxSession) -> None:
    join = sshd.ssh_command([sys.executable, "-m", "ono99tui", "join", f"127.0.0.1:{table}", "--name", "ana"])
    pane.start(join, TERMINAL_ENV)
    pane.wait_for(r"ana \(you\)")

    # Play one of our own moves, then resize the terminal mid-game.
    play_until(pane.capture, pane.send_keys, lambda s: re.search(r"\b(you|ana) played", s) is not None)
    pane.resize(110, 32)
    wide = pane.wait_for(r"ana \(you\)").string
    eventually_sync(lambda: widest_line(pane.capture()) > 80 and len(pane.capture().splitlines()) >= 30)
    pane.resize(80, 24)
    eventually_sync(lambda: widest_line(pane.capture()) <= 80)
    assert "Rules" in wide

    # The SSH connection dies: kill the client (sshd hangs up on the app, the seat is held).
    ssh_pids = child_pids(pane.pane_pid())
    assert ssh_pids, "the ssh client is not running in the pane"
    for pid in ssh_pids:
        os.kill(pid, signal.SIGKILL)
    eventually_sync(lambda: not any(alive(pid) for pid in ssh_pids))

    # The app kept the table's resume token in the config directory of the SSH side.
    tokens = sshd.directory / "remote-config" / "resume-tokens.json"
    assert f"127.0.0.1:{table}" in tokens.read_text()

    # Running the same command again reclaims the same seat with the saved resume token:
    # still a human seat (no bot mark), not a new name, not a spectator.
    pane.respawn(join, TERMINAL_ENV)
    own_line = pane.wait_for(r".*ana \(you\).*").group(0)
    assert "⚙" not in own_line
    resumed = pane.capture()
    assert "ana (2)" not in resumed and "spectat" not in resumed.lower()

    final = play_until(pane.capture, pane.send_keys, lambda s: bool(MATCH_OVER.search(s)), timeout=180)
    assert "ana" in final
    assert YOUR_TURN not in final
