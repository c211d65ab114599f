"""The sans-IO state machine, driven through in-memory connection pairs."""

from __future__ import annotations

import pytest

from netproto.wire.connection import Connection, ConnectionClosed, Role, State, Violation
from netproto.wire.errors import LocalProtocolError
from netproto.wire.framing import encode_frame
from netproto.wire.messages import (
    PROTOCOL_VERSION,
    Bye,
    Error,
    Hello,
    Lobby,
    Move,
    OpenRoom,
    Ping,
    Rated,
    Ready,
    SeatInfo,
    View,
    Welcome,
)


def pair() -> tuple[Connection, Connection]:
    return Connection(Role.CLIENT), Connection(Role.SERVER)


def transfer(sender: Connection, receiver: Connection, message: object) -> list[object]:
    return receiver.receive_data(sender.send(message))  # type: ignore[arg-type]


def lobby(phase: str) -> Lobby:
    return Lobby(phase=phase, seats=(SeatInfo(0, "Ann", "human", False, True),), host_seat=0)


def test_player_walks_through_every_state() -> None:
    client, server = pair()
    hello = Hello(proto=PROTOCOL_VERSION, name="Ann")
    assert transfer(client, server, hello) == [hello]
    assert transfer(server, client, Welcome(proto=PROTOCOL_VERSION, role="player", seat=0,
                                            token="t")) [0].seat == 0
    assert client.state is server.state is State.LOBBY
    transfer(client, server, Ready())
    transfer(server, client, lobby("playing"))
    assert client.state is server.state is State.SEATED
    move = Move(seq=3, move={"type": "play", "card": 5})
    assert transfer(client, server, move) == [move]
    transfer(server, client, View(seq=4, view={"hand": []}, events=({"type": "x"},)))
    transfer(server, client, lobby("finished"))
    assert client.state is server.state is State.LOBBY
    events = transfer(client, server, Bye(code="normal", reason="done"))
    assert events[-1] == ConnectionClosed("normal", "done", by_peer=True)
    assert client.state is server.state is State.CLOSED


def test_spectator_state_ignores_phase_changes() -> None:
    client, server = pair()
    transfer(client, server, Hello(proto=PROTOCOL_VERSION, name="Sam", spectate=True))
    transfer(server, client, Welcome(proto=PROTOCOL_VERSION, role="spectator"))
    transfer(server, client, lobby("playing"))
    assert client.state is server.state is State.SPECTATING
    events = server.receive_data(encode_frame(Move(seq=1, move={}).to_wire()))
    assert isinstance(events[0], Violation) and events[0].error.code == "unexpected-message"


@pytest.mark.parametrize(
    ("wire", "code"),
    [
        ({"kind": "move", "seq": 1, "move": {}}, "unexpected-message"),  # before handshake
        ({"kind": "warp"}, "unknown-kind"),
        ({"nokind": 1}, "bad-message"),
        ({"kind": 5}, "bad-message"),
        ({"kind": "hello", "proto": "1", "name": "x"}, "bad-message"),
        ({"kind": "hello", "proto": 1, "name": 7}, "bad-message"),
        ({"kind": "hello", "proto": 1, "name": "x", "spectate": 1}, "bad-message"),
        ({"kind": "hello", "proto": True, "name": "x"}, "bad-message"),
        ({"kind": "welcome", "proto": 1, "role": "player"}, "unexpected-message"),
    ],
)
def test_bad_messages_are_typed_violations_and_the_connection_goes_on(
        wire: dict, code: str) -> None:
    server = Connection(Role.SERVER)
    events = server.receive_data(encode_frame(wire))
    assert len(events) == 1 and isinstance(events[0], Violation)
    assert events[0].error.code == code and not events[0].error.fatal
    assert server.state is State.HANDSHAKE
    hello = Hello(proto=PROTOCOL_VERSION, name="Ann")
    assert server.receive_data(encode_frame(hello.to_wire())) == [hello]


def test_version_mismatch_is_fatal() -> None:
    server = Connection(Role.SERVER)
    events = server.receive_data(encode_frame({"kind": "hello", "proto": 99, "name": "x"}))
    assert events[0].error.code == "version-mismatch"
    assert isinstance(events[1], ConnectionClosed) and server.state is State.CLOSED
    # Only a bye may still go out, once.
    server.send(Bye(code="version-mismatch"))
    with pytest.raises(LocalProtocolError):
        server.send(Bye())


def test_error_budget_closes_the_connection() -> None:
    server = Connection(Role.SERVER, error_budget=3)
    events = server.receive_data(encode_frame({"kind": "nope"}) * 5)
    codes = [event.error.code for event in events if isinstance(event, Violation)]
    assert codes == ["unknown-kind"] * 4 + ["too-many-errors"]
    assert server.state is State.CLOSED


def seated_pair(phase: str) -> tuple[Connection, Connection]:
    """A player's connection pair, in LOBBY (phase "waiting") or SEATED ("playing")."""
    client, server = pair()
    transfer(client, server, Hello(proto=PROTOCOL_VERSION, name="Ann"))
    transfer(server, client, Welcome(proto=PROTOCOL_VERSION, role="player", seat=0, token="t"))
    transfer(server, client, lobby(phase))
    return client, server


@pytest.mark.parametrize(("phase", "crossing"), [
    ("waiting", Move(seq=3, move={"type": "play"})),  # chosen just before the match ended
    ("playing", Ready()),  # sent just as the host dealt the rematch
    ("playing", OpenRoom()),  # the host opened the room just as everyone's ready dealt
])
def test_messages_that_crossed_a_state_change_are_refused_but_not_charged(
        phase: str, crossing: object) -> None:
    _, server = seated_pair(phase)
    server.error_budget = 3
    state = server.state
    frame = encode_frame(crossing.to_wire())  # type: ignore[attr-defined]
    for _ in range(10):
        events = server.receive_data(frame)
        assert len(events) == 1 and isinstance(events[0], Violation)
        assert events[0].error.code == "unexpected-message" and not events[0].error.fatal
    assert server.state is state and server.errors == 0
    # Nonsense still uses the budget up.
    events = server.receive_data(encode_frame(Hello(proto=PROTOCOL_VERSION, name="x").to_wire())
                                 * 4)
    assert events[-1] == ConnectionClosed("too-many-errors", "more than 3 bad messages",
                                          by_peer=False)


def test_the_host_may_open_the_room_from_the_lobby_and_a_spectator_may_not() -> None:
    client, server = seated_pair("finished")
    assert transfer(client, server, OpenRoom()) == [OpenRoom()]
    assert OpenRoom.from_wire({"kind": "open_room"}) == OpenRoom()
    watcher, its_server = pair()
    transfer(watcher, its_server, Hello(proto=PROTOCOL_VERSION, name="Sam", spectate=True))
    transfer(its_server, watcher, Welcome(proto=PROTOCOL_VERSION, role="spectator"))
    events = its_server.receive_data(encode_frame(OpenRoom().to_wire()))
    assert isinstance(events[0], Violation) and its_server.errors == 1


@pytest.mark.parametrize("phase", ["waiting", "finished", "playing"])
def test_a_player_may_send_rated_in_every_phase_and_a_spectator_may_not(phase: str) -> None:
    # In a match too: the table answers with its own refusal (ono99: match-running), which
    # says when the choice may change, rather than a bare unexpected-message.
    client, server = seated_pair(phase)
    assert transfer(client, server, Rated(rated=False)) == [Rated(rated=False)]
    watcher, its_server = pair()
    transfer(watcher, its_server, Hello(proto=PROTOCOL_VERSION, name="Sam", spectate=True))
    transfer(its_server, watcher, Welcome(proto=PROTOCOL_VERSION, role="spectator"))
    events = its_server.receive_data(encode_frame(Rated(rated=False).to_wire()))
    assert isinstance(events[0], Violation) and its_server.errors == 1
    assert events[0].error.code == "unexpected-message" and events[0].error.ref == "rated"
    with pytest.raises(LocalProtocolError):
        watcher.send(Rated(rated=True))


def test_a_spectators_move_is_charged() -> None:
    client, server = pair()
    transfer(client, server, Hello(proto=PROTOCOL_VERSION, name="Sam", spectate=True))
    transfer(server, client, Welcome(proto=PROTOCOL_VERSION, role="spectator"))
    server.receive_data(encode_frame(Move(seq=1, move={}).to_wire()))
    assert server.errors == 1


def test_truncated_stream_then_closed() -> None:
    server = Connection(Role.SERVER)
    server.receive_data(encode_frame(Ping().to_wire())[:3])
    events = server.receive_data(b"")
    assert isinstance(events[0], Violation) and events[0].error.code == "truncated-frame"
    assert isinstance(events[-1], ConnectionClosed)


def test_sending_out_of_state_is_a_local_error() -> None:
    client, server = pair()
    with pytest.raises(LocalProtocolError):
        client.send(Move(seq=0, move={}))
    with pytest.raises(LocalProtocolError):
        server.send(View(seq=0, view={}))
    server.send(Error(code="bad-name"))  # allowed during the handshake


def test_next_event_checks_each_frame_against_the_state_the_replies_left() -> None:
    client, server = pair()
    transfer(client, server, Hello(proto=PROTOCOL_VERSION, name="Ann"))
    transfer(server, client, Welcome(proto=PROTOCOL_VERSION, role="player", seat=0, token="t"))
    # The client sends a move right behind its ready: it arrives in the same read.
    move_frame = encode_frame(Move(seq=1, move={}).to_wire())
    server.feed(client.send(Ready()) + move_frame)
    assert server.next_event() == Ready()
    server.send(lobby("playing"))  # the reply to the first frame deals the match
    assert server.next_event() == Move(seq=1, move={})  # so the move is in place
    assert server.next_event() is None
