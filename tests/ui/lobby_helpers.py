"""Shared pieces of the lobby, waiting-room and multi-app tests: real tables on loopback."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from testkit.waiting import pilot_wait_until
from testkit.waiting import wait_for_condition as wait_for_condition
from textual.pilot import Pilot
from textual.widgets import DataTable

from ono99tui.host.journal.ratings_file import Ratings
from ono99tui.host.ratings import RatingBook
from ono99tui.host.server import TableServer
from ono99tui.host.table_config import TableConfig
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

HOST_KEY = "the-host-key-for-rating-tests"


@asynccontextmanager
async def running_table(*, ratings: RatingBook | None = None, bots: tuple[str, ...] = (),
                        **config: Any) -> AsyncIterator[TableServer]:
    """A real table server on 127.0.0.1, on a free port; bots play without delay.

    With `ratings` the table rates its players from that book (one that rates nobody
    otherwise); `bots` are seated first, in order, at those levels."""
    config.setdefault("bot_delay", 0.0)
    config.setdefault("seed", 99)
    server = TableServer(TableConfig(**config),
                         ratings=Ratings(ratings) if ratings is not None else None)
    await server.start("127.0.0.1", 0)
    try:
        for level in bots:
            server.table.add_bot(level)
        yield server
    finally:
        await server.stop()




def seat_cells(app: object) -> list[list[str]]:
    """The waiting room's seat list, row by row, as the cells show it."""
    table = app.screen.query_one("#seats", DataTable)  # type: ignore[attr-defined]
    return [[str(cell) for cell in table.get_row_at(row)] for row in range(table.row_count)]


def column_labels(app: object) -> list[str]:
    """The waiting room's seat list's column headings."""
    table = app.screen.query_one("#seats", DataTable)  # type: ignore[attr-defined]
    return [str(column.label) for column in table.columns.values()]


async def wait_for_seats(pilot: Pilot[Any], app: Any, seats: int,
                         player: tuple[int, str] | None = None) -> None:
    """Until the waiting room shows `seats` rows (and, given `(row, name)`, that name in
    that row's Player cell)."""
    def shown() -> bool:
        if not isinstance(app.screen, WaitingRoomScreen):
            return False
        cells = seat_cells(app)
        return len(cells) == seats and (player is None or player[1] in cells[player[0]][1])
    await pilot_wait_until(pilot, shown, what="the seats")
