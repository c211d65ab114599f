"""The durable journal's figures (issue 11): a host killed mid-match, what the journal costs a
move, and whether a long-running host's memory stays flat.

    python bench/durable.py [--restarts N] [--restarts-elsewhere N] [--samples N]
                            [--matches 100,10000]

Prints ONE JSON object:
- `restart`: `kill -9` of a headless `ono99 host` process in the middle of a 4-seat match of
  network clients (in this process, `play_matches`, default reconnect settings), then the
  same command again: seats resumed (same token), match finished, moves lost or doubled
  (the journal replayed through the engine must end in exactly the last view every client
  saw: a lost or doubled move would leave a hand, the pile or the total different), and
  `restart_to_first_view_s` from starting the new process to the first resumed view at a
  client; beside it, the same-run baseline `cold_start_to_listening_s` (start of a host
  process to its "listening" line): most of the restart time is Python starting up and the
  client's reconnect backoff; `listening_to_first_view_s` is the part after the new host
  printed "listening" (what the clients' reconnecting adds). `baseline_old_schedule`: the
  same restarts, alternated with these, with the old reconnect schedule (50 ms doubling
  to 2 s, no jitter).
- `restart_elsewhere` (`--restarts-elsewhere N`, off by default): the same, but the host is
  advertised with mDNS on loopback and comes back on ANOTHER port; each client finds it by
  its table name (`netproto.lan.refind.TableRefinder`) and resumes there. The new host probes
  its mDNS name (about a second, as mDNS requires) before it prints "listening".
- `move_to_own_view_us`: a TableClient's move at a 2-seat table (the other seat a host bot)
  until its own next view, p50/p99, with the journal file on and with the in-memory
  journal only (the baseline), in alternating blocks, each table in its own child process.
- `rss`: a headless host process's resident memory after each count of matches played
  between two network bots (`--bot-delay 0`), and the growth between the first and last.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import signal
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from netproto.client import ClientSettings, TableClient
from netproto.lan.refind import TableRefinder
from netproto.wire.connection import State
from netproto.wire.messages import View
from ono99tui.bots import make_bot
from ono99tui.client.bot_player import BotPlayerError, play_matches
from ono99tui.game import MATCH_OVER, MoveError, preset, view
from ono99tui.game.codec import view_from_wire
from ono99tui.host.journal.file import journal_path, read_journal
from ono99tui.host.journal.records import replay
from ono99tui.host.journal.resume import matches_from_records
from ono99tui.host.journal.table import JournalChoice, open_table_journal
from ono99tui.host.server import TableServer
from ono99tui.host.table_config import TableConfig

BLOCK = 50


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"p50": round(statistics.median(ordered) * 1e6, 1),
            "p99": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1e6, 1),
            "samples": len(ordered)}


class Host:
    """`ono99 host --headless` as a child process (advertised with mDNS on loopback if
    `advertise`)."""

    def __init__(self, port: int, data_dir: str, *options: str, advertise: bool = False) -> None:
        self.port, self.data_dir, self.options = port, data_dir, options
        self.advertise = ("--mdns-interface", "127.0.0.1") if advertise else ("--no-advertise",)

    async def start(self) -> float:
        """Start it; seconds until it printed "listening"."""
        started = time.perf_counter()
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "ono99tui", "host", "--headless", *self.advertise,
            "--bind", "127.0.0.1", "--port", str(self.port), *self.options,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
            env={**os.environ, "ONO99_DATA_DIR": self.data_dir})
        assert self.process.stdout is not None
        while True:
            line = await self.process.stdout.readline()
            if not line:
                raise RuntimeError("the host exited before listening")
            if json.loads(line).get("event") == "listening":
                return time.perf_counter() - started

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError("no VmRSS")

    async def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGKILL)
        await self.process.wait()

    async def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGTERM)
        await self.process.wait()


# --- kill -9 and restart ------------------------------------------------------------------


# The reconnect schedule before issue 11's last part: 50 ms doubling to 2 s, no jitter.
OLD_SCHEDULE = ClientSettings(backoff_max=2.0, backoff_jitter=0.0)


async def one_restart(run: int, elsewhere: bool = False,
                      settings: ClientSettings | None = None) -> dict[str, Any]:
    """One kill -9 and restart; `elsewhere`: the host is advertised with mDNS on loopback
    and comes back on another port, where the clients find it by its name."""
    data_dir = tempfile.mkdtemp(prefix="ono99-bench-durable-")
    port = free_port()
    # Unique: other suites may advertise tables on loopback at the same time.
    name = f"Bench {os.getpid()} {run}" if elsewhere else "Bench"
    options = ("--name", name, "--seats", "4", "--bot-delay", "0.05", "--seed", str(run))
    first = Host(port, data_dir, *options, advertise=elsewhere)
    cold_start = await first.start()
    clients = [await TableClient.connect("127.0.0.1", port, name=f"p{index}",
                                         settings=settings)
               for index in range(4)]
    if elsewhere:
        for client in clients:
            client.relocator = TableRefinder(["127.0.0.1"], name)
    tokens = [client.token for client in clients]
    playing = [asyncio.create_task(play_matches(client, make_bot("greedy"), 1,
                                                random.Random(index)))
               for index, client in enumerate(clients)]
    try:
        async with asyncio.timeout(60):
            while max((c.view.seq if c.view else 0) for c in clients) < 20:
                await asyncio.sleep(0.005)
        await first.kill()
        seqs_at_kill = [client.view.seq if client.view else 0 for client in clients]
        second = Host(free_port() if elsewhere else port, data_dir, *options,
                      advertise=elsewhere)
        restarted = time.perf_counter()
        start = asyncio.create_task(second.start())
        async with asyncio.timeout(60):
            while not any(c.view is not None and c.view.seq > seq
                          for c, seq in zip(clients, seqs_at_kill, strict=True)):
                await asyncio.sleep(0.001)
        first_view = time.perf_counter() - restarted
        listening = await start
        async with asyncio.timeout(120):
            reports = await asyncio.gather(*playing)
        await second.stop()
    finally:
        for task in playing:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, BotPlayerError):
                await task
        for client in clients:
            await client.close()
    matches = matches_from_records(
        read_journal(journal_path(Path(data_dir), name)).records)
    finished = all(report.matches == 1 for report in reports)
    try:
        final = replay(matches[0])  # a doubled move is refused by the rules
    except MoveError:
        lost = 1
    else:
        # A lost or doubled move leaves the journal's end different from the last view
        # every player saw (a hand, the pile, the total).
        lost = 0 if (final.phase == MATCH_OVER
                     and list(final.winners) == reports[0].winners[0]
                     and all(client.view is not None and client.seat is not None
                             and view_from_wire(client.view.view) == view(final, client.seat)
                             for client in clients)) else 1
    return {"seats_resumed": sum(client.token == token and client.port == second.port
                                 for client, token in zip(clients, tokens, strict=True)),
            "match_finished": finished, "matches_in_journal": len(matches),
            "moves_in_journal": len(matches[0].moves), "moves_lost_or_doubled": lost,
            "restart_to_first_view_s": round(first_view, 3),
            # The part the clients' reconnecting adds once the new host listens.
            "listening_to_first_view_s": round(first_view - listening, 3),
            "cold_start_to_listening_s": round(cold_start, 3)}


def summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    first_views = [run["restart_to_first_view_s"] for run in runs]
    return {"runs": runs, "seats": 4,
            "all_seats_resumed": all(run["seats_resumed"] == 4 for run in runs),
            "all_matches_finished": all(run["match_finished"] for run in runs),
            "moves_lost_or_doubled": sum(run["moves_lost_or_doubled"] for run in runs),
            "restart_to_first_view_s_max": max(first_views),
            "restart_to_first_view_s_median": statistics.median(first_views),
            "listening_to_first_view_s_median": statistics.median(
                run["listening_to_first_view_s"] for run in runs),
            "listening_to_first_view_s_max": max(
                run["listening_to_first_view_s"] for run in runs),
            "cold_start_to_listening_s_median": statistics.median(
                run["cold_start_to_listening_s"] for run in runs),
            "target_s": 2.0}


async def restarts(count: int, elsewhere: bool = False) -> dict[str, Any]:
    """`count` restarts with the client's reconnect schedule, alternating with `count` with
    the old one (the same-run baseline), so both see the same machine load."""
    now, before = [], []
    for run in range(count):
        now.append(await one_restart(run, elsewhere))
        before.append(await one_restart(run, elsewhere, OLD_SCHEDULE))
    return summary(now) | {"baseline_old_schedule": summary(before)}


# --- move -> own view, journal on and off --------------------------------------------------


async def serve(kind: str) -> None:
    """Child process: a 2-seat table (a host bot in seat 2), the journal in a file or not."""
    config = TableConfig(rules=preset("2022"), capacity=2, start_when=2, bot_delay=0.002,
                         seed=2)
    journal = None
    if kind == "file":
        directory = tempfile.mkdtemp(prefix="ono99-bench-journal-")
        journal, _ = open_table_journal(JournalChoice(Path(directory) / "t.journal"))
    table = await TableServer(config, journal=journal).start("127.0.0.1", 0)
    table.table.add_bot("greedy")
    print(table.port, flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    await reader.read()


class OwnView:
    """A player's move until its own next view, at one child-process table."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    async def open(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--serve", self.kind,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        assert self.process.stdout is not None
        port = int(await self.process.stdout.readline())
        self.client = await TableClient.connect(
            "127.0.0.1", port, name="Bench", settings=ClientSettings(heartbeat_timeout=120.0))
        await self._until_my_turn()

    async def sample(self) -> float:
        client = self.client
        view = client.view
        assert view is not None
        move = view.view["legal_moves"][0]
        start = time.perf_counter()
        await client.send_move(move, seq=view.seq)
        await client.wait_for(View, 10, lambda v, seq=view.seq: v.seq > seq)
        elapsed = time.perf_counter() - start
        await self._until_my_turn()
        return elapsed

    async def _until_my_turn(self) -> None:
        client = self.client
        while True:
            lobby = client.lobby
            if (lobby is not None and lobby.phase == "finished" and client.state is State.LOBBY
                    and client.seat is not None and not lobby.seats[client.seat].ready):
                await client.ready()
            view = client.view
            if (view is not None and lobby is not None and lobby.phase == "playing"
                    and view.view.get("legal_moves")):
                return
            await asyncio.sleep(0.0005)

    async def close(self) -> None:
        await self.client.close()
        assert self.process.stdin is not None
        self.process.stdin.close()
        await self.process.wait()


async def own_view(samples: int) -> dict[str, Any]:
    on, off = OwnView("file"), OwnView("memory")
    await on.open()
    await off.open()
    taken: dict[str, list[float]] = {"file": [], "memory": []}
    try:
        while len(taken["memory"]) < samples:
            for sampler in (on, off):
                for _ in range(BLOCK):
                    taken[sampler.kind].append(await sampler.sample())
    finally:
        await on.close()
        await off.close()
    journal_on, journal_off = percentiles(taken["file"]), percentiles(taken["memory"])
    return {"journal_file_us": journal_on, "memory_only_baseline_us": journal_off,
            "p50_ratio": round(journal_on["p50"] / journal_off["p50"], 3),
            "target_ratio": 1.3}


# --- memory of a long-running host -----------------------------------------------------------


async def rss(counts: list[int]) -> dict[str, Any]:
    data_dir = tempfile.mkdtemp(prefix="ono99-bench-rss-")
    port = free_port()
    host = Host(port, data_dir, "--name", "Rss", "--seats", "2", "--bot-delay", "0",
                "--seed", "1")
    await host.start()
    clients = [await TableClient.connect("127.0.0.1", port, name=f"b{index}")
               for index in range(2)]
    figures: dict[str, Any] = {"after_matches_kb": {}}
    started = time.perf_counter()
    played = 0
    try:
        for count in counts:
            stretch = count - played
            reports = await asyncio.gather(*(
                play_matches(client, make_bot("greedy"), stretch, random.Random(index))
                for index, client in enumerate(clients)))
            played = count
            assert all(report.matches == stretch for report in reports)
            figures["after_matches_kb"][str(count)] = host.rss_kb()
            figures[f"seconds_to_{count}"] = round(time.perf_counter() - started, 1)
            print(json.dumps({"matches": count, "rss_kb": figures["after_matches_kb"][str(count)],
                              "seconds": figures[f"seconds_to_{count}"]}),
                  file=sys.stderr, flush=True)
            # play_matches said bye: seat them again for the next stretch.
            if count != counts[-1]:
                for client in clients:
                    await client.close()
                clients = [await TableClient.connect("127.0.0.1", port, name=f"b{index}")
                           for index in range(2)]
    finally:
        for client in clients:
            await client.close()
        await host.stop()
    kb = list(figures["after_matches_kb"].values())
    figures["growth_kb"] = kb[-1] - kb[0]
    figures["target_kb"] = 5 * 1024
    figures["journal_bytes"] = journal_path(Path(data_dir), "Rss").stat().st_size
    return figures


async def main(arguments: argparse.Namespace) -> None:
    result: dict[str, Any] = {
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                    "load_1m": os.getloadavg()[0]}}
    if arguments.restarts:
        result["restart"] = await restarts(arguments.restarts)
    if arguments.restarts_elsewhere:
        result["restart_elsewhere"] = await restarts(arguments.restarts_elsewhere,
                                                     elsewhere=True)
    if arguments.samples:
        result["move_to_own_view"] = await own_view(arguments.samples)
    if arguments.matches:
        result["rss"] = await rss([int(count) for count in arguments.matches.split(",")])
    print(json.dumps(result))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--restarts", type=int, default=5)
    parser.add_argument("--restarts-elsewhere", type=int, default=0,
                        help="restarts on another port, found again by mDNS on loopback")
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--matches", default="100,10000")
    parser.add_argument("--serve", default=None, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.serve:
        asyncio.run(serve(arguments.serve))
    else:
        asyncio.run(main(arguments))
