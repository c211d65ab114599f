"""Seats are for live players, host rights are the operator's, and `start_when` holds for
rematches too: the table core on a fake clock (no sockets).

- A seat whose connection ends before a deal (in the waiting room, or between matches) is
  freed at once; a deal goes only to live players and bots. In a match a drop is still
  held for the grace period (tests/host/test_core_timers.py).
- A table with a secret (the app's host key, a headless table's operator key or admin
  password) gives host rights only to a `hello` carrying it; every host action of anyone
  else is refused with `not-host`.
- A rematch is dealt once every live human is ready and at least `start_when` seats are
  live, whether they just played or joined the finished table.
"""

from __future__ import annotations

import pytest
from core_clock_helpers import ClockedTable, config

from netproto.wire.errors import ApplicationError, BadHostKey, BadToken
from netproto.wire.messages import (
    PROTOCOL_VERSION,
    AddBot,
    Hello,
    Lobby,
    Ready,
    RemoveBot,
    SetOptions,
    Start,
)
from ono99tui.host.core import FINISHED, PLAYING, WAITING
from ono99tui.host.outputs import DealSettle, GraceExpiry


def names(table: ClockedTable) -> list[str]:
    return [seat.name for seat in table.core.seats]


def ghost(table: ClockedTable, name: str) -> int:
    """A connection that says hello and is reset at once (no bye)."""
    peer = table.connect(name)
    assert table.welcome(peer).role == "player"
    table.drop(peer, code="eof")
    return peer


# --- seats are for live players -------------------------------------------------------------


def test_three_hellos_then_resets_deal_nothing_and_the_players_get_the_seats() -> None:
    table = ClockedTable(config(capacity=3, start_when=3, grace_seconds=60.0))
    for name in ("Ghost", "Ghost", "Ghost"):
        ghost(table, name)
    assert table.core.phase == WAITING and names(table) == []
    assert table.timers == {}  # nothing held for a grace period
    players = [table.connect(name) for name in ("Ann", "Bob", "Cy")]
    assert [table.welcome(peer).role for peer in players] == ["player"] * 3
    assert table.core.phase == PLAYING and names(table) == ["Ann", "Bob", "Cy"]


def test_a_seat_dropped_in_the_waiting_room_is_freed_at_once() -> None:
    table = ClockedTable(config(capacity=3, grace_seconds=10.0))
    ann, bob = table.connect("Ann"), table.connect("Bob")
    token = table.welcome(bob).token
    assert token is not None
    bob_seat = table.core.seats[1]
    table.drop(bob)
    assert names(table) == ["Ann"]
    assert [seat.name for seat in table.lobby(ann).seats] == ["Ann"]
    assert GraceExpiry(bob_seat.id) not in table.timers
    with pytest.raises(BadToken):  # the freed seat's token resumes nothing
        table.resume(token)


def test_a_drop_in_the_waiting_room_does_not_count_toward_start_when() -> None:
    # The race: Bob's connection is gone when the third player arrives. Dealing then would
    # give Bob's seat cards nobody plays; the table waits for a third live player instead.
    table = ClockedTable(config(capacity=4, start_when=3, grace_seconds=10.0))
    table.connect("Ann")
    bob = table.connect("Bob")
    table.drop(bob)
    table.connect("Cy")
    assert table.core.phase == WAITING and names(table) == ["Ann", "Cy"]
    table.connect("Dee")
    assert table.core.phase == PLAYING and names(table) == ["Ann", "Cy", "Dee"]


def test_a_seat_dropped_between_matches_is_freed_at_once() -> None:
    table = ClockedTable(config(capacity=2, start_when=2, bot_delay=0.5, grace_seconds=10.0))
    ann = table.connect("Ann")
    table.run(table.core.add_bot("greedy", table.now))
    table.play_until(lambda: table.core.phase == FINISHED)
    token = table.welcome(ann).token
    assert token is not None
    table.drop(ann)
    assert names(table) == ["Greedy bot"] and table.timers == {}
    with pytest.raises(BadToken):
        table.resume(token)


def test_a_rematch_is_dealt_only_to_live_seats() -> None:
    # Bob vanished mid-match; a bot played his seat on to the end. The rematch is Ann's and
    # the bot's: Bob's seat is freed, not dealt again to a stand-in for nobody.
    table = ClockedTable(config(capacity=3, start_when=3, bot_delay=0.5, grace_seconds=10.0))
    table.run(table.core.add_bot("greedy", table.now))
    ann, bob = table.connect("Ann"), table.connect("Bob")
    bob_token = table.welcome(bob).token
    assert bob_token is not None
    table.drop(bob)
    table.advance(10.0)
    assert table.core.seats[2].taken_over
    table.play_until(lambda: table.core.phase == FINISHED)
    # Still listed (the results name the seat), but not live: it does not count.
    assert names(table) == ["Greedy bot", "Ann", "Bob"]
    table.send(ann, Ready(ready=True))
    assert table.core.phase == FINISHED  # two live seats, and the table deals at three
    # A newcomer at the full table gets the seat nobody plays.
    cy = table.connect("Cy")
    assert table.welcome(cy).role == "player"
    assert names(table) == ["Greedy bot", "Ann", "Cy"]
    table.send(cy, Ready(ready=True))
    assert table.core.phase == PLAYING
    with pytest.raises(BadToken):
        table.resume(bob_token)


# --- bots only fill seats people leave empty ------------------------------------------------


def bots(table: ClockedTable, *kinds: str) -> None:
    for kind in kinds:
        table.run(table.core.add_bot(kind, table.now))


def test_a_person_at_a_full_waiting_room_takes_the_last_bots_seat() -> None:
    table = ClockedTable(config(capacity=3))
    ann = table.connect("Ann")
    bots(table, "greedy", "random")
    assert names(table) == ["Ann", "Greedy bot", "Random bot"]
    bob = table.connect("Bob")
    assert table.welcome(bob).role == "player" and table.welcome(bob).seat == 2
    assert names(table) == ["Ann", "Greedy bot", "Bob"]
    assert [seat.name for seat in table.lobby(ann).seats] == ["Ann", "Greedy bot", "Bob"]
    assert table.core.phase == WAITING


def test_a_latecomer_at_a_finished_table_of_bots_takes_a_bots_seat_for_the_rematch() -> None:
    table = ClockedTable(config(capacity=3, start_when=3, bot_delay=0.5))
    bots(table, "greedy", "greedy")
    ann = table.connect("Ann")
    assert table.core.phase == PLAYING
    cy = table.connect("Cy")  # mid-match: bots keep their seats, Cy watches
    assert table.welcome(cy).role == "spectator"
    assert names(table) == ["Greedy bot", "Greedy bot 2", "Ann"]
    table.play_until(lambda: table.core.phase == FINISHED)

    lobbies_before = len(table.of_kind(ann, Lobby))
    cy = table.connect("Cy")  # asks again once the match is over
    assert table.welcome(cy).role == "player"
    assert names(table) == ["Greedy bot", "Ann", "Cy"]
    # One lobby says it all (the bot gone and Cy in its place), so the others can tell
    # whose seat Cy took.
    lobbies = table.of_kind(ann, Lobby)[lobbies_before:]
    assert [[seat.name for seat in lobby.seats] for lobby in lobbies] == [
        ["Greedy bot", "Ann", "Cy"]]
    for peer in (ann, cy):
        table.send(peer, Ready(ready=True))
    assert table.core.phase == PLAYING and names(table) == ["Greedy bot", "Ann", "Cy"]


def test_a_seat_whose_player_has_gone_is_freed_before_a_bot_gives_up_its_own() -> None:
    table = ClockedTable(config(capacity=3, start_when=3, bot_delay=0.5, grace_seconds=10.0))
    bots(table, "greedy")
    ann, bob = table.connect("Ann"), table.connect("Bob")
    table.drop(bob)
    table.advance(10.0)
    table.play_until(lambda: table.core.phase == FINISHED)
    cy = table.connect("Cy")
    assert table.welcome(cy).role == "player"
    assert names(table) == ["Greedy bot", "Ann", "Cy"]
    assert table.welcome(ann).role == "player"


def test_a_table_full_of_people_or_dealing_seats_a_newcomer_as_a_spectator() -> None:
    table = ClockedTable(config(capacity=2))
    table.connect("Ann"), table.connect("Bob")
    dee = table.connect("Dee")
    assert table.welcome(dee).role == "spectator" and names(table) == ["Ann", "Bob"]
    # A spectator who asked to watch never takes a bot's seat.
    watched = ClockedTable(config(capacity=2))
    watched.connect("Ann")
    bots(watched, "greedy")
    eve = watched.connect("Eve", spectate=True)
    assert watched.welcome(eve).role == "spectator"
    assert names(watched) == ["Ann", "Greedy bot"]


# --- the settle time: hello, then a reset, all at once -------------------------------------


def test_hellos_reset_together_within_the_settle_time_deal_nothing() -> None:
    # Three connections that all say hello before any is reset: without a settle time the
    # third hello deals them a match (each then held for its grace period).
    table = ClockedTable(config(capacity=3, start_when=3, deal_settle_seconds=1.0))
    ghosts = [table.connect(f"Ghost {number}") for number in range(3)]
    assert table.core.phase == WAITING
    table.advance(0.01)
    for peer in ghosts:
        table.drop(peer)
    assert table.timers == {}
    table.advance(5.0)
    assert table.core.phase == WAITING and names(table) == []


def test_a_table_deals_once_its_seats_have_been_live_for_the_settle_time() -> None:
    table = ClockedTable(config(capacity=4, start_when=3, deal_settle_seconds=1.0))
    table.connect("Ann")
    bob = table.connect("Bob")
    table.connect("Cy")
    table.advance(0.5)
    table.drop(bob)  # the count starts again from the next third seat
    table.advance(0.2)
    table.connect("Dee")
    table.advance(0.99)
    assert table.core.phase == WAITING
    table.advance(0.01)
    assert table.core.phase == PLAYING and names(table) == ["Ann", "Cy", "Dee"]
    assert table.now == pytest.approx(1.7)


def test_the_hosts_start_does_not_wait_for_the_settle_time() -> None:
    table = ClockedTable(config(capacity=3, start_when=3, deal_settle_seconds=1.0,
                                host_key="key"))
    admin = table.connect("Admin", host_key="key")
    table.connect("Bob")
    table.connect("Cy")
    table.send(admin, Start())
    assert table.core.phase == PLAYING and table.core.matches_dealt == 1
    assert DealSettle() not in table.timers
    table.advance(2.0)
    assert table.core.matches_dealt == 1


def test_a_rematch_waits_for_the_settle_time_too() -> None:
    table = ClockedTable(config(capacity=3, start_when=3, bot_delay=0.5,
                                deal_settle_seconds=1.0))
    peers = [table.connect(name) for name in ("Ann", "Bob", "Cy")]
    table.advance(1.0)
    table.play_until(lambda: table.core.phase == FINISHED)
    for peer in peers:
        table.send(peer, Ready(ready=True))
    table.advance(0.99)
    assert table.core.phase == FINISHED
    table.advance(0.01)
    assert table.core.phase == PLAYING and table.core.matches_dealt == 2


def door_connect(table: ClockedTable, name: str) -> int:
    """A connection through a door the host trusts (the web door's phones) says hello."""
    peer = table.new_peer()
    table.core.through_door(peer)
    table.send(peer, Hello(proto=PROTOCOL_VERSION, name=name))
    return peer


def test_seats_held_through_a_trusted_door_are_dealt_without_the_settle_time() -> None:
    # The door's own session holds each of its seats (it stays connected when the page goes),
    # so the settle time has nothing to wait for: the phone player's hand comes at once.
    table = ClockedTable(config(capacity=2, start_when=2, deal_settle_seconds=1.0))
    door_connect(table, "Phone")
    door_connect(table, "Phone two")
    assert table.core.phase == PLAYING and DealSettle() not in table.timers


def test_one_seat_not_behind_a_door_keeps_the_settle_time() -> None:
    table = ClockedTable(config(capacity=3, start_when=3, deal_settle_seconds=1.0))
    door_connect(table, "Phone")
    table.connect("Laptop")
    door_connect(table, "Phone two")
    assert table.core.phase == WAITING and DealSettle() in table.timers
    table.advance(1.0)
    assert table.core.phase == PLAYING


# --- start_when holds for rematches ---------------------------------------------------------


def finished_three_player_table() -> tuple[ClockedTable, list[int]]:
    table = ClockedTable(config(capacity=4, start_when=3, bot_delay=0.5))
    peers = [table.connect(name) for name in ("Ann", "Bob", "Cy")]
    table.play_until(lambda: table.core.phase == FINISHED)
    return table, peers


def test_players_who_just_finished_get_their_rematch_when_all_are_ready() -> None:
    table, peers = finished_three_player_table()
    for peer in peers[:2]:
        table.send(peer, Ready(ready=True))
    assert table.core.phase == FINISHED
    table.send(peers[2], Ready(ready=True))
    assert table.core.phase == PLAYING and table.core.matches_dealt == 2


def test_newcomers_at_a_finished_table_wait_for_start_when_ready_seats() -> None:
    table, peers = finished_three_player_table()
    for peer in peers:
        table.drop(peer, code="normal")
    assert names(table) == []
    dee = table.connect("Dee")
    table.send(dee, Ready(ready=True))
    eve = table.connect("Eve")
    table.send(eve, Ready(ready=True))
    # Two ready newcomers are not a table of three: no 2-seat match behind their backs.
    assert table.core.phase == FINISHED and names(table) == ["Dee", "Eve"]
    fay = table.connect("Fay")
    assert table.welcome(fay).role == "player"
    assert table.core.phase == FINISHED  # Fay is seated but not ready yet
    table.send(fay, Ready(ready=True))
    assert table.core.phase == PLAYING and names(table) == ["Dee", "Eve", "Fay"]


def test_a_player_leaving_a_finished_table_lets_the_ready_ones_play() -> None:
    # With no start_when (the app's table) a rematch needs two live seats, all ready: the
    # one who was not ready leaving must not leave the others waiting forever.
    table = ClockedTable(config(capacity=3, bot_delay=0.5))
    ann, bob, cy = (table.connect(name) for name in ("Ann", "Bob", "Cy"))
    table.send(ann, Start())
    table.play_until(lambda: table.core.phase == FINISHED)
    table.send(ann, Ready(ready=True))
    table.send(bob, Ready(ready=True))
    assert table.core.phase == FINISHED
    table.drop(cy)
    assert table.core.phase == PLAYING and names(table) == ["Ann", "Bob"]


# --- host rights ----------------------------------------------------------------------------


HOST_ACTIONS = {
    "start": Start(),
    "add_bot": AddBot(bot="greedy"),
    "remove_bot": RemoveBot(seat=0),
    "set_options": SetOptions(options={"preset": "1980"}),
}


@pytest.mark.parametrize("action", HOST_ACTIONS)
def test_at_a_table_with_a_secret_the_first_player_is_not_the_host(action: str) -> None:
    table = ClockedTable(config(capacity=4, start_when=4, host_key="operator-key"))
    table.run(table.core.add_bot("greedy", table.now))
    ann, bob = table.connect("Ann"), table.connect("Bob")
    assert not table.welcome(ann).host and table.lobby(ann).host_seat is None
    with pytest.raises(ApplicationError) as refused:
        table.send(ann, HOST_ACTIONS[action])
    assert refused.value.code == "not-host"
    assert table.core.phase == WAITING and names(table) == ["Greedy bot", "Ann", "Bob"]
    assert table.core.rules.name == "2022"
    # Ann leaving does not hand the rights to Bob either.
    table.drop(ann, code="normal")
    assert table.core.host is None and table.lobby(bob).host_seat is None


@pytest.mark.parametrize("secret", ["operator-key", "admin-pw"])
def test_the_operator_key_or_the_admin_password_gives_host_rights(secret: str) -> None:
    table = ClockedTable(config(capacity=4, start_when=4, host_key="operator-key",
                                admin_password="admin-pw"))
    ann = table.connect("Ann")
    table.run(table.core.add_bot("greedy", table.now))
    with pytest.raises(BadHostKey):  # a prefix is not the password; nothing is seated
        table.connect("Mallory", host_key="admin-p")
    assert names(table) == ["Ann", "Greedy bot"]
    admin = table.connect("Admin", host_key=secret)
    assert table.welcome(admin).host and not table.welcome(ann).host
    assert table.lobby(ann).host_seat == 2
    table.send(admin, RemoveBot(seat=1))
    table.send(admin, SetOptions(options={"preset": "1980"}))
    table.send(admin, Start())  # early: 2 seats of start_when 4
    assert table.core.phase == PLAYING and table.core.rules.name == "1980"
    assert names(table) == ["Ann", "Admin"]


def test_a_table_with_no_secret_still_makes_the_first_player_host() -> None:
    table = ClockedTable(config(capacity=3))
    ann, bob = table.connect("Ann"), table.connect("Bob")
    assert table.welcome(ann).host and not table.welcome(bob).host
