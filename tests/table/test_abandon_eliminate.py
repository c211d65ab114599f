"""`--on-abandon eliminate`: a seat whose player never returns resigns; the others play on."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
from dataclasses import replace

import pytest
from host_table_helpers import FAST_CLIENT, serve

from netproto.client import Disconnected, TableClient
from netproto.wire.messages import Error, Lobby, View
from ono99tui.bots import make_bot
from ono99tui.client.bot_player import play_matches
from ono99tui.commands import host as host_command
from ono99tui.game import MATCH_OVER, Play
from ono99tui.game.codec import move_to_wire, view_from_wire
from ono99tui.host.core import FINISHED, PLAYING
from ono99tui.host.journal.records import replay, resign_record
from ono99tui.host.outputs import BotTurn, GraceExpiry
from ono99tui.host.server import TableServer
from ono99tui.host.table_config import TableConfig, TableConfigError

ONCE = replace(FAST_CLIENT, reconnect=False)


async def until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """Poll a condition of the in-process table (every few ms) until it holds."""
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.005)
    await asyncio.wait_for(wait(), timeout)


def assert_nothing_left(server: TableServer) -> None:
    """After stop: no bot timer, no grace timer, no open connection, no client task."""
    table = server.table
    assert not [key for key in table.timers if isinstance(key, BotTurn)]
    assert not [key for key in table.timers if isinstance(key, GraceExpiry)]
    assert server.server.peers == []
    others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    assert not [task for task in others if task.get_name().startswith("table-client")]


async def test_abandoned_seat_resigns_and_the_others_play_to_the_end() -> None:
    server = await serve(rules="1980", capacity=3, start_when=3, grace_seconds=0.1,
                         abandon_policy="eliminate")
    try:
        server.table.add_bot("greedy")
        leaver = await TableClient.connect("127.0.0.1", server.port, name="Gone", settings=ONCE)
        stayer = await TableClient.connect("127.0.0.1", server.port, name="Stay",
                                           settings=FAST_CLIENT)
        gone = leaver.seat
        assert gone is not None
        await until(lambda: server.table.phase == PLAYING)
        leaver.abort_link()
        lobby = await stayer.wait_for(Lobby, 3, lambda m: m.seats[gone].kind == "resigned")
        assert not lobby.seats[gone].connected
        assert lobby.options["abandon_policy"] == "eliminate"
        state = server.table.state
        assert state is not None and not state.alive[gone] and state.phase != MATCH_OVER
        # The stayer's next view carries the resignation and shows the seat out.
        view = await stayer.wait_for(
            View, 3, lambda v: any(e["kind"] == "resigned" for e in v.events))
        assert {"kind": "resigned", "seat": gone} in view.events
        assert view_from_wire(view.view).eliminated[gone]
        report = await asyncio.wait_for(play_matches(stayer, make_bot("greedy"), 1), 20)
        assert report.matches == 1 and server.table.phase == FINISHED
        record = server.table.journal[0]
        resigned_at = record.moves.index(resign_record(gone))
        assert all(move["seat"] != gone for move in record.moves[resigned_at + 1 :])
        final = replay(record)  # the journal replays the resignation exactly
        assert final.phase == MATCH_OVER and final.winners == record.winners
        assert gone not in record.winners and not final.alive[gone]
        # "Stay" said bye after the match and was freed; "Gone" never came back: the next
        # match frees the resigned seat instead of dealing it cards nobody would play.
        assert [seat.name for seat in server.table.seats] == ["Greedy bot", "Gone"]
        server.table.add_bot("greedy")
        server.table.start()
        assert [seat.name for seat in server.table.seats] == ["Greedy bot", "Greedy bot 2"]
        assert not any(seat.resigned for seat in server.table.seats)
    finally:
        await server.stop()
    assert_nothing_left(server)


async def test_returning_player_watches_from_the_resigned_seat() -> None:
    # Two bots and two humans: the match waits for "Stay", so it is still running when
    # the player who resigned comes back.
    server = await serve(rules="2022", capacity=4, start_when=4, grace_seconds=0.1,
                         abandon_policy="eliminate")
    try:
        server.table.add_bot("greedy")
        server.table.add_bot("greedy")
        leaver = await TableClient.connect("127.0.0.1", server.port, name="Gone", settings=ONCE)
        stayer = await TableClient.connect("127.0.0.1", server.port, name="Stay",
                                           settings=FAST_CLIENT)
        gone, token = leaver.seat, leaver.token
        assert gone is not None and token is not None
        await until(lambda: server.table.phase == PLAYING)
        leaver.abort_link()
        await leaver.wait_for(Disconnected, 2)
        await stayer.wait_for(Lobby, 3, lambda m: m.seats[gone].kind == "resigned")
        assert server.table.phase == PLAYING  # seed 7: the match is still on

        back = await TableClient.connect("127.0.0.1", server.port, token=token,
                                         settings=FAST_CLIENT)
        assert back.seat == gone and back.role == "player"
        lobby = await back.wait_for(Lobby, 3, lambda m: m.seats[gone].connected)
        assert lobby.seats[gone].kind == "resigned"
        seen = await back.wait_for(View, 3)
        mine = view_from_wire(seen.view)
        assert mine.seat == gone and mine.eliminated[gone] and mine.legal_moves == ()
        assert mine.revealed[gone] == mine.hand  # 2022 reveals the resigned hand
        # The seat cannot act: any move is refused and changes nothing.
        moves_before = len(server.table.journal[0].moves)
        await back.send_move(move_to_wire(Play(gone, mine.hand[0])), seq=seen.seq)
        error = await back.wait_for(Error, 3)
        assert error.code == "not-your-turn"
        assert len(server.table.journal[0].moves) == moves_before
        # The others finish; the returned player watches the match to its end.
        report = await asyncio.wait_for(play_matches(stayer, make_bot("greedy"), 1), 20)
        assert report.matches == 1
        last = await back.wait_for(View, 5, lambda v: v.view["phase"] == MATCH_OVER)
        assert gone not in view_from_wire(last.view).winners
        await back.close()
    finally:
        await server.stop()
    assert_nothing_left(server)


def test_on_abandon_option_reaches_the_table_config() -> None:
    parser = argparse.ArgumentParser()
    host_command.add_arguments(parser)
    args = parser.parse_args(["--headless", "--on-abandon", "eliminate", "--grace", "5"])
    config = host_command.table_config_from_args(args, headless=True)
    assert (config.abandon_policy, config.grace_seconds) == ("eliminate", 5.0)
    default = host_command.table_config_from_args(parser.parse_args([]), headless=True)
    assert default.abandon_policy == "bot"
    with pytest.raises(SystemExit):
        parser.parse_args(["--on-abandon", "vanish"])
    with pytest.raises(TableConfigError):
        TableConfig(abandon_policy="vanish")
