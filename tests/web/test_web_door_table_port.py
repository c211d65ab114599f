"""The web door tells the table behind it (`GET /table.json`), so the door's address pasted
into `ono99 join` joins that table; a real door on loopback, read by the joiner's code."""

from __future__ import annotations

import asyncio
import json

import pytest

from netproto.addresses import Address, WebAddress
from ono99tui.web.config import WebDoorConfig
from ono99tui.web.server import WebDoor
from ono99tui.web.table_behind import NoTableBehind, table_behind, table_port_from


async def test_the_door_tells_its_table_s_port_to_anyone(door_config: WebDoorConfig) -> None:
    from dataclasses import replace

    async with WebDoor(replace(door_config, table_address="127.0.0.1:4099")) as door:
        web = WebAddress("http", "127.0.0.1", door.port)
        # No login (the door has a password): the port is no secret.
        found = await asyncio.to_thread(table_behind, web)
        assert found == Address("127.0.0.1", 4099)


@pytest.mark.parametrize(
    "answer",
    [None, [], {"game": "other", "table_port": 1}, {"game": "ono99"},
     {"game": "ono99", "table_port": "9099"}, {"game": "ono99", "table_port": 0},
     {"game": "ono99", "table_port": 70000}, {"game": "ono99", "table_port": True}],
)
def test_an_answer_that_is_not_a_door_s_is_said_so(answer: object) -> None:
    with pytest.raises(NoTableBehind):
        table_port_from(json.loads(json.dumps(answer)))
