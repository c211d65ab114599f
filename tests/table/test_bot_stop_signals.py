"""`ono99 bot` stopped by a signal mid-match (SIGTERM from a process manager or `timeout`,
SIGINT from Ctrl-C, SIGHUP from a closed terminal) says bye before it exits: the table hands
its seat to a bot at once instead of holding it for the grace period (60 s) as for a
player whose link dropped."""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import Callable
from typing import Any

import pytest

from netproto.client import TableClient
from netproto.wire.messages import Lobby, SeatKind, TablePhase

# Two seats, the other one the table's own slow bot: the match lasts while the test looks.
TABLE = ("--seats", "2", "--bots", "1", "--bot-delay", "0.5", "--seed", "2")


def seat_named(lobby: Lobby, name: str) -> Any:
    return next((seat for seat in lobby.seats if seat.name == name), None)


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
async def test_a_bot_stopped_by_a_signal_says_bye_and_frees_its_seat_at_once(
    host_process: Callable[..., Any], stop_signal: signal.Signals,
) -> None:
    host = host_process(*TABLE)
    await asyncio.to_thread(host.start)
    watcher = await TableClient.connect("127.0.0.1", host.port, name="eve", spectate=True)
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "ono99tui", "bot", f"127.0.0.1:{host.port}", "--name", "netbot",
        "--matches", "5", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        await watcher.wait_for(Lobby, 30, lambda lobby: lobby.phase == TablePhase.PLAYING
                               and seat_named(lobby, "netbot") is not None)
        bot.send_signal(stop_signal)
        async with asyncio.timeout(30):
            _, stderr = await bot.communicate()
        # Held for a grace period, the seat would stay a human away for 60 s; a bye makes
        # the table's bot play on for it straight away.
        taken_over = await watcher.wait_for(
            Lobby, 15, lambda lobby: seat_named(lobby, "netbot") is not None
            and seat_named(lobby, "netbot").kind == SeatKind.BOT)
        assert taken_over.phase == TablePhase.PLAYING
        assert bot.returncode == 128 + stop_signal, stderr.decode()
        assert b"Traceback" not in stderr and b"stopped" in stderr, stderr.decode()
    finally:
        if bot.returncode is None:
            bot.kill()
            await bot.wait()
        await watcher.close()
