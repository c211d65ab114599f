"""Every timer of the table core on a fake clock: bot pace, the late-draw wait, grace
periods (stand-in bot, resignation), resume, stale timers and close.

No sockets, no event loop, no sleeping: `ClockedTable.advance` says how much time passes.
"""

from __future__ import annotations

import pytest
from core_clock_helpers import ClockedTable, config

from netproto.wire.messages import PROTOCOL_VERSION, Resume
from ono99tui.game import Draw, Play, legal_moves, preset
from ono99tui.host.core import FINISHED, PLAYING
from ono99tui.host.journal.records import resign_record
from ono99tui.host.outputs import BotTurn, CancelTimer, GraceExpiry


def bot_turns(table: ClockedTable) -> dict[BotTurn, float]:
    """The bot moves armed now, with their deadlines."""
    return {key: deadline for key, (deadline, _) in table.timers.items()
            if isinstance(key, BotTurn)}


# --- bot pace ------------------------------------------------------------------------------


def test_a_bot_moves_bot_delay_after_the_last_view_and_not_before() -> None:
    table = ClockedTable(config(capacity=2, start_when=2, bot_delay=0.6))
    table.run(table.core.add_bot("greedy", table.now))
    table.run(table.core.add_bot("random", table.now))
    assert table.core.phase == PLAYING
    assert list(bot_turns(table).values()) == [pytest.approx(0.6)]

    table.advance(0.59)
    assert table.moves_played() == 0
    table.advance(0.01)
    assert table.moves_played() == 1
    # The next bot's move is armed from the moment of this one, not from the deal.
    assert list(bot_turns(table).values()) == [pytest.approx(1.2)]
    table.advance(0.6)
    assert table.moves_played() == 2


def test_bots_alone_play_a_whole_match_on_the_fake_clock() -> None:
    table = ClockedTable(config(capacity=3, start_when=3, bot_delay=0.5))
    for kind in ("greedy", "random", "greedy"):
        table.run(table.core.add_bot(kind, table.now))
    table.play_until(lambda: table.core.phase == FINISHED)
    moves = table.moves_played()
    assert table.journal[-1].winners
    # Exactly one bot move per half second: the clock read 0.5 s per move recorded.
    assert table.now == pytest.approx(0.5 * moves)
    assert table.timers == {}


# --- the late-draw wait (RULES.md §3) -------------------------------------------------------


def late_draw_table() -> tuple[ClockedTable, int]:
    """Ann and a bot under the late-draw rule; Ann has just played and still owes her draw."""
    rules = preset("2022").replace(late_draw_penalty=True)
    table = ClockedTable(config(rules=rules, capacity=2, start_when=2, bot_delay=0.5,
                                late_draw_bot_wait=2.0))
    ann = table.connect("Ann")
    table.run(table.core.add_bot("greedy", table.now))

    def ann_may_play_a_card() -> bool:
        state = table.core.state
        assert state is not None and table.core.phase == PLAYING
        plays = [m for m in legal_moves(state, 0) if isinstance(m, Play)]
        return bool(plays) and state.pending_draw < 0 and state.owed == 1

    table.play_until(ann_may_play_a_card)
    state = table.core.state
    assert state is not None
    table.play(ann, next(m for m in legal_moves(state, 0) if isinstance(m, Play)))
    state = table.core.state
    assert state is not None and state.pending_draw == 0 and state.turn == 1
    return table, ann


def test_the_next_bot_waits_for_a_human_who_still_has_to_draw() -> None:
    table, _ = late_draw_table()
    played_at = table.now
    assert list(bot_turns(table).values()) == [pytest.approx(played_at + 2.0)]
    before = table.moves_played()
    table.advance(1.99)
    assert table.moves_played() == before  # bot_delay (0.5 s) alone would have played
    table.advance(0.01)
    assert table.moves_played() == before + 1


def test_once_the_human_drew_the_bot_keeps_its_own_pace() -> None:
    table, ann = late_draw_table()
    table.advance(1.0)
    state = table.core.state
    assert state is not None
    draw = next(m for m in legal_moves(state, 0) if isinstance(m, Draw))
    table.play(ann, draw)
    assert list(bot_turns(table).values()) == [pytest.approx(table.now + 0.5)]


# --- grace periods --------------------------------------------------------------------------


def two_humans_playing(**options: object) -> tuple[ClockedTable, int, int]:
    """Ann and Bob at a two-seat table, the match dealt; their peer ids."""
    table = ClockedTable(config(capacity=2, start_when=2, bot_delay=0.5, grace_seconds=10.0,
                                **options))
    ann, bob = table.connect("Ann"), table.connect("Bob")
    assert table.core.phase == PLAYING
    return table, ann, bob


def acting_peer(table: ClockedTable) -> tuple[int, int]:
    """(seat index, peer id) of the human whose move it is."""
    index = table.human_to_act()
    assert index is not None
    peer = table.core.seats[index].peer
    assert peer is not None
    return index, peer


def test_after_the_grace_period_a_stand_in_bot_plays_the_dropped_seat() -> None:
    table, ann, bob = two_humans_playing()
    index, peer = acting_peer(table)
    other = ann if peer == bob else bob
    seat = table.core.seats[index]
    table.drop(peer)
    assert table.deadline(GraceExpiry(seat.id)) == pytest.approx(10.0)
    assert table.lobby(other).seats[index].connected is False

    table.advance(9.99)
    assert not seat.bot_plays and table.moves_played() == 0
    table.advance(0.01)
    assert seat.taken_over and seat.bot_plays
    assert table.lobby(other).seats[index].kind == "bot"
    ((turn, deadline),) = bot_turns(table).items()
    assert turn.seat == index and deadline == pytest.approx(10.5)
    table.advance(0.49)
    assert table.moves_played() == 0
    table.advance(0.01)
    assert table.moves_played() == 1 and table.journal[-1].moves[0]["seat"] == index


def test_after_the_grace_period_the_seat_resigns_under_the_eliminate_policy() -> None:
    table = ClockedTable(config(capacity=3, start_when=3, bot_delay=0.5, grace_seconds=10.0,
                                abandon_policy="eliminate"))
    table.run(table.core.add_bot("greedy", table.now))
    ann, bob = table.connect("Ann"), table.connect("Bob")
    bob_seat = table.core.seats[2]
    table.drop(bob)
    table.advance(9.99)
    assert not bob_seat.resigned
    assert resign_record(2) not in table.journal[-1].moves
    table.play_until(lambda: bob_seat.resigned or table.core.phase != PLAYING)
    assert bob_seat.resigned and table.now == pytest.approx(10.0)
    assert resign_record(2) in table.journal[-1].moves
    assert table.lobby(ann).seats[2].kind == "resigned"
    # The other two play the match to its end without the resigned seat.
    table.play_until(lambda: table.core.phase == FINISHED)
    assert 2 not in table.journal[-1].winners


# A seat dropped before a deal (in the waiting room, between matches) is freed at once, with
# no grace period: tests/host/test_core_seats.py.


def test_leaving_on_purpose_skips_the_grace_period() -> None:
    table, _ann, bob = two_humans_playing()
    table.drop(bob, code="normal")
    seat = table.core.seats[1]
    assert seat.taken_over and seat.bot_plays
    assert GraceExpiry(seat.id) not in table.timers


def test_resuming_in_time_cancels_the_grace_timer() -> None:
    table, _ann, bob = two_humans_playing()
    seat = table.core.seats[1]
    token = table.welcome(bob).token
    assert token is not None
    table.drop(bob)
    table.advance(5.0)
    back = table.resume(token)
    assert GraceExpiry(seat.id) not in table.timers
    assert table.welcome(back).seat == 1 and seat.peer == back
    table.advance(10.0)  # well past the first deadline
    assert not seat.taken_over and not seat.bot_plays
    # Even if the adapter fired the cancelled timer anyway, nothing happens.
    assert table.core.timer_fired(GraceExpiry(seat.id), table.now) == []
    assert not seat.taken_over


def test_resume_emits_the_grace_timers_cancellation() -> None:
    table, _ann, bob = two_humans_playing()
    seat = table.core.seats[1]
    token = table.welcome(bob).token
    assert token is not None
    table.drop(bob)
    outputs = table.send(99, Resume(proto=PROTOCOL_VERSION, token=token))
    assert CancelTimer(GraceExpiry(seat.id)) in outputs


# --- stale timers and close -----------------------------------------------------------------


def test_a_bot_timer_made_stale_by_a_newer_move_does_nothing() -> None:
    table, ann = late_draw_table()
    (stale,) = bot_turns(table)
    state = table.core.state
    assert state is not None
    outputs = table.play(ann, next(m for m in legal_moves(state, 0) if isinstance(m, Draw)))
    assert CancelTimer(stale) in outputs
    (fresh,) = bot_turns(table)
    assert fresh != stale and fresh.version > stale.version
    moves, state = table.moves_played(), table.core.state
    # The adapter's call_at may already have queued the old callback: it must do nothing.
    assert table.core.timer_fired(stale, table.now + 2.0) == []
    assert table.moves_played() == moves and table.core.state is state
    assert bot_turns(table) == {fresh: pytest.approx(table.now + 0.5)}


def test_close_cancels_every_timer_and_nothing_fires_after() -> None:
    table = ClockedTable(config(capacity=3, start_when=3, bot_delay=0.5, grace_seconds=10.0))
    table.run(table.core.add_bot("greedy", table.now))
    ann, bob = table.connect("Ann"), table.connect("Bob")
    table.connect("Watcher", spectate=True)
    table.play_until(lambda: bool(bot_turns(table)))
    table.drop(bob)
    armed = set(table.timers)
    assert GraceExpiry(table.core.seats[2].id) in armed and bot_turns(table)

    outputs = table.run(table.core.close(table.now))
    assert set(outputs) == {CancelTimer(key) for key in armed}
    assert table.timers == {} and dict(table.core.timers) == {}
    moves, state = table.moves_played(), table.core.state
    for key in armed:  # callbacks already queued when the loop stopped
        assert table.core.timer_fired(key, table.now + 100.0) == []
    assert table.drop(ann) == []  # the table is going: no grace, no lobby to the watcher
    table.advance(100.0)
    assert table.moves_played() == moves and table.core.state is state
    assert not table.core.seats[2].taken_over


def test_every_bot_at_the_table_observes_the_events_of_each_view() -> None:
    # Each bot move asked for carries the public events its bot has seen (since the deal):
    # a hard bot made from them keeps a record of the discard pile that matches the real
    # one at every moment of the match.
    table = ClockedTable(config(capacity=3, start_when=3, bot_delay=0.5), auto_decide=False)
    for kind in ("hard", "greedy", "hard"):
        table.run(table.core.add_bot(kind, table.now))
    assert [seat.bot for seat in table.core.seats] == ["hard", "greedy", "hard"]
    checked = 0
    while table.core.phase != FINISHED:
        state = table.core.state
        assert state is not None
        requests = list(table.wanted)
        latest = max((request.key.version for request in requests), default=None)
        for request in requests:  # those asked at this state (older ones are dropped)
            if request.kind == "hard" and request.key.version == latest:
                observed = request.bot().observed  # type: ignore[attr-defined]
                assert observed.round_no == state.round_no
                assert observed.discard == list(state.discard_pile)
                checked += 1
        for request in requests:
            table.decide(request)
        table.advance(0.5)
    assert checked > 5
