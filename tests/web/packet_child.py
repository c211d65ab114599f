"""An app process driven as textual-serve drives it, and a real terminal to look at it.

`PacketChild` runs a command with `TEXTUAL_DRIVER` set and pipes for stdin and stdout, and
speaks textual-serve's packet protocol over them itself (as `textual_serve.AppService`
does): after the prelude line the child writes packets of one type byte (b"D" terminal
data, b"M" a JSON meta map, b"P" a binary one), a 4-byte big-endian length and the
payload; the parent writes b"D" (keys) and b"M" (resize, focus, quit) packets the same way.
The test holds the pipe ends, so it can close the child's input or stop reading its output.

`TerminalView` shows what a browser's terminal would: the child's b"D" data, appended to a
file that a raw-mode tmux pane of the same size prints as it grows (tmux is the terminal
emulator; the test reads its screen).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import shlex
import shutil
import subprocess
import threading
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path

STOCK_DRIVER = "textual.drivers.web_driver:WebDriver"
TABLE_DRIVER = "ono99tui.ui.drivers.web:WebTableDriver"
PRELUDE = b"__GANGLION__\n"


class ScreenTimeout(AssertionError):
    """The screen never showed what the test waited for; the message holds the last screen."""


class TerminalView:
    """A tmux server of its own whose one pane prints, raw, everything appended to a file."""

    def __init__(self, directory: Path, width: int, height: int) -> None:
        if shutil.which("tmux") is None:
            raise RuntimeError("tmux is not installed")
        self.socket = f"ono99-web-{uuid.uuid4().hex[:12]}"
        self.path = directory / f"{self.socket}.out"
        self.path.write_bytes(b"")
        self._file = self.path.open("ab", buffering=0)
        # No line discipline on output (a browser's terminal has none): what the app writes
        # is exactly what the emulator gets.
        command = f"stty raw -echo -opost; exec tail -c +1 -f {shlex.quote(str(self.path))}"
        self._tmux("new-session", "-d", "-s", "main", "-x", str(width), "-y", str(height),
                   command)
        self._tmux("set-option", "-t", "main", "window-size", "manual")

    def _tmux(self, *args: str) -> str:
        result = subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args],
                                check=True, capture_output=True, encoding="utf-8",
                                errors="replace", timeout=30)
        return result.stdout

    def feed(self, data: bytes) -> None:
        """Show `data` (terminal output) in the pane."""
        self._file.write(data)

    def resize(self, width: int, height: int) -> None:
        """Make the terminal `width` x `height` (what it shows stays, as a browser's does)."""
        self._tmux("resize-window", "-t", "main", "-x", str(width), "-y", str(height))

    def screen(self) -> str:
        """The visible screen as plain text."""
        return self._tmux("capture-pane", "-p", "-t", "main")

    def wait_for(self, pattern: str, timeout: float = 30.0) -> re.Match[str]:
        """Poll the screen until `pattern` (a regex) shows; fail with the last screen."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            match = regex.search(screen)
            if match:
                return match
            if time.monotonic() > deadline:
                raise ScreenTimeout(f"{pattern!r} not seen within {timeout} s; screen:\n{screen}")
            time.sleep(0.05)

    def close(self) -> None:
        """Stop the tmux server and close the file."""
        subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", "kill-server"],
                       check=False, capture_output=True, timeout=30)
        self._file.close()


def encode_packet(packet_type: bytes, payload: bytes) -> bytes:
    """One packet of textual-serve's protocol."""
    return packet_type + len(payload).to_bytes(4, "big") + payload


class PacketChild:
    """A command run the way textual-serve runs an app (see the module docstring)."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        driver: str,
        env: Mapping[str, str],
        width: int = 80,
        height: int = 24,
        stderr_path: Path,
        view: TerminalView | None = None,
    ) -> None:
        child_stdin, self._stdin = os.pipe()
        self._stdout, child_stdout = os.pipe()
        self._stderr_file = stderr_path.open("wb")
        self.stderr_path = stderr_path
        self.view = view
        # What textual-serve's AppService sets, with the driver under test.
        environment = {**env, "TEXTUAL_DRIVER": driver, "TEXTUAL_FPS": "60",
                       "TEXTUAL_COLOR_SYSTEM": "truecolor", "TERM_PROGRAM": "textual",
                       "COLUMNS": str(width), "ROWS": str(height)}
        self.process = subprocess.Popen(
            list(argv), stdin=child_stdin, stdout=child_stdout, stderr=self._stderr_file,
            env=environment, start_new_session=True, close_fds=True)
        os.close(child_stdin)
        os.close(child_stdout)
        self._lock = threading.Lock()
        self.data_bytes = 0  # terminal data (b"D" payloads) received so far
        self.metas: list[dict[str, object]] = []
        self.prelude_seen = threading.Event()
        self._stop_reading = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # --- reading ------------------------------------------------------------------------

    def _read(self) -> None:
        buffer = b""
        fd = self._stdout
        while not self._stop_reading.is_set():
            ready, _, _ = select.select([fd], [], [], 0.05)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return
            buffer += chunk
            if not self.prelude_seen.is_set():
                if PRELUDE not in buffer:
                    continue
                buffer = buffer.split(PRELUDE, 1)[1]
                self.prelude_seen.set()
            while len(buffer) >= 5:
                size = int.from_bytes(buffer[1:5], "big")
                if len(buffer) < 5 + size:
                    break
                packet_type, payload = buffer[:1], buffer[5 : 5 + size]
                buffer = buffer[5 + size :]
                if packet_type == b"D":
                    with self._lock:
                        self.data_bytes += size
                    if self.view is not None:
                        self.view.feed(payload)
                elif packet_type == b"M":
                    self.metas.append(json.loads(payload))

    def stop_reading(self) -> None:
        """Close the read end of the child's output, as a door that is gone would."""
        self._stop_reading.set()
        self._reader.join(5)
        if self._stdout >= 0:
            os.close(self._stdout)
            self._stdout = -1

    # --- writing ------------------------------------------------------------------------

    def send_keys(self, text: str) -> None:
        """What the browser's terminal sends for key presses."""
        os.write(self._stdin, encode_packet(b"D", text.encode()))

    def send_meta(self, meta: Mapping[str, object]) -> None:
        """A meta packet (resize, focus, blur, quit)."""
        os.write(self._stdin, encode_packet(b"M", json.dumps(meta).encode()))

    def close_input(self) -> None:
        """Close the child's input: end of input, as when the door is gone."""
        if self._stdin >= 0:
            os.close(self._stdin)
            self._stdin = -1

    # --- life ---------------------------------------------------------------------------

    def wait_exit(self, timeout: float = 30.0) -> int:
        """The child's exit status; fails (with its stderr) if it runs on past `timeout`."""
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(
                f"the app still runs {timeout} s later; stderr:\n{self.stderr()}") from None

    def stderr(self) -> str:
        """What the child wrote to its standard error so far."""
        return self.stderr_path.read_text(errors="replace")[-4000:]

    def kill(self) -> None:
        """End the child (and its process group) if it still runs; close every pipe end."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, 9)
            self.process.wait()
        self.close_input()
        self.stop_reading()
        self._stderr_file.close()
