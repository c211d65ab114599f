"""DiffingDriver in a real pty: repaints with nothing new cost nothing, a one-letter change
costs a few bytes, and a resize brings a full repaint (the model is forgotten).

The app is a small Textual app on the app's own driver, in a child process on a real pty.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP = """
from textual.app import App
from textual.widgets import Static
from ono99tui.ui.drivers.diffing import DiffingDriver

class Probe(App):
    CSS = "Static { width: 20; height: 1; }"
    BINDINGS = [("r", "repaint", ""), ("z", "show('READY abZ')", ""), ("q", "show('READY abQ')", "")]

    def get_driver_class(self):
        return DiffingDriver

    def compose(self):
        yield Static("READY abc", id="text")

    def action_repaint(self):
        self.query_one("#text").refresh()
        self.screen.refresh()

    def action_show(self, text):
        self.query_one("#text").update(text)

Probe().run()
"""
TIMEOUT = 20.0


class PtyChild:
    def __init__(self) -> None:
        self.master, slave = os.openpty()
        self.resize(80, 24, fd=slave)
        env = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "PYTHONPATH": str(ROOT),
               "PATH": os.environ.get("PATH", "")}
        self.process = subprocess.Popen(
            [sys.executable, "-c", APP], stdin=slave, stdout=slave, stderr=slave, env=env,
            start_new_session=True, close_fds=True,
        )
        os.close(slave)
        os.set_blocking(self.master, False)

    def resize(self, width: int, height: int, fd: int | None = None) -> None:
        fcntl.ioctl(self.master if fd is None else fd, termios.TIOCSWINSZ,
                    struct.pack("HHHH", height, width, 0, 0))

    def read_until(self, marker: bytes) -> bytes:
        """Everything the app writes until `marker` has appeared (included)."""
        seen = b""
        deadline = time.monotonic() + TIMEOUT
        while marker not in seen:
            if time.monotonic() > deadline:
                raise AssertionError(f"never saw {marker!r}; got {seen[-400:]!r}")
            try:
                chunk = os.read(self.master, 1 << 16)
            except BlockingIOError:
                time.sleep(0.005)
                continue
            seen += chunk
        return seen

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        os.close(self.master)


def test_only_changes_reach_the_terminal_and_a_resize_repaints_everything() -> None:
    child = PtyChild()
    try:
        child.read_until(b"READY abc")
        # A first change, read to its end: whatever came with the first paint is read too.
        os.write(child.master, b"z")
        child.read_until(b"Z")
        # Repaints with nothing new, then a change of one letter.
        os.write(child.master, b"rrrq")
        written = child.read_until(b"Q")
        assert b"READY" not in written  # nothing was written again
        assert len(written) < 120, written

        child.resize(60, 20)  # smaller: the new frame fits the old model too
        os.kill(child.process.pid, signal.SIGWINCH)
        # Same text, same place: only a forgotten model writes it again.
        child.read_until(b"READY abQ")
    finally:
        child.stop()
