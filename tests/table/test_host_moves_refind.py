"""A real headless host advertised with mDNS on loopback, SIGKILLed mid-match and started
again with the same table name and journal on a DIFFERENT port: `ono99 bot` processes (and
an in-process `TableClient` with a `TableRefinder`) find the table again by its name, resume
their seats with their tokens and finish the match, with no move lost or applied twice; and
a table of another name on the network is never joined."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from netproto.client import ClientSettings, Closed, TableClient
from netproto.client_errors import NotConnected
from netproto.lan.discovery import TableBrowser, TableEvent
from netproto.lan.refind import TableRefinder, refinder_for
from netproto.wire.connection import State
from netproto.wire.messages import Lobby, TablePhase, View
from ono99tui.bots import make_bot
from ono99tui.game import MATCH_OVER, view
from ono99tui.game.codec import move_to_wire, view_from_wire
from ono99tui.host.journal.file import journal_path, read_journal
from ono99tui.host.journal.records import replay
from ono99tui.host.journal.resume import matches_from_records

LOOPBACK = "127.0.0.1"
# Moves the test's own seat makes before it stops at its turn, holding the match there.
GATE_MOVES = 3


def table_name() -> str:
    """A table name no concurrently running test advertises."""
    return f"Refind {uuid.uuid4().hex[:10]}"


async def gated_player(client: TableClient, at_gate: asyncio.Event,
                       released: asyncio.Event) -> int:
    """Play the client's seat greedily; at its turn after GATE_MOVES moves, set `at_gate`
    and wait for `released` (the host is killed meanwhile). Returns the moves sent once the
    match is over."""
    bot, rng = make_bot("greedy"), random.Random(3)
    acted, moves, phase = -1, 0, None
    async for item in client:
        if isinstance(item, Lobby):
            if phase == TablePhase.PLAYING and item.phase == TablePhase.FINISHED:
                return moves
            phase = item.phase
            continue
        if (not isinstance(item, View) or item is not client.view or item.seq <= acted
                or client.state is not State.SEATED):
            continue
        player_view = view_from_wire(item.view)
        if not player_view.legal_moves:
            continue
        if moves >= GATE_MOVES and not released.is_set():
            at_gate.set()
            await released.wait()
            continue  # this view is the killed host's: act on the resumed table's next one
        acted = item.seq
        with contextlib.suppress(NotConnected):
            await client.send_move(move_to_wire(bot.choose(player_view, rng)), seq=item.seq)
            moves += 1
    raise AssertionError(f"the session ended before the match did: {client.closed}")


async def bot_process(port: int, name: str) -> asyncio.subprocess.Process:
    """`ono99 bot` at the table on loopback (mDNS on loopback, from the test environment)."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "ono99tui", "bot", f"{LOOPBACK}:{port}", "--name", name,
        "--matches", "1", "--seed", "1", stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)


async def test_bots_find_the_table_again_on_another_port_and_finish_the_match(
    host_process: Callable[..., Any], tmp_path: Path,
) -> None:
    name = table_name()
    table = ("--name", name, "--seats", "3", "--bot-delay", "0", "--seed", "8",
             "--exit-after", "1")
    env = {"ONO99_DATA_DIR": str(tmp_path)}
    first = host_process(*table, env=env, advertise=True)
    await asyncio.to_thread(first.start)
    client = await TableClient.connect(LOOPBACK, first.port, name="gate")
    client.relocator = refinder_for(client.welcome, [LOOPBACK])
    assert isinstance(client.relocator, TableRefinder) and client.relocator.table_name == name
    token = client.token
    bots = [await bot_process(first.port, bot_name) for bot_name in ("ann", "bob")]
    at_gate, released = asyncio.Event(), asyncio.Event()
    playing = asyncio.create_task(gated_player(client, at_gate, released))
    try:
        async with asyncio.timeout(60):
            await at_gate.wait()  # the match stands at this seat's turn, well under way
        seq_at_kill = client.view.seq if client.view else 0
        await asyncio.to_thread(first.kill)
        second = host_process(*table, env=env, advertise=True)
        assert second.port != first.port
        await asyncio.to_thread(second.start)
        released.set()
        async with asyncio.timeout(90):
            moves = await playing
            outputs = [await bot.communicate() for bot in bots]
        await asyncio.to_thread(second.wait_for_event, "stopped", 60)
    finally:
        playing.cancel()
        with contextlib.suppress(asyncio.CancelledError, AssertionError):
            await playing
        await client.close()
        for bot in bots:
            if bot.returncode is None:
                bot.kill()
                await bot.wait()

    # Every seat resumed at the new port with its own token, and the bots said so.
    assert (client.port, client.token) == (second.port, token)
    assert client.view is not None and client.view.seq > seq_at_kill and moves > GATE_MOVES
    reports = []
    for bot, (stdout, stderr) in zip(bots, outputs, strict=True):
        assert bot.returncode == 0, stderr.decode()
        reports.append(json.loads(stdout))
    assert all(report["matches"] == 1 and report["reconnects"] >= 1 for report in reports)
    # One match in the journal, replaying legally to the winners everyone was told (a move
    # applied twice would be refused by the rules) and to exactly the last view this seat
    # saw (a move lost would leave a hand, the pile or the total different).
    matches = matches_from_records(read_journal(journal_path(tmp_path, name)).records)
    assert len(matches) == 1
    final = replay(matches[0])
    assert final.phase == MATCH_OVER
    assert all(report["winners"] == [list(final.winners)] for report in reports)
    assert client.seat is not None
    assert view_from_wire(client.view.view) == view(final, client.seat)


async def test_a_table_of_another_name_is_never_joined(
    host_process: Callable[..., Any],
) -> None:
    other_name = table_name()
    other = host_process("--name", other_name, "--seats", "3", advertise=True)
    ours = host_process("--name", table_name(), "--seats", "3", advertise=True)
    for host in (other, ours):
        await asyncio.to_thread(host.start)
    heard: list[TableEvent] = []
    named: list[list[tuple[str, int]]] = []

    class Recording(TableRefinder):
        async def candidates(self) -> list[tuple[str, int]]:
            named.append(await super().candidates())
            return named[-1]

    client = await TableClient.connect(LOOPBACK, ours.port, name="ann",
                                       settings=ClientSettings(reconnect_for=6.0))
    assert client.welcome is not None
    client.relocator = Recording(
        [LOOPBACK], client.welcome.table["name"],
        browser_factory=lambda interfaces: TableBrowser(interfaces, on_change=heard.append))
    await asyncio.to_thread(ours.kill)  # gone for good; the other table stays advertised
    async with asyncio.timeout(30):
        closed = await client.wait_for(Closed, predicate=lambda item: True)
    assert closed.code == "gave-up" and client.port == ours.port
    # The other table was heard while the client looked for its own, and never named.
    assert any(event.table.info.name == other_name and event.table.info.port == other.port
               for event in heard)
    assert named and all(places == [] for places in named)
