"""A real `ono99 host --headless` process killed with SIGKILL mid-match and started again:
four network clients resume their seats with their tokens, the match finishes, and its
journal replays with no move lost or applied twice."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from netproto.client import ClientSettings, TableClient
from ono99tui.bots import make_bot
from ono99tui.client.bot_player import BotPlayerError, BotReport, play_matches
from ono99tui.game import MATCH_OVER, view
from ono99tui.game.codec import view_from_wire
from ono99tui.host.journal.file import journal_path, read_journal
from ono99tui.host.journal.records import replay
from ono99tui.host.journal.resume import matches_from_records

TABLE = ("--name", "Kitchen", "--seats", "4", "--bot-delay", "0", "--seed", "11",
         "--exit-after", "1")
FAST_RECONNECT = ClientSettings(backoff_initial=0.05, backoff_max=0.2, reconnect_for=60)


@pytest.mark.parametrize("stop", ["kill", "terminate"])
async def test_a_host_killed_mid_match_resumes_it_for_every_seat(
    host_process: Callable[..., Any], tmp_path: Path, stop: str,
) -> None:
    # "terminate": SIGTERM, which says goodbye; it said "shutdown" and every player gave
    # the table up, though a restart takes the match up: now "going-away", and they wait.
    env = {"ONO99_DATA_DIR": str(tmp_path)}
    first = host_process(*TABLE, env=env)
    await asyncio.to_thread(first.start)
    clients = [await TableClient.connect("127.0.0.1", first.port, name=f"p{index}",
                                         settings=FAST_RECONNECT) for index in range(4)]
    tokens = [client.token for client in clients]
    playing = [asyncio.create_task(play_matches(client, make_bot("greedy"), 1,
                                                random.Random(index)))
               for index, client in enumerate(clients)]
    try:
        async with asyncio.timeout(60):  # well into the match
            while max((c.view.seq if c.view else 0) for c in clients) < 15:
                await asyncio.sleep(0.01)
        getattr(first, stop)()
        seqs_at_kill = [client.view.seq if client.view else 0 for client in clients]
        second = host_process(*TABLE, env=env)
        second.port = first.port
        await asyncio.to_thread(second.start)
        async with asyncio.timeout(90):
            reports: list[BotReport] = await asyncio.gather(*playing)
        await asyncio.to_thread(second.wait_for_event, "stopped", 60)
    finally:
        for task in playing:
            task.cancel()
        for task in playing:
            with contextlib.suppress(asyncio.CancelledError, BotPlayerError):
                await task
        for client in clients:
            await client.close()

    # Every seat resumed with its own token (no new seat), past the views it had seen.
    assert [client.token for client in clients] == tokens
    assert all(report.matches == 1 and report.reconnects >= 1 for report in reports)
    for client, seq in zip(clients, seqs_at_kill, strict=True):
        assert client.view is not None and client.view.seq > seq
    # One match in the journal, finished, replaying legally to its recorded winners: no move
    # lost (the replay reaches the end the players saw), none applied twice (it would be
    # refused by the rules).
    contents = read_journal(journal_path(tmp_path, "Kitchen"))
    matches = matches_from_records(contents.records)
    assert len(matches) == 1
    final = replay(matches[0])
    assert final.phase == MATCH_OVER
    assert list(matches[0].winners) == list(final.winners) == reports[0].winners[0]
    # And the journal's end is exactly what every player saw last: a move lost or applied
    # twice would leave some hand, pile or total different.
    for index, client in enumerate(clients):
        assert client.view is not None
        assert view_from_wire(client.view.view) == view(final, index)
