"""Fixtures of the discovery tests: a browser on loopback and advertiser child processes."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from discovery_helpers import AdvertiserProcess

from netproto.lan.discovery import TableBrowser, TableEvent

LOOPBACK = "127.0.0.1"


@pytest.fixture
async def browser() -> AsyncIterator[TableBrowser]:
    """A TableBrowser on loopback, closed at the end of the test."""
    async with TableBrowser([LOOPBACK]) as table_browser:
        yield table_browser


@pytest.fixture
def events(browser: TableBrowser) -> AsyncIterator[TableEvent]:
    """The browser's event stream, subscribed before the test advertises anything."""
    return browser.events()


@pytest.fixture
async def advertiser_process() -> AsyncIterator[Callable[..., Awaitable[AdvertiserProcess]]]:
    """Start advertiser children (registered when returned); any still running is killed."""
    started: list[AdvertiserProcess] = []

    async def start(fields: dict[str, Any], interface: str = LOOPBACK, netns: str | None = None):
        child = AdvertiserProcess(fields, interface, netns)
        started.append(child)
        await child.start()
        return child

    try:
        yield start
    finally:
        for child in started:
            await child.kill()
