"""`ono99 bot` against a real host process: at a host that crashed and came back without the
match (no journal to resume from) the bot is seated anew and plays on, although the new
table numbers its views from 1; and its one-line report names the seat it played."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
from collections.abc import Callable
from typing import Any

from netproto.client import ClientSettings, TableClient
from ono99tui.bots import make_bot
from ono99tui.client.bot_player import BotPlayerError, play_matches

# Two seats, one of them the table's own bot: the network bot must move for a match to end.
TABLE = ("--seats", "2", "--bots", "1", "--bot-delay", "0.05", "--seed", "4")
FAST_RECONNECT = ClientSettings(backoff_initial=0.05, backoff_max=0.2, reconnect_for=60)


async def test_a_network_bot_plays_on_at_a_host_restarted_from_scratch(
    host_process: Callable[..., Any],
) -> None:
    first = host_process(*TABLE)
    await asyncio.to_thread(first.start)
    client = await TableClient.connect("127.0.0.1", first.port, name="netbot",
                                       settings=FAST_RECONNECT)
    playing = asyncio.create_task(play_matches(client, make_bot("greedy"), 50, random.Random(1)))
    try:
        # Well into the session, so that its view numbers are far above the new table's.
        async with asyncio.timeout(60):
            while client.view is None or client.view.seq < 12:
                await asyncio.sleep(0.05)
        first.kill()
        # --fresh: the new host must not take up the match from the journal.
        second = host_process(*TABLE, "--fresh", "--exit-after", "1")
        second.port = first.port
        # In threads: the bot plays on this event loop meanwhile.
        await asyncio.to_thread(second.start)
        # A match at the new table ends only if the network bot plays its turns there.
        await asyncio.to_thread(second.wait_for_event, "stopped", 60)
    finally:
        playing.cancel()
        with contextlib.suppress(asyncio.CancelledError, BotPlayerError):
            await playing
        await client.close()


async def test_two_network_bots_report_the_seats_they_played_even_as_seats_shift(
    host_process: Callable[..., Any],
) -> None:
    # Whichever bot leaves first frees its seat, and the other's number shifts down: the
    # report must still say where each one played. Which leaves first is up to the race,
    # so play a few matches.
    for _ in range(4):
        host = host_process("--seats", "3", "--bots", "1", "--bot-delay", "0")
        await asyncio.to_thread(host.start)
        bots = [await asyncio.create_subprocess_exec(
            sys.executable, "-m", "ono99tui", "bot", f"127.0.0.1:{host.port}", "--name", name,
            stdout=asyncio.subprocess.PIPE) for name in ("ann", "bob")]
        reports = [json.loads((await asyncio.wait_for(bot.communicate(), 60))[0])
                   for bot in bots]
        assert sorted(report["seat"] for report in reports) == [1, 2], reports
        host.kill()
