"""The lobby checks that listed tables still answer: real `ono99 host --headless` processes.

A host killed with SIGKILL sends no mDNS goodbye, so its table stays advertised for minutes;
the lobby's probes show it as "no reply" within a few probe intervals instead.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from rich.text import Text
from testkit.waiting import pilot_wait_until as wait_until
from textual.widgets import DataTable, Static

from ono99tui.ui.app import Ono99App
from ono99tui.ui.screens.lobby import NOT_ANSWERING, LobbyScreen

LOOPBACK = "127.0.0.1"
REPO_ROOT = Path(__file__).resolve().parents[2]
PROBE_INTERVAL = 0.2  # seconds: the tests shorten the lobby's probe interval (4 s)


@asynccontextmanager
async def headless_host(name: str, log: Path) -> AsyncIterator[tuple[asyncio.subprocess.Process, int]]:
    """A real `ono99 host --headless` on loopback, advertised there; killed at the end."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])))
    with log.open("ab") as stderr:
        host = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "ono99tui", "host", "--headless", "--bind", LOOPBACK,
            "--port", "0", "--name", name, "--seats", "2", "--mdns-interface", LOOPBACK,
            stdout=asyncio.subprocess.PIPE, stderr=stderr, env=env,
        )  # fmt: skip
    try:
        assert host.stdout is not None
        async with asyncio.timeout(20):
            listening = json.loads(await host.stdout.readline())
        assert listening["event"] == "listening", log.read_text()
        yield host, listening["port"]
    finally:
        if host.returncode is None:
            host.kill()
            await host.wait()


def key_of(lobby: LobbyScreen, table_name: str) -> str | None:
    """The service name of the listed table with this name (other tests may list others)."""
    keys = [key for key, table in lobby.tables.items() if table.info.name == table_name]
    return keys[0] if keys else None


def answered(lobby: LobbyScreen, table_name: str) -> bool:
    key = key_of(lobby, table_name)
    return key is not None and lobby.reachability is not None and (
        lobby.reachability.answering(key) is not None)


def row(lobby: LobbyScreen, table_name: str) -> list[Text]:
    key = key_of(lobby, table_name)
    assert key is not None, f"{table_name} is not listed"
    return lobby.query_one("#tables", DataTable).get_row(key)


def shown_as_live(lobby: LobbyScreen, table_name: str) -> bool:
    cells = row(lobby, table_name)
    return str(cells[4]) == "waiting" and all(cell.style == "" for cell in cells)


def shown_as_silent(lobby: LobbyScreen, table_name: str) -> bool:
    cells = row(lobby, table_name)
    return str(cells[4]) == NOT_ANSWERING and all(cell.style == "dim" for cell in cells)


def running_probes() -> list[asyncio.Task[object]]:
    return [task for task in asyncio.all_tasks()
            if task.get_name().startswith("probe ") and not task.done()]


async def test_a_killed_host_shows_no_reply_and_a_live_one_stays(tmp_path: Path) -> None:
    token = uuid.uuid4().hex[:8]
    live_name, dead_name = f"live {token}", f"killed {token}"
    log = tmp_path / "hosts.log"
    async with headless_host(live_name, log) as (_, live_port), \
            headless_host(dead_name, log) as (dead, dead_port):
        lobby = LobbyScreen([LOOPBACK], config_directory=tmp_path, name="eve",
                            probe_interval=PROBE_INTERVAL)
        app = Ono99App(start_screen=lobby, ascii_glyphs=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: answered(lobby, live_name)
                             and answered(lobby, dead_name), timeout=20, what="both tables")
            assert shown_as_live(lobby, live_name) and shown_as_live(lobby, dead_name)

            dead.kill()  # SIGKILL: no goodbye, the advertisement outlives the process
            await dead.wait()
            await wait_until(pilot, lambda: shown_as_silent(lobby, dead_name), timeout=10,
                             what="the killed table dimmed")
            assert key_of(lobby, dead_name) is not None  # still listed, mDNS still has it
            assert "not answering" in str(lobby.query_one("#lobby-status", Static).render())

            # The live table keeps answering, probe after probe.
            live_key = key_of(lobby, live_name)
            assert live_key is not None and lobby.reachability is not None
            probes = lobby.reachability.probes_made(live_key)
            await wait_until(pilot, lambda: lobby.reachability is not None and
                             lobby.reachability.probes_made(live_key) >= probes + 3,
                             what="three more probes")
            assert shown_as_live(lobby, live_name)

            # The highlighted silent table says so under the list.
            tables = lobby.query_one("#tables", DataTable)
            tables.move_cursor(row=tables.get_row_index(key_of(lobby, dead_name)))
            await pilot.pause()
            detail = str(lobby.query_one("#table-detail", Static).render())
            assert detail.startswith(f"Not answering: {dead_name} by ")
            assert f"{LOOPBACK}:{dead_port}" in detail

            # Something answers at that address again: the table is shown as live again.
            revived = await asyncio.start_server(lambda reader, writer: writer.close(),
                                                 LOOPBACK, dead_port)
            async with revived:
                await wait_until(pilot, lambda: shown_as_live(lobby, dead_name), timeout=10,
                                 what="the table back")
            assert not str(lobby.query_one("#table-detail", Static).render()).startswith("Not")
            assert running_probes()
        # The lobby closed: its probes are gone with it.
        assert lobby.reachability is None and not running_probes()
        assert live_port != dead_port


async def test_probes_pause_while_another_screen_is_shown(tmp_path: Path) -> None:
    name = f"paused {uuid.uuid4().hex[:8]}"
    async with headless_host(name, tmp_path / "host.log"):
        lobby = LobbyScreen([LOOPBACK], config_directory=tmp_path, name="eve",
                            probe_interval=PROBE_INTERVAL)
        app = Ono99App(start_screen=lobby, ascii_glyphs=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: answered(lobby, name), timeout=20, what="the table")
            from textual.screen import Screen

            await app.push_screen(Screen())
            await pilot.pause()
            assert not running_probes()
            app.pop_screen()
            await wait_until(pilot, lambda: bool(running_probes()), what="probes again")
