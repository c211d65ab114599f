"""A bot playing over the network (`ono99 bot`) is told the table's public events, as the
table's own bots are: on real loopback sockets, the hard bot knows the discard pile it
watched being built at every choice of a whole 2022 match."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from foreign_servers import rogue_table, serving
from host_table_helpers import FAST_CLIENT, serve

from netproto.client import TableClient
from ono99tui.bots import Bot, make_bot
from ono99tui.bots.hard import HardBot
from ono99tui.client.bot_player import play_matches
from ono99tui.game import Move, PlayerView
from ono99tui.host.server import TableServer

LIMIT = 60.0  # seconds for a whole match: generous, for a loaded machine


class WatchingHardBot(HardBot):
    """The hard bot, noting at each choice whether what it observed fits the view."""

    def __init__(self) -> None:
        super().__init__(budget_s=0.001)  # the search itself is not under test
        self.knew: list[bool] = []

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """Note whether the observed discard pile matches the view, then choose."""
        known = self.observed.discard_pile(view.round_no, view.discard_pile_size,
                                           view.discard_top)
        self.knew.append(known is not None)
        return super().choose(view, rng)


async def seated(port: int, name: str, bot: Bot, token: str | None = None,
                 ) -> tuple[TableClient, asyncio.Task[object]]:
    """A network player for `bot` at the table on `port` (its seat's `token` resumes it),
    playing one match in a task."""
    client = await TableClient.connect("127.0.0.1", port, name=name, token=token,
                                       settings=FAST_CLIENT)
    return client, asyncio.create_task(play_matches(client, bot, 1))


@asynccontextmanager
async def played_to_the_end(**options: object,
                            ) -> AsyncIterator[tuple[TableServer, list[asyncio.Task[object]]]]:
    """A table of `options` and a list for the players' tasks the test starts; leaving
    waits (up to LIMIT) until every one has played its match, then stops the table."""
    server = await serve(**options)
    tasks: list[asyncio.Task[object]] = []
    try:
        yield server, tasks
        async with asyncio.timeout(LIMIT):
            await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        await server.stop()


async def test_a_network_bot_observes_every_event_of_the_match() -> None:
    watcher = WatchingHardBot()
    async with played_to_the_end(capacity=3, start_when=3, rules="2022") as (server, tasks):
        for name, bot in (("Ann", watcher), ("Bob", make_bot("greedy")),
                          ("Cy", make_bot("greedy"))):
            tasks.append((await seated(server.port, name, bot))[1])
    assert len(watcher.knew) >= 3
    assert all(watcher.knew), watcher.knew


async def test_a_bot_that_resumes_its_seat_anew_learns_the_deal_so_far() -> None:
    # `ono99 bot` started again with its seat's token (or back after a host restart) saw
    # nothing of the deal before: the table's history in its first view tells it.
    first = WatchingHardBot()
    async with played_to_the_end(capacity=3, start_when=3, rules="2022",
                                 grace_seconds=60.0) as (server, tasks):
        ann, ann_playing = await seated(server.port, "Ann", first)
        for name in ("Bob", "Cy"):
            tasks.append((await seated(server.port, name, make_bot("greedy")))[1])
        async with asyncio.timeout(LIMIT):
            while len(first.knew) < 2:
                await asyncio.sleep(0.01)
        ann_playing.cancel()
        token = ann.token
        await ann.close(code="hangup")  # the seat is held, as after a drop
        again = WatchingHardBot()  # a new process: it has observed nothing
        ann, playing_again = await seated(server.port, "Ann", again, token)
        tasks.append(playing_again)
    assert again.knew and all(again.knew), again.knew  # from its first choice on


async def test_views_queued_before_the_bot_starts_are_taken_in_before_it_chooses() -> None:
    # Under load (CI) the resumed bot started after two views had come: the first with the
    # match so far (history), the second saying it was the bot's turn. It acted on the
    # second at once and chose without the history. A scripted table makes that order sure.
    from netproto.wire.messages import PROTOCOL_VERSION
    from ono99tui.game import acting_seats, apply, preset, start_match, view
    from ono99tui.game.codec import event_to_wire, view_to_wire

    rng = random.Random(8)
    state, events = start_match(preset("2022"), 3, rng)
    history = [event_to_wire(event) for event in events]
    greedy = make_bot("greedy")
    last: list[dict[str, object]] = []
    while True:  # play on until seat 0 is to play after a few moves of the others
        seat = acting_seats(state)[0]
        if seat == 0 and state.plays >= 4 and last:
            break
        history += last
        state, moved = apply(state, greedy.choose(view(state, seat), rng), rng)
        last = [event_to_wire(event) for event in moved]
    frames = [
        {"kind": "welcome", "proto": PROTOCOL_VERSION, "role": "player", "seat": 0,
         "token": "t", "table": {"name": "Den", "capacity": 3}},
        {"kind": "lobby", "phase": "playing", "host_seat": 0, "you": 0, "capacity": 3,
         "seats": [{"seat": n, "name": name, "kind": "human", "ready": True,
                    "connected": True} for n, name in enumerate(("Ann", "Bob", "Cy"))]},
        # The first view after the (re)join: the match so far; then the next move's view.
        {"kind": "view", "seq": 1, "view": view_to_wire(view(state, 0)), "events": [],
         "history": history},
        {"kind": "view", "seq": 2, "view": view_to_wire(view(state, 0)), "events": last},
    ]
    bot = WatchingHardBot()
    async with serving(rogue_table(*frames)) as port:
        client = await TableClient.connect("127.0.0.1", port, name="Ann", settings=FAST_CLIENT)
        playing = None
        try:
            async with asyncio.timeout(LIMIT):
                while client.view is None or client.view.seq < 2:  # both views are in
                    await asyncio.sleep(0.01)
                playing = asyncio.create_task(play_matches(client, bot, 1))
                while not bot.knew:
                    await asyncio.sleep(0.01)
        finally:
            if playing is not None:
                playing.cancel()
            await client.close()
    assert bot.knew == [True]
