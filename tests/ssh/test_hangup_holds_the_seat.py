"""A hang-up is not a goodbye: a terminal killed mid-match (a tmux pane, an ssh client) holds
the player's seat for the grace period, and running `ono99 join` again finds the same hand.

The table here makes an abandoned seat resign (`--on-abandon eliminate`), so a seat given up
at once on hang-up would come back as a watcher with no hand: the test sees the difference.
Bots wait 60 s before each move, so nothing on the table changes while the player is away.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from openssh_server import OpenSSHServer, missing_requirement, python_env
from ssh_helpers import HeadlessHost, alive, eventually_sync
from testkit.tmux import TmuxSession

pytestmark = pytest.mark.tmux

TERMINAL_ENV = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": os.environ.get("HOME", "/root")}
OWN_SEAT = r"tess \(you\)"
# The table's title: the waiting room shows "tess (you)" and box corners too.
AT_THE_TABLE = r"Draw pile"


def hand_labels(screen: str) -> str:
    """The words under the cards of the hand (the row above the hand's bottom edge), with
    the frames and spacing taken out: the same hand reads the same whatever is focused."""
    lines = screen.splitlines()
    bottoms = [i for i, line in enumerate(lines) if "╰────────────╯" in line or "▄▄▄▄" in line
               or "┗╍╍╍" in line]
    assert bottoms, f"no hand on screen:\n{screen}"
    row = lines[bottoms[-1] - 1]
    return " ".join(re.sub(r"[█│╏┃]", " ", row).split())


@pytest.fixture
def table(tmp_path: Path) -> Iterator[int]:
    host = HeadlessHost(
        "--seats", "2", "--bots", "1", "--bot-delay", "60", "--grace", "120", "--seed", "5",
        "--on-abandon", "eliminate", "--no-advertise",
        env={"ONO99_CONFIG_DIR": str(tmp_path / "host-config")},
    )
    try:
        yield host.wait_for_event("listening")["port"]
    finally:
        host.stop()


@pytest.fixture
def pane() -> Iterator[TmuxSession]:
    tmux = TmuxSession(width=80, height=24)
    try:
        yield tmux
    finally:
        tmux.kill()


def test_a_killed_tmux_pane_holds_the_seat_and_join_again_finds_the_hand(
    table: int, pane: TmuxSession, tmp_path: Path,
) -> None:
    env = {**TERMINAL_ENV, "ONO99_CONFIG_DIR": str(tmp_path / "player-config"),
           "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    join = [sys.executable, "-m", "ono99tui", "join", f"127.0.0.1:{table}", "--name", "tess"]
    pane.start(join, env)
    pane.wait_for(OWN_SEAT)
    pane.wait_for(AT_THE_TABLE)
    pane.wait_for(r"[╰▄┗]")
    before = hand_labels(pane.capture())

    pane.respawn(join, env)  # tmux kills the pane's program with SIGHUP, then runs it anew
    own_line = pane.wait_for(rf".*{OWN_SEAT}.*").group(0)
    pane.wait_for(AT_THE_TABLE)
    pane.wait_for(r"[╰▄┗]")
    resumed = pane.capture()
    assert "spectat" not in resumed.lower() and "tess 2" not in resumed
    assert "resign" not in own_line.lower()
    assert hand_labels(resumed) == before


@pytest.mark.ssh
@pytest.mark.skipif(missing_requirement() is not None, reason=missing_requirement() or "")
def test_a_killed_ssh_client_holds_the_seat_and_join_again_finds_the_hand(
    table: int, pane: TmuxSession, tmp_path: Path,
) -> None:
    sshd = OpenSSHServer(tmp_path, {**python_env(), "ONO99_CONFIG_DIR": str(tmp_path / "remote"),
                                    "ONO99_MDNS_INTERFACES": "127.0.0.1"})
    sshd.start()
    try:
        join = sshd.ssh_command(
            [sys.executable, "-m", "ono99tui", "join", f"127.0.0.1:{table}", "--name", "tess"])
        pane.start(join, TERMINAL_ENV)
        pane.wait_for(OWN_SEAT)
        pane.wait_for(AT_THE_TABLE)
        pane.wait_for(r"[╰▄┗]")
        before = hand_labels(pane.capture())

        # The SSH connection dies: sshd hangs up on the app.
        shell = pane.pane_pid()
        ssh_pids = [int(pid) for task in Path(f"/proc/{shell}/task").iterdir()
                    for pid in (task / "children").read_text().split()]
        assert ssh_pids, "the ssh client is not running in the pane"
        for pid in ssh_pids:
            os.kill(pid, signal.SIGKILL)
        eventually_sync(lambda: not any(alive(pid) for pid in ssh_pids))

        pane.respawn(join, TERMINAL_ENV)
        own_line = pane.wait_for(rf".*{OWN_SEAT}.*").group(0)
        pane.wait_for(AT_THE_TABLE)
        pane.wait_for(r"[╰▄┗]")
        resumed = pane.capture()
        assert "spectat" not in resumed.lower() and "resign" not in own_line.lower()
        assert hand_labels(resumed) == before
    finally:
        sshd.stop()
