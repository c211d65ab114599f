"""The client session decides about moves: in flight, refused, crossed on the wire, a view
repeated or numbered afresh for a new seat, a view it cannot read. Pure: no socket, no
screen (tests/client/scripted_table.py plays the table)."""

from __future__ import annotations

from scripted_table import ScriptedTable, seated_session

from netproto.client import Disconnected, Reconnected
from netproto.wire.messages import Error, Move, TurnClock, View
from ono99tui.client.outputs import EventsTaken, Log, Notice, Send
from ono99tui.client.story import LogAppended, StandInItem
from ono99tui.game import legal_moves


def sent(outputs: list) -> list:
    return [output.message for output in outputs if isinstance(output, Send)]


def notices(outputs: list) -> list[Notice]:
    return [output for output in outputs if isinstance(output, Notice)]


def test_a_move_is_sent_with_the_seq_of_the_view_it_was_chosen_from() -> None:
    table = ScriptedTable()
    session = seated_session(table, table.acting())
    move = session.view.legal_moves[0]

    messages = sent(session.play(move))

    assert messages == [Move(seq=session.view_seq, move=messages[0].move)]
    assert session.move_in_flight


def test_a_second_move_before_the_table_answers_is_not_sent() -> None:
    table = ScriptedTable()
    session = seated_session(table, table.acting())
    move = session.view.legal_moves[0]
    session.play(move)

    assert session.play(move) == []


def test_a_newer_view_ends_the_move_in_flight_and_the_same_view_again_does_not() -> None:
    table = ScriptedTable()
    seat = table.acting()
    session = seated_session(table, seat)
    session.play(session.view.legal_moves[0])

    # A resumed link may send the last view again: the move may still be on its way.
    again = View(seq=session.view_seq, view=table.view(seat, seq=session.view_seq).view)
    assert session.receive(again, 1.0) == []
    assert session.move_in_flight

    table.play()
    session.receive(table.view(seat), 2.0)
    assert not session.move_in_flight


def test_a_refused_move_frees_the_player_to_choose_again_and_says_why() -> None:
    table = ScriptedTable()
    session = seated_session(table, table.acting())
    session.play(session.view.legal_moves[0])

    outputs = session.receive(Error(code="illegal-move", reason="the rules forbid this move now",
                                    ref="move"), 1.0)

    assert not session.move_in_flight
    assert notices(outputs) == [Notice("the rules forbid this move now",
                                       title="The table said no", severity="error", timeout=6)]


def test_a_move_that_crossed_the_tables_change_is_no_mistake() -> None:
    table = ScriptedTable()
    session = seated_session(table, table.acting())
    session.play(session.view.legal_moves[0])

    outputs = session.receive(Error(code="stale-seq", reason="older view", ref="move"), 1.0)

    assert not session.move_in_flight
    assert [n.title for n in notices(outputs)] == ["Not played"]
    assert notices(outputs)[0].severity == "warning"
    # A ready that crossed the deal of the rematch: nothing to tell.
    assert session.receive(Error(code="unexpected-message", reason="", ref="ready"), 2.0) == []


def test_a_move_that_cannot_be_sent_is_not_in_flight() -> None:
    table = ScriptedTable()
    session = seated_session(table, table.acting())
    [message] = sent(session.play(session.view.legal_moves[0]))

    session.not_sent(message)

    assert not session.move_in_flight


def test_a_new_seat_numbers_its_views_afresh() -> None:
    table = ScriptedTable()
    session = seated_session(table, 0)
    for _ in range(4):
        table.play()
        session.receive(table.view(0), 1.0)
    assert session.view_seq == 5

    # The host restarted without our match: a new token, views from 1 again.
    session.receive(table.welcome(0, token="token-2"), 2.0)
    fresh = ScriptedTable(seed=7)
    outputs = session.receive(fresh.view(0), 3.0)

    assert session.view_seq == 1
    assert any(isinstance(output, EventsTaken) for output in outputs)


def test_the_same_seat_resumed_keeps_its_view_numbers() -> None:
    table = ScriptedTable()
    session = seated_session(table, 0)
    session.receive(table.welcome(0, token="token-1"), 1.0)

    assert session.receive(View(seq=1, view=table.view(0, seq=1).view), 1.0) == []


def test_a_view_the_session_cannot_read_is_refused_in_words_and_changes_nothing() -> None:
    table = ScriptedTable()
    session = seated_session(table, 0)
    before = session.view

    outputs = session.receive(View(seq=9, view={"total": "lots"}), 1.0)

    assert session.view is before and session.view_seq == 1
    [notice] = notices(outputs)
    assert notice.title == "The table said no"
    assert "cannot read" in notice.text


def test_the_turn_clock_counts_down_from_the_views_arrival() -> None:
    table = ScriptedTable()
    session = seated_session(table, 0)
    table.play()

    session.receive(table.view(0, clock=TurnClock(seat=1, seconds=30.0, left=12.5)), 100.0)

    assert session.clock_deadline == (1, 112.5)


def test_after_a_drop_the_log_says_what_a_stand_in_played_for_the_seat() -> None:
    table = ScriptedTable()
    seat = table.acting()
    session = seated_session(table, seat)
    session.play(session.view.legal_moves[0])  # in flight as the link drops

    assert [n.text for n in notices(session.receive(Disconnected("reset", True), 1.0))] == [
        "Connection lost: reconnecting..."]
    assert session.connection_state == "reconnecting"
    assert [n.text for n in notices(session.receive(Reconnected(1), 2.0))] == [
        "Reconnected: your seat is back."]
    assert not session.move_in_flight

    # The table played the player's move, then a stand-in played their next turn.
    table.play(legal_moves(table.state, seat)[0])
    table.play_until(lambda t: t.acting() == seat)
    table.play()
    outputs = session.receive(table.view(seat), 3.0)

    stand_ins = [item for output in outputs if isinstance(output, Log)
                 and isinstance(output.change, LogAppended)
                 for item in output.change.items if isinstance(item, StandInItem)]
    assert len(stand_ins) == 1
    assert stand_ins[0].seat == seat and stand_ins[0].skip_first
