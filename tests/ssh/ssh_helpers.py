"""Helpers for the SSH tests: clients for the door, and readers of terminal output."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncssh
import testkit.headless

from ono99tui.ssh import SSHDoor

PROBE = Path(__file__).with_name("terminal_probe.py")
PASSWORD = "correct horse"

_ESCAPE = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")


def plain_text(data: bytes) -> str:
    """Terminal output with escape sequences removed, for looking for words in it."""
    return _ESCAPE.sub(b"", data).decode("utf-8", "replace")


def probe_command(player: str) -> list[str]:
    """Run the terminal probe instead of the game, with the player name as its argument."""
    return [sys.executable, str(PROBE), player]


def connect(door: SSHDoor, username: str = "ana", **options: Any) -> Any:
    """An asyncssh client connection to *door* (password by default, host key unchecked)."""
    return connect_to_port(door.port, username, **options)


def connect_to_port(port: int, username: str = "ana", **options: Any) -> Any:
    """An asyncssh client connection to a door on 127.0.0.1:*port*."""
    options.setdefault("password", PASSWORD)
    return asyncssh.connect(
        "127.0.0.1", port, username=username, known_hosts=None,
        client_keys=options.pop("client_keys", None), agent_path=None, **options,
    )


class Screen:
    """Collects what a session's stdout carries, and waits for words to appear in it."""

    def __init__(self, stream: asyncssh.SSHReader[bytes]) -> None:
        self.stream = stream
        self.raw = bytearray()

    @property
    def text(self) -> str:
        return plain_text(bytes(self.raw))

    async def wait_for(self, pattern: str, timeout: float = 20.0) -> re.Match[str]:
        """Read until *pattern* (a regex) occurs in the text after the last wait, or fail."""

        async def read() -> re.Match[str]:
            while True:
                match = re.search(pattern, self.text)
                if match:
                    return match
                chunk = await self.stream.read(65536)
                if not chunk:
                    raise AssertionError(f"stream ended before {pattern!r}; got {self.text[-800:]!r}")
                self.raw += chunk

        try:
            return await asyncio.wait_for(read(), timeout)
        except TimeoutError:
            raise AssertionError(f"no {pattern!r} within {timeout}s; got {self.text[-800:]!r}") from None

    def consume(self) -> None:
        """Forget what was read so far, so the next wait sees only new output."""
        self.raw.clear()


def alive(pid: int) -> bool:
    """Whether process *pid* exists and has not exited (a zombie counts as exited)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as stat_file:
            return stat_file.read().rsplit(") ", 1)[1][0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        # Reading the stat of a process that is being reaped can fail with ESRCH.
        return False


async def eventually(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Poll *condition* until it holds; fail after *timeout* seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.02)


class HeadlessHost(testkit.headless.HeadlessHost):
    """`ono99 host --headless` on a free loopback port, with the ports it announces."""

    def __init__(self, *options: str, env: dict[str, str] | None = None) -> None:
        super().__init__("--port", "0", *options, env=env)

    def wait_for_event(self, name: str, timeout: float = 20.0) -> dict[str, Any]:
        """The JSON event line *name* the host printed (reading stdout until it comes)."""
        return super().wait_for_event(name, timeout)


def time_now() -> float:
    """A monotonic clock reading, in seconds."""
    import time

    return time.monotonic()


def eventually_sync(condition: Callable[[], bool], timeout: float = 15.0) -> None:
    """Poll *condition* (from a synchronous test) until it holds; fail after *timeout* s."""
    import time

    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.05)
