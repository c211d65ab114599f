"""What the web driver's tests share: the app's environment, the table they play at, and
reading the hand on a screen and the seat in the table's lobby."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from packet_child import TerminalView

from netproto.client import TableClient
from netproto.wire.messages import Lobby, SeatInfo

ROOT = Path(__file__).resolve().parents[2]
OWN_SEAT = r"tess \(you\)"
HAND_BOTTOM = r"[╰▄┗]"


def child_env(config_dir: Path) -> dict[str, str]:
    """The environment of an app the door starts (a UTF-8 locale, the test's own dirs)."""
    return {
        "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", "/root"), "PYTHONPATH": str(ROOT),
        "ONO99_CONFIG_DIR": str(config_dir), "ONO99_DATA_DIR": os.environ["ONO99_DATA_DIR"],
        "ONO99_MDNS_INTERFACES": "127.0.0.1",
    }


def hand_labels(screen: str) -> str:
    """The words under the cards of the hand (the row above the hand's bottom edge)."""
    lines = screen.splitlines()
    bottoms = [i for i, line in enumerate(lines) if re.search(r"╰─+╯|▄▄▄▄|┗╍╍╍", line)]
    assert bottoms, f"no hand on screen:\n{screen}"
    return " ".join(re.sub(r"[█│╏┃]", " ", lines[bottoms[-1] - 1]).split())


def wait_for_hand(view: TerminalView, hand: str, timeout: float = 30.0) -> str:
    """The screen, once it shows the hand `hand` (frames arrive in pieces: poll)."""
    deadline = time.monotonic() + timeout
    while True:
        screen = view.screen()
        with contextlib.suppress(AssertionError):
            if hand_labels(screen) == hand:
                return screen
        if time.monotonic() > deadline:
            raise AssertionError(f"hand {hand!r} not seen within {timeout} s; screen:\n{screen}")
        time.sleep(0.05)


def current_hand(view: TerminalView, timeout: float = 30.0) -> str:
    """The hand on the screen, once it is drawn and stays the same for a fifth of a second
    (frames arrive in pieces: poll)."""
    deadline = time.monotonic() + timeout
    last = ""
    while True:
        screen = view.screen()
        labels = ""
        with contextlib.suppress(AssertionError):
            labels = hand_labels(screen)
        if labels and labels == last:
            return labels
        last = labels
        if time.monotonic() > deadline:
            raise AssertionError(f"no hand within {timeout} s; screen:\n{screen}")
        time.sleep(0.2)


def settled_screen(view: TerminalView, must_show: str = r"q Quit", timeout: float = 30.0,
                   ) -> str:
    """The screen once it shows `must_show` (by default the footer, drawn last) and stays
    the same for a fifth of a second: a whole picture, not one caught between frames."""
    deadline = time.monotonic() + timeout
    last = ""
    while True:
        screen = view.screen()
        if screen == last and re.search(must_show, screen):
            return screen
        last = screen
        if time.monotonic() > deadline:
            raise AssertionError(f"{must_show!r} not settled within {timeout} s; screen:\n{screen}")
        time.sleep(0.2)


def wait_for_screen(view: TerminalView, expected: str, timeout: float = 30.0) -> str:
    """The screen once it is exactly `expected`, or the last one seen when `timeout` runs
    out (the caller compares, so a failure shows the difference)."""
    deadline = time.monotonic() + timeout
    while True:
        screen = view.screen()
        if screen == expected or time.monotonic() > deadline:
            return screen
        time.sleep(0.05)


def start_table(host_process: Callable[..., Any]) -> int:
    """A 2-seat headless table with one bot that waits a minute before each move, holding a
    dropped seat for 2 minutes, then resigning it (so a seat given up at once would show);
    no turn clock, so that nothing on screen changes by itself."""
    host = host_process("--seats", "2", "--bots", "1", "--bot-delay", "60", "--grace", "120",
                        "--seed", "5", "--on-abandon", "eliminate", "--turn-time", "off")
    host.start()
    return int(host.port)


async def seat_named(watcher: TableClient, name: str, wanted: Callable[[SeatInfo], bool],
                     timeout: float = 30.0) -> SeatInfo:
    """The seat called `name` once the table's lobby shows it as `wanted`."""
    async with asyncio.timeout(timeout):
        while True:
            lobby = watcher.lobby
            for seat in lobby.seats if lobby is not None else ():
                if seat.name == name and wanted(seat):
                    return seat
            await watcher.wait_for(Lobby)
