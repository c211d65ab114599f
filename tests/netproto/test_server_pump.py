"""The asyncio server pump on real loopback sockets: limits, timeouts, bad peers."""

from __future__ import annotations

import asyncio
import struct

import pytest
from loopback_helpers import EchoTable, RawPeer, hello_wire

from netproto.client import ClientSettings, Disconnected, Reconnected, TableClient
from netproto.client_errors import ClientError
from netproto.server import Server
from netproto.wire.framing import MAX_FRAME_SIZE, encode_frame
from netproto.wire.messages import Lobby, View, Welcome

FAST_CLIENT = ClientSettings(heartbeat_timeout=5.0, backoff_initial=0.01, reconnect_for=3.0)


async def playing_client(server: Server) -> TableClient:
    """Ann, seated and told the match is on (the echo table starts on her ready)."""
    client = await TableClient.connect("127.0.0.1", server.port, name="Ann",
                                       settings=FAST_CLIENT)
    await client.ready()
    await client.wait_for(Lobby, 1, lambda m: m.phase == "playing")
    return client


async def test_client_handshake_and_move(echo_server: tuple[Server, EchoTable]) -> None:
    server, table = echo_server
    client = await TableClient.connect("127.0.0.1", server.port, name="\x1b[2JAnn",
                                       settings=FAST_CLIENT)
    assert client.seat == 0 and client.token and len(client.token) >= 22
    assert table.names[0] == "Ann"
    assert isinstance(await client.recv(1), Welcome)
    assert isinstance(await client.recv(1), Lobby)
    await client.ready()
    lobby = await client.wait_for(Lobby, 1)
    assert lobby.phase == "playing" and client.lobby is lobby
    await client.send_move({"card": 5}, seq=10)
    view = await client.wait_for(View, 1)
    assert view.seq == 11 and view.view == {"card": 5}
    await client.close()


async def test_frames_larger_than_one_read_arrive_whole_both_ways(
        echo_server: tuple[Server, EchoTable]) -> None:
    # Both ends read into one reused buffer: a frame that takes several reads, and several
    # frames in one read, must come out whole and in order.
    server, table = echo_server
    client = await playing_client(server)
    big = {"pad": "x" * (MAX_FRAME_SIZE - 200)}
    for seq, move in enumerate([big, {"card": 1}, big, {"card": 2}, {"card": 3}]):
        await client.send_move(move, seq=seq)
    views = [await client.wait_for(View, 3) for _ in range(5)]
    assert [view.seq for view in views] == [1, 2, 3, 4, 5]
    assert [view.view for view in views] == [big, {"card": 1}, big, {"card": 2}, {"card": 3}]
    assert [move for _, move in table.moves] == [big, {"card": 1}, big, {"card": 2},
                                                  {"card": 3}]
    await client.close()


async def test_wait_for_takes_what_already_arrived_and_reports_the_close(
        echo_server: tuple[Server, EchoTable]) -> None:
    server, table = echo_server
    client = await playing_client(server)
    for seq in range(3):
        await client.send_move({"card": seq}, seq=seq)
    await client.wait_for(View, 1, lambda v: v.seq == 3)
    # That wait took views 1 to 3 off the queue: with nothing new, the next one times out.
    with pytest.raises(TimeoutError):
        await client.wait_for(View, 0.05)
    await client.send_move({"card": 9}, seq=3)
    await client.send_move({"card": 10}, seq=4)
    await asyncio.sleep(0.2)  # both views are queued before the wait starts
    view = await client.wait_for(View, 0, lambda v: v.seq == 5)  # no waiting needed
    assert view.view == {"card": 10}
    table.peers[0].close("kicked", "bye now")
    with pytest.raises(ClientError) as error:
        await client.wait_for(View, 1)
    assert error.value.code == "kicked"
    await client.close()


async def test_oversize_frame_closes_only_that_connection(
        echo_server: tuple[Server, EchoTable]) -> None:
    server, _ = echo_server
    good = await TableClient.connect("127.0.0.1", server.port, name="Good", settings=FAST_CLIENT)
    bad = await RawPeer.open(server.port)
    await bad.send_bytes(struct.pack(">I", MAX_FRAME_SIZE + 1) + b"x" * 1000)
    frames = await bad.until_closed()
    assert frames[-1]["kind"] == "bye" and frames[-1]["code"] == "frame-too-large"
    await good.ready()
    assert (await good.wait_for(Lobby, 1, lambda m: m.phase == "playing")).phase == "playing"
    await good.close()


async def test_garbage_gets_typed_errors_then_the_budget_closes(
        echo_server: tuple[Server, EchoTable]) -> None:
    server, _ = echo_server
    peer = await RawPeer.open(server.port)
    await peer.send_bytes(struct.pack(">I", 3) + b"\xc1\xc1\xc1")
    assert (await peer.next())["code"] == "malformed-frame"
    await peer.send({"kind": "teleport"})
    assert (await peer.next())["code"] == "unknown-kind"
    await peer.send({"kind": "move", "seq": 1, "move": {}})
    assert (await peer.next())["code"] == "unexpected-message"
    await peer.send(hello_wire("\x1b[0m"))
    reply = await peer.next()
    assert reply["code"] == "bad-name" and reply["ref"] == "hello"
    await peer.send({"kind": "hello", "proto": 1, "name": ["x"]})
    assert (await peer.next())["code"] == "bad-message"
    for _ in range(3):
        await peer.send({"kind": "teleport"})
    frames = await peer.until_closed()
    assert frames[-1] == {"kind": "bye", "code": "too-many-errors",
                          "reason": "more than 5 bad messages"}


async def test_moves_crossing_the_end_of_a_match_never_add_up_to_a_close(
        echo_server: tuple[Server, EchoTable]) -> None:
    # A player's move chosen from the last view of a match reaches the server after its
    # lobby said the match is over: refused each time, and never counted as bad behaviour,
    # however many matches the session lasts (the budget here is 5).
    server, table = echo_server
    peer = await RawPeer.open(server.port)
    await peer.send(hello_wire("Ann"))
    assert (await peer.next())["kind"] == "welcome"
    assert (await peer.next())["kind"] == "lobby"
    for _ in range(12):
        await peer.send({"kind": "move", "seq": 1, "move": {"card": 5}})
        refusal = await peer.next()
        assert refusal["code"] == "unexpected-message" and refusal["ref"] == "move"
    await peer.send({"kind": "ready", "ready": True})
    lobby = await peer.next()
    assert lobby["kind"] == "lobby" and lobby["phase"] == "playing"
    await peer.send({"kind": "move", "seq": 1, "move": {"card": 5}})
    assert (await peer.next())["view"] == {"card": 5}
    assert table.moves == [(0, {"card": 5})]


async def test_handshake_timeout_and_connection_cap(
        echo_server: tuple[Server, EchoTable]) -> None:
    # The cap counts established connections (past the handshake): 16 seated players fill
    # the server, and the 17th connection's hello is refused at once.
    server, _ = echo_server
    seated = []
    for number in range(16):
        peer = await RawPeer.open(server.port)
        await peer.send(hello_wire(f"P{number}"))
        assert (await peer.next())["kind"] == "welcome"
        seated.append(peer)
    refused = await RawPeer.open(server.port)
    await refused.send(hello_wire("P16"))
    frames = await refused.until_closed()
    assert frames == [{"kind": "bye", "code": "server-full",
                       "reason": "this server takes at most 16 connections"}]
    for peer in seated[:8]:  # leave, and wait until the server has closed each of them
        await peer.send({"kind": "bye"})
        await peer.until_closed()
        peer.close()
    # Sockets that never finish their handshake are closed when its time is up.
    idle = [await RawPeer.open(server.port) for _ in range(4)]
    for peer in idle:
        frames = await peer.until_closed()
        assert frames[-1]["code"] == "handshake-timeout"
    # There is room again: a real player gets in.
    client = await TableClient.connect("127.0.0.1", server.port, name="Late", settings=FAST_CLIENT)
    assert client.seat is not None
    await client.close()
    for peer in seated[8:]:
        peer.close()


async def test_hundreds_of_idle_connections_do_not_stop_players(
        echo_server: tuple[Server, EchoTable]) -> None:
    server, _ = echo_server
    player = await TableClient.connect("127.0.0.1", server.port, name="Ann", settings=FAST_CLIENT)
    await player.ready()
    await player.wait_for(Lobby, 1, lambda m: m.phase == "playing")
    crowd = await asyncio.gather(*(RawPeer.open(server.port) for _ in range(300)))
    await player.send_move({"n": 1}, seq=0)
    assert (await player.wait_for(View, 2)).view == {"n": 1}
    for peer in crowd:
        peer.close()
    await player.close()


async def test_silent_peer_is_dropped_by_the_heartbeat(
        heartbeat_server: tuple[Server, EchoTable]) -> None:
    server, _ = heartbeat_server
    silent = await RawPeer.open(server.port)
    await silent.send(hello_wire("Mute"))
    # It never answers the pings: after the heartbeat timeout it is closed.
    frames = []
    while True:
        data = await asyncio.wait_for(silent.reader.read(65536), 3)
        if not data:
            break
        frames.extend(silent.decoder.feed(data))
    kinds = [frame["kind"] for frame in frames]
    assert "ping" in kinds and frames[-1]["code"] == "heartbeat-timeout"


async def test_client_answers_pings_and_stays(
        heartbeat_server: tuple[Server, EchoTable]) -> None:
    server, _ = heartbeat_server
    client = await TableClient.connect("127.0.0.1", server.port, name="Ann", settings=FAST_CLIENT)
    await client.ready()
    await asyncio.sleep(1.6)  # twice the server's heartbeat timeout
    await client.send_move({"still": "here"}, seq=1)
    assert (await client.wait_for(View, 1)).view == {"still": "here"}
    await client.close()


async def test_client_reconnects_and_resumes_its_seat(
        echo_server: tuple[Server, EchoTable]) -> None:
    server, table = echo_server
    client = await TableClient.connect("127.0.0.1", server.port, name="Ann", settings=FAST_CLIENT)
    token = client.token
    table.peers[0].abort()  # the link drops without a goodbye
    notice = await client.wait_for(Disconnected, 2)
    assert notice.will_retry
    assert isinstance(await client.wait_for(Reconnected, 3), Reconnected)
    assert client.seat == 0 and client.token == token
    await client.ready()
    await client.wait_for(Lobby, 1, lambda m: m.phase == "playing")
    await client.send_move({"after": "resume"}, seq=5)
    assert (await client.wait_for(View, 1)).view == {"after": "resume"}
    assert table.moves[-1] == (0, {"after": "resume"})
    await client.close()


async def test_truncated_frame_then_close(echo_server: tuple[Server, EchoTable]) -> None:
    server, _ = echo_server
    peer = await RawPeer.open(server.port)
    await peer.send_bytes(encode_frame(hello_wire())[:-3])
    peer.writer.write_eof()
    frames = await peer.until_closed()
    assert frames[-1]["code"] == "truncated-frame"
