"""`WebTableDriver` (the app's driver in a browser tab) through real processes.

Each app is `python -m ono99tui join` in a child process, driven over pipes in
textual-serve's packet protocol (`packet_child.PacketChild`), at a real headless host; what
it draws is shown in a tmux pane (a real terminal emulator, as xterm.js is in the browser).
A spectator client of the test's own reads the table's lobby to see what the host makes of
the player's seat.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from packet_child import STOCK_DRIVER, TABLE_DRIVER, PacketChild, TerminalView
from table_watch import (
    OWN_SEAT,
    child_env,
    current_hand,
    seat_named,
    settled_screen,
    start_table,
    wait_for_hand,
    wait_for_screen,
)

from netproto.client import TableClient
from netproto.wire.messages import SeatKind

pytestmark = pytest.mark.tmux

HANGUP_STATUS = 129  # the app's exit status after a hang-up (128 + SIGHUP)


class Apps:
    """Starts app children and their terminal views; ends every one after the test."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.started: list[tuple[PacketChild, TerminalView]] = []

    def start(self, args: list[str], *, driver: str = TABLE_DRIVER, width: int = 80,
              height: int = 24, config: str = "player",
              child_size: tuple[int, int] | None = None) -> tuple[PacketChild, TerminalView]:
        """The app with `args`, shown at width x height (started at `child_size` if given)."""
        view = TerminalView(self.tmp_path, width, height)
        child_width, child_height = child_size or (width, height)
        child = PacketChild(
            [sys.executable, "-m", "ono99tui", *args], driver=driver,
            env=child_env(self.tmp_path / config), width=child_width, height=child_height,
            stderr_path=self.tmp_path / f"{view.socket}.err", view=view)
        self.started.append((child, view))
        return child, view

    def close(self) -> None:
        for child, view in self.started:
            child.kill()
            view.close()


@pytest.fixture
def apps(tmp_path: Path) -> Iterator[Apps]:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (.ci/run installs it)")
    made = Apps(tmp_path)
    try:
        yield made
    finally:
        made.close()


# --- drawing and diffing ------------------------------------------------------------------


async def test_the_app_draws_in_the_browser_terminal_with_a_fraction_of_the_stock_bytes(
    host_process: Callable[..., Any], apps: Apps,
) -> None:
    """Two spectators of one bots' match at 120x40, one through `WebDriver`, one through
    `WebTableDriver`: the same picture, and for the same moves the diffing driver writes
    far less (a relative check, no timing)."""
    # 1980 rules: rounds until one player is left, about 160 moves, so the match is still on
    # however long the apps take to start.
    host = host_process("--seats", "2", "--bots", "2", "--bot-delay", "0.3", "--seed", "5",
                        "--rules", "1980")
    await asyncio.to_thread(host.start)
    join = ["join", "--spectate", f"127.0.0.1:{host.port}"]
    stock, stock_view = apps.start(join, driver=STOCK_DRIVER, width=120, height=40)
    diffed, diffed_view = apps.start(join, width=120, height=40, config="other")
    async with await TableClient.connect("127.0.0.1", host.port, name="watcher",
                                         spectate=True) as watcher:
        for view in (stock_view, diffed_view):
            await asyncio.to_thread(view.wait_for, r"Seats", 60)
        # The stock driver starts unfocused until the page says "focus" (a tab with the
        # keyboard does); ours starts focused (test below). Both focused: the same Footer.
        stock.send_meta({"type": "focus"})

        def seq() -> int:
            return watcher.view.seq if watcher.view is not None else 0

        start = seq()
        before = (stock.data_bytes, diffed.data_bytes)
        async with asyncio.timeout(60):
            while seq() < start + 12:
                await watcher.wait_for(object)
        stock_bytes = stock.data_bytes - before[0]
        diffed_bytes = diffed.data_bytes - before[1]
        assert stock_bytes > 0 and diffed_bytes > 0
        assert diffed_bytes * 2 < stock_bytes, (diffed_bytes, stock_bytes)

        # Between two bot moves both terminals show the same picture.
        def same_picture() -> bool:
            return stock_view.screen() == diffed_view.screen()

        async with asyncio.timeout(30):
            while not await asyncio.to_thread(same_picture):
                await watcher.wait_for(object)
    assert stock.process.poll() is None and diffed.process.poll() is None


# --- hang-up ------------------------------------------------------------------------------


@pytest.fixture
def table(host_process: Callable[..., Any]) -> int:
    return start_table(host_process)


def _end_of_input(child: PacketChild) -> None:
    child.close_input()


def _browser_gone(child: PacketChild) -> None:
    child.send_meta({"type": "quit"})  # textual-serve's word when the websocket closes


def _door_killed(child: PacketChild) -> None:
    child.close_input()
    child.stop_reading()


def _failed_write(child: PacketChild) -> None:
    # Nobody reads the output any more; the resize makes the app write a whole frame.
    child.stop_reading()
    child.send_meta({"type": "resize", "width": 100, "height": 30})


@pytest.mark.parametrize(
    "door_goes", [_end_of_input, _browser_gone, _door_killed, _failed_write],
    ids=["end-of-input", "browser-gone", "door-killed", "failed-write"])
async def test_the_door_going_away_ends_the_app_and_the_table_holds_the_seat(
    table: int, apps: Apps, door_goes: Callable[[PacketChild], None],
) -> None:
    join = ["join", f"127.0.0.1:{table}", "--name", "tess"]
    child, view = apps.start(join)
    await asyncio.to_thread(view.wait_for, OWN_SEAT)
    hand = await asyncio.to_thread(current_hand, view)
    async with await TableClient.connect("127.0.0.1", table, name="watcher",
                                         spectate=True) as watcher:
        await seat_named(watcher, "tess", lambda seat: seat.connected)

        door_goes(child)
        assert await asyncio.to_thread(child.wait_exit) == HANGUP_STATUS, child.stderr()
        held = await seat_named(watcher, "tess", lambda seat: not seat.connected)
        assert held.kind is SeatKind.HUMAN  # held, not resigned

        # The player opens the page again: the same seat and hand.
        again, again_view = apps.start(join)
        await asyncio.to_thread(again_view.wait_for, OWN_SEAT)
        resumed = await asyncio.to_thread(wait_for_hand, again_view, hand)
        assert "spectat" not in resumed.lower() and "tess 2" not in resumed
        back = await seat_named(watcher, "tess", lambda seat: seat.connected)
        assert back.kind is SeatKind.HUMAN
        assert again.process.poll() is None


async def test_ctrl_l_redraws_the_whole_screen(table: int, apps: Apps) -> None:
    """Ctrl+L from the browser makes the next frame a full one: the picture is back after
    the terminal lost it (the app only writes what changes, so nothing else would)."""
    child, view = apps.start(["join", f"127.0.0.1:{table}", "--name", "tess"])
    await asyncio.to_thread(view.wait_for, OWN_SEAT)
    hand = await asyncio.to_thread(current_hand, view)
    view.feed(b"\x1b[2J")  # the terminal loses its picture
    await asyncio.to_thread(view.wait_for, r"\A\s*\Z")
    child.send_keys("\x0c")
    await asyncio.to_thread(view.wait_for, OWN_SEAT)
    await asyncio.to_thread(wait_for_hand, view, hand)


async def test_a_resize_packet_without_a_usable_size_changes_nothing(
    table: int, apps: Apps,
) -> None:
    """Resize packets with no size, a size that is not a number, or none at all are
    ignored: the app goes on reading keys (Ctrl+L still redraws) at the size it had."""
    child, view = apps.start(["join", f"127.0.0.1:{table}", "--name", "tess"])
    await asyncio.to_thread(view.wait_for, OWN_SEAT)
    await asyncio.to_thread(current_hand, view)
    before = await asyncio.to_thread(settled_screen, view)
    for bad in ({"type": "resize"}, {"type": "resize", "width": "wide", "height": 24},
                {"type": "resize", "width": 0, "height": 24},
                {"type": "resize", "width": 80, "height": 10**9}):
        child.send_meta(bad)
    view.feed(b"\x1b[2J")
    await asyncio.to_thread(view.wait_for, r"\A\s*\Z")
    child.send_keys("\x0c")
    assert await asyncio.to_thread(wait_for_screen, view, before) == before
    assert child.process.poll() is None


async def until_same_picture(first: TerminalView, second: TerminalView, timeout: float = 30.0,
                             ) -> None:
    """Wait until both terminals show the same (non-empty) screen; fail showing both."""
    def same() -> bool:
        screen = first.screen()
        return "watching" in screen and screen == second.screen()

    deadline = time.monotonic() + timeout
    while not await asyncio.to_thread(same):
        assert time.monotonic() < deadline, (
            f"first:\n{first.screen()}\nsecond:\n{second.screen()}")
        await asyncio.sleep(0.1)


async def test_the_app_draws_at_the_page_size_after_a_resize_early_or_late(
    table: int, apps: Apps,
) -> None:
    """The page may resize before the app has started: the app must end up at the page's
    size, not at the size it was started with (Textual's WebDriver posts that one late).
    A later resize repaints in full: on a terminal that lost its picture when it was made
    smaller, the picture is that of an app started at that size."""
    join = ["join", "--spectate", f"127.0.0.1:{table}"]
    _, at_80x24 = apps.start(join, config="a")
    resized, resized_view = apps.start(join, width=80, height=24, config="b",
                                       child_size=(100, 30))
    resized.send_meta({"type": "resize", "width": 80, "height": 24})
    await until_same_picture(at_80x24, resized_view)

    _, at_70x20 = apps.start(join, width=70, height=20, config="c")
    resized_view.resize(70, 20)
    resized_view.feed(b"\x1b[2J")
    resized.send_meta({"type": "resize", "width": 70, "height": 20})
    await until_same_picture(at_70x20, resized_view)
    assert all(child.process.poll() is None for child, _ in apps.started)


async def test_a_tab_that_starts_without_the_keyboard_still_shows_its_keys(
    table: int, apps: Apps,
) -> None:
    """textual.js says "blur" when the page does not have the keyboard (a tab opened in the
    background); Textual then left the Footer empty until the first key press, so a
    newcomer saw no keys to press. The driver does not pass "blur" on."""
    child, view = apps.start(["join", f"127.0.0.1:{table}", "--name", "tess"])
    child.send_meta({"type": "blur"})  # before the app has drawn anything
    await asyncio.to_thread(view.wait_for, OWN_SEAT)
    await asyncio.to_thread(view.wait_for, r"q Quit")
