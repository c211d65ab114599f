"""`rated{rated}` over real sockets: a player switches their rating off and back on in the
waiting room and everyone's lobby says so; during a match the table refuses it; a spectator
may not send it; a non-bool is a typed error; and the choice the table confirmed (not a
refused one) outlives a host restarted in the waiting room (the client's hello asks for it
again)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from host_table_helpers import FAST_CLIENT, FAST_LIMITS, config

from netproto.client import Reconnected, TableClient
from netproto.wire.framing import encode_frame
from netproto.wire.messages import Error, Lobby, Rated, SeatInfo, SeatKind
from ono99tui.host.journal.ratings_file import Ratings
from ono99tui.host.ratings import RatingBook
from ono99tui.host.server import TableServer


async def connect(port: int, name: str, **options: Any) -> TableClient:
    return await TableClient.connect("127.0.0.1", port, name=name, settings=FAST_CLIENT,
                                     **options)


def raw_send(client: TableClient, frame: dict[str, Any]) -> None:
    """Write a frame past the client's own checks (a client made by someone else)."""
    link = client._link
    assert link is not None and link.transport is not None
    link.transport.write(encode_frame(frame))  # type: ignore[attr-defined]


def seat(lobby: Lobby, name: str) -> SeatInfo:
    """`name`'s seat (a seat of nobody's, rated, until they sit down)."""
    return next((seat for seat in lobby.seats if seat.name == name),
                SeatInfo(-1, name, SeatKind.HUMAN, False, False))


async def test_a_player_switches_rating_off_and_on_and_a_match_refuses_it() -> None:
    server = TableServer(config(capacity=3), limits=FAST_LIMITS,
                         ratings=Ratings(RatingBook()))
    await server.start("127.0.0.1", 0)
    try:
        ann = await connect(server.port, "Ann")
        bob = await connect(server.port, "Bob")
        assert bob.welcome is not None and bob.welcome.table["rates"] is True
        await bob.rated(False)
        lobby = await ann.wait_for(Lobby, 2, lambda m: seat(m, "Bob").unrated)
        assert seat(lobby, "Bob").rating is None and seat(lobby, "Ann").rating == 1000
        await bob.wait_for(Lobby, 2, lambda m: seat(m, "Bob").unrated)
        assert bob.unrated  # the table said so: what a hello after a host restart asks for
        # A non-bool is a typed error, and changes nothing.
        raw_send(bob, {"kind": "rated", "rated": "no"})
        refused = await bob.wait_for(Error, 2)
        assert refused.code == "bad-message" and refused.ref == "rated"
        assert server.table.core.seats[1].unrated
        await bob.rated(True)
        await ann.wait_for(Lobby, 2, lambda m: not seat(m, "Bob").unrated
                           and seat(m, "Bob").rating == 1000)
        # A player may not ask during a match.
        await ann.start()
        await bob.wait_for(Lobby, 2, lambda m: m.phase == "playing")
        await bob.rated(False)
        refused = await bob.wait_for(Error, 2)
        assert (refused.code, refused.ref) == ("match-running", "rated")
        assert refused.reason == "not while a match is being played"
        assert not server.table.core.seats[1].unrated
        # Refused, so not remembered: a hello after a host restart must not ask for it.
        assert not bob.unrated
    finally:
        await server.stop()


async def test_a_spectators_rated_is_an_unexpected_message() -> None:
    server = TableServer(config(capacity=2), limits=FAST_LIMITS,
                         ratings=Ratings(RatingBook()))
    await server.start("127.0.0.1", 0)
    try:
        await connect(server.port, "Ann")
        sam = await connect(server.port, "Sam", spectate=True)
        raw_send(sam, Rated(rated=False).to_wire())  # its own client would not send it
        refused = await sam.wait_for(Error, 2)
        assert (refused.code, refused.ref) == ("unexpected-message", "rated")
        assert not any(seat.unrated for seat in server.table.core.seats)
    finally:
        await server.stop()


async def test_the_choice_outlives_a_host_restarted_in_the_waiting_room(
        host_process: Callable[..., Any], tmp_path: Path) -> None:
    environment = {"ONO99_DATA_DIR": str(tmp_path), "ONO99_MDNS_INTERFACES": "127.0.0.1"}
    first = host_process("--seats", "3", env=environment)
    await asyncio.to_thread(first.start)
    client = await connect(first.port, "Ann")
    try:
        await client.rated(False)
        await client.wait_for(Lobby, 5, lambda m: seat(m, "Ann").unrated)
        first.kill()  # no goodbye: the client tries to come back
        second = host_process("--seats", "3", env=environment)
        second.port = first.port
        await asyncio.to_thread(second.start)
        await client.wait_for(Reconnected, 20)
        # The new table never knew the seat: the token failed, the hello asked again.
        lobby = await client.wait_for(Lobby, 5)
        assert seat(lobby, "Ann").unrated and seat(lobby, "Ann").rating is None
    finally:
        await client.close()
