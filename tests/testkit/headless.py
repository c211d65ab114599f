"""`ono99 host --headless` in a child process, read through the JSON events it prints.

A headless host says what a test needs to know on stdout, one JSON object per line
(`listening`, `web-door`, `web-join`, `ssh-door`, …; docs/PLAYING.md). `EventLines` reads
those lines on a thread, so that waiting for one can time out without fighting stdio
buffering; `HeadlessHost` is the child process, its latest event of each kind, its stderr
(drained as it comes) and a stop that does not hang. The SSH, web and line-mode tests, and the restart tests' `HostProcess`,
build on these.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any


class EventLines:
    """The lines of a child's stdout, read on a thread; "" once it is closed."""

    def __init__(self, stdout: IO[str]) -> None:
        self._lines: queue.Queue[str] = queue.Queue()
        self.closed = False  # stdout has ended: the child exited (or closed it)
        threading.Thread(target=self._read, args=(stdout,), daemon=True).start()

    def _read(self, stdout: IO[str]) -> None:
        for line in stdout:
            self._lines.put(line)
        self._lines.put("")

    def next_event(self, deadline: float) -> dict[str, Any] | None:
        """The next JSON event; None when stdout closed (the host exited) or at `deadline`
        (a `time.monotonic()` reading)."""
        try:
            line = self._lines.get(timeout=max(deadline - time.monotonic(), 0.01))
        except queue.Empty:
            return None
        if not line:
            self.closed = True
            self._lines.put("")  # stays closed for the next reader
            return None
        event: dict[str, Any] = json.loads(line)
        return event


class HeadlessHost:
    """`ono99 host --headless --bind 127.0.0.1 OPTIONS` in a child process.

    `events` keeps the latest event of each name; `wait_for_event` reads stdout until the
    named one has come.
    """

    def __init__(self, *options: str, env: dict[str, str] | None = None,
                 preexec_fn: Callable[[], None] | None = None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ono99tui", "host", "--headless", "--bind", "127.0.0.1",
             *options],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, **(env or {})}, preexec_fn=preexec_fn,
        )
        assert self.process.stdout is not None and self.process.stderr is not None
        self._lines = EventLines(self.process.stdout)
        # Drained as it comes: a host that logs more than a pipe holds must not block on it.
        self._stderr: list[str] = []
        self._stderr_read = threading.Thread(
            target=self._stderr.extend, args=(self.process.stderr,), daemon=True)
        self._stderr_read.start()
        self.events: dict[str, dict[str, Any]] = {}

    def wait_for_event(self, name: str, timeout: float = 30.0) -> dict[str, Any]:
        """The JSON event *name* the host printed (reading stdout until it comes); a host
        that exits or stays silent stops the test with what it wrote to stderr."""
        deadline = time.monotonic() + timeout
        while name not in self.events:
            event = self._lines.next_event(deadline)
            if event is None:
                self.stop()
                raise AssertionError(f"host gave no {name!r} event; stderr:\n{self.stderr()}")
            self.events[event["event"]] = event
        return self.events[name]

    def stop(self, timeout: float = 15.0) -> int:
        """Stop the host (SIGTERM, as from a service manager) and return its exit status;
        SIGKILL if it has not gone within `timeout`."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode

    def stderr(self) -> str:
        """What the host has written to stderr so far (all of it once it has stopped)."""
        if self.process.poll() is not None:
            self._stderr_read.join(5)
        return "".join(self._stderr)
