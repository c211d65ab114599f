"""The turn clock for real: a headless `ono99 host --turn-time 1` process, a client on a
loopback socket that never moves, and its turns played for it by the stand-in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host_table_helpers import FAST_CLIENT

from netproto.client import TableClient
from netproto.wire.messages import Lobby, View


async def test_a_silent_players_turn_is_played_for_it_and_everyone_is_told(
    host_process: Callable[..., Any],
) -> None:
    host = host_process("--seats", "2", "--bots", "1", "--turn-time", "1", "--bot-delay", "0",
                        "--idle-limit", "2", "--seed", "3")
    host.start()
    silent = await TableClient.connect("127.0.0.1", host.port, name="Silent",
                                       settings=FAST_CLIENT)
    try:
        me = silent.seat
        assert me is not None
        # The match is dealt at once (two seats); the view says whose clock runs and how long.
        clocked = await silent.wait_for(View, 15, lambda v: v.clock is not None)
        assert clocked.clock.seat == me and clocked.clock.seconds == 1.0
        assert 0 < clocked.clock.left <= 1.0

        def timed_out(view: View) -> bool:
            return any(event["kind"] == "timed_out" for event in view.events)

        told = await silent.wait_for(View, 15, timed_out)
        kinds = [(event["kind"], event.get("seat")) for event in told.events]
        first = kinds.index(("timed_out", me))
        assert ("played", me) in kinds[first:] or ("swapped_four", me) in kinds[first:]
        assert {"kind": "timed_out", "seat": me, "in_a_row": 1} in told.events
        # Two in a row (--idle-limit 2): the seat counts as abandoned and a bot plays it on.
        # The lobby saying so comes just before the view that tells of the second timeout.
        await silent.wait_for(
            View, 15, lambda v: {"kind": "timed_out", "seat": me, "in_a_row": 2} in v.events)
        lobby = silent.lobby
        assert isinstance(lobby, Lobby)
        assert lobby.seats[me].kind == "bot" and lobby.seats[me].connected
        assert lobby.options["turn_seconds"] == 1.0
    finally:
        await silent.close()
