"""A player's ask to be rated or not (`rated{rated}`) at the sans-IO core, on a fake clock:
between matches only, told to everyone in the lobby, the next deal's journal header and
rating following it, and a refusal changing nothing."""

from __future__ import annotations

import pytest
from core_clock_helpers import ClockedTable, config

from netproto.wire.errors import ApplicationError
from netproto.wire.messages import Rated, Ready, Start
from ono99tui.host.core import FINISHED, PLAYING
from ono99tui.host.journal.records import MatchDealt
from ono99tui.host.ratings import BOT, PLAYER, RatingBook
from ono99tui.host.ratings import Rated as Who
from ono99tui.table_protocol import TableError


def rated_table() -> tuple[ClockedTable, int, int]:
    """Ann (who deals) and Bob at a table that rates, with a normal bot."""
    table = ClockedTable(config(capacity=3, bot_delay=0.5), ratings=RatingBook())
    ann, bob = table.connect("Ann"), table.connect("Bob")
    table.run(table.core.add_bot("normal", table.now))
    return table, ann, bob


def dealt(table: ClockedTable, dealer: int) -> MatchDealt:
    """The journal header of the match `dealer`'s `start` deals."""
    (header,) = [output for output in table.send(dealer, Start())
                 if isinstance(output, MatchDealt)]
    return header


def seat_of(table: ClockedTable, peer: int, name: str) -> tuple[bool, int | None]:
    """(unrated, rating) of `name`'s seat as `peer`'s newest lobby shows it."""
    seat = next(seat for seat in table.lobby(peer).seats if seat.name == name)
    return seat.unrated, seat.rating


def test_a_player_switches_rating_off_and_on_and_everyone_is_told() -> None:
    table, ann, bob = rated_table()
    assert table.welcome(bob).table["rates"] is True
    assert seat_of(table, ann, "Bob") == (False, 1000)
    table.send(bob, Rated(rated=False))
    assert table.core.seats[1].unrated
    for peer in (ann, bob):  # everyone sees it, and the rating goes from beside the name
        assert seat_of(table, peer, "Bob") == (True, None)
    assert "unrated" in table.lobby(ann).seats[1].to_wire()
    before = len(table.frames[ann])
    table.send(bob, Rated(rated=False))  # said again: nothing changes, no lobby is sent
    assert len(table.frames[ann]) == before
    table.send(bob, Rated(rated=True))
    assert seat_of(table, ann, "Bob") == (False, 1000)


def test_the_next_deal_records_and_rates_as_the_players_chose() -> None:
    table, ann, bob = rated_table()
    table.send(bob, Rated(rated=False))
    assert dealt(table, ann).unrated == (1,)
    table.play_until(lambda: table.core.phase == FINISHED)
    (kept,) = table.ratings_changed
    assert {change.who for change in kept.changes} == {Who(PLAYER, "Ann"), Who(BOT, "normal")}
    assert table.lobby(ann).results["ratings"][1] is None
    # Between matches Bob asks to be rated again: the rematch rates him.
    table.send(bob, Rated(rated=True))
    assert seat_of(table, ann, "Bob")[0] is False
    table.send(bob, Ready())
    assert dealt(table, ann).unrated == () and table.core.phase == PLAYING
    table.play_until(lambda: table.core.phase == FINISHED)
    assert Who(PLAYER, "Bob") in {change.who for change in table.ratings_changed[-1].changes}


def test_during_a_match_the_ask_is_refused_and_changes_nothing() -> None:
    table, ann, bob = rated_table()
    assert dealt(table, ann).unrated == ()
    sent = len(table.frames[ann])
    with pytest.raises(ApplicationError) as refused:
        table.send(bob, Rated(rated=False))
    assert refused.value.code == TableError.MATCH_RUNNING.value
    assert refused.value.reason == "not while a match is being played"
    assert not table.core.seats[1].unrated and len(table.frames[ann]) == sent


def test_a_connection_without_a_seat_is_refused() -> None:
    table, ann, _bob = rated_table()
    watcher = table.connect("Sam", spectate=True)
    with pytest.raises(ApplicationError) as refused:
        table.send(watcher, Rated(rated=False))
    assert refused.value.code == TableError.NO_SUCH_SEAT.value
    assert not any(seat.unrated for seat in table.lobby(ann).seats)


def test_a_resumed_seat_keeps_its_choice_and_a_table_that_rates_nobody_says_so() -> None:
    table, ann, bob = rated_table()
    table.send(bob, Rated(rated=False))
    table.send(ann, Start())
    token = table.welcome(bob).token
    assert token is not None
    table.drop(bob)
    again = table.resume(token)
    assert seat_of(table, again, "Bob") == (True, None)
    plain = ClockedTable(config(capacity=2))
    ann_alone = plain.connect("Ann")
    assert "rates" not in plain.welcome(ann_alone).table
    plain.send(ann_alone, Rated(rated=False))  # kept (no rating to hide), told all the same
    assert plain.lobby(ann_alone).seats[0].unrated
