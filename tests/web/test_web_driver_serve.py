"""`WebTableDriver` under textual-serve itself: the tab closing, and the server killed.

textual-serve 1.1.3's own `Server` runs in a child process and serves `ono99 join` with the
app's driver set in its command (as the web door does); a websocket client of the test's
own plays the browser (what the page would send, and the terminal data it gets, drawn by
tmux). The issue's complaint was that killing the server orphaned its app processes, which
kept their seats for good.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from packet_child import TABLE_DRIVER, TerminalView
from table_watch import OWN_SEAT, child_env, current_hand, seat_named, start_table, wait_for_hand
from testkit.ports import free_port

from netproto.client import TableClient
from netproto.wire.messages import SeatKind

pytestmark = pytest.mark.tmux

SERVE = """
import sys
from textual_serve.server import Server
Server(sys.argv[2], host="127.0.0.1", port=int(sys.argv[1])).serve()
"""


class ServedJoin:
    """textual-serve in a child process, serving `ono99 join` of a table as one player."""

    def __init__(self, table_port: int, tmp_path: Path) -> None:
        self.port = free_port()
        argv = [sys.executable, "-m", "ono99tui", "join", f"127.0.0.1:{table_port}",
                "--name", "tess"]
        command = f"TEXTUAL_DRIVER={TABLE_DRIVER} exec {shlex.join(argv)}"
        self.log = (tmp_path / f"serve-{self.port}.log").open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVE, str(self.port), command], stdout=self.log,
            stderr=subprocess.STDOUT, env=child_env(tmp_path / "player"),
            start_new_session=True)

    async def ready(self, timeout: float = 30.0) -> None:
        async with asyncio.timeout(timeout):
            while True:
                try:
                    _, writer = await asyncio.open_connection("127.0.0.1", self.port)
                except OSError:
                    assert self.process.poll() is None, "textual-serve exited"
                    await asyncio.sleep(0.05)
                else:
                    writer.close()
                    return

    def apps(self) -> list[int]:
        """The app processes the server runs (its children)."""
        found: list[int] = []
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():
            with contextlib.suppress(OSError):
                found += [int(pid) for pid in (task / "children").read_text().split()]
        return found

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.log.close()


class Page:
    """What a browser tab does with the server's websocket: sends its size and keys, and
    shows the terminal data it gets (in tmux)."""

    def __init__(self, websocket: aiohttp.ClientWebSocketResponse, view: TerminalView) -> None:
        self.websocket = websocket
        self.view = view
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.websocket:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.view.feed(message.data)

    async def close(self) -> None:
        await self.websocket.close()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader


@pytest.fixture
def table(host_process: Callable[..., Any]) -> int:
    return start_table(host_process)


@pytest.fixture
def serve(table: int, tmp_path: Path) -> Iterator[Callable[[], ServedJoin]]:
    """Start textual-serve for the table; every server and app is killed after the test."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (.ci/run installs it)")
    started: list[ServedJoin] = []

    def start() -> ServedJoin:
        server = ServedJoin(table, tmp_path)
        started.append(server)
        return server

    try:
        yield start
    finally:
        for server in started:
            for pid in server.apps() if server.process.poll() is None else []:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            server.stop()


@contextlib.asynccontextmanager
async def opened_page(served: ServedJoin, tmp_path: Path) -> AsyncIterator[Page]:
    view = TerminalView(tmp_path, 80, 24)
    session = aiohttp.ClientSession()
    try:
        websocket = await session.ws_connect(
            f"ws://127.0.0.1:{served.port}/ws?width=80&height=24")
        page = Page(websocket, view)
        try:
            yield page
        finally:
            await page.close()
    finally:
        await session.close()
        view.close()


def exited(pid: int) -> bool:
    """Whether `pid` has ended (gone, or a zombie nobody reaped: its parent was killed)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state in ("Z", "X")


async def until_exited(pids: list[int], timeout: float = 30.0) -> None:
    async with asyncio.timeout(timeout):
        while not all(exited(pid) for pid in pids):
            await asyncio.sleep(0.05)


@pytest.mark.parametrize("how", ["tab-closed", "server-killed"])
async def test_the_tab_closing_or_the_server_dying_holds_the_seat(
    table: int, serve: Callable[[], ServedJoin], tmp_path: Path, how: str,
) -> None:
    served = serve()
    await served.ready()
    async with await TableClient.connect(  # a spectator: what the table makes of the seat
            "127.0.0.1", table, name="watcher", spectate=True) as watcher:
        async with opened_page(served, tmp_path) as page:
            await asyncio.to_thread(page.view.wait_for, OWN_SEAT)
            hand = await asyncio.to_thread(current_hand, page.view)
            apps = served.apps()
            assert len(apps) == 1
            await seat_named(watcher, "tess", lambda seat: seat.connected)
            if how == "server-killed":
                served.process.kill()  # SIGKILL: no "quit" for the app, its pipes just end
            else:
                await page.close()  # textual-serve tells the app "quit"
            await until_exited(apps)
        held = await seat_named(watcher, "tess", lambda seat: not seat.connected)
        assert held.kind is SeatKind.HUMAN  # held, not resigned

        if how == "server-killed":  # the door comes back
            served = serve()
            await served.ready()
        async with opened_page(served, tmp_path) as page:
            await asyncio.to_thread(page.view.wait_for, OWN_SEAT)
            await asyncio.to_thread(wait_for_hand, page.view, hand)
            back = await seat_named(watcher, "tess", lambda seat: seat.connected)
            assert back.kind is SeatKind.HUMAN
