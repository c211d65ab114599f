"""Shared pieces of the lobby, waiting-room and multi-app tests: real tables on loopback."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from textual.pilot import Pilot

from ono99tui.host.server import TableServer
from ono99tui.host.table_config import TableConfig


@asynccontextmanager
async def running_table(**config: Any) -> AsyncIterator[TableServer]:
    """A real table server on 127.0.0.1, on a free port; bots play without delay."""
    config.setdefault("bot_delay", 0.0)
    config.setdefault("seed", 99)
    server = TableServer(TableConfig(**config))
    await server.start("127.0.0.1", 0)
    try:
        yield server
    finally:
        await server.stop()


async def wait_until(
    pilot: Pilot[Any], predicate: Callable[[], object], *, timeout: float = 10.0, what: str = ""
) -> None:
    """Let the app run until `predicate()` is true; fail with `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        await pilot.pause(0.02)


async def wait_for_condition(predicate: Callable[[], object], *, timeout: float = 10.0,
                             what: str = "") -> None:
    """The same as `wait_until` for code running beside several apps at once."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        await asyncio.sleep(0.02)
