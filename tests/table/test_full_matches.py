"""Full matches over real loopback sockets: network bots and host bots, every preset."""

from __future__ import annotations

import asyncio
import random

import pytest
from host_table_helpers import FAST_CLIENT, PRESETS, serve

from netproto.client import TableClient
from ono99tui.bots import make_bot
from ono99tui.client.bot_player import play_matches
from ono99tui.game import MATCH_OVER
from ono99tui.host.journal.records import replay


@pytest.mark.parametrize("rules", PRESETS)
async def test_four_network_bots_play_full_matches(rules: str) -> None:
    server = await serve(rules=rules, capacity=4, start_when=4, seed=hash(rules) & 0xFFFF)
    try:
        async def player(number: int) -> tuple[int | None, int]:
            client = await TableClient.connect("127.0.0.1", server.port, name=f"Bot {number}",
                                               settings=FAST_CLIENT)
            kind = "greedy" if number % 2 else "random"
            report = await play_matches(client, make_bot(kind), 2, random.Random(number))
            return client.seat, report.moves

        results = await asyncio.wait_for(asyncio.gather(*(player(n) for n in range(4))), 30)
    finally:
        await server.stop()
    journal = server.table.journal
    assert len(journal) >= 2
    for record in journal[:2]:
        # Every applied move replays legally from the seed to the recorded winner:
        # nothing was lost, nothing applied twice.
        final = replay(record)
        assert final.phase == MATCH_OVER and final.winners == record.winners
    # The moves each client sent all landed in the journal exactly once.
    moves_by_seat = {seat: 0 for seat, _ in results}
    for record in journal[:2]:
        for move in record.moves:
            moves_by_seat[move["seat"]] += 1
    assert moves_by_seat == {seat: moves for seat, moves in results}


@pytest.mark.parametrize("rules", PRESETS)
async def test_host_bots_and_network_bots_share_a_table(rules: str) -> None:
    server = await serve(rules=rules, capacity=4, start_when=4)
    try:
        server.table.add_bot("greedy")
        server.table.add_bot("random")
        clients = [await TableClient.connect("127.0.0.1", server.port, name=name,
                                             settings=FAST_CLIENT) for name in ("Ann", "Bob")]
        reports = await asyncio.wait_for(asyncio.gather(
            *(play_matches(c, make_bot("greedy"), 1) for c in clients)), 30)
    finally:
        await server.stop()
    assert [report.matches for report in reports] == [1, 1]
    record = server.table.journal[0]
    assert record.names == ("Greedy bot", "Random bot", "Ann", "Bob")
    assert replay(record).winners == record.winners
