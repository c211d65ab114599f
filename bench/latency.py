"""Move latency on loopback, beside a bare asyncio msgpack echo measured in the same run.

    python bench/latency.py [--samples N] [--in-process]

Prints ONE JSON object:
- `echo_rtt_us`: a length-prefixed msgpack map sent to a bare asyncio echo server and
  read back (the floor any request/response over this loop and socket can reach);
- `move_to_own_view_us`: a TableClient plays a move at a 2-seat table (the other seat a
  host bot, which answers 2 ms later) and waits for its own next view;
- `eight_seats_last_view_us`: at an 8-seat table of TableClients, from one seat's move
  until the last of the 8 seats has taken its new view;
- `echo_after_settle_rtt_us`: the same echo, each round trip taken after the pause every
  own-view sample follows (the bot's 2 ms and the sampler's polling): a round trip that
  finds both processes idle pays for waking them, which the back-to-back echo never does;
each with p50/p99 in microseconds, plus the p50 ratio to the echo (and to the settled
echo) and the targets of issue 3 (p50 within 4x the echo; all 8 seats within 2 ms at p99).
The echo, the own-view and the settled echo round trips are taken in alternating blocks of
50 for the whole run, so the echo is measured across the same seconds as the moves it is
compared with; the fan-outs follow, back to back. Beside them, CPU time (not wall time, so
other jobs on the machine barely change it): `server_cpu_per_move_us`, what the table
spends on one move from the decoded frame to the last seat's view encoded, with no sockets
(2, 4 and 8 seats), and `echo_server_cpu_per_message_us`, the echo server's msgpack decode
and encode of the same move frame.

Each server (the echo and the tables) runs in its own child process, as a host does; the
clients share this process's event loop (so the eight seats' clients decode their views one
after another, where eight players' machines would do it at once). Both measurements pay
the same costs: loopback TCP, one server process, one client loop. `--in-process` runs the
servers in the clients' loop instead (no process switches, but the server's work and the
eight clients' work then queue for one core).

`--keep-cpus-awake` runs one busy loop per CPU at the idle scheduling class (SCHED_IDLE)
for the whole run: they take no time from anything else, but no CPU ever halts, so a
round trip after a pause no longer pays for waking a halted virtual CPU (on this VM,
guest halt polling is off: `/sys/module/haltpoll/parameters/guest_halt_poll_ns` is 0). It
shows how much of a ratio is the machine's wake-up and how much the table's work.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import statistics
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgpack

from netproto.client import ClientSettings, TableClient
from netproto.server import ServerLimits
from netproto.wire.connection import State
from netproto.wire.messages import View
from ono99tui.game import preset
from ono99tui.game.codec import move_to_wire
from ono99tui.gc_freeze import freeze_startup_objects
from ono99tui.host.server import TableServer
from ono99tui.host.table_config import TableConfig

HEADER = struct.Struct(">I")
# A move frame's typical payload, so the echo carries the same bytes.
SAMPLE_MOVE = {"kind": "move", "seq": 1234, "move": {"kind": "play", "seat": 1, "card": "7"}}
LIMITS = ServerLimits(heartbeat_interval=30.0, heartbeat_timeout=120.0)
CLIENT = ClientSettings(heartbeat_timeout=120.0)


def legal_moves_of(view: View) -> list[Any]:
    """The view's legal moves in their wire form, ready to send back as they are.

    A network bot needs no more than this, and decoding the whole view here would make
    garbage that the collector then sweeps inside the measured windows.
    """
    moves = view.view.get("legal_moves")
    return moves if isinstance(moves, list) else []


def percentiles(samples: list[float]) -> dict[str, float]:
    """p50 / p99 / max / mean in microseconds of samples given in seconds (the max shows
    the machine's own stalls: the bare echo has them too)."""
    ordered = sorted(samples)
    p99_index = min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))
    return {
        "p50": round(statistics.median(ordered) * 1e6, 1),
        "p99": round(ordered[p99_index] * 1e6, 1),
        "max": round(ordered[-1] * 1e6, 1),
        "mean": round(statistics.fmean(ordered) * 1e6, 1),
        "n": len(ordered),
    }


class EchoProtocol(asyncio.Protocol):
    """Decode each frame's msgpack map and send it back re-encoded."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.buffer = bytearray()

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while len(self.buffer) >= 4:
            (length,) = HEADER.unpack_from(self.buffer)
            if len(self.buffer) < 4 + length:
                return
            message = msgpack.unpackb(bytes(self.buffer[4:4 + length]))
            del self.buffer[:4 + length]
            body = msgpack.packb(message)
            self.transport.write(HEADER.pack(len(body)) + body)


async def start_server(kind: str) -> tuple[int, Any]:
    """Start the echo or a table in the running loop; (port, object with close/stop)."""
    loop = asyncio.get_running_loop()
    if kind == "echo":
        server: Any = await loop.create_server(EchoProtocol, "127.0.0.1", 0)
        return server.sockets[0].getsockname()[1], server
    seats = int(kind.removeprefix("table"))
    # With a bot in seat 2 of 2 it waits 2 ms, so its move never lands inside the measured
    # round trip; the sampler waits for it, unmeasured (the default delay is 0.6 s anyway).
    config = TableConfig(rules=preset("2022"), capacity=seats, start_when=seats,
                         bot_delay=BOT_PACE, seed=seats)
    table = await TableServer(config, limits=LIMITS).start("127.0.0.1", 0)
    if seats == 2:
        table.table.add_bot("greedy")
    freeze_startup_objects()  # as `ono99 host` does once its table is up (ono99tui/gc_freeze.py)
    return table.port, table


async def serve(kind: str) -> None:
    """Child process: run one server, print its port, stop when stdin closes."""
    loop = asyncio.get_running_loop()
    port, _ = await start_server(kind)
    print(port, flush=True)
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    await reader.read()


class ChildServer:
    """`python bench/latency.py --serve KIND` as a child process (or, with `in_process`,
    the same server in this loop)."""

    in_process = False

    def __init__(self, kind: str) -> None:
        self.kind = kind

    async def __aenter__(self) -> int:
        if self.in_process:
            port, self.server = await start_server(self.kind)
            return port
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--serve", self.kind,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        assert self.process.stdout is not None
        return int(await self.process.stdout.readline())

    async def __aexit__(self, *exc_info: object) -> None:
        if self.in_process:
            if isinstance(self.server, TableServer):
                await self.server.stop()
            else:
                self.server.close()
            return
        assert self.process.stdin is not None
        self.process.stdin.close()
        await self.process.wait()


class EchoSampler:
    """Round trips of a move-sized frame through the bare asyncio msgpack echo."""

    async def open(self, port: int) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
        body = msgpack.packb(SAMPLE_MOVE)
        self.frame = HEADER.pack(len(body)) + body

    async def sample(self) -> float:
        start = time.perf_counter()
        self.writer.write(self.frame)
        (length,) = HEADER.unpack(await self.reader.readexactly(4))
        msgpack.unpackb(await self.reader.readexactly(length))
        return time.perf_counter() - start

    async def close(self) -> None:
        self.writer.close()


# How an own-view sample settles before it starts: the bot's pace (start_server's 2 ms),
# then the sampler's 0.5 ms polling until its turn has come.
BOT_PACE = 0.002
POLL = 0.0005


class SettledEchoSampler(EchoSampler):
    """The echo's round trip after the same pause as an own-view sample's: both processes
    have gone idle, as before a player's move."""

    async def sample(self) -> float:
        await self.settle()
        return await super().sample()

    @staticmethod
    async def settle() -> None:
        """Wait as an own-view sample waits for the bot's move: its pace, polled."""
        waited = 0.0
        while waited < BOT_PACE:  # polled like OwnViewSampler._until_my_turn
            await asyncio.sleep(POLL)
            waited += POLL


def ready_for_rematch(client: TableClient) -> bool:
    """Whether the client's match is over and it has not yet said it is ready again."""
    lobby = client.lobby
    return (lobby is not None and lobby.phase == "finished" and client.state is State.LOBBY
            and client.seat is not None and not lobby.seats[client.seat].ready)


class OwnViewSampler:
    """A player at a 2-seat table (the other seat a host bot): from its move to its own
    next view."""

    async def open(self, port: int) -> None:
        self.client = await TableClient.connect("127.0.0.1", port, name="Bench",
                                                settings=CLIENT)
        await self._until_my_turn()

    async def sample(self) -> float:
        client = self.client
        view = client.view
        assert view is not None
        start = time.perf_counter()
        await client.send_move(legal_moves_of(view)[0], seq=view.seq)
        await client.wait_for(View, 10, lambda v, seq=view.seq: v.seq > seq)
        elapsed = time.perf_counter() - start
        await self._until_my_turn()
        return elapsed

    async def _until_my_turn(self) -> None:
        # Unmeasured: the bot's move (or the rematch's deal) arrives now, not while the
        # other table is being measured.
        client = self.client
        while True:
            if ready_for_rematch(client):
                await client.ready()
            view = client.view
            if (view is not None and client.lobby is not None
                    and client.lobby.phase == "playing" and legal_moves_of(view)):
                return
            await asyncio.sleep(POLL)

    async def close(self) -> None:
        await self.client.close()


class FanOutSampler:
    """An 8-seat table of TableClients: from one seat's move until the last of the eight
    has taken its new view."""

    async def open(self, port: int) -> None:
        self.clients = [await TableClient.connect("127.0.0.1", port, name=f"Seat {n}",
                                                  settings=CLIENT) for n in range(8)]
        await self._until_someone_can_move()

    async def sample(self) -> float:
        clients = self.clients
        actor = next(c for c in clients if c.view is not None and legal_moves_of(c.view))
        view = actor.view
        assert view is not None
        seqs = [client.view.seq if client.view else 0 for client in clients]
        start = time.perf_counter()
        await actor.send_move(legal_moves_of(view)[0], seq=view.seq)
        # One waiter takes each seat's view in turn (a view already queued is taken without
        # waiting): eight harness tasks to wake would only add their own scheduling.
        for client, seq in zip(clients, seqs, strict=True):
            await client.wait_for(View, 10, lambda v, seq=seq: v.seq > seq)
        elapsed = time.perf_counter() - start
        await self._until_someone_can_move()
        return elapsed

    async def _until_someone_can_move(self) -> None:
        # Unmeasured: after a match, once every seat has heard it is over, all eight say
        # they are ready and the rematch is dealt to all of them before anything else is
        # measured.
        clients = self.clients
        while True:
            if all(ready_for_rematch(client) for client in clients):
                dealt = [client.view.seq if client.view else 0 for client in clients]
                for client in clients:
                    await client.ready()
                for client, seq in zip(clients, dealt, strict=True):
                    await client.wait_for(View, 10, lambda v, seq=seq: v.seq > seq)
            if any(client.view is not None and client.lobby is not None
                   and client.lobby.phase == "playing" and legal_moves_of(client.view)
                   for client in clients):
                return
            await asyncio.sleep(POLL)

    async def close(self) -> None:
        for client in self.clients:
            await client.close()


BLOCK = 50  # samples of one kind taken back to back before the other kind's turn
WARM_UP = 20  # fan-outs measured first and not kept


async def round_trip_samples(samples: int) -> dict[str, list[float]]:
    """Echo round trips and own-view round trips, in alternating blocks.

    The blocks take turns for the whole run, so the baseline is measured across the same
    seconds as what it is compared with: a machine that gets busier or quieter halfway
    through moves both alike. The table settles (the bot's reply, a rematch's deal) after
    each sample, unmeasured. The first round of blocks warms up and is not kept.
    """
    async with contextlib.AsyncExitStack() as stack:
        samplers: dict[str, Any] = {"echo": EchoSampler(), "own": OwnViewSampler(),
                                    "settled_echo": SettledEchoSampler()}
        kinds = ("echo", "table2", "echo")
        for (_name, sampler), kind in zip(samplers.items(), kinds, strict=True):
            await sampler.open(await stack.enter_async_context(ChildServer(kind)))
            stack.push_async_callback(sampler.close)
        times: dict[str, list[float]] = {name: [] for name in samplers}
        for round_no in range(1 + -(-samples // BLOCK)):
            for name, sampler in samplers.items():
                block = [await sampler.sample() for _ in range(BLOCK)]
                if round_no > 0:
                    times[name].extend(block)
        return {name: values[:samples] for name, values in times.items()}


async def fan_out_samples(samples: int) -> list[float]:
    """8-seat fan-outs back to back, as moves follow each other at a table (the first
    `WARM_UP` are not kept); each table's state settles between samples, unmeasured."""
    async with ChildServer("table8") as port:
        sampler = FanOutSampler()
        await sampler.open(port)
        try:
            return [await sampler.sample() for _ in range(WARM_UP + samples)][WARM_UP:]
        finally:
            await sampler.close()



class MemoryPeer:
    """Stands in for a netproto Peer: frames are encoded exactly as for a socket, then kept."""

    def __init__(self, number: int) -> None:
        from netproto.wire.connection import Connection, Role

        self.connection = Connection(Role.SERVER)
        self.connection.state = State.LOBBY  # as after a real handshake
        self.id = number + 1
        self.address = f"memory:{number}"
        self.is_open = True
        self.sent = 0
        self.door: str | None = None  # as a netproto Peer not behind a trusted door

    def send(self, message: Any) -> None:
        self.sent += len(self.connection.send(message))

    def close(self, code: str = "normal", reason: str = "") -> None:
        self.is_open = False


async def server_cpu_per_move(seats: int, moves: int) -> float:
    """CPU seconds the table spends per human move (decode to the last view encoded),
    with no sockets: load on the machine barely changes it."""
    from netproto.wire.messages import PROTOCOL_VERSION, Hello, message_from_wire
    from ono99tui.game import acting_seats, legal_moves
    from ono99tui.host.server import TableApplication

    table = TableApplication(TableConfig(rules=preset("2022"), capacity=seats,
                                         start_when=seats, bot_delay=0.0, seed=5))
    peers = [MemoryPeer(n) for n in range(seats)]
    for number, peer in enumerate(peers):
        peer.connection.state = State.HANDSHAKE
        table.on_message(peer, Hello(proto=PROTOCOL_VERSION, name=f"P{number}"))
    spent = 0.0
    done = 0
    while done < moves:
        state = table.state
        if table.phase != "playing" or state is None:
            table.start()
            continue
        seat = acting_seats(state)[0]
        move = legal_moves(state, seat)[0]
        body = msgpack.packb({"kind": "move", "seq": table.seats[seat].seq,
                              "move": move_to_wire(move)})
        start = time.process_time()
        table.on_message(peers[seat], message_from_wire(msgpack.unpackb(body)))
        spent += time.process_time() - start
        done += 1
    table.close()
    return spent / moves


KEEP_AWAKE = [False]  # --keep-cpus-awake, as the JSON reports it
SPIN = "import os; os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))\nwhile True: pass"


@contextlib.contextmanager
def cpus_kept_awake(keep: bool) -> Any:
    """With `keep`, one idle-class busy loop per CPU until the block ends (see the module's
    docstring); without it, nothing."""
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN])
                for _ in range(os.cpu_count() or 1)] if keep else []
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


async def main(samples: int) -> dict[str, Any]:
    times = await round_trip_samples(samples)
    echo = percentiles(times["echo"])
    own = percentiles(times["own"])
    settled_echo = percentiles(times["settled_echo"])
    fan_out = percentiles(await fan_out_samples(samples))
    ratio = round(own["p50"] / echo["p50"], 2)
    body = msgpack.packb(SAMPLE_MOVE)
    start = time.process_time()
    for _ in range(20_000):
        msgpack.packb(msgpack.unpackb(body))
    echo_cpu = (time.process_time() - start) / 20_000
    cpu = {f"{seats}_seats": round(await server_cpu_per_move(seats, 2000) * 1e6, 1)
           for seats in (2, 4, 8)}
    return {
        "benchmark": "move latency on loopback",
        "servers": "in this process" if ChildServer.in_process else "in child processes",
        "cpus_kept_awake": KEEP_AWAKE[0],
        "load_average_1min": round(os.getloadavg()[0], 2),
        "echo_rtt_us": echo,
        "move_to_own_view_us": own,
        "own_view_p50_over_echo_p50": ratio,
        "echo_after_settle_rtt_us": settled_echo,
        "own_view_p50_over_settled_echo_p50": round(own["p50"] / settled_echo["p50"], 2),
        "eight_seats_last_view_us": fan_out,
        "server_cpu_per_move_us": cpu,
        "echo_server_cpu_per_message_us": round(echo_cpu * 1e6, 2),
        "targets": {
            "own_view_p50_within_4x_echo": ratio <= 4.0,
            "eight_seats_p99_within_2000_us": fan_out["p99"] <= 2000.0,
        },
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--in-process", action="store_true",
                        help="run the servers in this process's loop (less scheduler noise "
                             "on a busy machine)")
    parser.add_argument("--keep-cpus-awake", action="store_true",
                        help="one idle-class busy loop per CPU for the run, so no CPU halts "
                             "between samples")
    parser.add_argument("--serve", choices=("echo", "table2", "table8"),
                        help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    ChildServer.in_process = arguments.in_process
    if arguments.serve:
        asyncio.run(serve(arguments.serve))
    else:
        KEEP_AWAKE[0] = arguments.keep_cpus_awake
        with cpus_kept_awake(arguments.keep_cpus_awake):
            print(json.dumps(asyncio.run(main(arguments.samples))))
