"""Back to the waiting room between matches (`open_room`): the table core on a fake clock.

After a match the host takes the table back to the waiting room. There the rules, the seats
and the table options may change before anyone deals; every seat and spectator is told
(`lobby{phase: "waiting"}`) and sent no view of the match that is over; ready marks are
said again, to what the room shows; the turn clock does not run; the table deals only when
the host says, or, with nobody holding host rights, as a rematch does (every live human
ready), never merely because enough seats are taken; the standings go on.
"""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from core_clock_helpers import ClockedTable, config

from netproto.wire.errors import ApplicationError, BadToken
from netproto.wire.messages import Lobby, OpenRoom, Ready, SetOptions, Start, View
from ono99tui.game import preset
from ono99tui.game.codec import rules_to_wire
from ono99tui.host.core import FINISHED, PLAYING, WAITING
from ono99tui.host.outputs import DealSettle, GraceExpiry, TurnTimeout

HOST_KEY = "operator-key"


def finished_table(**options: object) -> tuple[ClockedTable, int, int]:
    """Ann (the host) and Bob, and a bot, at the end of their first match (2022 rules)."""
    options.setdefault("capacity", 4)
    options.setdefault("bot_delay", 0.5)
    table = ClockedTable(config(**options))
    ann, bob = table.connect("Ann"), table.connect("Bob")
    table.run(table.core.add_bot("greedy", table.now))
    table.send(ann, Start())
    table.play_until(lambda: table.core.phase == FINISHED)
    return table, ann, bob


def seat_view(view: View) -> dict[str, Any]:
    """A view frame's view map, as a client decodes it."""
    packed = view.view
    data = packed.data if hasattr(packed, "data") else msgpack.packb(packed)
    return msgpack.unpackb(data, strict_map_key=True)  # type: ignore[no-any-return]


def frames_since(table: ClockedTable, peer: int, count: int) -> list[object]:
    return table.frames.get(peer, [])[count:]


def test_the_host_opens_the_room_and_everyone_goes_back_to_it() -> None:
    table, ann, bob = finished_table()
    watcher = table.connect("Wendy", spectate=True)
    table.send(bob, Ready(ready=True))  # ready for a rematch of the same rules
    sent = {peer: len(table.frames[peer]) for peer in (ann, bob, watcher)}
    table.send(ann, OpenRoom())
    assert table.core.phase == WAITING
    for peer in (ann, bob, watcher):
        new = frames_since(table, peer, sent[peer])
        assert [type(frame) for frame in new] == [Lobby]  # no view of the match that is over
        lobby = new[0]
        assert isinstance(lobby, Lobby) and lobby.phase == "waiting"
    lobby = table.lobby(bob)
    # Bob's ready was for the old rules: he says it again to what the room shows.
    assert [(seat.name, seat.ready) for seat in lobby.seats] == [
        ("Ann", False), ("Bob", False), ("Greedy bot", True)]
    # The standings go on across the room; the last match's results are put away.
    assert sum(lobby.results["matches_won"]) == 1
    assert lobby.results["matches_played"] == [1, 1, 1]
    assert "winners" not in lobby.results
    assert table.core.state is None and list(table.core.match_events) == []


def test_only_the_host_opens_the_room_and_only_after_a_match() -> None:
    table = ClockedTable(config(capacity=3, bot_delay=0.5))
    ann, bob = table.connect("Ann"), table.connect("Bob")
    # Before the first match the room is open already: a press changes nothing.
    assert table.send(ann, OpenRoom()) == []
    table.send(ann, Start())
    with pytest.raises(ApplicationError) as refused:
        table.run(table.core.open_room(table.now))
    assert refused.value.code == "match-running" and table.core.phase == PLAYING
    table.play_until(lambda: table.core.phase == FINISHED)
    with pytest.raises(ApplicationError) as refused:
        table.send(bob, OpenRoom())
    assert refused.value.code == "not-host" and table.core.phase == FINISHED
    table.send(ann, OpenRoom())
    assert table.core.phase == WAITING
    assert table.send(ann, OpenRoom()) == []  # a second press: nothing more
    assert table.welcome(bob).table["room"] is True  # the table says it knows open_room


def test_a_preset_changed_in_the_room_is_the_next_match_s_and_the_journal_s() -> None:
    table, ann, bob = finished_table()
    won_before = table.lobby(ann).results["matches_won"]
    table.send(ann, OpenRoom())
    table.send(bob, Ready(ready=True))
    table.send(ann, SetOptions(options={"preset": "1980"}))
    assert table.lobby(bob).options["preset"] == "1980"
    assert table.lobby(bob).seats[1].ready is False  # ready again, to the new rules
    table.send(bob, Ready(ready=True))
    assert table.core.phase == WAITING  # the host deals, not the ready marks
    table.send(ann, Start())
    assert table.core.phase == PLAYING
    assert table.journal[-1].rules == rules_to_wire(preset("1980"))
    assert table.journal[0].rules == rules_to_wire(preset("2022"))
    assert seat_view(table.views(bob)[-1])["rules"]["name"] == "1980"  # what they are dealt
    assert table.lobby(bob).results["matches_won"] == won_before  # the standings go on
    # The rematch of the changed match deals its rules again.
    table.play_until(lambda: table.core.phase == FINISHED)
    assert sum(table.lobby(ann).results["matches_won"]) == 2
    table.send(ann, Start())
    assert table.journal[-1].rules == rules_to_wire(preset("1980")) and len(table.journal) == 3


def test_the_turn_clock_does_not_run_in_the_room() -> None:
    table, ann, bob = finished_table(turn_seconds=5.0)
    table.send(ann, OpenRoom())
    table.send(ann, SetOptions(options={"turn_seconds": 8}))
    table.advance(600.0)
    assert table.core.phase == WAITING
    assert not any(isinstance(key, TurnTimeout) for key in table.timers)
    assert table.lobby(bob).options["turn_seconds"] == 8
    table.send(ann, Start())  # and the new time is the next match's
    table.play_until(lambda: any(isinstance(key, TurnTimeout) for key in table.timers))
    clocked = next(view.clock for view in reversed(table.views(bob) + table.views(ann))
                   if view.clock is not None)
    assert clocked.seconds == 8


def test_seats_nobody_plays_are_freed_and_newcomers_and_watchers_see_the_room() -> None:
    table = ClockedTable(config(capacity=3, bot_delay=0.5, grace_seconds=30.0))
    ann, bob = table.connect("Ann"), table.connect("Bob")
    table.run(table.core.add_bot("greedy", table.now))
    bob_token = table.welcome(bob).token
    assert bob_token is not None
    table.send(ann, Start())
    table.drop(bob)  # gone mid-match: his seat is held, then a bot plays it on
    bob_seat = table.core.seats[1]
    table.play_until(lambda: table.core.phase == FINISHED)
    table.send(ann, OpenRoom())
    assert [seat.name for seat in table.core.seats] == ["Ann", "Greedy bot"]
    assert GraceExpiry(bob_seat.id) not in table.timers
    with pytest.raises(BadToken):
        table.resume(bob_token)
    # A newcomer sits down in the room; a watcher is shown it; neither gets a view.
    cy = table.connect("Cy")
    assert table.welcome(cy).role == "player" and table.lobby(cy).phase == "waiting"
    wendy = table.connect("Wendy", spectate=True)
    assert table.welcome(wendy).role == "spectator" and table.lobby(wendy).phase == "waiting"
    # At the full table a latecomer takes the bot's seat, as before any first match.
    dee = table.connect("Dee")
    assert table.welcome(dee).role == "player"
    assert [seat.name for seat in table.core.seats] == ["Ann", "Cy", "Dee"]
    cy_token = table.welcome(cy).token
    assert cy_token is not None
    again = table.resume(cy_token)  # Cy's app, started anew, takes the seat back
    for peer in (cy, wendy, dee, again):
        assert table.views(peer) == []


def test_a_headless_room_waits_for_the_operator_or_for_everyone_ready() -> None:
    # A headless table deals by itself once its seats are live; but the room its operator
    # opened after a match deals when the operator says, or, the operator gone, once every
    # person is ready (as a rematch): not at once because the seats are live.
    table = ClockedTable(config(capacity=3, start_when=3, host_key=HOST_KEY,
                                deal_settle_seconds=1.0, bot_delay=0.5))
    boss = table.connect("Boss", host_key=HOST_KEY)
    bob = table.connect("Bob")
    table.run(table.core.add_bot("greedy", table.now))
    table.advance(1.0)
    assert table.core.phase == PLAYING
    table.play_until(lambda: table.core.phase == FINISHED)
    table.send(boss, OpenRoom())
    table.advance(5.0)
    assert table.core.phase == WAITING and DealSettle() not in table.timers
    table.send(boss, SetOptions(options={"preset": "1980"}))
    table.send(bob, Ready(ready=True))
    table.advance(5.0)
    assert table.core.phase == WAITING  # the operator is here and has not dealt
    table.drop(boss, code="normal")  # the operator leaves: Bob is the only person, ready
    cy = table.connect("Cy")  # a newcomer fills the third seat, not ready yet
    table.advance(5.0)
    assert table.core.phase == WAITING
    table.send(cy, Ready(ready=True))
    assert table.core.phase == WAITING  # the settle second first
    table.advance(1.0)
    assert table.core.phase == PLAYING and table.journal[-1].rules["name"] == "1980"


def test_ready_marks_are_said_again_after_each_change_in_the_room() -> None:
    table, ann, bob = finished_table()
    table.send(ann, OpenRoom())
    table.send(bob, Ready(ready=True))
    table.send(ann, SetOptions(options={"spectator_chat": False}))  # not about the match
    assert table.lobby(bob).seats[1].ready is True
    table.send(ann, SetOptions(options={"preset": "1980"}))  # the same rules as shown: kept
    table.send(bob, Ready(ready=True))
    table.send(ann, SetOptions(options={"preset": "1980"}))
    assert table.lobby(bob).seats[1].ready is True
    for change in ({"rules": {"target": 150}}, {"turn_seconds": 30}, {"hints": True}):
        table.send(ann, SetOptions(options=change))
        assert table.lobby(bob).seats[1].ready is False, change
        table.send(bob, Ready(ready=True))


def test_a_seat_resigned_or_played_by_a_bot_for_a_player_who_is_back_is_theirs_again() -> None:
    table = ClockedTable(config(capacity=3, bot_delay=0.5, grace_seconds=30.0,
                                abandon_policy="eliminate"))
    ann, bob = table.connect("Ann"), table.connect("Bob")
    table.run(table.core.add_bot("greedy", table.now))
    token = table.welcome(bob).token
    assert token is not None
    table.send(ann, Start())
    table.drop(bob)
    table.advance(30.0)  # Bob's seat resigns; he comes back to watch the end from it
    bob = table.resume(token)
    table.play_until(lambda: table.core.phase == FINISHED)
    assert table.lobby(bob).seats[1].kind == "resigned"
    table.send(ann, OpenRoom())
    assert table.lobby(bob).seats[1].kind == "human"
    table.send(ann, Start())
    dealt = seat_view(table.views(bob)[-1])
    assert dealt["seat"] == 1 and not dealt["eliminated"][1]
