"""Helpers for the web door's tests: a door run in a thread of its own, a headless host
with a web door, and a browser page whose terminal can be read."""

from __future__ import annotations

import asyncio
import re
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from testkit.headless import HeadlessHost
from testkit.waiting import wait_until as wait_until

from ono99tui.web.config import WebDoorConfig
from ono99tui.web.server import WebDoor

PASSWORD = "correct horse"
PROBE = Path(__file__).with_name("probe_game.py")
CHROMIUM = "/usr/bin/chromium"

# Kept by the test page: textual.js keeps its xterm.js Terminal private, so the first object
# given a `terminal` that also has a `websocket_url` (textual.js's session) hands it over.
TERMINAL_TRAP = """
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "terminal", {value, writable: true, configurable: true, enumerable: true});
    if (value && "websocket_url" in this) window.__ono99Terminal = value;
  },
});
"""
READ_SCREEN = """() => {
  const terminal = window.__ono99Terminal;
  if (!terminal) return "";
  const buffer = terminal.buffer.active;
  const lines = [];
  for (let y = 0; y < terminal.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    lines.push(line ? line.translateToString(true) : "");
  }
  return lines.join("\\n");
}"""
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "[::1]"}


def probe_command(player: str) -> list[str]:
    """The probe instead of the game, with the player name as its argument."""
    return [sys.executable, str(PROBE), player]


def alive(pid: int) -> bool:
    """Whether process *pid* exists and has not exited (a zombie counts as exited)."""
    try:
        with open(f"/proc/{pid}/stat") as stat_file:
            return stat_file.read().rsplit(") ", 1)[1][0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


class ThreadedDoor:
    """A WebDoor on an event loop in a thread of its own (for tests that drive a browser
    synchronously)."""

    def __init__(self, config: WebDoorConfig) -> None:
        self.loop = asyncio.new_event_loop()
        self.door = WebDoor(config)
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        self.call(self.door.start())

    def call(self, work: Any, timeout: float = 30.0) -> Any:
        """Run the coroutine *work* on the door's loop and return its result."""
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout)

    @property
    def url(self) -> str:
        """The terminal page's address (the door's own address opens the phone page)."""
        return f"http://127.0.0.1:{self.door.port}/terminal"

    def close(self) -> None:
        self.call(self.door.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.loop.close()


class WebHost(HeadlessHost):
    """`ono99 host --headless` with a web door on a free port, in a child process."""

    def __init__(self, *options: str, env: dict[str, str] | None = None,
                 advertise_on: str | None = None) -> None:
        advertising = ["--mdns-interface", advertise_on] if advertise_on else ["--no-advertise"]
        super().__init__("--port", "0", *advertising, "--fresh", "--web-port", "0", *options,
                         env=env)

    @property
    def base(self) -> str:
        """The door's address: the phone page."""
        return f"http://127.0.0.1:{self.wait_for_event('web-door')['port']}/"

    @property
    def url(self) -> str:
        """The terminal page's address."""
        return self.base + "terminal"


@contextmanager
def web_host(tmp_path: Path, *options: str, seats: int = 2, bots: int | None = 1,
             bot_delay: float | None = 0.05, seed: int | None = None,
             turn_time: str | None = "off", password: str | None = PASSWORD,
             advertise_on: str | None = None) -> Iterator[WebHost]:
    """A headless host with a web door, its door up (its `web-door` event come), stopped
    on leaving.

    Its config and data dirs are its own, under `tmp_path`. `password=None` opens the door
    to anyone (`--web-open`); `bots`, `bot_delay`, `seed` and `turn_time` at None are left
    to the host's defaults; `options` go to the host as they are (`--rules`, `--grace`, …).
    """
    arguments = ["--seats", str(seats)]
    for flag, value in (("--bots", bots), ("--bot-delay", bot_delay), ("--seed", seed),
                        ("--turn-time", turn_time)):
        if value is not None:
            arguments += [flag, str(value)]
    env = {"ONO99_CONFIG_DIR": str(tmp_path / "host-config"),
           "ONO99_DATA_DIR": str(tmp_path / "host-data")}
    if password is None:
        arguments.append("--web-open")
    else:
        env["ONO99_WEB_PASSWORD"] = password
    table = WebHost(*arguments, *options, env=env, advertise_on=advertise_on)
    try:
        table.wait_for_event("web-door")
        yield table
    finally:
        table.stop()


class OutsideRequests:
    """Aborts and counts every request a page makes to anything but loopback."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    def route(self, route: Any) -> None:
        host = re.sub(r":\d+$", "", route.request.url.split("/")[2])
        if host in LOOPBACK_HOSTS:
            route.continue_()
        else:
            self.urls.append(route.request.url)
            route.abort()


class Tab:
    """One browser tab on the door: log in, sit down, read the terminal, press keys."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def screen(self) -> str:
        return str(self.page.evaluate(READ_SCREEN))

    def wait_for(self, pattern: str, timeout: float = 60.0) -> re.Match[str]:
        """Wait until the terminal shows *pattern* (a regex); the match."""
        try:
            return wait_until(lambda: re.search(pattern, self.screen()), timeout, repr(pattern))
        except AssertionError:
            raise AssertionError(f"no {pattern!r} within {timeout}s; screen:\n{self.screen()}") from None

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)

    def log_in(self, password: str = PASSWORD) -> None:
        self.page.fill("#password", password)
        self.page.click("button[type=submit]")

    def sit_down(self, name: str) -> None:
        self.page.wait_for_selector("#name", state="visible")
        self.page.fill("#name", name)
        self.page.press("#name", "Enter")
        self.wait_for_first_byte()

    def wait_for_first_byte(self) -> None:
        """Wait (generously: the game is a new Python process) until the game has drawn."""
        self.page.wait_for_function("() => document.body.classList.contains('-first-byte')",
                                    timeout=60_000)

    def ended_title(self, timeout: float = 60.0) -> str:
        self.page.wait_for_selector("#ended-layer", state="visible", timeout=timeout * 1000)
        return str(self.page.text_content("#ended-title"))


@contextmanager
def browser_context(browser: Any, width: int = 1100, height: int = 700) -> Iterator[tuple[Any, OutsideRequests]]:
    """A fresh browser context (its own cookies and storage) whose non-loopback requests are
    aborted and counted."""
    outside = OutsideRequests()
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(TERMINAL_TRAP)
    context.route("**/*", outside.route)
    try:
        yield context, outside
    finally:
        context.close()
