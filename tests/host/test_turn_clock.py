"""The turn clock on a fake clock: a stand-in plays a timed-out turn, timeouts counted and
reset, abandonment after N in a row, the clock paused while its player is away, stopped at
the match's end and when a bot takes over, never run for bots; what views say of it.

No sockets, no event loop, no sleeping: `ClockedTable.advance` says how much time passes.
"""

from __future__ import annotations

from typing import Any

import pytest
from core_clock_helpers import ClockedTable, config

from netproto.wire.errors import ApplicationError
from netproto.wire.messages import SetOptions, Start, TurnClock
from ono99tui.game import Card, Draw, Play, legal_moves, position, preset
from ono99tui.host.core import FINISHED, PLAYING
from ono99tui.host.outputs import BotTurn, GraceExpiry, TurnTimeout
from ono99tui.host.turn_clock import (
    IDLE_RECLAIM_SECONDS,
    RESUME_FLOOR_SECONDS,
    stand_in_goes_on,
    waited_seat,
)

ANN, BOB = 1, 2  # the peer ids of `clocked_table`'s players


def clocks(table: ClockedTable) -> dict[TurnTimeout, float]:
    """The turn clocks armed now, with their deadlines."""
    return {key: deadline for key, (deadline, _) in table.timers.items()
            if isinstance(key, TurnTimeout)}


def clocked_table(**options: Any) -> ClockedTable:
    """Ann and Bob (peers 1 and 2) at a two-seat table with a 30 s turn clock, the match
    dealt."""
    options.setdefault("turn_seconds", 30.0)
    options.setdefault("grace_seconds", 60.0)
    table = ClockedTable(config(capacity=2, start_when=2, bot_delay=0.5, **options))
    assert (table.connect("Ann"), table.connect("Bob")) == (ANN, BOB)
    assert table.core.phase == PLAYING
    return table


def to_act(table: ClockedTable) -> tuple[int, int]:
    """(seat index, peer id) of the human the table waits for."""
    index = table.human_to_act()
    assert index is not None
    peer = table.core.seats[index].peer
    assert peer is not None
    return index, peer


def timed_out_events(table: ClockedTable, peer: int) -> list[dict[str, Any]]:
    """Every `timed_out` event peer `peer` was sent, oldest first."""
    return [event for view in table.views(peer) for event in view.events
            if event["kind"] == "timed_out"]


def play_first_legal(table: ClockedTable, index: int) -> None:
    """Seat `index`'s player plays its first legal move."""
    state = table.core.state
    assert state is not None
    peer = table.core.seats[index].peer
    assert peer is not None
    table.play(peer, legal_moves(state, index)[0])


def run_out(table: ClockedTable, index: int) -> None:
    """Let the clock of seat `index` run out, the other seat playing its own turns."""
    while table.human_to_act() != index:
        other = table.human_to_act()
        assert other is not None
        play_first_legal(table, other)
    (deadline,) = clocks(table).values()
    table.advance(deadline - table.now)


# --- the clock runs out ---------------------------------------------------------------------


def test_when_the_clock_runs_out_the_stand_in_plays_the_turn_and_everyone_is_told() -> None:
    table = clocked_table()
    index, _ = to_act(table)
    seat = table.core.seats[index]
    ((key, deadline),) = clocks(table).items()
    assert key.seat_id == seat.id and deadline == pytest.approx(30.0)

    table.advance(29.99)
    assert table.moves_played() == 0
    table.advance(0.01)
    assert table.moves_played() == 1 and table.journal[-1].moves[0]["seat"] == index
    assert seat.timeouts == 1 and not seat.taken_over and not seat.bot_plays
    for watcher in (ANN, BOB):
        assert timed_out_events(table, watcher) == [
            {"kind": "timed_out", "seat": index, "in_a_row": 1}]
        # The timed-out event comes first, then the stand-in's play.
        events = table.views(watcher)[-1].events
        assert events[0]["kind"] == "timed_out" and events[1]["kind"] == "played"
    # The other player's clock starts now.
    ((key, deadline),) = clocks(table).items()
    assert key.seat_id != seat.id and deadline == pytest.approx(60.0)


def test_every_view_tells_the_clocked_seat_and_the_seconds_left() -> None:
    table = clocked_table()
    index, _ = to_act(table)
    assert table.views(ANN)[-1].clock == TurnClock(seat=index, seconds=30.0, left=30.0)
    watcher = table.connect("Watcher", spectate=True)
    table.advance(12.0)
    late = table.connect("Late watcher", spectate=True)
    assert table.views(watcher)[-1].clock == TurnClock(index, 30.0, 30.0)
    assert table.views(late)[-1].clock == TurnClock(index, 30.0, 18.0)
    play_first_legal(table, index)
    other = 1 - index
    if table.core.phase == PLAYING and table.human_to_act() == other:
        assert table.views(ANN)[-1].clock == TurnClock(other, 30.0, 30.0)


def test_a_table_without_a_turn_time_has_no_clock() -> None:
    table = clocked_table(turn_seconds=None)
    assert clocks(table) == {} and table.views(ANN)[-1].clock is None
    assert table.lobby(ANN).options["turn_seconds"] is None
    table.advance(3600.0)
    assert table.moves_played() == 0


def test_a_move_restarts_the_clock_for_the_next_move() -> None:
    table = clocked_table()
    table.advance(25.0)
    index, _ = to_act(table)
    play_first_legal(table, index)
    ((_, deadline),) = clocks(table).items()
    assert deadline == pytest.approx(25.0 + 30.0)


# --- counting, resetting, abandoning --------------------------------------------------------


def test_timeouts_in_a_row_are_counted_and_a_move_resets_the_count() -> None:
    table = clocked_table()
    index, _ = to_act(table)
    seat = table.core.seats[index]
    run_out(table, index)
    run_out(table, index)
    assert seat.timeouts == 2
    assert [event["in_a_row"] for event in timed_out_events(table, ANN)] == [1, 2]
    while table.human_to_act() != index:
        play_first_legal(table, 1 - index)
    play_first_legal(table, index)
    assert seat.timeouts == 0
    run_out(table, index)
    assert [event["in_a_row"] for event in timed_out_events(table, ANN)] == [1, 2, 1]
    assert not seat.taken_over


def test_after_three_timeouts_in_a_row_a_bot_plays_the_seat_on() -> None:
    table = clocked_table()
    index, peer = to_act(table)
    seat = table.core.seats[index]
    for _ in range(3):
        run_out(table, index)
    moves = table.moves_played()
    assert seat.timeouts == 3 and seat.taken_over and seat.bot_plays
    assert table.lobby(ANN).seats[index].kind == "bot"
    assert timed_out_events(table, peer)[-1] == {"kind": "timed_out", "seat": index,
                                                 "in_a_row": 3}
    # No clock for the bot; while its player is still connected it waits a few seconds
    # before each move (a chance to come back), not only the bot pace.
    assert all(key.seat_id != seat.id for key in clocks(table))
    ((turn, deadline),) = [(key, deadline) for key, (deadline, _) in table.timers.items()
                           if isinstance(key, BotTurn)]
    assert turn.seat == index and deadline == pytest.approx(table.now + IDLE_RECLAIM_SECONDS)
    table.advance(IDLE_RECLAIM_SECONDS - 0.01)
    assert table.moves_played() == moves
    table.advance(0.01)
    assert table.moves_played() == moves + 1


def test_a_player_abandoned_for_idling_takes_the_seat_back_with_a_move() -> None:
    table = clocked_table()
    index, peer = to_act(table)
    seat = table.core.seats[index]
    for _ in range(3):
        run_out(table, index)
    while table.human_to_act() is not None:  # the other's moves, until the bot is due
        play_first_legal(table, 1 - index)
    state = table.core.state
    assert state is not None and table.core.phase == PLAYING
    table.advance(IDLE_RECLAIM_SECONDS - 1.0)  # back, within the bot's wait
    table.play(peer, legal_moves(state, index)[0])
    assert not seat.taken_over and seat.timeouts == 0
    assert table.lobby(ANN).seats[index].kind == "human"
    assert not any(isinstance(key, BotTurn) for key in table.timers)
    # Their next turn is theirs again, on the clock.
    while table.core.phase == PLAYING and table.human_to_act() != index:
        play_first_legal(table, 1 - index)
    if table.core.phase == PLAYING:
        assert any(key.seat_id == seat.id for key in clocks(table))


def test_after_three_timeouts_in_a_row_the_seat_resigns_under_the_eliminate_policy() -> None:
    table = ClockedTable(config(capacity=3, start_when=3, bot_delay=0.5, turn_seconds=5.0,
                                abandon_policy="eliminate"))
    table.run(table.core.add_bot("greedy", table.now))
    ann = table.connect("Ann")
    table.connect("Bob")
    bob_seat = table.core.seats[2]

    def bob_is_waited_for() -> bool:
        return any(key.seat_id == bob_seat.id for key in clocks(table))

    for in_a_row in (1, 2, 3):
        # Ann plays at once, the bot at its pace; Bob never moves.
        for _ in range(200):
            if bob_is_waited_for() or table.core.phase != PLAYING:
                break
            if table.human_to_act() == 1:
                play_first_legal(table, 1)
            else:
                table.advance(min(d for d, _ in table.timers.values()) - table.now)
        if table.core.phase != PLAYING:
            pytest.skip("the match ended before Bob ran out three times")
        table.advance(5.0)
        assert bob_seat.timeouts == in_a_row
    assert bob_seat.resigned
    assert table.lobby(ann).seats[2].kind == "resigned"
    kinds = [event["kind"] for event in table.views(ann)[-1].events]
    assert kinds[:2] == ["timed_out", "resigned"]


# --- whole turns: Play 2, the late draw -----------------------------------------------------


def test_the_stand_in_plays_both_cards_of_a_play_2() -> None:
    table = clocked_table()

    def a_human_owes_two() -> bool:
        state = table.core.state
        return (state is not None and state.obligated and state.owed == 2
                and bool(clocks(table)))

    for _ in range(500):
        if a_human_owes_two() or table.core.phase != PLAYING:
            break
        index, peer = to_act(table)
        state = table.core.state
        assert state is not None
        moves = legal_moves(state, index)
        # Play a Play 2 whenever there is one, to get to an obligation quickly.
        play2 = [m for m in moves if isinstance(m, Play) and m.card.token == "play2"]
        table.play(peer, play2[0] if play2 else moves[0])
    if not a_human_owes_two():
        pytest.skip("no Play 2 obligation came up with this seed")
    state = table.core.state
    assert state is not None
    index = state.turn
    before = table.moves_played()
    (deadline,) = clocks(table).values()
    table.advance(deadline - table.now)
    state = table.core.state
    assert state is not None
    played = [m for m in table.journal[-1].moves[before:] if m.get("seat") == index]
    # The stand-in answered (one card) or played the two cards; either way the turn is over.
    assert 1 <= len(played) <= 2
    assert table.core.phase != PLAYING or state.turn != index or state.round_no > 1
    assert timed_out_events(table, ANN)[-1]["seat"] == index


def test_the_stand_in_also_takes_the_late_draw_the_turn_owes() -> None:
    rules = preset("2022").replace(late_draw_penalty=True)
    table = clocked_table(rules=rules)
    index, _ = to_act(table)
    table.advance(30.0)
    state = table.core.state
    assert state is not None
    assert state.pending_draw != index
    assert len(state.hands[index]) == 4
    kinds = [(m["kind"], m["seat"]) for m in table.journal[-1].moves]
    assert kinds[:2] == [("play", index), ("draw", index)]


def test_a_late_draw_owed_by_the_last_player_is_not_clocked() -> None:
    rules = preset("2022").replace(late_draw_penalty=True)
    table = clocked_table(rules=rules)
    index, _ = to_act(table)
    play_first_legal(table, index)
    state = table.core.state
    assert state is not None and state.pending_draw == index
    # Only the seat to play is timed; the one who owes a draw may lose it, not time out.
    ((key, _),) = clocks(table).items()
    assert key.seat_id == table.core.seats[state.turn].id
    # Drawing late does not restart the next player's clock.
    table.advance(10.0)
    draw = next(m for m in legal_moves(state, index) if isinstance(m, Draw))
    peer = table.core.seats[index].peer
    assert peer is not None
    table.play(peer, draw)
    ((_, deadline),) = clocks(table).items()
    assert deadline == pytest.approx(30.0)


def test_what_counts_as_the_rest_of_a_turn() -> None:
    rules = preset("2022").replace(late_draw_penalty=True)
    hands = [[Card.TWO] * 4, [Card.THREE] * 4, [Card.FOUR] * 4]
    # Seat 1 still owes the second card of a Play 2: its turn goes on.
    owing = position(rules, hands, turn=1, owed=1, obligated=True, round_no=2)
    assert waited_seat(owing) == 1 and stand_in_goes_on(owing, 1, 2)
    # A new round was dealt meanwhile: even if seat 1 starts it, that is a new turn.
    assert not stand_in_goes_on(owing, 1, 1)
    # Seat 1 owes its late draw while seat 2 plays: the stand-in draws; seat 2 is waited for.
    drawing = position(rules, hands, turn=2, pending_draw=1)
    assert waited_seat(drawing) == 2 and stand_in_goes_on(drawing, 1, 1)
    assert not stand_in_goes_on(drawing, 0, 1)


# --- away, back, taken over, bots, the end ----------------------------------------------------


def test_the_clock_stands_still_while_the_player_is_away_and_runs_on_when_back() -> None:
    table = clocked_table()
    index, peer = to_act(table)
    seat = table.core.seats[index]
    token = table.welcome(peer).token
    assert token is not None
    table.advance(12.0)
    table.drop(peer)
    assert clocks(table) == {} and GraceExpiry(seat.id) in table.timers
    table.advance(40.0)  # longer than the turn time: the grace period rules now
    assert table.moves_played() == 0
    back = table.resume(token)
    ((_, deadline),) = clocks(table).items()
    assert deadline == pytest.approx(table.now + 18.0)
    assert table.views(back)[-1].clock == TurnClock(index, 30.0, 18.0)
    other = BOB if peer == ANN else ANN
    assert table.views(other)[-1].clock == TurnClock(index, 30.0, 18.0)


def test_a_player_back_with_seconds_to_spare_gets_at_least_the_floor() -> None:
    table = clocked_table()
    _, peer = to_act(table)
    token = table.welcome(peer).token
    assert token is not None
    table.advance(29.0)
    table.drop(peer)
    table.advance(5.0)
    table.resume(token)
    ((_, deadline),) = clocks(table).items()
    assert deadline == pytest.approx(table.now + RESUME_FLOOR_SECONDS)


def test_when_the_grace_period_runs_out_the_bot_takes_over_and_no_clock_runs() -> None:
    table = clocked_table(grace_seconds=10.0)
    index, peer = to_act(table)
    seat = table.core.seats[index]
    table.drop(peer)
    table.advance(10.0)
    assert seat.taken_over and seat.timeouts == 0
    assert clocks(table) == {}
    assert any(isinstance(key, BotTurn) for key in table.timers)


def test_bots_are_never_clocked() -> None:
    table = ClockedTable(config(capacity=2, start_when=2, bot_delay=0.5, turn_seconds=5.0))
    table.run(table.core.add_bot("greedy", table.now))
    table.run(table.core.add_bot("random", table.now))
    table.play_until(lambda: table.core.phase == FINISHED)
    assert table.journal[-1].winners and clocks(table) == {}


def test_the_match_end_stops_the_clock() -> None:
    table = clocked_table()
    table.play_until(lambda: table.core.phase == FINISHED)
    assert clocks(table) == {}
    assert table.views(ANN)[-1].clock is None


# --- the host's option ----------------------------------------------------------------------


def test_the_host_changes_the_turn_time_between_matches() -> None:
    table = ClockedTable(config(capacity=2))
    assert table.connect("Ann") == ANN
    assert table.lobby(ANN).options["turn_seconds"] is None
    table.send(ANN, SetOptions(options={"turn_seconds": 15}))
    assert table.lobby(ANN).options["turn_seconds"] == 15.0
    for bad in (0, 0.5, True, "60", -3):
        with pytest.raises(ApplicationError) as refused:
            table.send(ANN, SetOptions(options={"turn_seconds": bad}))
        assert refused.value.code == "bad-options"
    assert table.core.turn_seconds == 15.0
    assert table.connect("Bob") == BOB
    table.send(ANN, Start())
    assert table.views(BOB)[-1].clock is not None
    # The rules wait for the waiting room (the turn time does not: see below).
    with pytest.raises(ApplicationError) as refused:
        table.send(ANN, SetOptions(options={"turn_seconds": None, "preset": "1980"}))
    assert refused.value.code == "match-running"
    assert table.core.turn_seconds == 15.0


def test_the_host_starts_a_clock_mid_match_for_a_player_who_walked_away() -> None:
    # No clock at the table (the default with the app): a player who walked away mid-turn
    # held everyone up until the match ended. The host may now start one in the match.
    table = ClockedTable(config(capacity=2, start_when=2, bot_delay=0.5))
    assert (table.connect("Ann"), table.connect("Bob")) == (ANN, BOB)
    assert table.core.phase == PLAYING and clocks(table) == {}
    index, peer = to_act(table)
    if peer == ANN:  # let Bob (not the host) be the one who walked away
        play_first_legal(table, index)
        index, peer = to_act(table)
    assert peer == BOB
    with pytest.raises(ApplicationError) as refused:  # only the host
        table.send(BOB, SetOptions(options={"turn_seconds": 20}))
    assert refused.value.code == "not-host"
    table.advance(600)  # ten minutes: nothing happens without a clock
    assert to_act(table) == (index, BOB)
    seqs = [len(table.views(ANN)), len(table.views(BOB))]
    table.send(ANN, SetOptions(options={"turn_seconds": 20}))
    assert table.lobby(BOB).options["turn_seconds"] == 20.0
    # Everyone is shown the clock of the seat waited for, with the whole time from now.
    for who, before in zip((ANN, BOB), seqs, strict=True):
        assert len(table.views(who)) == before + 1
        assert table.views(who)[-1].clock == TurnClock(seat=index, seconds=20.0, left=20.0)
    table.advance(20)
    assert [event["seat"] for event in timed_out_events(table, ANN)] == [index]
    # Switched off again mid-match: the clock stops at once.
    index, peer = to_act(table)
    assert clocks(table)
    table.send(ANN, SetOptions(options={"turn_seconds": None}))
    assert clocks(table) == {} and table.views(peer)[-1].clock is None
    table.advance(600)
    assert to_act(table) == (index, peer)
