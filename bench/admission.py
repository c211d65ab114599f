"""Seats under a socket flood from one address: prints ONE JSON object of figures.

    python bench/admission.py [--sockets 200] [--rounds 30]

A real headless host (`ono99 host --headless`, its own process, 8 seats, on 127.0.0.1) is
measured in the same run:
- `idle.seat_ms`: the baseline: a new player from 127.0.0.2 connects, says hello and gets
  its `welcome` (a seat), on a host nobody floods; then leaves (`bye`), freeing the seat.
- `held_flood.seat_ms`: the same, while `--sockets` sockets from 127.0.0.1 are held open
  without ever saying hello (opened before the first round; the host closes most of them
  to make room: `closed_by_host` says how many).
- `churning_flood.seat_ms`: the same, while another process keeps `--sockets` sockets
  from 127.0.0.1 open by reopening each one the host closes, as fast as it can (the loop
  of issue 11); `attacker_reopens` is how many sockets it opened during the rounds, which
  took `seconds`.
- `*.resume_ms`: a player seated (from 127.0.0.3) before the flood drops its link and
  sends `resume` with its token: the time to its `welcome`.
Each figure: `seated` (rounds that got their welcome within 5 s) out of `rounds`, and
p50 / max / mean in milliseconds of those that did. Every socket is on loopback.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT)]

from netproto.framing import FrameDecoder, encode_frame  # noqa: E402
from netproto.messages import PROTOCOL_VERSION  # noqa: E402

ANSWER_TIMEOUT = 5.0
FLOODER = "127.0.0.1"
NEWCOMER = "127.0.0.2"
RESUMER = "127.0.0.3"


class Wire:
    """One raw connection from a chosen loopback address, speaking frames."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.decoder = FrameDecoder()
        self.frames: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, port: int, source: str) -> Wire:
        reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                      local_addr=(source, 0))
        return cls(reader, writer)

    def send(self, wire: dict[str, Any]) -> None:
        self.writer.write(encode_frame(wire))

    async def next(self) -> dict[str, Any] | None:
        """The next frame that is not a ping, or None when the host closed."""
        while True:
            while self.frames:
                frame = self.frames.pop(0)
                if frame.get("kind") != "ping":
                    return frame
            try:
                data = await self.reader.read(65536)
            except ConnectionError:
                return None
            if not data:
                return None
            self.frames.extend(f for f in self.decoder.feed(data) if isinstance(f, dict))

    def close(self) -> None:
        self.writer.close()


async def handshake(port: int, source: str, first: dict[str, Any]) -> tuple[
        float | None, Wire | None, dict[str, Any]]:
    """Connect from `source`, send `first`: (ms to the welcome, the wire, the welcome), or
    (None, None, {}) if it was refused, closed or not answered within ANSWER_TIMEOUT."""
    started = time.perf_counter()
    try:
        wire = await Wire.open(port, source)
        wire.send(first)
        reply = await asyncio.wait_for(wire.next(), ANSWER_TIMEOUT)
    except (OSError, TimeoutError):
        return None, None, {}
    if reply is None or reply.get("kind") != "welcome":
        wire.close()
        return None, None, {}
    return (time.perf_counter() - started) * 1000, wire, reply


def hello(name: str) -> dict[str, Any]:
    return {"kind": "hello", "proto": PROTOCOL_VERSION, "name": name}


def summary(times: list[float | None]) -> dict[str, Any]:
    got = [t for t in times if t is not None]
    figures: dict[str, Any] = {"seated": len(got), "rounds": len(times)}
    if got:
        figures.update(p50=round(statistics.median(got), 2), max=round(max(got), 2),
                       mean=round(statistics.fmean(got), 2))
    return figures


async def rounds(port: int, count: int, token: str) -> dict[str, Any]:
    """`count` newcomers (seated, then leaving) and `count` resumes of the seat of `token`."""
    seat_times: list[float | None] = []
    resume_times: list[float | None] = []
    for number in range(count):
        elapsed, wire, welcome = await handshake(port, NEWCOMER, hello(f"New {number}"))
        seat_times.append(elapsed if welcome.get("role") == "player" else None)
        if wire is not None:
            wire.send({"kind": "bye", "code": "normal"})
            await wire.next()
            wire.close()
        elapsed, wire, _ = await handshake(
            port, RESUMER, {"kind": "resume", "proto": PROTOCOL_VERSION, "token": token})
        resume_times.append(elapsed)
        if wire is not None:
            wire.close()  # a drop, not a goodbye: the seat is held for the next round
    return {"seat_ms": summary(seat_times), "resume_ms": summary(resume_times)}


async def attack(port: int, sockets: int, flooder: str = FLOODER) -> None:
    """Keep `sockets` idle sockets from `flooder` open to the host, reopening each one it
    closes (also usable by hand: `--attack PORT [--flooder ADDR]`, until interrupted)."""
    opened = 0

    async def one() -> None:
        nonlocal opened
        while True:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                              local_addr=(flooder, 0))
            except OSError:
                await asyncio.sleep(0.001)
                continue
            opened += 1
            try:
                while await reader.read(65536):
                    pass
            except ConnectionError:
                pass
            writer.close()

    async def report() -> None:
        # The parent reads the count when it stops us: print it on every change.
        last = -1
        while True:
            await asyncio.sleep(0.05)
            if opened != last:
                last = opened
                print(opened, flush=True)

    await asyncio.gather(report(), *(one() for _ in range(sockets)))


def start_host() -> tuple[subprocess.Popen[str], int]:
    host = subprocess.Popen(
        [sys.executable, "-m", "ono99tui", "host", "--headless", "--bind", "127.0.0.1",
         "--port", "0", "--no-advertise", "--seats", "8", "--start-when", "8",
         "--name", "Bench"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert host.stdout is not None
    for line in host.stdout:
        if line.startswith("{"):
            event = json.loads(line)
            if event.get("event") == "listening":
                return host, int(event["port"])
    raise RuntimeError("the host did not start")


async def measure(sockets: int, count: int) -> dict[str, Any]:
    host, port = start_host()
    try:
        for number in range(3):  # warm the host up: the first connections cost more
            _, wire, _ = await handshake(port, NEWCOMER, hello(f"Warm {number}"))
            if wire is not None:
                wire.send({"kind": "bye", "code": "normal"})
                await wire.next()
                wire.close()
        _, seated, welcome = await handshake(port, RESUMER, hello("Resumer"))
        assert seated is not None, "the resumer could not sit down"
        token = welcome["token"]
        seated.close()  # a drop: the seat is held, and resumed in every round
        results: dict[str, Any] = {"idle": await rounds(port, count, token)}

        flood = [await Wire.open(port, FLOODER) for _ in range(sockets)]
        held = await rounds(port, count, token)
        still_open = 0
        for wire in flood:  # a displaced socket has its bye and EOF waiting already
            try:
                await asyncio.wait_for(wire.next(), 0.05)
            except TimeoutError:
                still_open += 1
        held["sockets"] = sockets
        held["closed_by_host"] = sockets - still_open
        results["held_flood"] = held
        for wire in flood:
            wire.close()

        attacker = subprocess.Popen(
            [sys.executable, __file__, "--attack", str(port), "--sockets", str(sockets)],
            stdout=subprocess.PIPE, text=True)
        assert attacker.stdout is not None
        before = int(attacker.stdout.readline())  # its first sockets are open
        started = time.perf_counter()
        churn = await rounds(port, count, token)
        churn["seconds"] = round(time.perf_counter() - started, 2)
        attacker.terminate()
        out, _ = attacker.communicate(timeout=10)
        lines = out.split()
        churn["sockets"] = sockets
        churn["attacker_reopens"] = (int(lines[-1]) if lines else before) - before
        results["churning_flood"] = churn
        return results
    finally:
        host.terminate()
        host.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--attack", type=int, metavar="PORT",
                        help="only flood the host on 127.0.0.1:PORT, until interrupted")
    parser.add_argument("--flooder", default=FLOODER,
                        help="with --attack: the address to flood from (default 127.0.0.1)")
    options = parser.parse_args()
    if options.attack:
        asyncio.run(attack(options.attack, options.sockets, options.flooder))
        return
    figures = asyncio.run(measure(options.sockets, options.rounds))
    print(json.dumps({"sockets_from_one_address": options.sockets, **figures}))


if __name__ == "__main__":
    main()
