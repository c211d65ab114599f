"""A phone whose page has gone (a locked phone, a closed tab) for longer than the door's
`phone_linger`: the door hangs its seat up, so the table and everyone at it see the seat
away, as a terminal's after the table's heartbeat timeout; the page that comes back later
resumes the same seat with the seat's token and is shown its hand again. A real table and
a real door on loopback, the page played by an aiohttp websocket client."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp

from netproto.client import TableClient
from netproto.server import ServerLimits
from netproto.wire.messages import Lobby
from ono99tui.game import preset
from ono99tui.host.server import TableServer
from ono99tui.host.table_config import TableConfig
from ono99tui.web.config import WebDoorConfig
from ono99tui.web.phone.link import DEFAULT_LINGER
from ono99tui.web.phone.state import apply_state_frame
from ono99tui.web.server import WebDoor


async def hand_of(socket: aiohttp.ClientWebSocketResponse) -> list[str]:
    """The hand the page is shown once it has one (state frames put together)."""
    page: dict[str, Any] = {}
    async with asyncio.timeout(30):
        while not (page.get("game") and page["game"].get("hand")):
            message = await socket.receive()
            assert message.type == aiohttp.WSMsgType.TEXT, message
            data = json.loads(message.data)
            if data["t"] == "state":
                apply_state_frame(page, data)
    return [card["tok"] for card in page["game"]["hand"]]


async def seat_connected(watcher: TableClient, name: str, connected: bool) -> None:
    """Until the watcher's lobby shows `name`'s seat (dis)connected."""
    async with asyncio.timeout(30):
        while True:
            lobby = watcher.lobby
            if lobby is not None and any(seat.name == name and seat.connected is connected
                                         for seat in lobby.seats):
                return
            await watcher.wait_for(Lobby, 30)


def test_a_phone_away_looks_like_a_terminal_gone() -> None:
    # The table's heartbeat timeout, which a terminal whose lid closed is dropped after.
    assert DEFAULT_LINGER == WebDoorConfig.phone_linger == ServerLimits().heartbeat_timeout


async def test_a_page_gone_past_the_linger_shows_away_and_comes_back_to_its_seat(
        door_config: WebDoorConfig, tmp_path: Path) -> None:
    table = await TableServer(TableConfig(rules=preset("2022"), capacity=2, start_when=2,
                                          bot_delay=30.0, turn_seconds=None)).start(
        "127.0.0.1", 0)
    table.table.add_bot("greedy")
    config = replace(door_config, table_address=f"127.0.0.1:{table.port}", password=None,
                     open_access=True, phone_linger=0.2)
    watcher = await TableClient.connect("127.0.0.1", table.port, name="Wat", spectate=True)
    try:
        async with WebDoor(config) as door, aiohttp.ClientSession() as page:
            base = f"http://127.0.0.1:{door.port}"
            async with page.post(f"{base}/seat", json={"name": "Pia"},
                                 headers={"Origin": base}) as response:
                seat = (await response.json())["seat"]
            socket = await page.ws_connect(f"{base}/phone/ws/{seat}", headers={"Origin": base})
            hand = await hand_of(socket)
            await seat_connected(watcher, "Pia", True)

            await socket.close()  # the phone is locked
            await seat_connected(watcher, "Pia", False)

            socket = await page.ws_connect(f"{base}/phone/ws/{seat}", headers={"Origin": base})
            assert await hand_of(socket) == hand  # the same seat, its hand (nobody moved)
            await seat_connected(watcher, "Pia", True)
            assert [s.name for s in (watcher.lobby.seats if watcher.lobby else ())].count(
                "Pia") == 1
            await socket.close()
    finally:
        await watcher.close()
        await table.stop()
