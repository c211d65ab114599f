"""The table core's small parts with state of their own, each on its own: the phases'
transition table, the timer book, the turn clock, bot pacing and the memory of what bots
have seen. (How the core uses them is tested through the core: test_core_*.py.)"""

from __future__ import annotations

import random

import pytest

from netproto.wire.errors import ApplicationError
from netproto.wire.messages import TablePhase
from ono99tui.game import Card, Draw, Played, PlayerView, RoundDealt, preset, start_match, view
from ono99tui.host.bot_pacing import BotMemory, BotPacing, StandIn, WantedMove
from ono99tui.host.outputs import ArmTimer, BotMoveWanted, BotTurn, CancelTimer, Output, TurnTimeout
from ono99tui.host.table_phases import (
    TRANSITIONS,
    Action,
    IllegalPhaseChange,
    PhaseChange,
    TablePhases,
)
from ono99tui.host.timers import TimerBook
from ono99tui.host.turn_clock import RESUME_FLOOR_SECONDS, TableClock
from ono99tui.table_protocol import TableError

WAITING, PLAYING, FINISHED = TablePhase.WAITING, TablePhase.PLAYING, TablePhase.FINISHED


# --- the phases ---------------------------------------------------------------------------


def test_a_table_goes_through_its_phases_by_the_transition_table() -> None:
    phases = TablePhases()
    assert phases.phase == WAITING and phases.between_matches
    assert phases.change(PhaseChange.DEAL) == PLAYING and phases.playing
    assert phases.change(PhaseChange.WON) == FINISHED
    assert phases.change(PhaseChange.DEAL) == PLAYING  # a rematch
    phases.change(PhaseChange.WON)
    assert phases.change(PhaseChange.OPEN_ROOM) == WAITING


@pytest.mark.parametrize("phase", list(TablePhase))
@pytest.mark.parametrize("change", list(PhaseChange))
def test_an_illegal_phase_change_is_refused_with_a_typed_error_and_changes_nothing(
        phase: TablePhase, change: PhaseChange) -> None:
    phases = TablePhases(phase)
    if (phase, change) in TRANSITIONS:
        assert phases.change(change) == TRANSITIONS[phase, change]
        return
    with pytest.raises(IllegalPhaseChange) as raised:
        phases.change(change)
    assert (raised.value.phase, raised.value.change) == (phase, change)
    assert phases.phase == phase


def test_the_illegal_changes_are_exactly_these() -> None:
    # Dealing while a match runs, winning one that is not played, and opening the room
    # during a match or before any: none of these is a way out of its phase.
    illegal = {(phase, change) for phase in TablePhase for change in PhaseChange
               if (phase, change) not in TRANSITIONS}
    assert illegal == {(PLAYING, PhaseChange.DEAL), (WAITING, PhaseChange.WON),
                       (FINISHED, PhaseChange.WON), (PLAYING, PhaseChange.OPEN_ROOM),
                       (WAITING, PhaseChange.OPEN_ROOM)}


@pytest.mark.parametrize(("action", "phase", "code"), [
    (Action.MOVE, WAITING, TableError.NO_MATCH),
    (Action.MOVE, FINISHED, TableError.NO_MATCH),
    (Action.START, PLAYING, TableError.MATCH_RUNNING),
    (Action.ADD_BOT, PLAYING, TableError.MATCH_RUNNING),
    (Action.REMOVE_BOT, PLAYING, TableError.MATCH_RUNNING),
    (Action.OPEN_ROOM, PLAYING, TableError.MATCH_RUNNING),
    (Action.RATED, PLAYING, TableError.MATCH_RUNNING),
])
def test_an_action_the_phase_forbids_is_refused_with_its_table_error(
        action: Action, phase: TablePhase, code: TableError) -> None:
    phases = TablePhases(phase)
    assert not phases.may(action)
    with pytest.raises(ApplicationError) as raised:
        phases.require(action)
    assert raised.value.code == code.value and type(raised.value.code) is str
    assert phases.phase == phase


def test_actions_the_phase_allows_pass() -> None:
    for phase in (WAITING, FINISHED):
        for action in (Action.START, Action.ADD_BOT, Action.REMOVE_BOT, Action.OPEN_ROOM,
                       Action.RATED):
            TablePhases(phase).require(action)
    TablePhases(PLAYING).require(Action.MOVE)


# --- the timer book -----------------------------------------------------------------------


def book() -> tuple[TimerBook, list[Output]]:
    out: list[Output] = []
    return TimerBook(out.append), out


def test_timers_are_armed_replaced_and_cancelled_by_key() -> None:
    timers, out = book()
    timers.now = 10.0
    key = TurnTimeout(1, 1)
    timers.arm(key, 5.0)
    timers.arm(key, 7.0)
    assert timers.deadline(key) == 17.0 and key in timers
    timers.now = 12.0
    assert timers.left(key) == 5.0
    timers.cancel(key)
    timers.cancel(key)  # no longer armed: nothing to cancel
    assert out == [ArmTimer(key, 15.0), ArmTimer(key, 17.0), CancelTimer(key)]
    assert not timers.fired(key)


def test_a_closed_book_arms_nothing() -> None:
    timers, out = book()
    timers.closed = True
    timers.arm(BotTurn(1, 0), 1.0)
    assert out == [] and not timers


def test_cancel_of_type_leaves_other_timers_alone() -> None:
    timers, out = book()
    timers.arm(BotTurn(1, 0), 1.0)
    timers.arm(BotTurn(1, 1), 1.0)
    timers.arm(TurnTimeout(3, 1), 30.0)
    out.clear()
    timers.cancel_of_type(BotTurn)
    assert out == [CancelTimer(BotTurn(1, 0)), CancelTimer(BotTurn(1, 1))]
    assert list(timers) == [TurnTimeout(3, 1)]


# --- the turn clock -----------------------------------------------------------------------


def test_the_clock_times_a_seat_stands_still_while_it_is_away_and_runs_on_after() -> None:
    timers, _ = book()
    clock = TableClock(timers)
    assert clock.follow(0, 11, seconds=30.0, away=False, new_turn=False)
    first = clock.timed
    assert first is not None and first.key is not None
    assert timers.deadline(first.key) == 30.0
    # The same turn again: nothing is re-armed.
    assert not clock.follow(0, 11, seconds=30.0, away=False, new_turn=False)
    timers.now = 25.0
    assert not clock.follow(0, 11, seconds=30.0, away=True, new_turn=False)  # dropped
    assert first.key is None and first.left == 5.0
    timers.now = 100.0  # back: never less than the floor
    assert clock.follow(0, 11, seconds=30.0, away=False, new_turn=False)
    assert first.key is not None
    assert timers.deadline(first.key) == 100.0 + RESUME_FLOOR_SECONDS
    shown = clock.for_views(30.0)
    assert shown is not None and (shown.seat, shown.left) == (0, RESUME_FLOOR_SECONDS)


def test_a_new_turn_restarts_the_clock_and_an_old_key_finds_nothing() -> None:
    timers, _ = book()
    clock = TableClock(timers)
    clock.follow(0, 11, seconds=30.0, away=False, new_turn=False)
    assert clock.timed is not None
    old = clock.timed.key
    assert old is not None
    timers.now = 20.0
    assert clock.follow(0, 11, seconds=30.0, away=False, new_turn=True)
    assert clock.timed.key != old and old not in timers
    assert clock.ran_out(old) is None  # stale: the clock moved on
    new = clock.timed.key
    assert new is not None
    timed = clock.ran_out(new)
    assert timed is not None and timed.seat_id == 11 and clock.timed is None


def test_nobody_to_clock_stops_the_clock() -> None:
    timers, out = book()
    clock = TableClock(timers)
    clock.follow(2, 5, seconds=10.0, away=False, new_turn=False)
    clock.follow(None, 0, seconds=10.0, away=False, new_turn=False)  # a bot's turn
    assert clock.timed is None and not timers and isinstance(out[-1], CancelTimer)
    assert clock.for_views(10.0) is None


# --- bot pacing ---------------------------------------------------------------------------


def a_view(seat: int = 1) -> PlayerView:
    """Seat `seat`'s view of a freshly dealt 2-seat match."""
    state, _ = start_match(preset("2022"), 2, random.Random(3))
    return view(state, seat)


def test_a_move_is_asked_for_once_and_plays_when_both_it_and_its_pace_are_in() -> None:
    timers, out = book()
    pacing = BotPacing(timers, seed=9)
    key = BotTurn(4, 1)
    wanted = {key: WantedMove("greedy", 0, 0.5)}
    seat_view = a_view()
    assert pacing.want(wanted, lambda seat: seat_view, 2.0, out) is None
    assert pacing.want(wanted, lambda seat: seat_view, 2.0, out) is None  # asked already
    requests = [output for output in out if isinstance(output, BotMoveWanted)]
    assert len(requests) == 1
    request = requests[0]
    assert (request.key, request.kind, request.view, request.budget) == (key, "greedy",
                                                                          seat_view, 2.0)
    assert timers.deadline(key) == 0.5
    move = request.choose()
    assert pacing.waits_for(key) == seat_view
    assert not pacing.decided(key, move)  # its pause is not over
    assert pacing.waits_for(key) is None  # came in: not waited for any more
    assert pacing.due(key)
    assert pacing.take(key) == move
    assert not pacing.due(key)  # played once: nothing more to play


def test_a_move_nobody_waits_for_any_more_is_forgotten() -> None:
    timers, out = book()
    pacing = BotPacing(timers, seed=9)
    seat_view = a_view()
    pacing.want({BotTurn(1, 1): WantedMove("greedy", 0, 0.5)}, lambda seat: seat_view, 1.0,
                out)
    pacing.want({BotTurn(2, 1): WantedMove("greedy", 0, 0.5)}, lambda seat: seat_view, 1.0,
                out)
    assert pacing.waits_for(BotTurn(1, 1)) is None
    assert pacing.waits_for(BotTurn(2, 1)) == seat_view


def test_the_stand_in_plays_as_soon_as_it_has_chosen_and_counts_its_moves() -> None:
    timers, out = book()
    pacing = BotPacing(timers, seed=9)
    pacing.standing_in = StandIn(seat_id=7, index=1, round_no=1)
    assert pacing.stands_in_for(7) and not pacing.stands_in_for(8)
    key = BotTurn(3, 1)
    wanted = {key: WantedMove("greedy", 0, None)}
    seat_view = a_view()
    assert pacing.want(wanted, lambda seat: seat_view, 1.0, out) is None
    assert key not in timers  # no pause
    assert pacing.decided(key, Draw(1))  # due at once
    pacing.take(key)
    assert pacing.standing_in is not None and pacing.standing_in.moves == 1


def test_the_same_seed_gives_the_same_requests() -> None:
    seeds = []
    for _ in range(2):
        timers, out = book()
        pacing = BotPacing(timers, seed=123)
        pacing.want({BotTurn(1, 1): WantedMove("greedy", 0, 0.5)}, a_view, 1.0, out)
        seeds.append([o.seed for o in out if isinstance(o, BotMoveWanted)])
    assert seeds[0] == seeds[1] and len(seeds[0]) == 1


def test_bot_memory_gives_each_bot_what_it_saw_since_the_deal_or_since_it_sat_down() -> None:
    memory = BotMemory()
    first = RoundDealt(round_no=1, dealer=0, starter=1, hand_sizes=(4, 4), draw_pile_size=9)
    five = Played(0, Card.FIVE, 5)
    memory.observe([first, five])
    sat_down = memory.now
    seven = Played(1, Card.SEVEN, 12)
    memory.observe([seven])
    assert memory.seen_since(0) == (first, five, seven)
    assert memory.seen_since(sat_down) == (seven,)
    second = RoundDealt(round_no=2, dealer=1, starter=0, hand_sizes=(4, 4), draw_pile_size=9)
    memory.observe([second])
    # A new deal: every bot forgets the old one, whenever it sat down.
    assert memory.seen_since(0) == (second,) == memory.seen_since(sat_down)
