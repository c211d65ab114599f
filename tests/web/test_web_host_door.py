"""`ono99 host --headless --web-port`: the announcement, the TXT record, and the stop."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import aiohttp
from web_helpers import alive, web_host

from netproto.lan.discovery import TableBrowser
from ono99tui.web.session import CLOSE_DOOR_CLOSED

# The host's own defaults but for an open door: no bot delay, turn clock or password given.
DEFAULTS: dict[str, Any] = {"bot_delay": None, "turn_time": None, "password": None}


async def test_a_headless_host_announces_and_advertises_its_web_door(tmp_path: Path) -> None:
    name = f"web door {uuid.uuid4().hex[:8]}"
    with web_host(tmp_path, "--name", name, seats=3, bots=2, **DEFAULTS) as host:
        door = host.events["web-door"]
        assert door["url"].endswith(f":{door['port']}/") and door["password"] is False
        async with aiohttp.ClientSession() as client, client.get(host.base) as response:
            page = await response.text()
        assert response.status == 200 and f"<title>{name}</title>" in page
        assert host.stop() == 0


async def test_stopping_the_host_ends_the_games_of_open_tabs(tmp_path: Path) -> None:
    with web_host(tmp_path, **DEFAULTS) as host:
        base = host.base.rstrip("/")
        origin = {"Origin": base}
        async with aiohttp.ClientSession() as client:
            async with client.post(f"{base}/seat", json={"name": "ana"}, headers=origin) as response:
                seat = (await response.json())["seat"]
            socket = await client.ws_connect(f"{base}/ws/{seat}", headers=origin)
            first = await asyncio.wait_for(socket.receive(), 60)
            assert first.type == aiohttp.WSMsgType.BINARY  # the game is drawing
            games = children(host.process.pid)
            assert games, "no game process under the host"
            assert await asyncio.to_thread(host.stop) == 0
            closing = await asyncio.wait_for(socket.receive(), 30)
            while closing.type == aiohttp.WSMsgType.BINARY:
                closing = await asyncio.wait_for(socket.receive(), 30)
            # The close frame the door sent (the host is gone before the client could answer it).
            assert (closing.type, closing.data, closing.extra) == (
                aiohttp.WSMsgType.CLOSE, CLOSE_DOOR_CLOSED, "the table has closed")
    assert not any(alive(pid) for pid in games)


def children(pid: int) -> list[int]:
    """The child processes of *pid*."""
    return [int(child) for task in Path(f"/proc/{pid}/task").iterdir()
            for child in (task / "children").read_text().split()]


async def test_the_web_port_is_in_the_tables_advertisement(tmp_path: Path) -> None:
    name = f"web door {uuid.uuid4().hex[:8]}"
    with web_host(tmp_path, "--name", name, seats=3, bots=2, advertise_on="127.0.0.1",
                  **DEFAULTS) as host:
        door = host.events["web-door"]
        async with TableBrowser(["127.0.0.1"]) as browser:
            for _ in range(200):
                found = [t for t in browser.tables.values() if t.info.name == name]
                if found:
                    break
                await asyncio.sleep(0.05)
        assert found, "the table was not heard on loopback"
        assert found[0].info.web_port == door["port"]
        assert host.stop() == 0
