"""A real `ono99 host --headless --duplicate` killed with SIGKILL in the middle of a set's
second deal and started again: the set goes on at that deal and rotation, and is played
to its end, every rotation dealt the same cards (docs/DUPLICATE.md)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from netproto.client import ClientSettings, TableClient
from ono99tui.bots import make_bot
from ono99tui.client.bot_player import BotPlayerError, BotReport, play_matches
from ono99tui.game import MATCH_OVER, start_match
from ono99tui.game.codec import rules_from_wire
from ono99tui.game.duplicate import DuplicateRandom, rotation_seating
from ono99tui.host.journal.file import journal_path, read_journal
from ono99tui.host.journal.records import replay
from ono99tui.host.journal.resume import MATCH, WON, matches_from_records

TABLE = ("--name", "Dup", "--seats", "3", "--bots", "1", "--bot-delay", "0", "--seed", "11",
         "--duplicate")
FAST_RECONNECT = ClientSettings(backoff_initial=0.05, backoff_max=0.2, reconnect_for=60)


def _deal(client: TableClient) -> int | None:
    """The set's deal the client's lobby says is being played (None: no set yet)."""
    lobby = client.lobby
    if lobby is None or lobby.phase != "playing":
        return None
    progress = lobby.options.get("duplicate_set")
    return progress["deal"] if isinstance(progress, dict) else None


async def test_a_host_killed_mid_set_resumes_the_right_deal(
    host_process: Callable[..., Any], tmp_path: Path,
) -> None:
    env = {"ONO99_DATA_DIR": str(tmp_path)}
    first = host_process(*TABLE, "--exit-after", "3", env=env)
    await asyncio.to_thread(first.start)
    clients = [await TableClient.connect("127.0.0.1", first.port, name=f"p{index}",
                                         settings=FAST_RECONNECT) for index in range(2)]
    playing = [asyncio.create_task(play_matches(client, make_bot("greedy"), 3,
                                                random.Random(index)))
               for index, client in enumerate(clients)]
    try:
        async with asyncio.timeout(90):  # a few moves into the set's second deal
            while _deal(clients[0]) != 2 or clients[0].view is None:
                await asyncio.sleep(0.01)
            dealt_at = clients[0].view.seq
            while clients[0].view.seq < dealt_at + 4:
                await asyncio.sleep(0.01)
        first.kill()
        # `--exit-after` counts the matches a host process finishes: the second finishes
        # the killed one and the last.
        second = host_process(*TABLE, "--exit-after", "2", env=env)
        second.port = first.port
        await asyncio.to_thread(second.start)
        async with asyncio.timeout(120):
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

    assert all(report.matches == 3 for report in reports)
    assert any(report.reconnects >= 1 for report in reports)
    contents = read_journal(journal_path(tmp_path, "Dup"))
    assert contents.version == 3  # a set's records: an older ono99 must not misread them
    records = contents.records
    headers = [record for record in records if record["kind"] == MATCH]
    # Three deals, not four: the killed one was taken up, not dealt again, and the
    # second host wrote its `resumed` records into the second deal.
    assert len(headers) == 3
    second_deal = records[records.index(headers[1]):records.index(headers[2])]
    assert any(record["kind"] == "resumed" for record in second_deal)
    players = tuple(headers[0]["duplicate"]["players"])
    seed = headers[0]["seed"]
    for rotation, header in enumerate(headers):
        assert header["seed"] == seed == header["duplicate"]["seed"]
        assert tuple(header["names"]) == rotation_seating(players, rotation)
        assert len(header["duplicate"]["places"]) == rotation
    rules = rules_from_wire(headers[0]["rules"])
    dealt = start_match(rules, 3, DuplicateRandom(seed))[0].hands
    for match in matches_from_records(records):
        assert match.duplicate
        final = replay(match)
        assert final.phase == MATCH_OVER and tuple(final.winners) == tuple(match.winners)
        assert start_match(rules, 3, DuplicateRandom(match.seed))[0].hands == dealt
    ends = [record for record in records if record["kind"] == WON]
    assert [len(end["duplicate"]["places"]) for end in ends] == [1, 2, 3]
    # The clients saw the set's comparison at its end.
    results = clients[0].lobby.results if clients[0].lobby is not None else {}
    assert results.get("duplicate", {}).get("complete") is True
