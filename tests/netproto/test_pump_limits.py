"""The pump's limits against a hostile guest, on real loopback sockets: fair admission per
address, the ping rate, bad resume tokens (budget and per-address throttle), and refusals
that name the move they refuse. On loopback every 127.x.y.z is another address."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from typing import Any

import pytest
from loopback_helpers import FAST_LIMITS, EchoTable, RawPeer, hello_wire

from netproto.client import ClientSettings, Disconnected, Reconnected, TableClient
from netproto.limits import GuessPolicy
from netproto.server import Peer, Server, ServerLimits
from netproto.wire.connection import State
from netproto.wire.errors import ApplicationError, BadHostKey, ServerFull
from netproto.wire.framing import encode_frame
from netproto.wire.messages import (
    PROTOCOL_VERSION,
    Error,
    Hello,
    Lobby,
    Message,
    Move,
    Resume,
    View,
    message_from_wire,
)

FAST_CLIENT = ClientSettings(heartbeat_timeout=5.0, backoff_initial=0.01, reconnect_for=3.0)
# The flood must still be there while the others come in: no handshake timeout in sight.
FLOOD_LIMITS = replace(FAST_LIMITS, handshake_timeout=60.0)


class FakeClock:
    """The server's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


ServerFactory = Callable[..., Awaitable[Server]]


@pytest.fixture
async def make_server() -> AsyncIterator[ServerFactory]:
    """Start servers of an EchoTable (or a given application) with given limits."""
    servers: list[Server] = []

    async def start(limits: ServerLimits, application: Any = None,
                    clock: Callable[[], float] | None = None) -> Server:
        server = (Server(application or EchoTable(), limits) if clock is None
                  else Server(application or EchoTable(), limits, clock=clock))
        await server.start("127.0.0.1", 0)
        servers.append(server)
        return server

    try:
        yield start
    finally:
        for server in servers:
            await server.stop()


async def seated(port: int, name: str, source: str) -> tuple[RawPeer, dict[str, Any]]:
    """A raw connection from `source` that said hello; and its welcome."""
    peer = await RawPeer.open(port, source)
    await peer.send(hello_wire(name))
    welcome = await peer.next()
    assert welcome["kind"] == "welcome", welcome
    return peer, welcome


async def resumed(port: int, token: str, source: str) -> dict[str, Any]:
    """What a fresh connection from `source` gets for `resume{token}` (then closes it)."""
    peer = await RawPeer.open(port, source)
    await peer.send(resume_wire(token))
    try:
        return await peer.next()
    finally:
        peer.close()


def resume_wire(token: str) -> dict[str, Any]:
    return {"kind": "resume", "proto": PROTOCOL_VERSION, "token": token}


def open_handshakes(server: Server, host: str) -> int:
    return sum(1 for peer in server.peers
               if peer.host == host and peer.is_open and peer.state is State.HANDSHAKE)


# --- fair admission ---------------------------------------------------------------------


async def test_two_hundred_sockets_from_one_address_keep_nobody_else_out(
        make_server: ServerFactory) -> None:
    # Before: the cap (16 here) counted every socket, so 200 idle ones from one address
    # refused everyone else with server-full until their handshakes timed out.
    server = await make_server(FLOOD_LIMITS)
    ann, ann_welcome = await seated(server.port, "Ann", "127.0.0.3")
    carl, carl_welcome = await seated(server.port, "Carl", "127.0.0.1")
    ann.close()
    carl.close()
    flood = [await RawPeer.open(server.port, "127.0.0.1") for _ in range(200)]
    try:
        # A new player from another address gets a seat.
        bob, bob_welcome = await seated(server.port, "Bob", "127.0.0.2")
        assert bob_welcome["role"] == "player" and bob_welcome["seat"] == 2
        # Seated players get back in: from another address, and from the flooding one.
        back = await resumed(server.port, ann_welcome["token"], "127.0.0.3")
        assert back["kind"] == "welcome" and back["seat"] == ann_welcome["seat"]
        back = await resumed(server.port, carl_welcome["token"], "127.0.0.1")
        assert back["kind"] == "welcome" and back["seat"] == carl_welcome["seat"]
        # The flood only ever displaced itself: at most 8 of it are left, the others were
        # told why; the established connection (Bob) was never touched.
        assert open_handshakes(server, "127.0.0.1") <= FLOOD_LIMITS.max_handshakes_per_address
        displaced = await flood[0].until_closed()
        assert displaced == [{"kind": "bye", "code": "too-many-connections", "reason":
                              "at most 8 unfinished handshakes from one address: "
                              "the oldest is closed"}]
        assert (await bob.next())["phase"] == "waiting"
        await bob.send({"kind": "ready", "ready": True})
        assert (await bob.next())["phase"] == "playing"
        bob.close()
    finally:
        for peer in flood:
            peer.close()


async def test_established_connections_per_address_are_capped_never_evicted(
        make_server: ServerFactory) -> None:
    # One address completing handshakes (as spectators would) cannot fill the server either.
    limits = replace(FLOOD_LIMITS, max_connections_per_address=4)
    server = await make_server(limits)
    crowd = [(await seated(server.port, f"C{number}", "127.0.0.1"))[0] for number in range(4)]
    refused = await RawPeer.open(server.port, "127.0.0.1")
    await refused.send(hello_wire("C4"))
    assert await refused.until_closed() == [{
        "kind": "bye", "code": "too-many-connections",
        "reason": "this server takes at most 4 connections from one address"}]
    newcomer, welcome = await seated(server.port, "Dee", "127.0.0.2")
    assert welcome["role"] == "player"
    for peer in crowd:  # all four are still served
        assert (await answered(peer, {"kind": "ping", "nonce": 7}, "pong"))["nonce"] == 7
    for peer in [*crowd, newcomer]:
        peer.close()


async def test_full_handshake_pool_displaces_the_address_holding_the_most(
        make_server: ServerFactory) -> None:
    limits = replace(FLOOD_LIMITS, max_handshakes=6, max_handshakes_per_address=4)
    server = await make_server(limits)
    busy = [await RawPeer.open(server.port, "127.0.0.1") for _ in range(4)]
    other = [await RawPeer.open(server.port, "127.0.0.4") for _ in range(2)]
    # The pool is full: a newcomer from a third address displaces the busiest's oldest.
    newcomer = await RawPeer.open(server.port, "127.0.0.2")
    displaced = await busy[0].until_closed()
    assert displaced[-1]["code"] == "too-many-connections"
    assert displaced[-1]["reason"].startswith("the server holds 6 unfinished handshakes")
    # Now 127.0.0.1 holds 3, 127.0.0.4 2, 127.0.0.2 1: one more from 127.0.0.1, which
    # holds as many as anyone, is refused rather than displacing someone else.
    refused = await RawPeer.open(server.port, "127.0.0.1")
    assert (await refused.until_closed())[-1]["code"] == "too-many-connections"
    assert open_handshakes(server, "127.0.0.4") == 2
    await newcomer.send(hello_wire("Eve"))
    assert (await newcomer.next())["kind"] == "welcome"
    for peer in [*busy, *other, newcomer, refused]:
        peer.close()


# --- pings ------------------------------------------------------------------------------


async def test_a_ping_flood_gets_typed_errors_counted_then_the_close(
        make_server: ServerFactory) -> None:
    # Before: every ping got its pong, without limit.
    clock = FakeClock()
    limits = replace(FLOOD_LIMITS, ping_burst=3, pings_per_second=1.0)  # error budget 5
    server = await make_server(limits, clock=clock)
    peer, _ = await seated(server.port, "Ann", "127.0.0.1")
    assert (await peer.next())["kind"] == "lobby"
    await peer.send_bytes(b"".join(frame({"kind": "ping", "nonce": n}) for n in range(5)))
    replies = [await peer.next() for _ in range(5)]
    assert [reply.get("nonce") for reply in replies[:3]] == [0, 1, 2]
    assert all(reply["kind"] == "pong" for reply in replies[:3])
    assert replies[3:] == 2 * [{"kind": "error", "code": "rate-limited", "ref": "ping",
                                "reason": "at most 3 pings at once and 1 per second"}]
    clock.now += 2.0  # two more allowed
    await peer.send_bytes(frame({"kind": "ping", "nonce": 8}) + frame({"kind": "ping",
                                                                        "nonce": 9}))
    assert [(await peer.next())["nonce"] for _ in range(2)] == [8, 9]
    # Two refusals are counted already: the flood's fourth goes past the budget of 5.
    await peer.send_bytes(b"".join(frame({"kind": "ping"}) for _ in range(10)))
    frames = await peer.until_closed()
    assert [f["code"] for f in frames] == 3 * ["rate-limited"] + ["too-many-errors"]


# --- resume tokens ----------------------------------------------------------------------


async def test_bad_resume_tokens_count_in_the_error_budget(
        make_server: ServerFactory) -> None:
    # Before: a connection could guess tokens without end (budget 5 here).
    server = await make_server(replace(FLOOD_LIMITS, bad_tokens_per_address=100))
    guesser = await RawPeer.open(server.port)
    await guesser.send_bytes(b"".join(frame(resume_wire(f"guess-{n}")) for n in range(8)))
    frames = await guesser.until_closed()
    assert [f["code"] for f in frames] == 5 * ["bad-token"] + ["too-many-errors"]
    assert all(f["ref"] == "resume" for f in frames[:5])


async def test_bad_tokens_are_throttled_per_address_but_a_good_one_always_gets_in(
        make_server: ServerFactory) -> None:
    # Before: past 16 bad tokens from an address every resume from it was refused unseen,
    # a good token too, for the rest of the minute: 16 guesses from behind a player's NAT
    # kept the player out for 56 s of its 60 s grace.
    clock = FakeClock()
    limits = replace(FLOOD_LIMITS, bad_tokens_per_address=3, bad_token_window=60.0)
    table = RecordingTable()
    server = await make_server(limits, table, clock)
    ann, ann_welcome = await seated(server.port, "Ann", "127.0.0.1")
    bob, bob_welcome = await seated(server.port, "Bob", "127.0.0.2")
    # A client back after a host restart: one stale token, then hello on the same link.
    stale = await RawPeer.open(server.port, "127.0.0.1")
    await stale.send(resume_wire("stale-token"))
    assert (await stale.next())["code"] == "bad-token"
    await stale.send(hello_wire("Cy"))
    assert (await stale.next())["kind"] == "welcome"
    # Two guesses more from 127.0.0.1 (three bad tokens in the window) ...
    for guess in ("guess-1", "guess-2"):
        assert (await resumed(server.port, guess, "127.0.0.1"))["code"] == "bad-token"
    # ... and each further bad token from it costs its connection ...
    for guess in ("guess-3", "guess-4"):
        peer = await RawPeer.open(server.port, "127.0.0.1")
        await peer.send(resume_wire(guess))
        assert await peer.until_closed() == [{
            "kind": "bye", "code": "resume-throttled",
            "reason": "3 bad resume tokens from this address in 60 s: resume again in 60 s"}]
    # ... while the good token of a player at that address gets its seat back at once.
    back = await resumed(server.port, ann_welcome["token"], "127.0.0.1")
    assert back["kind"] == "welcome" and back["seat"] == ann_welcome["seat"]
    assert table.resumes[-1] == ann_welcome["token"]
    # Another address is not affected.
    back = await resumed(server.port, bob_welcome["token"], "127.0.0.2")
    assert back["kind"] == "welcome" and back["seat"] == bob_welcome["seat"]
    assert (await resumed(server.port, "guess-5", "127.0.0.2"))["code"] == "bad-token"
    # Once the first bad token is a window old, 127.0.0.1's next bad one is answered as usual.
    clock.now += 60.0
    assert (await resumed(server.port, "guess-6", "127.0.0.1"))["code"] == "bad-token"
    for peer in (ann, bob, stale):
        peer.close()


async def test_a_player_behind_a_guessers_address_resumes_at_once(
        make_server: ServerFactory) -> None:
    # The case with a real client: its address is throttled for bad tokens when its
    # link drops; its own reconnect gets its seat back at once (before: after the window).
    clock = FakeClock()
    limits = replace(FLOOD_LIMITS, bad_tokens_per_address=2, bad_token_window=60.0)
    table = EchoTable()
    server = await make_server(limits, table, clock)
    client = await TableClient.connect("127.0.0.1", server.port, name="Ann",
                                       settings=FAST_CLIENT)
    for guess in ("guess-1", "guess-2", "guess-3"):
        await resumed(server.port, guess, "127.0.0.1")
    try:
        table.peers[0].abort()  # Ann's link drops
        assert (await client.wait_for(Disconnected, 2)).will_retry
        assert isinstance(await client.wait_for(Reconnected, 3), Reconnected)
        assert client.seat == 0
    finally:
        await client.close()


async def test_a_full_server_still_takes_a_seats_holder_back(
        make_server: ServerFactory) -> None:
    # Before: once 16 connections (the cap here) were established, the 17th socket was
    # refused at once, whatever it came for: a seated player's resume too.
    server = await make_server(FLOOD_LIMITS)
    crowd, tokens = [], []
    for number in range(FLOOD_LIMITS.max_connections):
        peer, welcome = await seated(server.port, f"C{number}", f"127.0.1.{number}")
        crowd.append(peer)
        tokens.append(welcome["token"])
    refused = await RawPeer.open(server.port, "127.0.0.2")
    await refused.send(hello_wire("Late"))
    assert (await refused.until_closed())[-1]["code"] == "server-full"
    back = await resumed(server.port, tokens[0], "127.0.1.0")
    assert back["kind"] == "welcome" and back["seat"] == 0
    for peer in crowd:
        peer.close()


class FullForAWhile(EchoTable):
    """A host whose cap counts everyone (as before this fix): `server-full` for the first
    `refusals` resumes."""

    def __init__(self, refusals: int) -> None:
        super().__init__()
        self.refusals = refusals

    def on_message(self, peer: Peer, message: Message) -> None:
        if isinstance(message, Resume) and self.refusals > 0:
            self.refusals -= 1
            raise ServerFull("this server takes at most 64 connections")
        super().on_message(peer, message)


async def test_a_client_holding_a_seat_tries_again_after_server_full(
        make_server: ServerFactory) -> None:
    # Before: server-full was final for everyone, and a seated player whose link dropped
    # gave up its held seat at the first one ("ono99 bot: the session ended early").
    table = FullForAWhile(refusals=0)
    server = await make_server(FLOOD_LIMITS, table)
    client = await TableClient.connect("127.0.0.1", server.port, name="Ann",
                                       settings=FAST_CLIENT)
    try:
        table.refusals = 3
        table.peers[0].abort()
        assert isinstance(await client.wait_for(Reconnected, 5), Reconnected)
        assert client.seat == 0 and table.refusals == 0
        # A new program that comes with the seat's token (`ono99 join` run again) waits for
        # room as well.
        table.refusals = 2
        again = await TableClient.connect("127.0.0.1", server.port, name="Ann",
                                          token=client.token, settings=FAST_CLIENT)
        assert again.seat == 0 and table.refusals == 0
        await again.close()
    finally:
        await client.close()


async def test_client_with_a_stale_token_falls_back_to_hello(
        make_server: ServerFactory) -> None:
    server = await make_server(FLOOD_LIMITS)
    client = await TableClient.connect("127.0.0.1", server.port, name="Ann", token="old-table",
                                       settings=FAST_CLIENT)
    assert client.seat == 0 and client.token != "old-table"
    await client.close()


# --- password guesses ----------------------------------------------------------------------


class KeyedTable(EchoTable):
    """An EchoTable with a host key ("right"), refusing any other with `bad-host-key`."""

    def on_message(self, peer: Peer, message: Message) -> None:
        if isinstance(message, Hello) and message.host_key not in (None, "right"):
            raise BadHostKey("that is not the table's key")
        super().on_message(peer, message)


def keyed_hello(key: str, name: str = "Ann") -> dict[str, Any]:
    return {**hello_wire(name), "host_key": key}


async def guess_answers(port: int, source: str, keys: list[str]) -> list[str]:
    """Each key tried in a hello on one connection from `source`: the answers' codes."""
    peer = await RawPeer.open(port, source)
    answers = []
    for key in keys:
        await peer.send(keyed_hello(key))
        reply = await peer.next()
        answers.append(reply.get("code") or reply["kind"])
        if reply["kind"] in ("bye", "welcome"):
            break
    peer.close()
    return answers


async def test_wrong_keys_back_off_per_address_and_the_right_one_elsewhere_gets_in(
        make_server: ServerFactory) -> None:
    # Before: a wrong admin password was refused as fast as it came (about 100 a second).
    clock = FakeClock()
    policy = GuessPolicy(free_per_address=2, first_pause=1.0, max_pause=8.0, free_in_all=50)
    limits = replace(FLOOD_LIMITS, guesses=policy, error_budget=100)
    server = await make_server(limits, KeyedTable(), clock)
    answers = await guess_answers(server.port, "127.0.0.1", ["a", "b", "c", "right"])
    # The right key too is turned away unread while the address must wait: trying it is
    # the guess the wait is for.
    assert answers == ["bad-host-key", "bad-host-key", "rate-limited", "rate-limited"]
    peer = await RawPeer.open(server.port, "127.0.0.1")
    await peer.send(keyed_hello("d"))
    assert await peer.next() == {"kind": "error", "code": "rate-limited", "ref": "hello",
                                 "reason": "too many wrong passwords or keys: try again in 1 s"}
    clock.now += 1.0
    await peer.send(keyed_hello("e"))
    assert (await peer.next())["code"] == "bad-host-key"
    await peer.send(keyed_hello("f"))
    assert (await peer.next())["reason"].endswith("try again in 2 s")
    peer.close()
    # Another address is not held up, and a hello without a key is no guess.
    assert await guess_answers(server.port, "127.0.0.2", ["right"]) == ["welcome"]
    plain = await RawPeer.open(server.port, "127.0.0.1")
    await plain.send(hello_wire("Bo"))
    assert (await plain.next())["kind"] == "welcome"
    plain.close()


async def test_wrong_keys_from_many_addresses_are_held_to_the_rate_in_all(
        make_server: ServerFactory) -> None:
    # Before: each address had its own allowance, so thirty of them guessed thirty times
    # as fast.
    clock = FakeClock()
    policy = GuessPolicy(free_per_address=100, free_in_all=4, first_pause_in_all=5.0,
                         max_pause_in_all=5.0, fresh_burst=1, fresh_per_second=0.0)
    server = await make_server(replace(FLOOD_LIMITS, guesses=policy, error_budget=100),
                               KeyedTable(), clock)
    answers = []
    for number in range(30):
        answers += await guess_answers(server.port, f"127.0.2.{number}", ["x", "y"])
    # Four wrong guesses before the pause in all sets in, then one every 5 s.
    assert answers.count("bad-host-key") == 4 + 1
    clock.now += 5.0
    answers = [answer for number in range(30)
               for answer in await guess_answers(server.port, f"127.0.2.{number}", ["z"])]
    assert answers.count("bad-host-key") == 1


# --- refusals name their move -----------------------------------------------------------


async def test_a_refused_move_carries_its_seq(make_server: ServerFactory) -> None:
    # Before: the error said only ref="move", so a client could not tell which move.
    server = await make_server(FLOOD_LIMITS, RefusingTable())
    client = await TableClient.connect("127.0.0.1", server.port, name="Ann",
                                       settings=FAST_CLIENT)
    await client.ready()
    await client.wait_for(Lobby, 2, lambda lobby: lobby.phase == "playing")
    await client.send_move({"refuse": True}, seq=41)
    refusal = await client.wait_for(Error, 2)
    assert (refusal.code, refusal.ref, refusal.seq) == ("not-your-turn", "move", 41)
    # Table refusals are part of honest play: a dozen of them do not use up the budget.
    for seq in range(12):
        await client.send_move({"refuse": True}, seq=seq)
        assert (await client.wait_for(Error, 2)).seq == seq
    await client.send_move({"card": 5}, seq=42)
    assert (await client.wait_for(View, 2)).seq == 43
    await client.close()


async def test_a_move_crossing_into_the_lobby_carries_its_seq(
        make_server: ServerFactory) -> None:
    server = await make_server(FLOOD_LIMITS)
    peer, _ = await seated(server.port, "Ann", "127.0.0.1")
    await peer.send({"kind": "move", "seq": 17, "move": {}})
    refusal = await answered(peer, None, "error")
    assert (refusal["code"], refusal["ref"], refusal["seq"]) == ("unexpected-message", "move", 17)
    peer.close()


def test_error_seq_is_optional_and_unknown_fields_are_ignored() -> None:
    old = message_from_wire({"kind": "error", "code": "stale-seq", "ref": "move"})
    assert isinstance(old, Error) and old.seq is None
    new = message_from_wire({"kind": "error", "code": "stale-seq", "ref": "move", "seq": 3,
                             "later_field": [1, 2]})
    assert isinstance(new, Error) and new.seq == 3
    assert Error(code="stale-seq", ref="move", seq=3).to_wire()["seq"] == 3
    assert "seq" not in Error(code="bad-name").to_wire()


# --- slow consumers and truncated frames ---------------------------------------------


async def flood_until_cut(table: SlowTable, peer: RawPeer) -> int:
    """Send big moves without reading until the server gives up on `peer`; how many."""
    await peer.send({"kind": "ready", "ready": True})
    sent = 0
    while not table.cut.is_set():
        await peer.send({"kind": "move", "seq": sent, "move": {"pad": "x" * 60_000}})
        sent += 1
        await asyncio.sleep(0)  # not a delay: one turn of the loop, for the server to read
    return sent


async def test_a_slow_consumer_gets_its_bye_if_it_reads_again(
        make_server: ServerFactory, caplog: pytest.LogCaptureFixture) -> None:
    # Before: the connection was aborted at once, without a bye and without a log line.
    table = SlowTable()
    server = await make_server(replace(FLOOD_LIMITS, max_write_buffer=64 * 1024,
                                       slow_consumer_linger=60.0), table)
    peer, _ = await seated(server.port, "Sloth", "127.0.0.1")
    with caplog.at_level("WARNING", logger="netproto.server"):
        sent = await flood_until_cut(table, peer)
    frames = await peer.until_closed(timeout=10)
    assert frames[-1]["kind"] == "bye" and frames[-1]["code"] == "slow-consumer"
    views = [f for f in frames if f["kind"] == "view"]
    assert 0 < len(views) <= sent
    assert any("dropping" in r.getMessage() and "did not read" in r.getMessage()
               for r in caplog.records)


async def test_a_slow_consumer_that_never_reads_is_cut_after_the_linger(
        make_server: ServerFactory) -> None:
    table = SlowTable()
    server = await make_server(replace(FLOOD_LIMITS, max_write_buffer=64 * 1024,
                                       slow_consumer_linger=0.1), table)
    peer, _ = await seated(server.port, "Sloth", "127.0.0.1")
    await flood_until_cut(table, peer)
    await asyncio.wait_for(table.gone.wait(), 10)
    assert table.closed[-1][1] == "slow-consumer"
    assert not server.peers
    peer.close()


async def test_a_truncated_frame_is_logged(
        make_server: ServerFactory, caplog: pytest.LogCaptureFixture) -> None:
    server = await make_server(FLOOD_LIMITS)
    peer = await RawPeer.open(server.port)
    with caplog.at_level("INFO", logger="netproto.server"):
        await peer.send_bytes(encode_frame(hello_wire())[:-3])
        peer.writer.write_eof()
        frames = await peer.until_closed()
    assert frames[-1]["code"] == "truncated-frame"
    assert any("stream ended with" in r.getMessage() and "unfinished frame" in r.getMessage()
               for r in caplog.records)


async def test_a_zero_length_frame_is_a_counted_malformed_frame(
        make_server: ServerFactory) -> None:
    # What docs/PROTOCOL.md §1 says it gets (the budget here is 5).
    server = await make_server(FLOOD_LIMITS)
    peer = await RawPeer.open(server.port)
    await peer.send_bytes(b"\0\0\0\0")
    assert await peer.next() == {"kind": "error", "code": "malformed-frame",
                                 "reason": "empty frame"}
    await peer.send(hello_wire("Ann"))
    assert (await peer.next())["kind"] == "welcome"
    await peer.send_bytes(5 * b"\0\0\0\0")
    frames = await peer.until_closed()
    # The first one counted already: four more are refused, the fifth closes.
    assert [f["code"] for f in frames if f["kind"] != "lobby"] == (
        4 * ["malformed-frame"] + ["too-many-errors"])


# --- helpers ----------------------------------------------------------------------------


class RecordingTable(EchoTable):
    """An EchoTable that notes every resume it is asked to handle."""

    def __init__(self) -> None:
        super().__init__()
        self.resumes: list[str] = []

    def on_message(self, peer: Peer, message: Message) -> None:
        if message.kind == "resume":
            self.resumes.append(getattr(message, "token", ""))
        super().on_message(peer, message)


class RefusingTable(EchoTable):
    """An EchoTable that refuses, as a table would, every move asking for it."""

    def on_message(self, peer: Peer, message: Message) -> None:
        if isinstance(message, Move) and message.move.get("refuse"):
            raise ApplicationError("not-your-turn", "it is not your turn")
        super().on_message(peer, message)


def frame(wire: dict[str, Any]) -> bytes:
    return encode_frame(wire)


async def answered(peer: RawPeer, wire: dict[str, Any] | None, kind: str) -> dict[str, Any]:
    """Send `wire` (if any), then skip frames up to the first of `kind`."""
    if wire is not None:
        await peer.send(wire)
    while (reply := await peer.next())["kind"] != kind:
        pass
    return reply


class SlowTable(EchoTable):
    """An EchoTable that notes when the server stops sending to a peer (a slow consumer:
    the pump gives up inside the write that passes the limit) and when a peer is gone."""

    def __init__(self) -> None:
        super().__init__()
        self.cut = asyncio.Event()
        self.gone = asyncio.Event()

    def on_message(self, peer: Peer, message: Message) -> None:
        super().on_message(peer, message)
        if not peer.is_open:
            self.cut.set()

    def on_close(self, peer: Peer, code: str, reason: str) -> None:
        super().on_close(peer, code, reason)
        self.gone.set()


class LogSignal(logging.Handler):
    """Sets `seen` when a record containing `text` is logged (the test waits on it)."""

    def __init__(self, text: str) -> None:
        super().__init__(logging.INFO)
        self.text = text
        self.seen = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if self.text in record.getMessage():
            self.seen.set()


async def test_accept_failures_for_want_of_descriptors_are_logged_once_a_minute(
        make_server: ServerFactory, caplog: pytest.LogCaptureFixture) -> None:
    # Before: asyncio logged each failed accept() at the descriptor limit, for every
    # listening socket (61,713 lines in one flood).
    await make_server(FLOOD_LIMITS)  # its start sets up the loop
    loop = asyncio.get_running_loop()
    handler = loop.get_exception_handler()
    assert handler is not None
    with caplog.at_level(logging.ERROR):
        for _ in range(500):
            handler(loop, {"message": "socket.accept() out of system resource",
                           "exception": OSError(24, "Too many open files")})
        handler(loop, {"message": "something else", "exception": ValueError("kept")})
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 2
    assert lines[0].startswith("cannot accept connections: [Errno 24] Too many open files")
    assert lines[1] == "something else"
