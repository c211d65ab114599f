"""A bot that thinks never holds up the table: on real loopback sockets, a table bot whose
`choose` blocks its thread keeps every other connection served (pings answered, views to
newcomers), and past the table's thinking budget the greedy choice plays for it.

The slow bot blocks on an event the test sets at the end; nothing in the test sleeps: it
waits for frames with generous limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from collections.abc import AsyncIterator

import pytest
from host_table_helpers import FAST_CLIENT, serve

import ono99tui.bots
from netproto.client import TableClient
from netproto.wire.messages import Pong, View
from ono99tui.bots import Bot, make_bot
from ono99tui.client.bot_player import play_matches
from ono99tui.game import Move, PlayerView
from ono99tui.game.codec import view_from_wire
from ono99tui.host.server import TableServer

LIMIT = 20.0  # seconds: generous, for a loaded machine


class BlockingBot(Bot):
    """Thinks until the test lets it go (`release`): a search that takes forever."""

    name = "blocking"

    def __init__(self) -> None:
        self.asked = threading.Event()
        self.release = threading.Event()
        self.threads: list[str] = []

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """Block this thread until released; then the first legal move."""
        self.threads.append(threading.current_thread().name)
        self.asked.set()
        self.release.wait(120)
        return view.legal_moves[0]


@contextlib.asynccontextmanager
async def a_match_with_a_blocking_bot(think: float, monkeypatch: pytest.MonkeyPatch
                                      ) -> AsyncIterator[tuple[TableServer, BlockingBot, TableClient, View]]:
    """A table bot that blocks, and two network players playing; yields once the bot was
    asked for a move (with the newest view a spectator got, at the bot's turn)."""
    # A seat names its bot's kind, and the table makes that bot to think: this kind makes
    # the one blocking bot the test holds (the journal names it too).
    bot = BlockingBot()
    monkeypatch.setitem(ono99tui.bots._FACTORIES, "blocking", lambda: bot)
    monkeypatch.setattr(ono99tui.bots, "BOT_NAMES", (*ono99tui.bots.BOT_NAMES, "blocking"))
    server = await serve(capacity=3, start_when=3, bot_think_seconds=think)
    players: list[asyncio.Task[object]] = []
    try:
        server.table.add_bot("normal")
        server.table.seats[0].bot = "blocking"  # the seat's player: the slow one
        for name in ("Ann", "Bob"):
            client = await TableClient.connect("127.0.0.1", server.port, name=name,
                                               settings=FAST_CLIENT)
            players.append(asyncio.create_task(play_matches(client, make_bot("greedy"), 1)))
        # Waiting on a thread's event without blocking the loop: a worker thread waits.
        assert await asyncio.to_thread(bot.asked.wait, LIMIT)
        watcher = await TableClient.connect("127.0.0.1", server.port, name="Cy",
                                            spectate=True, settings=FAST_CLIENT)
        try:
            seen = await watcher.wait_for(View, LIMIT)
            yield server, bot, watcher, seen
        finally:
            async with asyncio.timeout(LIMIT):  # a stuck close fails here, by name
                await watcher.close()
    finally:
        bot.release.set()
        for task in players:
            task.cancel()
        async with asyncio.timeout(LIMIT):
            await asyncio.gather(*players, return_exceptions=True)
            await server.stop()


async def test_pings_and_views_flow_while_a_bot_thinks(monkeypatch: pytest.MonkeyPatch) -> None:
    async with a_match_with_a_blocking_bot(60.0, monkeypatch) as (server, bot, watcher, seen):
        moves = len(server.table.journal[-1].moves)
        # A newcomer was welcomed and shown the table while the bot thinks (its turn), and
        # its pings are answered.
        shown = view_from_wire(seen.view)
        assert 0 in (shown.turn, shown.discarding)
        await watcher.ping(7)
        assert (await watcher.wait_for(Pong, LIMIT)).nonce == 7
        assert len(server.table.journal[-1].moves) == moves  # the bot still thinks
        assert bot.threads and all(name.startswith("ono99-bot") for name in bot.threads)
        bot.release.set()
        # Its move plays once it has chosen.
        await _until(lambda: len(server.table.journal[-1].moves) > moves)
        assert server.table.journal[-1].moves[moves]["seat"] == 0


async def test_past_the_thinking_budget_the_greedy_choice_plays(
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    async with a_match_with_a_blocking_bot(0.5, monkeypatch) as (server, bot, _, _):
        moves = len(server.table.journal[-1].moves)
        # The bot is still blocked, yet its seat has moved: the fallback played for it.
        await _until(lambda: len(server.table.journal[-1].moves) > moves)
        assert not bot.release.is_set()
        assert server.table.journal[-1].moves[moves]["seat"] == 0
    assert "took longer than 0.5 s" in caplog.text


async def _until(condition: object) -> None:
    """Wait (on the loop, with a generous limit) until `condition()` holds."""
    assert callable(condition)
    async with asyncio.timeout(LIMIT):
        while not condition():
            await asyncio.sleep(0.01)


# --- `ono99 bot`: a network bot thinks off its own event loop too --------------------------


async def test_a_network_bot_that_thinks_leaves_its_event_loop_free() -> None:
    server = await serve(capacity=2, start_when=2)
    bot = BlockingBot()
    try:
        server.table.add_bot("normal")
        client = await TableClient.connect("127.0.0.1", server.port, name="Slow",
                                           settings=FAST_CLIENT)
        playing = asyncio.create_task(play_matches(client, bot, 1, think_seconds=60.0))
        assert await asyncio.to_thread(bot.asked.wait, LIMIT)
        # Another connection on the very loop the thinking bot's client runs on is served.
        watcher = await TableClient.connect("127.0.0.1", server.port, name="Cy",
                                            spectate=True, settings=FAST_CLIENT)
        try:
            await watcher.wait_for(View, LIMIT)
            await watcher.ping(3)
            assert (await watcher.wait_for(Pong, LIMIT)).nonce == 3
        finally:
            async with asyncio.timeout(LIMIT):
                await watcher.close()
        assert not playing.done()
        bot.release.set()
        report = await asyncio.wait_for(playing, LIMIT)
        assert report.matches == 1 and report.moves >= 1
    finally:
        bot.release.set()
        async with asyncio.timeout(LIMIT):
            await server.stop()


async def test_a_network_bot_past_its_budget_sends_the_greedy_choice(
        caplog: pytest.LogCaptureFixture) -> None:
    server = await serve(capacity=2, start_when=2)
    bot = BlockingBot()  # never released until the end: every move is the fallback
    try:
        server.table.add_bot("normal")
        client = await TableClient.connect("127.0.0.1", server.port, name="Slow",
                                           settings=FAST_CLIENT)
        report = await asyncio.wait_for(play_matches(client, bot, 1, think_seconds=0.2),
                                        LIMIT * 3)
        assert report.matches == 1 and report.moves >= 1
        assert not bot.release.is_set() and "took longer than 0.2 s" in caplog.text
    finally:
        bot.release.set()
        async with asyncio.timeout(LIMIT):
            await server.stop()
