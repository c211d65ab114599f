"""Standings across rematches: the table counts the matches each player won and played, and
every lobby after the first match carries the counts, whatever the phase."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

from host_table_helpers import FAST_CLIENT, serve

from netproto.client import TableClient
from netproto.wire.messages import Lobby
from ono99tui.bots import make_bot
from ono99tui.client.bot_player import play_matches
from ono99tui.host.core import FINISHED


def won_by_name(journal: list, matches: int) -> Counter[str]:  # type: ignore[type-arg]
    """Matches won per name, from the first `matches` records of the journal."""
    return Counter(record.names[seat] for record in journal[:matches] for seat in record.winners)


async def test_matches_won_are_counted_across_rematches_and_seen_by_a_late_spectator() -> None:
    server = await serve(rules="2022", capacity=3, start_when=3)
    try:
        server.table.add_bot("greedy")
        server.table.add_bot("random")
        client = await TableClient.connect("127.0.0.1", server.port, name="Ann",
                                           settings=FAST_CLIENT)
        assert client.lobby is not None and "matches_won" not in client.lobby.results
        await asyncio.wait_for(play_matches(client, make_bot("greedy"), 3, random.Random(2)), 30)
        won = won_by_name(server.table.journal, 3)
        assert sum(won.values()) >= 3
        # Someone who arrives later still sees the standings.
        watcher = await TableClient.connect("127.0.0.1", server.port, name="Wat",
                                            spectate=True, settings=FAST_CLIENT)
        lobby = await watcher.wait_for(Lobby, 3)
        await watcher.close()
    finally:
        await server.stop()
    # Ann left after her third match: her seat freed, the two bots wait for players.
    assert lobby.phase == FINISHED and len(server.table.journal) == 3
    names = [seat.name for seat in lobby.seats]
    assert lobby.results["matches_won"] == [won[name] for name in names]
    # The bots played all three matches; the seat Ann left is free.
    played = Counter(name for record in server.table.journal[:3] for name in record.names)
    assert lobby.results["matches_played"] == [played[name] for name in names]
    assert all(played[name] == 3 for name in names)


async def test_the_standings_travel_with_every_lobby_of_the_rematch() -> None:
    """A player who resumes in the middle of the next match gets a lobby in phase
    "playing": the standings must be in it too."""
    server = await serve(rules="2022", capacity=3, start_when=3)
    try:
        server.table.add_bot("greedy")
        server.table.add_bot("random")
        watcher = await TableClient.connect("127.0.0.1", server.port, name="Wat",
                                            spectate=True, settings=FAST_CLIENT)
        client = await TableClient.connect("127.0.0.1", server.port, name="Ann",
                                           settings=FAST_CLIENT)
        await asyncio.wait_for(play_matches(client, make_bot("greedy"), 2, random.Random(2)), 30)
        # Everything the watcher was sent has arrived by now (Ann saw the second match end).
        lobbies: list[Lobby] = []
        ends = 0  # lobbies that end a match (the first "finished" after a "playing")
        while ends < 2:
            item = await watcher.recv(3)
            if isinstance(item, Lobby):
                ends += item.phase == FINISHED and bool(lobbies) and lobbies[-1].phase == "playing"
                lobbies.append(item)
        await watcher.close()
    finally:
        await server.stop()
    first_win = won_by_name(server.table.journal, 1)
    second_match = [lobby for lobby in lobbies if lobby.phase == "playing"
                    and "matches_won" in lobby.results]
    assert second_match, [lobby.phase for lobby in lobbies]
    for lobby in second_match:
        assert lobby.results == {"matches_won": [first_win[seat.name] for seat in lobby.seats],
                                 "matches_played": [1] * len(lobby.seats)}
