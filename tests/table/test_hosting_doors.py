"""`hosted_table` opens the doors it is given (never imports one): after the bots sit, onto
the table's port, into the advertisement; on the way out they close before the table does.

A recording door stands in for the SSH door; the table is a real server on loopback.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping

import pytest

from ono99tui.host.doors import DoorError
from ono99tui.host.hosting import HostError, hosted_table, table_info
from ono99tui.host.options import HostOptions
from ono99tui.host.outputs import TableSummary
from ono99tui.host.table_config import TableConfig
from ono99tui.host.with_app import invitation_for


async def table_answers(port: int) -> bool:
    try:
        _, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return False
    writer.close()
    await writer.wait_closed()
    return True


class RecordedDoor:
    """An open door that notes what the table looked like when it closed."""

    advert_field = "ssh_port"

    def __init__(self, port: int, table_port: int, events: list[str]) -> None:
        self.port, self.table_port, self.events = port, table_port, events

    def announcement(self, host: str) -> Mapping[str, object]:
        return {"event": "test-door", "port": self.port, "host": host}

    def log_line(self, host: str) -> str:
        return f"test door open on {host}:{self.port}"

    def invitation_line(self, host: str) -> str:
        return f"Or through the test door: {host}:{self.port}"

    async def close(self) -> None:
        answers = await table_answers(self.table_port)
        self.events.append(f"close {self.port} (table answers: {answers})")


class RecordingDoor:
    """A door to open: notes when it opens and how many seats were taken by then."""

    def __init__(self, port: int, events: list[str], problem: str | None = None) -> None:
        self.port, self.events, self.problem = port, events, problem

    @property
    def title(self) -> str:
        return f"the test door on port {self.port}"

    async def open(self, table_port: int, trust: object = None) -> RecordedDoor:
        if self.problem is not None:
            raise DoorError(self.problem)
        self.events.append(f"open {self.port} onto {table_port}")
        return RecordedDoor(self.port, table_port, self.events)


def options(*doors: RecordingDoor, bots: int = 2) -> HostOptions:
    return HostOptions(table=TableConfig(capacity=3, bot_delay=0.0), bind="127.0.0.1", port=0,
                       bots=bots, doors=doors)


def seats_taken(events: list[str]) -> Callable[[TableSummary], None]:
    return lambda summary: events.append(f"seats {summary.seats_taken}")


async def test_doors_open_after_the_bots_onto_the_table_and_close_first() -> None:
    events: list[str] = []
    first, second = RecordingDoor(2222, events), RecordingDoor(8080, events)
    async with hosted_table(options(first, second), on_summary=seats_taken(events)) as table:
        port = table.server.port
        # The bots sat before any door (and so before the advertisement) opened.
        assert events == ["seats 1", "seats 2", f"open 2222 onto {port}", f"open 8080 onto {port}"]
        summary = table.server.table.summary()
        assert [door.port for door in table.doors] == [2222, 8080]
        assert table_info(summary, port, table.doors[:1]).ssh_port == 2222
        assert table_info(summary, port).ssh_port is None
        assert table.doors[0].announcement("myhost") == {
            "event": "test-door", "port": 2222, "host": "myhost"}
        # Not advertised: the `ono99 join` line all the same (no lobby lists the table),
        # at the address the table listens on, as the doors' lines.
        assert invitation_for(table, "127.0.0.1").splitlines() == [
            f"Others join with: ono99 join 127.0.0.1:{port}",
            "Or through the test door: 127.0.0.1:2222", "Or through the test door: 127.0.0.1:8080"]
    # Last opened, first closed; both while the table still answered; then the table went.
    assert events[4:] == ["close 8080 (table answers: True)", "close 2222 (table answers: True)"]
    assert not await table_answers(port)


async def test_a_door_that_cannot_open_closes_the_table_and_the_doors_before_it() -> None:
    events: list[str] = []
    ports: list[int] = []

    class SeenPort(RecordingDoor):
        async def open(self, table_port: int, trust: object = None) -> RecordedDoor:
            ports.append(table_port)
            return await super().open(table_port, trust)

    doors = (SeenPort(2222, events), RecordingDoor(8080, events, problem="no way"))
    with pytest.raises(HostError, match=r"^cannot open the test door on port 8080: no way$"):
        async with hosted_table(options(*doors)):
            pytest.fail("the table must not be served")
    assert events == [f"open 2222 onto {ports[0]}", "close 2222 (table answers: True)"]
    assert not await table_answers(ports[0])
