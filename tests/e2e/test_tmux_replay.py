"""`ono99 replay --last` in a real terminal, on the journal a real headless table wrote:
stepped with the arrow keys and left with q, every hand on the screen face up."""

from __future__ import annotations

import asyncio
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from testkit.tmux import TmuxSession

from netproto.client import TableClient
from ono99tui.bots import make_bot
from ono99tui.client.bot_player import play_matches
from ono99tui.host.journal.history import journal_files, read_matches, replay_match

pytestmark = pytest.mark.tmux

ONO99 = [sys.executable, "-m", "ono99tui"]


async def play_one_match(host_process: Callable[..., Any], data: Path) -> None:
    host = host_process("--name", "Kitchen", "--seats", "3", "--bot-delay", "0",
                        "--turn-time", "off", "--exit-after", "1",
                        env={"ONO99_DATA_DIR": str(data)})
    await asyncio.to_thread(host.start)
    clients = [await TableClient.connect("127.0.0.1", host.port, name=name)
               for name in ("ana", "bob", "cy")]
    async with asyncio.timeout(120):
        await asyncio.gather(*(play_matches(client, make_bot("greedy"), 1, random.Random(seed))
                               for seed, client in enumerate(clients)))
    await asyncio.to_thread(host.wait_for_event, "stopped", 60)


def test_the_last_match_replayed_in_a_terminal(
    tmux: TmuxSession, host_process: Callable[..., Any], tmp_path: Path,
) -> None:
    asyncio.run(play_one_match(host_process, tmp_path))
    [match] = read_matches(journal_files(tmp_path)[0])
    steps = replay_match(match)
    last = len(steps) - 1
    tmux.env["ONO99_DATA_DIR"] = str(tmp_path)
    tmux.start([*ONO99, "replay", "--last"])
    tmux.wait_for(rf"Replay: Kitchen, match 1 .* Move 0/{last}", timeout=30)
    screen = tmux.capture()
    for seat, name in enumerate(match.names):  # every hand of the deal, face up
        cards = "  ".join(card.label(match.rules) for card in steps[0].state.hands[seat])
        assert re.search(rf"{name} +{re.escape(cards)}", screen), screen
    tmux.send_keys("Right")
    tmux.wait_for(rf"Move 1/{last}", timeout=10)
    mover = match.names[steps[1].seat or 0]
    tmux.wait_for(rf"{mover} played", timeout=10)
    tmux.send_keys("End")
    winner = match.names[(match.winners or (0,))[0]]
    tmux.wait_for(rf"Match over: {winner} wins\.", timeout=10)
    tmux.send_keys("Left")
    tmux.wait_for(rf"Move {last - 1}/{last}", timeout=10)
    tmux.send_keys("q")
    tmux.wait_for(r"\[exit 0\]", timeout=20)


def test_a_solo_match_is_kept_and_replayed(tmux: TmuxSession) -> None:
    """`ono99 solo` keeps its matches like a hosted table: after one is played in a
    terminal, `ono99 replay --last` opens it and `ono99 stats` counts it."""
    from test_tmux_play import play_to_the_end, quit_and_check_exit

    tmux.start([*ONO99, "solo", "--bots", "1", "--bot-delay", "0", "--seed", "5",
                "--player", "tess"])
    tmux.wait_for(r"tess", timeout=30)
    play_to_the_end(tmux, [0])
    quit_and_check_exit(tmux, 0)
    data = Path(tmux.env["ONO99_DATA_DIR"])
    [match] = read_matches(journal_files(data)[0])
    assert match.finished and "tess" in match.names
    last = len(replay_match(match)) - 1
    replay = tmux.new_window([*ONO99, "replay", "--last"])
    tmux.wait_for(rf"Replay: Solo, match 1 .* Move 0/{last}", pane=replay, timeout=30)
    tmux.send_keys("End", pane=replay)
    tmux.wait_for(r"Match over: .* wins?\.", pane=replay, timeout=10)
    tmux.send_keys("q", pane=replay)
    tmux.wait_for(r"\[exit 0\]", pane=replay, timeout=20)
    stats = tmux.new_window([*ONO99, "stats"])
    tmux.wait_for(r"1 finished match in the journals", pane=stats, timeout=30)
    assert re.search(r"tess +1 +[01] +[01]", tmux.capture(stats))
