"""The lobby is sent once per change: an input that changes what the lobby shows several
times (seats freed, a seat taken, a deal) sends each connection one lobby, as it stands,
and before any view that follows it (netproto's connection moves a seat into the match on
the lobby). An input that changes nothing of the lobby sends none; a refused one, nothing.
Counted on the core's outputs, input by input, on a fake clock."""

from __future__ import annotations

from collections import Counter

import pytest
from core_clock_helpers import ClockedTable, config

from netproto.wire.errors import ApplicationError
from netproto.wire.messages import PROTOCOL_VERSION, Hello, Lobby, Ready, Start, View
from ono99tui.game import legal_moves
from ono99tui.host.core import FINISHED, PLAYING
from ono99tui.host.outputs import Output, Send


def lobbies(outputs: list[Output]) -> Counter[int]:
    """How many lobby frames each peer got from one input's outputs."""
    return Counter(output.peer for output in outputs
                   if isinstance(output, Send) and isinstance(output.message, Lobby))


def frames_of(outputs: list[Output], peer: int) -> list[type]:
    """The kinds of frames `peer` got from one input's outputs, in order."""
    return [type(output.message) for output in outputs
            if isinstance(output, Send) and output.peer == peer]


def hello(name: str) -> Hello:
    return Hello(proto=PROTOCOL_VERSION, name=name)


def test_a_seat_taken_sends_everyone_one_lobby() -> None:
    table = ClockedTable(config(capacity=4, start_when=None))
    ann = table.connect("Ann")
    bob = table.connect("Bob")
    watcher = table.connect("Cy", spectate=True)
    outputs = table.run(table.core.peer_message(99, hello("Dee"), table.now))
    assert lobbies(outputs) == {ann: 1, bob: 1, watcher: 1, 99: 1}


def test_the_deal_that_a_last_seat_starts_sends_one_lobby_before_the_views() -> None:
    # The seat taken and the deal change the lobby twice in one input: it goes once, in
    # its dealt state, before each player's first view.
    table = ClockedTable(config(capacity=2, start_when=2))
    ann = table.connect("Ann")
    outputs = table.run(table.core.peer_message(50, hello("Bob"), table.now))
    assert table.core.phase == PLAYING
    assert lobbies(outputs) == {ann: 1, 50: 1}
    for peer in (ann, 50):
        kinds = frames_of(outputs, peer)
        assert kinds.index(Lobby) < kinds.index(View)
    assert table.lobby(50).phase == PLAYING


def test_a_newcomer_at_a_full_finished_table_sends_one_lobby_for_every_seat_freed() -> None:
    # After a match at a table of a person and bots, the person leaves (their seat is
    # absent) and a newcomer comes: the absent seat is freed, a bot gives up its seat and
    # the newcomer sits down; each connection is sent that once.
    table = ClockedTable(config(capacity=3, start_when=None, bot_delay=0.1))
    host = table.connect("Ann")
    for kind in ("normal", "normal"):
        table.run(table.core.add_bot(kind, table.now))
    table.run(table.core.start(table.now))
    table.play_until(lambda: table.core.phase == FINISHED)
    watcher = table.connect("Cy", spectate=True)
    outputs = table.run(table.core.peer_message(77, hello("Dee"), table.now))
    # The table was full: a bot gave up its seat to Dee.
    assert [seat.name for seat in table.core.seats].count("Dee") == 1
    assert lobbies(outputs) == {host: 1, watcher: 1, 77: 1}


def test_ready_sends_one_lobby_and_a_move_none() -> None:
    table = ClockedTable(config(capacity=2, start_when=2))
    ann = table.connect("Ann")
    bob = table.connect("Bob")
    state = table.core.state
    assert state is not None
    index = table.human_to_act()
    assert index is not None
    mover = (ann, bob)[index]
    outputs = table.play(mover, legal_moves(state, index)[0])  # the match's first move
    assert lobbies(outputs) == {} and table.core.phase == PLAYING
    table.play_until(lambda: table.core.phase == FINISHED)
    outputs = table.send(ann, Ready(ready=True))
    assert lobbies(outputs) == {ann: 1, bob: 1}


def test_a_refused_input_sends_no_lobby() -> None:
    table = ClockedTable(config(capacity=3, start_when=None))
    table.connect("Ann")
    bob = table.connect("Bob")
    with pytest.raises(ApplicationError) as raised:
        table.core.peer_message(bob, Start(), table.now)  # Bob is not the host
    assert raised.value.code == "not-host"
    # The next input's outputs carry nothing left over from the refused one.
    outputs = table.send(bob, Ready(ready=True))
    assert lobbies(outputs)[bob] == 1
