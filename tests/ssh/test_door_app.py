"""The SSH door in front of the real app: asyncssh and stock OpenSSH clients at a table."""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Iterator
from pathlib import Path

import asyncssh
import pytest
from match_driver import MATCH_OVER, play_until
from openssh_server import missing_requirement
from ssh_helpers import PASSWORD, HeadlessHost, Screen, alive, connect_to_port, eventually_sync
from testkit.tmux import TmuxSession

pytestmark = pytest.mark.ssh

PLAYED = r"\b(you|{name}) played"


@pytest.fixture
def door_host(tmp_path: Path) -> Iterator[tuple[HeadlessHost, int]]:
    """A headless 2-seat table with a bot and a password-protected door; yields (host, door port)."""
    host = HeadlessHost(
        "--seats", "2", "--bots", "1", "--bot-delay", "0.02", "--grace", "120", "--seed", "3",
        "--no-advertise", "--ssh-port", "0",
        env={"ONO99_CONFIG_DIR": str(tmp_path / "host-config"), "ONO99_SSH_PASSWORD": PASSWORD},
    )
    try:
        yield host, host.wait_for_event("ssh-door")["port"]
    finally:
        host.stop()


async def test_asyncssh_client_joins_plays_a_card_and_resizes(door_host: tuple[HeadlessHost, int]) -> None:
    _, port = door_host
    async with connect_to_port(port, "ana") as conn:
        process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        screen = Screen(process.stdout)
        await screen.wait_for(r"ana \(you\)")
        await screen.wait_for("Your turn")

        # Try the cards in order, as a player would, until the table takes one.
        for key in "1234":
            screen.consume()
            process.stdin.write(key.encode())
            try:
                await screen.wait_for(PLAYED.format(name="ana"), timeout=3)
                break
            except AssertionError:
                continue
        else:
            raise AssertionError("no card could be played")

        screen.consume()
        process.change_terminal_size(100, 30)
        # The app repaints for the new size: it now addresses row 30 and column 100.
        await screen.wait_for(r"ana \(you\)")
        await _wait_for_raw(screen, rb"\x1b\[30;\d+H")

        process.stdin.write(b"\x11")  # Ctrl+Q: quit (the app may ask to confirm)
        process.close()


async def _wait_for_raw(screen: Screen, pattern: bytes, timeout: float = 10.0) -> None:
    import asyncio

    async def read() -> None:
        while not re.search(pattern, bytes(screen.raw)):
            chunk = await screen.stream.read(65536)
            if not chunk:
                raise AssertionError("stream ended")
            screen.raw += chunk

    await asyncio.wait_for(read(), timeout)


async def test_wrong_password_never_reaches_the_table(door_host: tuple[HeadlessHost, int]) -> None:
    _, port = door_host
    with pytest.raises(asyncssh.PermissionDenied):
        async with connect_to_port(port, "ana", password="not it"):
            pass


@pytest.mark.tmux
@pytest.mark.skipif(missing_requirement() is not None, reason=missing_requirement() or "")
def test_stock_ssh_client_plays_through_the_door_and_comes_back_to_its_seat(
    door_host: tuple[HeadlessHost, int], tmp_path: Path
) -> None:
    _, port = door_host
    ssh = [
        "ssh", "-tt", "-p", str(port), "-F", "/dev/null",
        "-o", "StrictHostKeyChecking=no", "-o", f"UserKnownHostsFile={tmp_path / 'known_hosts'}",
        "-o", "PubkeyAuthentication=no", "-o", "PreferredAuthentications=password",
        "bea@127.0.0.1",
    ]
    env = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": os.environ.get("HOME", "/root")}
    pane = TmuxSession(width=80, height=24)
    try:
        pane.start(ssh, env)
        pane.wait_for("password:")
        pane.send_text(PASSWORD)
        pane.send_keys("Enter")
        pane.wait_for(r"bea \(you\)")
        play_until(pane.capture, pane.send_keys, lambda s: re.search(PLAYED.format(name="bea"), s) is not None)

        pane.resize(100, 30)
        eventually_sync(lambda: max(len(line.rstrip()) for line in pane.capture().splitlines()) > 80)

        # Losing the connection hangs up the app: the table holds bea's seat.
        ssh_pids = [int(p) for p in Path(f"/proc/{pane.pane_pid()}/task/{pane.pane_pid()}/children").read_text().split()]
        for pid in ssh_pids:
            os.kill(pid, signal.SIGKILL)
        eventually_sync(lambda: not any(alive(pid) for pid in ssh_pids))

        # Same name again: the door's per-player config dir holds the token; same seat.
        pane.respawn(ssh, env)
        pane.wait_for("password:")
        pane.send_text(PASSWORD)
        pane.send_keys("Enter")
        own_line = pane.wait_for(r".*bea \(you\).*").group(0)
        assert "⚙" not in own_line
        final = play_until(pane.capture, pane.send_keys, lambda s: bool(MATCH_OVER.search(s)), timeout=180)
        assert "bea" in final
    finally:
        pane.kill()
