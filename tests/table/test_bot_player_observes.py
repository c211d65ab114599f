"""A bot playing over the network (`ono99 bot`) is told the table's public events, as the
table's own bots are: on real loopback sockets, the hard bot knows the discard pile it
watched being built at every choice of a whole 2022 match."""

from __future__ import annotations

import asyncio
import random

from host_table_helpers import FAST_CLIENT, serve

from netproto.client import TableClient
from ono99tui.bot_player import play_matches
from ono99tui.bots import Bot, make_bot
from ono99tui.bots.hard import HardBot
from ono99tui.game import Move, PlayerView

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


async def test_a_network_bot_observes_every_event_of_the_match() -> None:
    server = await serve(capacity=3, start_when=3, rules="2022")
    watcher = WatchingHardBot()
    tasks: list[asyncio.Task[object]] = []
    try:
        for name, bot in (("Ann", watcher), ("Bob", make_bot("greedy")),
                          ("Cy", make_bot("greedy"))):
            tasks.append((await seated(server.port, name, bot))[1])
        async with asyncio.timeout(LIMIT):
            await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        await server.stop()
    assert len(watcher.knew) >= 3
    assert all(watcher.knew), watcher.knew


async def test_a_bot_that_resumes_its_seat_anew_learns_the_deal_so_far() -> None:
    # `ono99 bot` started again with its seat's token (or back after a host restart) saw
    # nothing of the deal before: the table's history in its first view tells it.
    server = await serve(capacity=3, start_when=3, rules="2022", grace_seconds=60.0)
    first = WatchingHardBot()
    tasks: list[asyncio.Task[object]] = []
    try:
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
        async with asyncio.timeout(LIMIT):
            await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        await server.stop()
    assert again.knew and all(again.knew), again.knew  # from its first choice on
