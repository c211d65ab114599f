"""Every refusal of the table core changes nothing and asks for nothing.

A refused input raises the netproto error the server pump answers with (an `error` reply,
or `bye` for a fatal one); the core must be exactly as before, and the next input's
outputs must hold nothing left over from the refused one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest
from core_clock_helpers import ClockedTable, config

from netproto.wire.errors import ProtocolError
from netproto.wire.messages import (
    PROTOCOL_VERSION,
    AddBot,
    Move,
    Ready,
    RemoveBot,
    Resume,
    SetOptions,
    Start,
)
from ono99tui.game import Card, Play, acting_seats, legal_moves
from ono99tui.game.codec import move_to_wire
from ono99tui.host.core import FINISHED, PLAYING, TableCore


def fingerprint(core: TableCore) -> tuple[Any, ...]:
    """Everything about the core a refusal could change."""
    seats = [(seat.id, seat.name, seat.human, seat.bot, seat.peer, seat.ready, seat.taken_over,
              seat.resigned, seat.seq, list(seat.pending_events)) for seat in core.seats]
    return (core.phase, core.state, core.rules, core.hints, core.host, seats,
            dict(core.spectators),
            dict(core.timers), core.summary(), core.seat_of(1), core.seat_of(2))


def assert_refused(table: ClockedTable, action: Callable[[], object], code: str) -> None:
    """`action` is refused with `code`, and the core is as it was."""
    before = fingerprint(table.core)
    with pytest.raises(ProtocolError) as refused:
        action()
    assert refused.value.code == code
    assert fingerprint(table.core) == before
    # Nothing the refused input began to ask for leaks into the next input's outputs.
    assert table.core.peer_gone(12345, "eof", table.now) == []


def waiting_room() -> tuple[ClockedTable, int, int, int]:
    """Ann (host) and Bob seated, a bot, a watcher; the table is full, nothing dealt."""
    table = ClockedTable(config(capacity=3, password="pw", bot_delay=0.5, grace_seconds=10.0))
    ann = table.connect("Ann", password="pw")
    bob = table.connect("Bob", password="pw")
    table.run(table.core.add_bot("greedy", table.now))
    watcher = table.connect("Watcher", password="pw", spectate=True)
    return table, ann, bob, watcher


WAITING_ROOM_REFUSALS: dict[str, tuple[Callable[[ClockedTable, int, int, int], object], str]] = {
    "wrong password": (lambda t, a, b, w: t.connect("Eve", password="nope"), "bad-password"),
    "unknown token": (lambda t, a, b, w: t.resume("not-a-token"), "bad-token"),
    "start by a guest": (lambda t, a, b, w: t.send(b, Start()), "not-host"),
    "bot by a guest": (lambda t, a, b, w: t.send(b, AddBot(bot="greedy")), "not-host"),
    "options by a guest": (lambda t, a, b, w: t.send(b, SetOptions(options={})), "not-host"),
    "removal by a guest": (lambda t, a, b, w: t.send(b, RemoveBot(seat=2)), "not-host"),
    "bot at a full table": (lambda t, a, b, w: t.send(a, AddBot(bot="greedy")), "table-full"),
    "no such seat": (lambda t, a, b, w: t.send(a, RemoveBot(seat=5)), "no-such-seat"),
    "removing a human": (lambda t, a, b, w: t.send(a, RemoveBot(seat=1)), "not-a-bot"),
    "bad options": (lambda t, a, b, w: t.send(a, SetOptions(options={"preset": "nope"})),
                    "bad-options"),
    "bad hints setting": (lambda t, a, b, w: t.send(a, SetOptions(options={"hints": "yes"})),
                          "bad-options"),
    "hints by a guest": (lambda t, a, b, w: t.send(b, SetOptions(options={"hints": True})),
                         "not-host"),
    "move before a deal": (lambda t, a, b, w: t.send(a, Move(seq=0, move={})), "no-match"),
    "ready from a watcher": (lambda t, a, b, w: t.send(w, Ready(ready=True)), "no-such-seat"),
    "operator removes a human": (lambda t, a, b, w: t.core.remove_bot(0, t.now), "not-a-bot"),
}


@pytest.mark.parametrize("case", WAITING_ROOM_REFUSALS)
def test_a_refusal_in_the_waiting_room_changes_nothing(case: str) -> None:
    table, ann, bob, watcher = waiting_room()
    action, code = WAITING_ROOM_REFUSALS[case]
    assert_refused(table, lambda: action(table, ann, bob, watcher), code)


def test_an_unknown_bot_is_refused_and_changes_nothing() -> None:
    table = ClockedTable(config(capacity=3))
    table.connect("Ann")
    assert_refused(table, lambda: table.core.add_bot("nobody", table.now), "unknown-bot")


def playing() -> tuple[ClockedTable, dict[int, int]]:
    """Ann, Bob and Cy dealt a match (no bots); seat index -> peer id."""
    table = ClockedTable(config(capacity=3, start_when=3))
    peers = [table.connect(name) for name in ("Ann", "Bob", "Cy")]
    assert table.core.phase == PLAYING
    return table, dict(enumerate(peers))


def acting_and_idle(table: ClockedTable) -> tuple[int, int]:
    state = table.core.state
    assert state is not None
    acting = acting_seats(state)[0]
    idle = next(index for index in range(3) if index not in acting_seats(state))
    return acting, idle


def move_message(table: ClockedTable, seat: int, move: dict[str, Any],
                 seq_offset: int = 0) -> Move:
    return Move(seq=table.core.seats[seat].seq + seq_offset, move=move)


def test_moves_that_are_refused_change_nothing() -> None:
    table, peers = playing()
    acting, idle = acting_and_idle(table)
    state = table.core.state
    assert state is not None
    good = move_to_wire(legal_moves(state, acting)[0])
    missing = next(card for card in Card if card not in state.hands[acting])
    cases = [
        (peers[acting], move_message(table, acting, good, -1), "stale-seq"),
        (peers[acting], move_message(table, acting, {"kind": "nonsense"}), "malformed-move"),
        (peers[acting], move_message(table, acting, {**good, "seat": idle}), "wrong-seat"),
        (peers[idle], move_message(table, idle, {**good, "seat": idle}), "not-your-turn"),
        (peers[acting], move_message(table, acting, move_to_wire(Play(acting, missing))),
         "illegal-move"),
        (peers[acting], Start(), "match-running"),
        (peers[0], AddBot(bot="greedy"), "match-running"),
        (peers[0], SetOptions(options={"preset": "1980"}), "match-running"),
    ]
    for peer, message, code in cases:
        assert_refused(table, functools.partial(table.send, peer, message), code)
    # And the good move still goes through afterwards.
    table.send(peers[acting], move_message(table, acting, good))
    assert table.moves_played() == 1


def test_a_refused_start_keeps_the_seat_of_a_resigned_player_who_is_away() -> None:
    # A rematch frees the seats of resigned players who are away; a start that is refused
    # (too few players left) must not free them either: a refusal changes nothing.
    table = ClockedTable(config(capacity=2, start_when=2, grace_seconds=5.0,
                                abandon_policy="eliminate"))
    ann, bob = table.connect("Ann"), table.connect("Bob")
    table.drop(bob)
    table.advance(5.0)
    assert table.core.phase == FINISHED and table.core.seats[1].resigned
    assert_refused(table, lambda: table.send(ann, Start()), "not-enough-players")
    assert [seat.name for seat in table.core.seats] == ["Ann", "Bob"]


def test_a_resume_from_another_connection_closes_the_old_one_first() -> None:
    table = ClockedTable(config(capacity=2))
    ann = table.connect("Ann")
    token = table.welcome(ann).token
    assert token is not None
    outputs = table.send(7, Resume(proto=PROTOCOL_VERSION, token=token))
    closes = [index for index, output in enumerate(outputs) if output in table.closed]
    assert [table.closed[0].peer, table.closed[0].code] == [ann, "replaced"]
    assert closes == [0]  # before the new connection's welcome
    assert table.core.seat_of(ann) is None and table.core.seat_of(7) is table.core.seats[0]
    # The old connection's close, reported later, changes nothing.
    assert table.drop(ann) == []
