"""A real `ono99 host --headless` on loopback, seen through discovery while a bot joins."""

from __future__ import annotations

import asyncio
import dataclasses
import importlib.util
import json
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from discovery_helpers import about, child_env, unique_table_name, wait_for_event

from netproto.lan.discovery import TableChange, TableEvent, TableInfo, TableState
from netproto.wire.messages import PROTOCOL_VERSION

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("ono99tui.commands.host") is None,
    reason="`ono99 host` is not part of this checkout yet",
)

LOOPBACK = "127.0.0.1"


async def ono99(*args: str, log: Path) -> asyncio.subprocess.Process:
    """Start `ono99 ARGS` with stdout piped and stderr to a log file."""
    with log.open("ab") as stderr:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "ono99tui", *args,
            stdout=asyncio.subprocess.PIPE, stderr=stderr, env=child_env(),
        )  # fmt: skip


async def test_headless_host_is_found_updated_by_a_join_and_removed_on_stop(
    events: AsyncIterator[TableEvent], tmp_path: Path
) -> None:
    name = unique_table_name()
    log = tmp_path / "processes.log"
    host = await ono99(
        "host", "--headless", "--bind", LOOPBACK, "--port", "0", "--name", name,
        "--seats", "2", "--rules", "1980", "--password", "sesame",
        "--mdns-interface", LOOPBACK, log=log,
    )  # fmt: skip
    bot: asyncio.subprocess.Process | None = None
    try:
        assert host.stdout is not None
        async with asyncio.timeout(20):
            listening = json.loads(await host.stdout.readline())
        assert listening["event"] == "listening", log.read_text()
        port = listening["port"]

        added = await wait_for_event(events, about(name, TableChange.ADDED))
        expected = TableInfo(
            protocol_version=PROTOCOL_VERSION,
            name=name,
            host_player=added.table.info.host_player,  # nobody is seated yet
            rules="1980",
            seats_taken=0,
            seats_total=2,
            state=TableState.WAITING,
            password_required=True,
            port=port,
            addresses=(LOOPBACK,),
        )
        assert added.table.info == expected

        # One of two seats taken: the headless host waits for the other, so the bot stays.
        bot = await ono99(
            "bot", f"{LOOPBACK}:{port}", "--name", "Robo", "--password", "sesame", log=log
        )
        updated = await wait_for_event(events, about(name, TableChange.UPDATED))
        assert updated.table.service_name == added.table.service_name
        # With no host player seated, the first seated player is named as the host.
        assert updated.table.info == dataclasses.replace(
            expected, seats_taken=1, host_player="Robo"
        )

        host.send_signal(signal.SIGTERM)
        removed = await wait_for_event(events, about(name, TableChange.REMOVED))
        assert removed.table.service_name == added.table.service_name
        async with asyncio.timeout(20):
            assert await host.wait() == 0, log.read_text()
    finally:
        for process in (bot, host):
            if process is not None and process.returncode is None:
                process.kill()
                await process.wait()


@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGHUP])
async def test_headless_host_withdraws_its_table_on_interrupt_and_hang_up(
    events: AsyncIterator[TableEvent], tmp_path: Path, stop_signal: signal.Signals
) -> None:
    name = unique_table_name()
    log = tmp_path / "processes.log"
    host = await ono99(
        "host", "--headless", "--bind", LOOPBACK, "--port", "0", "--name", name,
        "--seats", "2", "--mdns-interface", LOOPBACK, log=log,
    )  # fmt: skip
    try:
        added = await wait_for_event(events, about(name, TableChange.ADDED))
        host.send_signal(stop_signal)
        removed = await wait_for_event(events, about(name, TableChange.REMOVED))
        assert removed.table.service_name == added.table.service_name
        async with asyncio.timeout(20):
            assert await host.wait() == 0, log.read_text()
    finally:
        if host.returncode is None:
            host.kill()
            await host.wait()
