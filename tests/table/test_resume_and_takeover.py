"""Drops: resuming with the token mid-game, and a bot taking over a seat nobody reclaims."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import replace

from host_table_helpers import FAST_CLIENT, serve

from netproto.client import Disconnected, TableClient
from netproto.wire.messages import Lobby, View
from ono99tui.bots import make_bot
from ono99tui.client.bot_player import play_matches
from ono99tui.game import MATCH_OVER
from ono99tui.game.codec import move_to_wire, view_from_wire
from ono99tui.host.core import FINISHED, PLAYING
from ono99tui.host.journal.records import replay
from ono99tui.host.server import TableApplication


async def until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """Poll a condition of the in-process table (every loop tick) until it holds."""
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.005)
    await asyncio.wait_for(wait(), timeout)


def moves_by(table: TableApplication, seat: int) -> int:
    return sum(1 for record in table.journal for move in record.moves if move["seat"] == seat)


async def play_latest(client: TableClient) -> None:
    """Play the first legal move of the client's newest view."""
    view = await client.wait_for(View, 3, lambda v: v is client.view
                                 and bool(view_from_wire(v.view).legal_moves))
    move = view_from_wire(view.view).legal_moves[0]
    await client.send_move(move_to_wire(move), seq=view.seq)


async def test_dropped_link_reconnects_and_the_match_finishes() -> None:
    server = await serve(rules="1980", capacity=3, start_when=3, grace_seconds=30.0)
    try:
        server.table.add_bot("greedy")
        server.table.add_bot("greedy")
        client = await TableClient.connect("127.0.0.1", server.port, name="Ann",
                                           settings=FAST_CLIENT)
        seat = client.seat
        assert seat == 2
        game = asyncio.create_task(play_matches(client, make_bot("greedy"), 1, random.Random(1)))
        await until(lambda: moves_by(server.table, 2) >= 3)
        client.abort_link()
        moves_before_drop = moves_by(server.table, 2)
        report = await asyncio.wait_for(game, 20)
    finally:
        await server.stop()
    assert report.matches == 1 and report.reconnects == 1
    # The grace period is long: only the resumed player can have played seat 2 since.
    assert moves_by(server.table, 2) > moves_before_drop
    record = server.table.journal[0]
    assert replay(record).phase == MATCH_OVER


async def test_new_process_resumes_with_the_token_mid_game() -> None:
    server = await serve(rules="2022", capacity=3, start_when=3, grace_seconds=30.0)
    try:
        server.table.add_bot("random")
        first = await TableClient.connect("127.0.0.1", server.port, name="Ann",
                                          settings=replace(FAST_CLIENT, reconnect=False))
        second = await TableClient.connect("127.0.0.1", server.port, name="Bob",
                                           settings=FAST_CLIENT)
        await until(lambda: server.table.phase == PLAYING)
        token, seat = first.token, first.seat
        assert token is not None and seat is not None
        # The first client dies without a goodbye; its socket is gone.
        first.abort_link()
        await first.wait_for(Disconnected, 2)
        await until(lambda: server.table.seats[seat].peer is None)
        held_hand = server.table.state.hands[seat]  # type: ignore[union-attr]

        reborn = await TableClient.connect("127.0.0.1", server.port, token=token,
                                           settings=FAST_CLIENT)
        assert reborn.seat == seat and reborn.token == token
        view = await reborn.wait_for(View, 2)
        assert view_from_wire(view.view).hand == held_hand  # the full current view
        assert server.table.seats[seat].peer is not None
        results = await asyncio.wait_for(asyncio.gather(
            play_matches(reborn, make_bot("greedy"), 1),
            play_matches(second, make_bot("greedy"), 1)), 20)
    finally:
        await server.stop()
    assert [report.matches for report in results] == [1, 1]
    assert server.table.phase == FINISHED


async def test_seat_nobody_reclaims_is_taken_over_by_a_bot() -> None:
    server = await serve(rules="2022", capacity=3, start_when=3, grace_seconds=0.2)
    try:
        server.table.add_bot("greedy")
        leaver = await TableClient.connect("127.0.0.1", server.port, name="Gone",
                                           settings=replace(FAST_CLIENT, reconnect=False))
        stayer = await TableClient.connect("127.0.0.1", server.port, name="Stay",
                                           settings=FAST_CLIENT)
        await until(lambda: server.table.phase == PLAYING)
        leaver.abort_link()
        lobby = await stayer.wait_for(
            Lobby, 3, lambda m: m.seats[leaver.seat].kind == "bot")  # type: ignore[index]
        assert not lobby.seats[leaver.seat].connected  # type: ignore[index]
        report = await asyncio.wait_for(play_matches(stayer, make_bot("greedy"), 1), 20)
    finally:
        await server.stop()
    assert report.matches == 1
    record = server.table.journal[0]
    assert moves_by(server.table, leaver.seat) > 0 or len(record.moves) > 0  # type: ignore[arg-type]
    assert replay(record).winners == record.winners


async def test_resume_takes_the_seat_back_from_the_bot() -> None:
    # Two humans: the game waits for "Stay", so the take-over is observable move by move.
    server = await serve(rules="2022", capacity=2, start_when=2, grace_seconds=0.1)
    try:
        leaver = await TableClient.connect("127.0.0.1", server.port, name="Gone",
                                           settings=replace(FAST_CLIENT, reconnect=False))
        stayer = await TableClient.connect("127.0.0.1", server.port, name="Stay",
                                           settings=FAST_CLIENT)
        await until(lambda: server.table.phase == PLAYING)
        gone_seat, token = leaver.seat, leaver.token
        leaver.abort_link()
        await stayer.wait_for(Lobby, 3, lambda m: m.seats[gone_seat].kind == "bot")
        # While the bot stands in, the table never waits for the absent player.
        for _ in range(3):
            if server.table.phase != PLAYING:
                break
            await play_latest(stayer)
        if server.table.phase == PLAYING:
            back = await TableClient.connect("127.0.0.1", server.port, token=token,
                                             settings=FAST_CLIENT)
            lobby = await stayer.wait_for(Lobby, 3, lambda m: m.seats[gone_seat].kind == "human")
            assert lobby.seats[gone_seat].connected
            assert not server.table.seats[gone_seat].bot_plays
            assert back.seat == gone_seat
            await back.close()
    finally:
        await server.stop()
    assert moves_by(server.table, gone_seat) >= 1  # type: ignore[arg-type]
