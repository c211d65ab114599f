"""A real terminal for end-to-end tests: one private tmux server per test.

Each session gets its own server socket (`tmux -L NAME`), so tests running at the same
time never see each other's panes, and `kill()` (always called from a fixture's finally)
takes the whole server down with every process it started.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path


class TmuxTimeout(AssertionError):
    """The screen never showed what the test waited for; the message holds the last screen."""


class TmuxSession:
    """One tmux server with one session; panes are addressed by index (0 is the first)."""

    def __init__(
        self,
        *,
        width: int = 80,
        height: int = 24,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
    ) -> None:
        if shutil.which("tmux") is None:
            raise RuntimeError("tmux is not installed")
        self.socket = f"ono99-test-{uuid.uuid4().hex[:12]}"
        self.width = width
        self.height = height
        self.env = dict(env or {})
        self.cwd = cwd
        self._panes: list[str] = []

    def _tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["tmux", "-u", "-L", self.socket, "-f", "/dev/null", *args],
            check=check,
            capture_output=True,
            # Screens hold box drawing and card symbols whatever the test's own locale.
            encoding="utf-8",
            errors="replace",
            timeout=30,
        )

    def _shell_command(self, command: Sequence[str], env: Mapping[str, str] | None = None) -> str:
        # The trailing sleep keeps the pane (and what the program printed last) visible
        # after it exits, with its exit status.
        chosen = self.env if env is None else env
        exports = " ".join(f"{key}={shlex.quote(value)}" for key, value in chosen.items())
        program = " ".join(shlex.quote(part) for part in command)
        # COLUMNS and LINES (set in the test process by the Textual test tools) would
        # override the pane's real size: a program in a 40x12 pane drew for 80x24.
        return f"env -u COLUMNS -u LINES {exports} {program}; echo; echo \"[exit $?]\"; sleep 3600"

    def start(self, command: Sequence[str], env: Mapping[str, str] | None = None) -> int:
        """Start the session running `command` in its first pane (with `env` instead of the
        session's environment, if given); returns the pane index."""
        args = ["new-session", "-d", "-s", "main", "-x", str(self.width), "-y", str(self.height)]
        if self.cwd is not None:
            args += ["-c", str(self.cwd)]
        self._tmux(*args, self._shell_command(command, env))
        # Keep the size fixed whatever clients attach (none do here).
        self._tmux("set-option", "-t", "main", "window-size", "manual", check=False)
        pane = self._tmux("display-message", "-p", "-t", "main", "#{pane_id}").stdout.strip()
        self._panes.append(pane)
        return 0

    def new_window(self, command: Sequence[str]) -> int:
        """Run `command` in a new window of the same size; returns its pane index."""
        args = ["new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "main"]
        if self.cwd is not None:
            args += ["-c", str(self.cwd)]
        pane = self._tmux(*args, self._shell_command(command)).stdout.strip()
        self._tmux("resize-window", "-t", pane, "-x", str(self.width), "-y", str(self.height), check=False)
        self._panes.append(pane)
        return len(self._panes) - 1

    def respawn(self, command: Sequence[str], env: Mapping[str, str] | None = None,
                pane: int = 0) -> None:
        """Kill what runs in a pane (tmux sends it SIGHUP, as a closed terminal does) and
        run `command` there instead."""
        self._tmux("respawn-pane", "-k", "-t", self._panes[pane], self._shell_command(command, env))

    def resize(self, width: int, height: int) -> None:
        """Resize the window (the program gets SIGWINCH, as from a real terminal)."""
        self.width, self.height = width, height
        self._tmux("resize-window", "-t", "main", "-x", str(width), "-y", str(height))

    def send_keys(self, *keys: str, pane: int = 0) -> None:
        """Send tmux key names (`Enter`, `Down`, `q`, …) to a pane, in order."""
        self._tmux("send-keys", "-t", self._panes[pane], *keys)

    def write_to_terminal(self, data: str, pane: int = 0) -> None:
        """Write `data` on the pane's terminal behind the program's back, as another program
        sharing the terminal would (a `wall` message, a background job)."""
        tty = self._tmux("display-message", "-p", "-t", self._panes[pane],
                         "#{pane_tty}").stdout.strip()
        with open(tty, "w", encoding="utf-8") as terminal:
            terminal.write(data)

    def send_text(self, text: str, pane: int = 0) -> None:
        """Type literal text into a pane."""
        self._tmux("send-keys", "-t", self._panes[pane], "-l", text)

    def capture(self, pane: int = 0, *, escapes: bool = False) -> str:
        """The pane's visible screen as plain text (with `escapes`: with its colours and
        attributes as escape sequences, trailing blanks kept)."""
        flags = ["-e", "-N"] if escapes else []
        return self._tmux("capture-pane", "-p", *flags, "-t", self._panes[pane]).stdout

    def wait_for(
        self, pattern: str, *, pane: int = 0, timeout: float = 30.0, interval: float = 0.1
    ) -> re.Match[str]:
        """Poll the pane until `pattern` (a regular expression) appears; return the match."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        screen = ""
        while True:
            screen = self.capture(pane)
            match = regex.search(screen)
            if match is not None:
                return match
            if time.monotonic() > deadline:
                raise TmuxTimeout(f"{pattern!r} not seen within {timeout} s; screen:\n{screen}")
            time.sleep(interval)

    def wait_until_gone(
        self, pattern: str, *, pane: int = 0, timeout: float = 30.0, interval: float = 0.1
    ) -> str:
        """Poll the pane until `pattern` no longer appears; return that screen (a frame
        reaches tmux in pieces: one capture may hold the new footer and the old panel)."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            screen = self.capture(pane)
            if regex.search(screen) is None:
                return screen
            if time.monotonic() > deadline:
                raise TmuxTimeout(f"{pattern!r} still shown after {timeout} s; screen:\n{screen}")
            time.sleep(interval)

    def wait_until_changed(
        self, before: str, *, pane: int = 0, timeout: float = 5.0, interval: float = 0.05
    ) -> str:
        """Poll until the pane's screen differs from `before`; return it (or the same screen
        after `timeout`: the caller decides whether no change is a failure)."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.capture(pane)
            if screen != before or time.monotonic() > deadline:
                return screen
            time.sleep(interval)

    def wait_until_still(
        self, *, pane: int = 0, still_for: float = 1.0, timeout: float = 30.0,
        unless: str | None = None, interval: float = 0.1,
    ) -> str:
        """Poll until the pane's screen has stayed the same for `still_for` seconds (and
        does not match `unless`, e.g. a notice still on screen); return it."""
        regex = re.compile(unless) if unless is not None else None
        deadline = time.monotonic() + timeout
        screen, since = self.capture(pane), time.monotonic()
        while True:
            time.sleep(interval)
            now_screen = self.capture(pane)
            if now_screen != screen or (regex is not None and regex.search(now_screen)):
                screen, since = now_screen, time.monotonic()
            elif time.monotonic() - since >= still_for:
                return screen
            if time.monotonic() > deadline:
                raise TmuxTimeout(f"the screen never stayed still for {still_for} s:\n{screen}")

    def pane_pid(self, pane: int = 0) -> int:
        """The process id of the shell running in a pane."""
        shell = self._tmux("display-message", "-p", "-t", self._panes[pane], "#{pane_pid}")
        return int(shell.stdout.strip())

    def program_pid(self, pane: int = 0) -> int:
        """The process id of the program a pane runs (the child of the pane's shell)."""
        shell = self._tmux("display-message", "-p", "-t", self._panes[pane], "#{pane_pid}")
        children = subprocess.run(
            ["pgrep", "-P", shell.stdout.strip()], capture_output=True, text=True, check=True
        ).stdout.split()
        if len(children) != 1:
            raise RuntimeError(f"pane {pane} runs {len(children)} programs, not one")
        return int(children[0])

    def kill(self) -> None:
        """Stop the tmux server and every program running in it."""
        self._tmux("kill-server", check=False)


def clean_env(**extra: str) -> dict[str, str]:
    """Environment for the program under test: a UTF-8 locale and the test's own settings."""
    env = {
        "LANG": os.environ.get("LANG", "C.UTF-8") or "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TERM": "xterm-256color",
        "COLORTERM": "truecolor",
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", "/root"),
        "ONO99_MDNS_INTERFACES": os.environ.get("ONO99_MDNS_INTERFACES", "127.0.0.1"),
    }
    # The test's own data dir (tests/conftest.py): tables' journals never go to the user's.
    if os.environ.get("ONO99_DATA_DIR"):
        env["ONO99_DATA_DIR"] = os.environ["ONO99_DATA_DIR"]
    env.update(extra)
    return env
