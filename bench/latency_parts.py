"""Where a move's round trip goes: the table beside the bare protocol, in the same run.

    python bench/latency_parts.py [--samples N] [--checkout PATH ...]

Prints ONE JSON object with, in alternating blocks of 50 (as bench/latency.py takes its
echo and own-view samples):
- `echo_rtt_us`: bench/latency.py's bare asyncio msgpack echo (the baseline);
- `protocol_floor_us`: the same `TableClient` move → own view, against a netproto `Server`
  whose application answers every move with a ready-made view of a real 2-seat table: the
  client, netproto's framing, state machine and pumps on both ends, with no table core;
- `table_us`: bench/latency.py's own-view round trip (a 2-seat table, the other seat a host
  bot), with this checkout's table and, for each `--checkout PATH`, that checkout's (its
  own `bench/latency.py --serve table2`), so two versions of the table are compared within
  the same seconds;
- `settled_echo_us`, `settled_protocol_floor_us`: the echo and the protocol floor, each
  round trip after the pause an own-view sample follows (the bot's move, polled for);
and for each server its residency: from the frame's arrival (`Server._pump`) to the
view's frame written (`Peer.send` returned), wall and CPU time of the server's thread,
p50 (`server_pump_to_view_written_us`). Each p50 is also given over the echo's.

`timeline_us`: for this checkout's table and the protocol floors, each round trip cut into
its legs on the clock both processes share (CLOCK_MONOTONIC), p50 of each: the client
framing the move, its write system call (`client_write`), the kernel and the server's
wake-up until the pump has the frame (`to_server`), the server until the view's write
starts (`server`), the kernel and the client's wake-up until its link has the bytes
(`to_client`), the client decoding them (`client_decode`) and handing the view to the
waiter (`client_wake`). Medians of legs do not add up to the median of the whole.

Servers run in child processes, as in bench/latency.py; residency is timed inside each
child by wrapping those two methods (the wrappers' cost, about a microsecond, is in it),
and the client's legs by wrapping its link's `send` and `data_received`.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import dataclasses
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parent.parent))
sys.path.insert(0, str(HERE.parent))

import latency  # noqa: E402  (bench/latency.py, beside this file)

from netproto.wire.messages import Move, View  # noqa: E402

BLOCK = 50


def _time_residency() -> dict[str, list[int]]:
    """In a server child: time each frame from its arrival to the view written."""
    from netproto import server as pump
    from netproto.wire.messages import View

    clock, cpu = time.perf_counter_ns, time.thread_time_ns
    # wall, cpu: residency; arrived, writing: when the move's frame reached the pump and
    # when its view's write began (for the timeline).
    kept: dict[str, list[int]] = {"wall": [], "cpu": [], "arrived": [], "writing": []}
    started = [0, 0]
    receive, send = pump.Server._pump, pump.Peer.send

    def timed_pump(self: Any, peer: Any, data: Any) -> None:
        started[0], started[1] = clock(), cpu()
        receive(self, peer, data)

    def timed_send(self: Any, message: Any) -> None:
        if type(message) is not View or not started[0]:
            send(self, message)
            return
        writing = clock()
        send(self, message)
        kept["wall"].append(clock() - started[0])
        kept["cpu"].append(cpu() - started[1])
        kept["arrived"].append(started[0])
        kept["writing"].append(writing)
        started[0] = 0

    pump.Server._pump = timed_pump  # type: ignore[method-assign]
    pump.Peer.send = timed_send  # type: ignore[method-assign]
    return kept


async def _serve_floor() -> int:
    """The protocol floor's server: a ready-made view for every move."""
    from netproto.server import Server
    from netproto.wire.messages import PROTOCOL_VERSION, Hello, Lobby, Move, View, Welcome
    from ono99tui.game import preset
    from ono99tui.host.core import TableCore
    from ono99tui.host.outputs import Send
    from ono99tui.host.table_config import TableConfig

    core = TableCore(TableConfig(rules=preset("2022"), capacity=2, start_when=2, seed=2))
    outputs = core.peer_message(1, Hello(proto=PROTOCOL_VERSION, name="Bench"), 0.0)
    outputs += core.add_bot("greedy", 0.0)
    sent = [output.message for output in outputs if type(output) is Send]
    welcome = next(message for message in sent if isinstance(message, Welcome))
    lobby = [message for message in sent if isinstance(message, Lobby)][-1]
    view = [message for message in sent if isinstance(message, View)][-1]

    class ReadyViews:
        seq = view.seq

        def on_message(self, peer: Any, message: Any) -> None:
            if isinstance(message, Hello):
                peer.send(welcome)
                peer.send(lobby)
                peer.send(view)
            elif isinstance(message, Move):
                self.seq += 1
                peer.send(dataclasses.replace(view, seq=self.seq))

        def on_close(self, peer: Any, code: str, reason: str) -> None:
            return None

    server = Server(ReadyViews(), latency.LIMITS)
    await server.start("127.0.0.1", 0)
    return server.port


async def serve(kind: str) -> None:
    """Child process: serve `kind`, print the port; at stdin's end, the residency."""
    kept = _time_residency() if kind != "echo" else {"wall": [], "cpu": []}
    loop = asyncio.get_running_loop()
    port = await _serve_floor() if kind == "floor" else (await latency.start_server(kind))[0]
    print(port, flush=True)
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    await reader.read()
    print(json.dumps(kept), flush=True)


class Child:
    """A server child: `script --serve kind` (its own checkout's code)."""

    def __init__(self, script: Path, kind: str, *, own: bool) -> None:
        self.script, self.kind, self.own = script, kind, own
        self.kept: dict[str, list[int]] = {}

    async def __aenter__(self) -> int:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, str(self.script), "--serve", self.kind,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        assert self.process.stdout is not None
        return int(await self.process.stdout.readline())

    async def __aexit__(self, *exc_info: object) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        if self.own:
            line = await self.process.stdout.read()  # one line, longer than a readline's limit
            self.kept = json.loads(line) if line.strip() else {}
        await self.process.wait()


LEGS = ("client_frame", "client_write", "to_server", "server", "to_client", "client_decode",
        "client_wake")


class TimedOwnView(latency.OwnViewSampler):
    """bench/latency.py's own-view sample, with the client's side of its timeline: when the
    move was framed, written and the view's bytes came and were decoded (perf_counter_ns)."""

    marks: list[tuple[int, ...]]

    async def open(self, port: int) -> None:
        await super().open(port)
        self.marks = []
        link: Any = self.client._link  # the bench's look inside: the link of this client
        send, received = link.send, link.data_received
        self._now: dict[str, int] = {}
        now = self._now
        clock = time.perf_counter_ns

        def timed_send(message: Any) -> None:
            if type(message) is Move:
                now["framing"] = clock()
                frame = link.connection.send(message)
                now["writing"] = clock()
                assert link.transport is not None
                link.transport.write(frame)
                now["written"] = clock()
            else:
                send(message)

        def timed_received(data: Any) -> None:
            first = "writing" in now and "came" not in now
            if first:
                now["came"] = clock()
            received(data)
            if first:
                now["decoded"] = clock()

        link.send, link.data_received = timed_send, timed_received

    async def sample(self) -> float:
        client, now = self.client, self._now
        view = client.view
        assert view is not None
        now.clear()
        start = time.perf_counter()
        await client.send_move(latency.legal_moves_of(view)[0], seq=view.seq)
        await client.wait_for(View, 10, lambda v, seq=view.seq: v.seq > seq)
        elapsed = time.perf_counter() - start
        done = time.perf_counter_ns()
        self.marks.append((now["framing"], now["writing"], now["written"], now["came"],
                           now["decoded"], done))
        await self._until_my_turn()
        return elapsed


class SettledTimedOwnView(TimedOwnView):
    """The protocol floor's round trip after the pause the table's samples follow (its
    ready-made views never wait for a bot): the floor a settled table is held to."""

    async def _until_my_turn(self) -> None:
        await latency.SettledEchoSampler.settle()


def timeline(marks: list[tuple[int, ...]], kept: dict[str, list[int]]) -> dict[str, float]:
    """Each leg's p50 (µs): the client's marks of a sample, matched with the server's record
    of the move that arrived between its write and the view's bytes."""
    arrived, writing = kept["arrived"], kept["writing"]
    legs: dict[str, list[int]] = {name: [] for name in (*LEGS, "total")}
    for framing, write, written, came, decoded, done in marks:
        index = bisect.bisect_left(arrived, write)
        if index == len(arrived) or not write <= arrived[index] <= came:
            continue
        server_in, server_out = arrived[index], writing[index]
        for name, span in zip((*LEGS, "total"), (
                write - framing, written - write, server_in - write, server_out - server_in,
                came - server_out, decoded - came, done - decoded, done - framing), strict=True):
            legs[name].append(span)
    return {name: round(statistics.median(spans) / 1000, 1) if spans else float("nan")
            for name, spans in legs.items()} | {"n": len(legs["total"])}


async def main(samples: int, checkouts: list[Path]) -> dict[str, Any]:
    children: dict[str, Child] = {
        "echo": Child(HERE, "echo", own=True), "protocol_floor": Child(HERE, "floor", own=True),
        "table": Child(HERE, "table2", own=True), "settled_echo": Child(HERE, "echo", own=True),
        "settled_protocol_floor": Child(HERE, "floor", own=True)}
    for checkout in checkouts:
        # Another checkout's table, served by its own bench/latency.py (no residency).
        children[f"table@{checkout}"] = Child(checkout / "bench" / "latency.py", "table2",
                                              own=False)
    times: dict[str, list[float]] = {name: [] for name in children}
    async with contextlib.AsyncExitStack() as stack:
        samplers: dict[str, Any] = {}
        for name, child in children.items():
            sampler = (latency.EchoSampler() if name == "echo"
                       else latency.SettledEchoSampler() if name == "settled_echo"
                       else SettledTimedOwnView() if name == "settled_protocol_floor"
                       else TimedOwnView() if child.own else latency.OwnViewSampler())
            await sampler.open(await stack.enter_async_context(child))
            stack.push_async_callback(sampler.close)
            samplers[name] = sampler
        for round_no in range(1 + -(-samples // BLOCK)):
            for name, sampler in samplers.items():
                block = [await sampler.sample() for _ in range(BLOCK)]
                if round_no > 0:
                    times[name].extend(block)
    echo = statistics.median(times["echo"])
    result: dict[str, Any] = {"benchmark": "a move's round trip, in parts",
                              "load_average_1min": round(os.getloadavg()[0], 2)}
    for name, values in times.items():
        key = "echo_rtt_us" if name == "echo" else f"{name}_us"
        result[key] = {**latency.percentiles(values[:samples]),
                       "p50_over_echo": round(statistics.median(values) / echo, 2)}
    result["server_pump_to_view_written_us"] = {
        name: {"wall_p50": round(statistics.median(child.kept["wall"]) / 1000, 1),
               "cpu_p50": round(statistics.median(child.kept["cpu"]) / 1000, 1)}
        for name, child in children.items() if child.kept.get("wall")}
    result["timeline_us"] = {
        name: timeline(samplers[name].marks, children[name].kept)
        for name in ("protocol_floor", "settled_protocol_floor", "table")}
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--checkout", type=Path, action="append", default=[],
                        help="also measure the table of another checkout (e.g. /work/main)")
    parser.add_argument("--serve", choices=("echo", "floor", "table2"), help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.serve:
        asyncio.run(serve(arguments.serve))
    else:
        print(json.dumps(asyncio.run(main(arguments.samples, arguments.checkout))))
