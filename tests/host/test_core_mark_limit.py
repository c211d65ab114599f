"""A seat's own marks in the waiting room (ready, rated) at the sans-IO core, on a fake
clock: the same mark again sends nothing; changes are limited (`MARK_BURST` at once, then
`MARK_PER_SECOND`), past which `slow-down` refuses and changes nothing. Each change is a
lobby for everyone at the table: a seat flipping one as fast as it can write had the table
build lobbies for every connection until the others were dropped as not reading."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from core_clock_helpers import ClockedTable, config

from netproto.wire.errors import ApplicationError
from netproto.wire.messages import Lobby, Message, Rated, Ready
from ono99tui.host.chat import MARK_BURST, MARK_PER_SECOND
from ono99tui.host.core import FINISHED
from ono99tui.host.ratings import RatingBook
from ono99tui.table_protocol import TableError


def lobbies(table: ClockedTable, peer: int) -> int:
    return sum(1 for frame in table.frames.get(peer, ()) if isinstance(frame, Lobby))


def waiting_table() -> tuple[ClockedTable, int, int]:
    """Ann and Bob in the waiting room of a table that rates (nobody deals by themselves)."""
    table = ClockedTable(config(capacity=3), ratings=RatingBook())
    return table, table.connect("Ann"), table.connect("Bob")


def test_the_same_ready_again_sends_no_lobby() -> None:
    table, ann, bob = waiting_table()
    table.send(bob, Ready(ready=True))
    before = lobbies(table, ann)
    for _ in range(50):
        table.send(bob, Ready(ready=True))
    assert lobbies(table, ann) == before


@pytest.mark.parametrize("flip", [lambda n: Ready(ready=n % 2 == 0),
                                  lambda n: Rated(rated=n % 2 == 1)], ids=["ready", "rated"])
def test_changes_past_the_burst_are_refused_slow_down_and_change_nothing(
        flip: Callable[[int], Message]) -> None:
    table, ann, bob = waiting_table()
    for n in range(MARK_BURST):
        table.send(bob, flip(n))
    seat = table.core.seats[1]
    marks = (seat.ready, seat.unrated)
    before = lobbies(table, ann)
    with pytest.raises(ApplicationError) as refused:
        table.send(bob, flip(MARK_BURST))
    assert refused.value.code == TableError.SLOW_DOWN.value
    assert "at most 8 changes at once" in refused.value.reason
    assert (seat.ready, seat.unrated) == marks and lobbies(table, ann) == before
    # Another seat's marks are its own to change.
    table.send(ann, Ready(ready=True))
    assert table.core.seats[0].ready
    # The bucket refills: one change every 1 / MARK_PER_SECOND seconds.
    table.advance(1 / MARK_PER_SECOND)
    table.send(bob, flip(MARK_BURST))
    assert (seat.ready, seat.unrated) != marks


def test_every_match_gives_a_full_burst_again() -> None:
    """A ready per match is no flood: quick matches one after another (what bench/latency.py
    plays) never run a seat out of changes, however little time passes between them."""
    table = ClockedTable(config(capacity=2, start_when=2, bot_delay=0.0))
    ann, bob = table.connect("Ann"), table.connect("Bob")
    for _ in range(MARK_BURST + 3):
        for peer in (ann, bob):
            table.send(peer, Ready(ready=True))
        table.play_until(lambda: table.core.phase == FINISHED)
    assert table.core.matches_dealt == MARK_BURST + 3
