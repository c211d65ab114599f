"""Trusted doors (`Server.trust_door`), on real loopback sockets: a door's connections are
counted under the door's own cap, not their address's or the server's; without the key, or
with a wrong one, a local client is held to every per-address limit as before, and a wrong
key is a wrong guess."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest
from loopback_helpers import FAST_LIMITS, EchoTable, RawPeer, hello_wire

from netproto.client import ClientSettings, TableClient
from netproto.client_errors import HandshakeRefused
from netproto.limits import GuessPolicy
from netproto.server import Server, is_loopback

# Two established connections from one address, four in all: a door of six is past both.
SMALL = replace(FAST_LIMITS, max_connections=4, max_connections_per_address=2,
                handshake_timeout=60.0, error_budget=100)
FAST_CLIENT = ClientSettings(heartbeat_timeout=5.0, backoff_initial=0.01, reconnect_for=0.5)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    server = Server(EchoTable(), replace(SMALL, guesses=GuessPolicy(
        free_per_address=2, first_pause=1.0, max_pause=8.0, free_in_all=50)),
        clock=FakeClock())
    await server.start("127.0.0.1", 0)
    try:
        yield server
    finally:
        await server.stop()


def door_hello(key: str, name: str = "Ann") -> dict[str, Any]:
    return {**hello_wire(name), "door_key": key}


async def answer(port: int, wire: dict[str, Any], source: str = "127.0.0.1",
                 keep: list[RawPeer] | None = None) -> dict[str, Any]:
    """The first answer to `wire` on a fresh connection from `source` (kept open in
    `keep` if given, else closed)."""
    peer = await RawPeer.open(port, source)
    await peer.send(wire)
    reply = await peer.next()
    if keep is not None:
        keep.append(peer)
    else:
        peer.close()
    return reply


async def test_a_doors_connections_count_under_its_cap_not_the_address(server: Server) -> None:
    # Before: every user of a door on this machine was one more connection of 127.0.0.1,
    # so the door's 3rd here (the 33rd at a real table) was refused too-many-connections.
    key = server.trust_door("the web door", 6)
    held: list[RawPeer] = []
    for number in range(6):
        reply = await answer(server.port, door_hello(key, f"P{number}"), keep=held)
        assert reply["kind"] == "welcome", reply
    assert sorted(peer.door for peer in server.peers) == 6 * ["the web door"]
    # The door's seventh is past the door's own cap.
    refused = await answer(server.port, door_hello(key, "P6"))
    assert (refused["kind"], refused["code"]) == ("bye", "server-full")
    assert refused["reason"] == ("this server takes at most 6 connections through "
                                 "the web door")
    # A local client without the key still has its address's share (2), the door's
    # connections not counted in it, and no more.
    for name in ("Lou", "Lea"):
        assert (await answer(server.port, hello_wire(name), keep=held))["kind"] == "welcome"
    third = await answer(server.port, hello_wire("Lim"))
    assert (third["kind"], third["code"]) == ("bye", "too-many-connections")
    # Others elsewhere fill the server's own four; the door's six were never in them.
    for source in ("127.0.0.2", "127.0.0.3"):
        assert (await answer(server.port, hello_wire("X"), source, held))["kind"] == "welcome"
    full = await answer(server.port, hello_wire("Y"), "127.0.0.4")
    assert (full["kind"], full["code"]) == ("bye", "server-full")
    # A door's connection that leaves frees its place in the door's cap.
    held[0].close()
    while sum(peer.door is not None for peer in server.peers) == 6:
        await asyncio.sleep(0.01)
    assert (await answer(server.port, door_hello(key, "P7"), keep=held))["kind"] == "welcome"
    for peer in held:
        peer.close()


async def test_a_wrong_door_key_is_a_wrong_guess_and_gains_nothing(server: Server) -> None:
    key = server.trust_door("the web door", 6)
    held: list[RawPeer] = []
    peer = await RawPeer.open(server.port, "127.0.0.1")
    codes = []
    for guess in ("a", "b", "c", "d"):
        await peer.send(door_hello(guess))
        codes.append((await peer.next())["code"])
    # Two free wrong guesses, then the address waits: wrong keys are turned away unread.
    assert codes == ["bad-door-key", "bad-door-key", "rate-limited", "rate-limited"]
    # Refused, it counted under nobody's cap and changed nothing.
    assert not any(p.door for p in server.peers)
    peer.close()
    # The right key always gets in, as a good resume token does (256 random bits are not
    # guessed): a local guesser cannot lock the door's own users out of the table.
    assert (await answer(server.port, door_hello(key)))["kind"] == "welcome"
    # The guesser's address keeps its own two, no more.
    for name in ("Lou", "Lea"):
        assert (await answer(server.port, hello_wire(name), keep=held))["kind"] == "welcome"
    third = await answer(server.port, hello_wire("Lim"))
    assert third["code"] == "too-many-connections"
    # Another address is not held up by 127.0.0.1's guesses, and its right key gets in.
    assert (await answer(server.port, door_hello(key), "127.0.0.9", held))["kind"] == "welcome"
    for peer in held:
        peer.close()


async def test_a_door_trusted_again_gets_a_new_key_and_the_old_stops(server: Server) -> None:
    old = server.trust_door("the web door", 6)
    new = server.trust_door("the web door", 6)
    assert old != new and len(new) >= 43
    assert (await answer(server.port, door_hello(old)))["code"] == "bad-door-key"
    assert (await answer(server.port, door_hello(new)))["kind"] == "welcome"
    with pytest.raises(ValueError, match="at least one connection"):
        server.trust_door("the web door", 0)


async def test_table_client_says_hello_with_its_door_key(server: Server) -> None:
    key = server.trust_door("the web door", 6)
    clients = [await TableClient.connect("127.0.0.1", server.port, name=f"P{n}", door_key=key,
                                         settings=FAST_CLIENT) for n in range(3)]
    try:
        assert [client.seat for client in clients] == [0, 1, 2]  # past the address's 2
        with pytest.raises(HandshakeRefused) as refused:
            await TableClient.connect("127.0.0.1", server.port, name="Z", door_key="guess",
                                      settings=FAST_CLIENT)
        assert refused.value.code == "bad-door-key"
    finally:
        for client in clients:
            await client.close()


def _non_loopback_address() -> str | None:
    """An IPv4 address of this machine that is not loopback, or None."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: it picks the route's source
        address = str(probe.getsockname()[0])
    except OSError:
        return None
    finally:
        probe.close()
    return None if is_loopback(address) else address


async def test_the_right_key_from_another_machine_is_refused() -> None:
    # The key is for a door in the host's own process: from the network it is no door's,
    # even if it leaked.
    address = _non_loopback_address()
    if address is None:
        pytest.skip("this machine has no IPv4 address but loopback")
    server = Server(EchoTable(), SMALL)
    await server.start("0.0.0.0", 0)
    try:
        key = server.trust_door("the web door", 6)
        reader, writer = await asyncio.open_connection(address, server.port)
        peer = RawPeer(reader, writer)
        await peer.send(door_hello(key))
        assert (await peer.next())["code"] == "bad-door-key"
        peer.close()
    finally:
        await server.stop()


def test_loopback_is_every_127_address_and_the_ipv6_one() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("127.9.8.7") and is_loopback("::1")
    assert not is_loopback("192.0.2.2") and not is_loopback("fd00::2")
    assert not is_loopback("?") and not is_loopback("")
