"""The client session decides about seats and leaving: a spectator's take a seat (now, or
as soon as the match ends: the spectator's `t`), a join for a seat that found the table
full, who sat down between matches, what quitting costs, and the table going away."""

from __future__ import annotations

from scripted_table import ScriptedTable, seated_session

from netproto.client import Closed
from netproto.wire.messages import TablePhase
from ono99tui.client.outputs import JoinAgain, Notice, TableGone
from ono99tui.client.session import TableSession


def watching(table: ScriptedTable, *, can_rejoin: bool = True,
             phase: TablePhase = TablePhase.FINISHED) -> TableSession:
    session = TableSession(can_rejoin=can_rejoin)
    session.connect()
    session.receive(table.welcome(None), 0.0)
    session.receive(table.lobby(None, phase=phase), 0.0)
    return session


def test_a_spectator_takes_a_bots_seat_between_matches() -> None:
    table = ScriptedTable(bots=frozenset({2}))
    session = watching(table)

    assert session.may_take_seat
    assert session.take_seat() == [JoinAgain()]
    # Under way: a second press does nothing, and the key is not offered.
    assert session.taking_seat and not session.may_take_seat
    assert session.take_seat() == []


def test_a_seat_not_taken_lets_the_spectator_try_again() -> None:
    session = watching(ScriptedTable(bots=frozenset({1})))
    session.take_seat()

    session.seat_not_taken()

    assert session.may_take_seat


def test_no_seat_is_offered_at_a_full_table_of_people_or_without_a_way_to_join_again() -> None:
    assert not watching(ScriptedTable()).may_take_seat
    assert not watching(ScriptedTable(bots=frozenset({1})), can_rejoin=False).may_take_seat


def test_the_spectators_t_mid_match_takes_a_seat_the_moment_the_match_ends() -> None:
    table = ScriptedTable(bots=frozenset({2}))
    session = watching(table, phase=TablePhase.PLAYING)
    assert session.may_want_seat and not session.may_take_seat

    [notice] = session.want_seat()
    assert "as soon as this match ends" in notice.text
    assert session.seat_wanted

    outputs = session.receive(table.lobby(None, phase=TablePhase.FINISHED), 1.0)

    assert JoinAgain() in outputs
    assert not session.seat_wanted


def test_t_again_keeps_watching() -> None:
    table = ScriptedTable(bots=frozenset({2}))
    session = watching(table, phase=TablePhase.PLAYING)
    session.want_seat()

    assert [n.text for n in session.want_seat()] == ["You keep watching after this match."]
    assert JoinAgain() not in session.receive(table.lobby(None, phase=TablePhase.FINISHED), 1.0)


def test_a_wanted_seat_that_is_gone_by_the_end_is_said() -> None:
    table = ScriptedTable()  # all people: nobody gives a seat up
    session = watching(table, phase=TablePhase.PLAYING)
    session.want_seat()

    outputs = session.receive(table.lobby(None, phase=TablePhase.FINISHED), 1.0)

    assert [o.text for o in outputs if isinstance(o, Notice)] == [
        "No seat is free for the next match: you are still watching."]


def test_a_join_asking_for_a_seat_that_finds_the_table_full_says_so() -> None:
    table = ScriptedTable()
    session = TableSession(can_rejoin=True)
    session.connect(seat_asked=True)

    outputs = session.receive(table.welcome(None, name="Kitchen"), 0.0)

    assert outputs == [Notice("Kitchen is full or already playing: you are watching.",
                              title="Watching")]


def test_between_matches_the_players_are_told_who_takes_a_bots_seat() -> None:
    table = ScriptedTable(bots=frozenset({2}))
    session = seated_session(table, 0)
    session.receive(table.lobby(0, phase=TablePhase.FINISHED), 1.0)

    outputs = session.receive(
        table.lobby(0, phase=TablePhase.FINISHED, names=("ana", "bob", "dan")), 2.0)

    assert outputs == [Notice("dan takes cy's seat for the next match.", title="Next match",
                              timeout=8)]


def test_quitting_mid_match_costs_the_seat_after_the_tables_grace() -> None:
    table = ScriptedTable()
    session = seated_session(table, 0)

    assert session.in_game and session.quitting_asks
    question, explanation = session.quit_warning()
    assert question == "Leave the match?"
    assert "held for 60 s" in explanation and "then a bot plays it" in explanation


def test_quitting_a_table_that_resigns_abandoned_seats_says_so() -> None:
    table = ScriptedTable()
    session = seated_session(table, 0)
    session.receive(table.lobby(0, options={"abandon_policy": "eliminate",
                                            "grace_seconds": 30}), 1.0)

    assert "held for 30 s" in session.quit_warning()[1]
    assert "out of the match" in session.quit_warning()[1]


def test_the_host_quitting_with_others_at_the_table_asks_first() -> None:
    table = ScriptedTable(bots=frozenset({1, 2}))
    session = seated_session(table, 0, hosting="host")
    assert session.quit_warning()[0] == "Close the table?"
    # Between matches, with only bots: nobody minds.
    session.receive(table.lobby(0, phase=TablePhase.FINISHED), 1.0)
    table.play_until(lambda t: t.over)
    session.receive(table.view(0), 1.0)
    assert not session.quitting_asks
    # A spectator came to watch: closing sends them away.
    session.receive(table.lobby(0, phase=TablePhase.FINISHED, spectators=1), 2.0)
    assert session.quitting_asks


def test_a_solo_game_ends_for_good() -> None:
    session = seated_session(ScriptedTable(bots=frozenset({1, 2})), 0, hosting="solo")
    assert session.quit_warning() == ("Quit the game?",
                                      "This is a solo game: quitting ends it for good.")


def test_a_guest_is_told_the_table_is_gone() -> None:
    table = ScriptedTable()
    session = seated_session(table, 1)

    outputs = session.receive(Closed("shutdown", "bye"), 1.0)

    assert outputs == [TableGone("The host closed the table.",
                                 "Nobody can play at it any more: the match, if one was on, "
                                 "is over.")]
    assert session.connection_state == "closed" and not session.in_game
    assert session.gone_headline == "The host closed the table."
    session.connect()  # a new table: the old one's end is forgotten
    assert session.gone_headline is None


def test_a_connection_that_never_reached_the_table_says_why() -> None:
    session = TableSession()
    session.connect()

    outputs = session.connect_failed("unreachable", "nothing is listening at 127.0.0.1:9")

    assert outputs == [Notice("Disconnected from the table: nothing is listening at "
                              "127.0.0.1:9", severity="error", timeout=10)]


def test_what_an_older_connection_reports_is_stale() -> None:
    table = ScriptedTable()
    session = TableSession()
    old, _ = session.connect()
    new, _ = session.connect()

    assert session.receive(table.welcome(0), 0.0, old) == []
    assert session.welcome is None
    session.receive(table.welcome(0), 0.0, new)
    assert session.welcome is not None
