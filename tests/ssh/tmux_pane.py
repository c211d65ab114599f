"""One program in a private tmux server: type into it, read its screen, resize it."""

from __future__ import annotations

import re
import shlex
import subprocess
import time
import uuid
from collections.abc import Mapping, Sequence


class ScreenTimeout(AssertionError):
    """The screen never showed what the test waited for; the message holds the last screen."""


class TmuxPane:
    """A tmux server (its own `-L` socket) with one window running one command."""

    def __init__(self, width: int = 80, height: int = 24) -> None:
        self.socket = f"ono99-ssh-{uuid.uuid4().hex[:12]}"
        self.width = width
        self.height = height

    def tmux(self, *args: str, check: bool = True) -> str:
        """Run a tmux command against this server and return its output."""
        result = subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args],
            check=check, capture_output=True, text=True, timeout=30,
        )
        return result.stdout

    def start(self, command: Sequence[str], env: Mapping[str, str]) -> None:
        """Run *command* in the window; after it exits the pane shows its exit status."""
        exports = " ".join(shlex.quote(f"{k}={v}") for k, v in env.items())
        shell = f"env {exports} {shlex.join(command)}; echo \"[exit $?]\"; sleep 3600"
        self.tmux("new-session", "-d", "-s", "main", "-x", str(self.width), "-y", str(self.height), shell)
        self.tmux("set-option", "-t", "main", "window-size", "manual")

    def respawn(self, command: Sequence[str], env: Mapping[str, str]) -> None:
        """Kill whatever runs in the pane and run *command* in it instead."""
        exports = " ".join(shlex.quote(f"{k}={v}") for k, v in env.items())
        shell = f"env {exports} {shlex.join(command)}; echo \"[exit $?]\"; sleep 3600"
        self.tmux("respawn-pane", "-k", "-t", "main", shell)

    def resize(self, width: int, height: int) -> None:
        """Resize the window (the program gets SIGWINCH, as from a real terminal)."""
        self.tmux("resize-window", "-t", "main", "-x", str(width), "-y", str(height))

    def send_keys(self, *keys: str) -> None:
        """Send tmux key names (Enter, Down, 1, …)."""
        self.tmux("send-keys", "-t", "main", *keys)

    def screen(self) -> str:
        """The visible screen as plain text."""
        return self.tmux("capture-pane", "-p", "-t", "main")

    def wait_for(self, pattern: str, timeout: float = 30.0) -> re.Match[str]:
        """Poll the screen until *pattern* (a regex) shows; fail with the last screen."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            match = regex.search(screen)
            if match:
                return match
            if time.monotonic() > deadline:
                raise ScreenTimeout(f"{pattern!r} not seen within {timeout}s; screen:\n{screen}")
            time.sleep(0.1)

    def pane_pid(self) -> int:
        """The process id of the shell running in the pane."""
        return int(self.tmux("display-message", "-p", "-t", "main", "#{pane_pid}").strip())

    def kill(self) -> None:
        """Stop the tmux server and everything it runs."""
        self.tmux("kill-server", check=False)
