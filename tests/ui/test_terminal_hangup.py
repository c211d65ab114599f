"""The app exits, closing its table connection, when its terminal goes away.

Real parts only: the app runs in a child process on a real pty, seated at a real table this
test serves on 127.0.0.1. The terminal "goes away" the two ways it does for a player: the
master side is closed (terminal window closed, SSH relay gone) or the app gets SIGHUP.
Before the fix, a closed master left the app spinning at full speed, forever.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import signal
import struct
import sys
import termios
from pathlib import Path

import pytest

from ono99tui.host.server import TableServer
from ono99tui.host.table_config import TableConfig

ROOT = Path(__file__).resolve().parents[2]
SEATED_APP = """
import sys
from netproto.client import TableClient
from ono99tui.ui.app import Ono99App
from ono99tui.ui.screens.table import TableScreen

port = int(sys.argv[1])
app = Ono99App(lambda: TableClient.connect("127.0.0.1", port, name="pty"),
               start_screen=TableScreen, ascii_glyphs=False)
app.run()
sys.exit(app.return_code)
"""
# Generous: the app needs well under a second; a spinning app burns ~1 s of CPU per second.
EXIT_WITHIN = 15.0
CPU_SECONDS_AT_MOST = 10.0


def _become_controlling_terminal() -> None:
    """In the child: make stdin (the pty) the controlling terminal, as a login shell has."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class PtyApp:
    """The seated app on a new 80x24 pty; the test holds the master."""

    def __init__(self, port: int, tmp_path: Path, controlling_terminal: bool) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        env = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "PYTHONPATH": str(ROOT),
               "PATH": os.environ.get("PATH", ""), "ONO99_CONFIG_DIR": str(tmp_path)}
        self.pid = os.fork()
        if self.pid == 0:  # the child: pty as stdin/stdout/stderr, in a session of its own
            try:
                os.setsid()
                for fd in (0, 1, 2):
                    os.dup2(slave, fd)
                if controlling_terminal:
                    _become_controlling_terminal()
                os.closerange(3, 1024)
                os.execve(sys.executable, [sys.executable, "-c", SEATED_APP, str(port)], env)
            finally:
                os._exit(127)
        os.close(slave)
        os.set_blocking(self.master, False)
        self.master_open = True
        self.status: int | None = None
        self.cpu_seconds = 0.0

    def drain(self) -> None:
        """Read (and forget) what the app wrote, so it never blocks on a full pty."""
        with contextlib.suppress(OSError):
            os.read(self.master, 1 << 16)

    def close_master(self) -> None:
        if self.master_open:
            self.master_open = False
            os.close(self.master)

    def poll(self) -> bool:
        """Has the app exited? Records its status and CPU time when it has."""
        pid, status, usage = os.wait4(self.pid, os.WNOHANG)
        if pid == 0:
            return False
        self.status = status
        self.cpu_seconds = usage.ru_utime + usage.ru_stime
        return True

    def kill(self) -> None:
        if self.status is None:
            os.killpg(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        self.close_master()


async def _until(condition, timeout: float, what: str, tick=None) -> None:  # type: ignore[no-untyped-def]
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        if tick is not None:
            tick()
        await asyncio.sleep(0.02)


@pytest.mark.parametrize(
    ("hang_up", "controlling_terminal"),
    [("close-master", False), ("close-master", True), ("sighup", False)],
)
async def test_app_exits_and_drops_its_seat_when_the_terminal_goes_away(
    hang_up: str, controlling_terminal: bool, tmp_path: Path
) -> None:
    config = TableConfig(name="hangup", capacity=2, seed=5, bot_delay=60.0)
    async with TableServer(config) as server:
        table = server.table
        app = PtyApp(server.port, tmp_path, controlling_terminal)
        loop = asyncio.get_running_loop()
        loop.add_reader(app.master, app.drain)
        try:
            await _until(lambda: bool(table.seats) and table.seats[0].connected, 30, "the app to sit")
            table.add_bot("greedy")
            table.start()  # in a match, a dropped player's seat stays, shown as not connected
            await _until(lambda: table.seats[0].seq > 0, 30, "the first view")
            if hang_up == "close-master":
                loop.remove_reader(app.master)
                app.close_master()
            else:
                os.kill(app.pid, signal.SIGHUP)
            await _until(app.poll, EXIT_WITHIN, "the app to exit")
            assert app.cpu_seconds < CPU_SECONDS_AT_MOST
            assert app.status is not None
            # Exited on its own (status 129), not killed by a signal.
            assert os.WIFEXITED(app.status), app.status
            assert os.WEXITSTATUS(app.status) == 129
            await _until(lambda: not table.seats[0].connected, 10, "the table to see the drop")
            # A hang-up is not a goodbye: the seat is held for the grace period (60 s
            # here), so no stand-in bot plays it yet and its player can come back to it.
            seat = table.seats[0]
            assert seat.human and not seat.taken_over and not seat.resigned
        finally:
            if app.master_open:
                loop.remove_reader(app.master)
            app.kill()
