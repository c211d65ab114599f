"""The host's options on the host's phone (issue 25 item 1: "the host's options when the
phone is the host's"): every table option the terminal's waiting room offers the host —
the rules one by one, the turn clock, spectators' chat, hints, the level of the bots
added — as intents on the phone's websocket, with a real aiohttp client against a real
table and its web door in this process (a table with no secret, whose first person seated
hosts). Each one changes the table; each one is refused with a typed error, changing
nothing, from a phone that is not the host's, with a value the rules cannot take, or
(the rules) during a match."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from ono99tui.host.core import TableCore
from ono99tui.host.hosting import hosted_table
from ono99tui.host.options import HostOptions
from ono99tui.host.table_config import TableConfig
from ono99tui.web.host_door import OpenWebDoor, WebDoorOptions

pytestmark = pytest.mark.slow


class Phone:
    """One phone page's websocket: intents out, errors back. It reads everything it is
    sent as it comes, as a page does (a page that does not read holds its seat up)."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.errors: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.socket:
            assert message.type == aiohttp.WSMsgType.TEXT, message
            data = json.loads(message.data)
            if data["t"] == "error":
                self.errors.put_nowait(data)

    async def send(self, intent: dict[str, Any]) -> None:
        await self.socket.send_str(json.dumps(intent))

    async def error(self) -> dict[str, Any]:
        """The next error frame."""
        return await asyncio.wait_for(self.errors.get(), 20)

    async def close(self) -> None:
        await self.socket.close()
        await self.reader

    async def refused(self, intent: dict[str, Any]) -> dict[str, Any]:
        await self.send(intent)
        return await self.error()


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[tuple[str, TableCore]]:
    options = HostOptions(
        table=TableConfig(capacity=4, bot_delay=0.0), bind="127.0.0.1", port=0, bots=1,
        doors=(WebDoorOptions(bind_host="127.0.0.1", port=0, open_access=True,
                              players_dir=tmp_path / "players"),))
    async with hosted_table(options) as hosted:
        web = hosted.doors[0]
        assert isinstance(web, OpenWebDoor)
        yield f"http://127.0.0.1:{web.port}", hosted.server.table.core


async def open_phone(client: aiohttp.ClientSession, base: str, name: str) -> Phone:
    async with client.post(f"{base}/seat", json={"name": name},
                           headers={"Origin": base}) as response:
        seat = (await response.json())["seat"]
    return Phone(await client.ws_connect(f"{base}/phone/ws/{seat}", headers={"Origin": base}))


async def until(condition: Callable[[], bool]) -> None:
    """Wait (20 s at most) until the table shows `condition`."""
    for _ in range(2000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the table never showed it")


async def test_the_hosts_phone_sets_every_option_and_others_are_refused(
        door: tuple[str, TableCore]) -> None:
    base, table = door
    async with aiohttp.ClientSession() as client:
        ana = await open_phone(client, base, "ana")
        await until(lambda: any(seat.name == "ana" for seat in table.seats))
        assert table.host is not None and table.host.name == "ana"
        bo = await open_phone(client, base, "bo")
        await until(lambda: len(table.seats) == 3)

        # The host's phone: each option reaches the table.
        await ana.send({"t": "turn_time", "seconds": 30})
        await until(lambda: table.turn_seconds == 30.0)
        await ana.send({"t": "turn_time", "seconds": 0})
        await until(lambda: table.turn_seconds is None)
        await ana.send({"t": "spectator_chat", "on": False})
        await until(lambda: table.spectator_chat is False)
        await ana.send({"t": "rule", "name": "scoring", "value": "points-lowest"})
        await until(lambda: table.rules.scoring == "points-lowest")
        await ana.send({"t": "rule", "name": "target", "value": 150})
        await until(lambda: table.rules.target == 150)
        await ana.send({"t": "rule", "name": "tokens", "value": 5})
        await until(lambda: table.rules.tokens == 5)
        await ana.send({"t": "rule", "name": "ono99_card", "value": "set99"})
        await until(lambda: table.rules.ono99_card == "set99")
        negative = table.rules.negative_totals
        await ana.send({"t": "rule", "name": "negative_totals", "value": not negative})
        await until(lambda: table.rules.negative_totals is not negative)
        await ana.send({"t": "duplicate", "on": True})
        await until(lambda: table.duplicate is True)
        await ana.send({"t": "add_bot", "level": "hard"})
        await until(lambda: len(table.seats) == 4)
        assert table.seats[-1].bot == "hard"

        # Refused, each with its code, on that page only; nothing changes.
        before = (table.rules, table.turn_seconds, table.spectator_chat, len(table.seats))
        for intent in ({"t": "turn_time", "seconds": 20},
                       {"t": "spectator_chat", "on": True},
                       {"t": "rule", "name": "target", "value": 200},
                       {"t": "add_bot", "level": "easy"},
                       {"t": "duplicate", "on": False}):
            assert (await bo.refused(intent))["code"] == "not-host", intent
        for intent, code in (({"t": "turn_time", "seconds": -1}, "malformed"),
                             ({"t": "turn_time", "seconds": 86401}, "malformed"),
                             ({"t": "turn_time"}, "malformed"),
                             ({"t": "spectator_chat", "on": "no"}, "malformed"),
                             ({"t": "duplicate", "on": 1}, "malformed"),
                             ({"t": "rule", "name": "colour", "value": 1}, "malformed"),
                             ({"t": "rule", "name": "target", "value": "ten"}, "malformed"),
                             ({"t": "rule", "name": "target", "value": True}, "malformed"),
                             ({"t": "rule", "name": "scoring", "value": "golf"}, "malformed"),
                             ({"t": "rule", "name": "negative_totals", "value": 1}, "malformed"),
                             ({"t": "add_bot", "level": "god"}, "malformed")):
            assert (await ana.refused(intent))["code"] == code, intent
        # A value of the right type the rules cannot take: the engine's reason, on the page.
        refusal = await ana.refused({"t": "rule", "name": "target", "value": 0})
        assert refusal["code"] == "bad-option" and "target" in refusal["detail"], refusal
        refusal = await ana.refused({"t": "rule", "name": "tokens", "value": 101})
        assert refusal["code"] == "bad-option", refusal
        assert (table.rules, table.turn_seconds, table.spectator_chat,
                len(table.seats)) == before

        # During a match the rules wait; the clock and spectators' chat may change.
        await ana.send({"t": "start"})
        await until(lambda: table.state is not None)
        for intent in ({"t": "rule", "name": "target", "value": 120},
                       {"t": "preset", "name": "1980"},
                       {"t": "duplicate", "on": False},
                       {"t": "add_bot", "level": "easy"}):
            assert (await ana.refused(intent))["code"] == "not-now", intent
        assert table.rules.target == 150
        await ana.send({"t": "turn_time", "seconds": 45})
        await until(lambda: table.turn_seconds == 45.0)
        await ana.send({"t": "spectator_chat", "on": True})
        await until(lambda: table.spectator_chat is True)
        assert ana.errors.empty() and bo.errors.empty()  # nothing refused but the above
        await ana.close()
        await bo.close()
