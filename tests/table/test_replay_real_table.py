"""A replay of a journal written by a real table matches what its players saw, move by move.

A real `ono99 host --headless` process; three network clients play greedy moves and keep
every view they are sent. The journal the host left on disk is then replayed (the module
`ono99 replay` uses, and the command's `--json` export in a child process): each step's
events are the events of one view every player received, in the same order, and each
player's view after each step is exactly that seat's view of the replayed state.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from netproto.client import TableClient
from netproto.wire.messages import Lobby, TablePhase, View
from ono99tui.bots import make_bot
from ono99tui.game import PRESET_NAMES, view
from ono99tui.game.codec import event_to_wire, move_to_wire, view_from_wire
from ono99tui.host.journal.history import journal_files, read_matches, replay_match
from ono99tui.host.journal.stats import tally_directory

NAMES = ("ana", "bob", "cy")


async def play_and_keep_views(client: TableClient, seed: int) -> list[View]:
    """Play one match greedily; every view received, in order."""
    bot, rng = make_bot("greedy"), random.Random(seed)
    seen: list[View] = []
    async for item in client:
        if isinstance(item, View):
            seen.append(item)
            player_view = view_from_wire(item.view)
            if item is client.view and player_view.legal_moves:
                await client.send_move(move_to_wire(bot.choose(player_view, rng)), seq=item.seq)
        elif isinstance(item, Lobby) and item.phase == TablePhase.FINISHED and seen:
            break
    await client.close("played enough")
    return seen


@pytest.mark.parametrize("preset", PRESET_NAMES)
async def test_a_real_tables_journal_replays_to_the_views_its_players_saw(
    host_process: Callable[..., Any], tmp_path: Path, preset: str,
) -> None:
    host = host_process("--name", "Replayed", "--seats", "3", "--rules", preset,
                        "--bot-delay", "0", "--turn-time", "off", "--exit-after", "1",
                        env={"ONO99_DATA_DIR": str(tmp_path)})
    await asyncio.to_thread(host.start)
    clients = [await TableClient.connect("127.0.0.1", host.port, name=name) for name in NAMES]
    async with asyncio.timeout(120):
        seen = await asyncio.gather(*(play_and_keep_views(client, index)
                                      for index, client in enumerate(clients)))
    await asyncio.to_thread(host.wait_for_event, "stopped", 60)

    [path] = journal_files(tmp_path)
    [match] = read_matches(path)
    assert match.finished and match.names == NAMES and match.rules.name == preset
    steps = replay_match(match)
    if preset != "2022":  # tokens: more than one round, re-dealt as the players saw it
        assert steps[-1].state.round_no > 1
    replayed_events = [[event_to_wire(event) for event in step.events] for step in steps]
    for seat, views in enumerate(seen):
        # One view per step, each carrying that step's events (the first: the deal's).
        with_events = [list(item.events) for item in views if item.events]
        assert with_events == replayed_events, f"seat {seat} saw other events"
        # And what the seat was shown after each step is that seat's view of the replay.
        shown = [view_from_wire(item.view) for item in views if item.events]
        assert shown == [view(step.state, seat) for step in steps]

    # The export a script reads carries the same events, step by step.
    export = subprocess.run(
        [sys.executable, "-m", "ono99tui", "replay", "--json", str(path)],
        capture_output=True, text=True, timeout=60, check=True)
    lines = [json.loads(line) for line in export.stdout.splitlines()]
    assert lines[0]["kind"] == "match" and [p["name"] for p in lines[0]["players"]] == list(NAMES)
    exported: list[list[dict[str, Any]]] = []
    for line in lines[1:-1]:
        if line["kind"] == "step":
            exported.append([])
        else:
            exported[-1].append({key: value for key, value in line.items() if key != "step"})
    assert exported == replayed_events
    assert lines[-1]["winner_names"] == [NAMES[seat] for seat in match.winners or ()]

    # The standings count the match for every player, its winners among them.
    standings = tally_directory(tmp_path)
    assert {name: tally.played for name, tally in standings.players.items()} == dict.fromkeys(
        NAMES, 1)
    assert sorted(name for name, tally in standings.players.items() if tally.won) == sorted(
        NAMES[seat] for seat in match.winners or ())
