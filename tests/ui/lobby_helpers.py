"""Shared pieces of the lobby, waiting-room and multi-app tests: real tables on loopback."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from testkit.waiting import wait_for_condition as wait_for_condition

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


