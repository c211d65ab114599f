"""How fast tables are found: prints ONE JSON object of figures in milliseconds.

    python bench/discovery.py [--rounds N]

Measured in the same run:
- `lan.browse_to_found_ms`: in a two-namespace LAN (veth), a table is already advertised
  in one namespace; a fresh TableBrowser starts in the other; time until its ADDED event
  with every detail resolved. Target: under 500 ms.
- `lan.host_start_to_browsable_ms`: a browser already runs in the guest namespace; time
  from a TableAdvertiser starting in the host namespace to the browser's ADDED event
  (mDNS probing for a unique name takes most of it, as RFC 6762 requires).
- `lan.udp_round_trip_ms`: the baseline, a bare UDP datagram there and back on the same
  veth: what the wire costs, as opposed to the protocol's deliberate delays.
- `loopback.browse_to_found_ms`: the first figure on 127.0.0.1, for comparison.

Rounds of a browse are 1.1 s apart because an mDNS responder answers a given record by
multicast at most once a second (RFC 6762 section 6): back-to-back browses would measure
that rule instead. The LAN figures need root and `ip netns`; without them the `lan` entry
holds the reason it was skipped. Times come from `time.monotonic()`, one clock shared by
every process of the machine, namespaces included.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT), str(REPO_ROOT / "tests" / "discovery")]

from netns_lan import NamespaceLan, netns_unavailable_reason  # noqa: E402

from netproto.lan.discovery import (  # noqa: E402
    TableBrowser,
    TableChange,
    TableInfo,
    TableState,
)

ROUND_GAP_SECONDS = 1.1
EVENT_TIMEOUT_SECONDS = 10.0
UDP_PORT = 9199


def table_info(name: str) -> TableInfo:
    """The table every measurement advertises."""
    return TableInfo(
        protocol_version=1,
        name=name,
        host_player="Bench",
        rules="classic",
        seats_taken=1,
        seats_total=4,
        state=TableState.WAITING,
        password_required=False,
        port=9099,
    )


def summary(samples_ms: list[float]) -> dict[str, Any]:
    """min / median / max (and all samples) of a list of milliseconds, rounded."""
    return {
        "min": round(min(samples_ms), 3),
        "median": round(statistics.median(samples_ms), 3),
        "max": round(max(samples_ms), 3),
        "samples": [round(sample, 3) for sample in samples_ms],
    }


async def browse_rounds(interface: str, name: str, rounds: int) -> list[float]:
    """Start a fresh browser `rounds` times; milliseconds until the named table is resolved."""
    samples = []
    for _ in range(rounds):
        # Also lets the advertiser's start-up announcements end before the first round.
        await asyncio.sleep(ROUND_GAP_SECONDS)
        started = time.monotonic()
        async with TableBrowser([interface]) as browser:
            async with asyncio.timeout(EVENT_TIMEOUT_SECONDS):
                async for event in browser.events():
                    if event.change is TableChange.ADDED and event.table.info.name == name:
                        break
            samples.append((time.monotonic() - started) * 1000)
    return samples


async def udp_ping(target: str, rounds: int) -> list[float]:
    """Round trips of a 64-byte datagram to the echo server, in milliseconds."""
    loop = asyncio.get_running_loop()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.setblocking(False)
        await loop.sock_connect(sock, (target, UDP_PORT))
        samples = []
        for _ in range(rounds):
            started = time.monotonic()
            await loop.sock_sendall(sock, b"x" * 64)
            async with asyncio.timeout(EVENT_TIMEOUT_SECONDS):
                await loop.sock_recv(sock, 64)
            samples.append((time.monotonic() - started) * 1000)
    return samples


def udp_echo(bind_address: str) -> None:
    """Echo datagrams until terminated (run in the host namespace)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind((bind_address, UDP_PORT))
        print("ready", flush=True)
        while True:
            data, peer = sock.recvfrom(64)
            sock.sendto(data, peer)


def child(*args: str) -> list[str]:
    """The command line that runs this script in one of its helper modes."""
    return [sys.executable, str(Path(__file__).resolve()), *args]


def child_env() -> dict[str, str]:
    """Children import this checkout even when it is not installed."""
    return {**os.environ, "PYTHONPATH": str(REPO_ROOT)}


def run_json(command: list[str]) -> Any:
    """Run a helper to completion and parse the JSON it prints."""
    result = subprocess.run(command, capture_output=True, text=True, env=child_env(), timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"{command} failed: {result.stderr}")
    return json.loads(result.stdout)


class Advertiser:
    """`netproto.lan.discovery_cli advertise` as a child process, optionally in a namespace."""

    def __init__(self, name: str, interface: str, prefix: list[str]) -> None:
        info = {**table_info(name).__dict__, "state": "waiting"}
        self.process = subprocess.Popen(
            [*prefix, sys.executable, "-m", "netproto.lan.discovery_cli", "advertise",
             "--mdns-interface", interface, "--info", json.dumps(info)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=child_env(),
        )  # fmt: skip
        self.starting = self.read("starting")["t"]
        self.registered = self.read("registered")["t"]

    def read(self, event: str) -> dict[str, Any]:
        """The next line of the child with this event."""
        assert self.process.stdout is not None
        for line in self.process.stdout:
            parsed: dict[str, Any] = json.loads(line)
            if parsed["event"] == event:
                return parsed
        raise RuntimeError(f"advertiser ended before {event}")

    def stop(self) -> None:
        """Close its input (it withdraws the table) and wait for it."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=EVENT_TIMEOUT_SECONDS)


def host_start_rounds(lan: NamespaceLan, rounds: int) -> list[float]:
    """Milliseconds from an advertiser starting in the host namespace to a browser's ADDED."""
    browser = subprocess.Popen(
        [*lan.exec_prefix(lan.guest_ns), sys.executable, "-m", "netproto.lan.discovery_cli",
         "browse", "--mdns-interface", lan.guest_address],
        stdout=subprocess.PIPE, text=True, env=child_env(),
    )  # fmt: skip
    assert browser.stdout is not None
    samples = []
    try:
        json.loads(browser.stdout.readline())  # "browsing"
        for _ in range(rounds):
            name = f"bench-{uuid.uuid4().hex[:8]}"
            advertiser = Advertiser(name, lan.host_address, lan.exec_prefix(lan.host_ns))
            for line in browser.stdout:
                event = json.loads(line)
                if event["event"] == "added" and event["table"]["name"] == name:
                    samples.append((event["t"] - advertiser.starting) * 1000)
                    break
            advertiser.stop()
    finally:
        browser.kill()
        browser.wait()
    return samples


def measure_lan(rounds: int) -> dict[str, Any]:
    """Every LAN figure, or the reason they cannot be measured here."""
    reason = netns_unavailable_reason()
    if reason is not None:
        return {"skipped": reason}
    with NamespaceLan("o99bench") as lan:
        name = f"bench-{uuid.uuid4().hex[:8]}"
        advertiser = Advertiser(name, lan.host_address, lan.exec_prefix(lan.host_ns))
        try:
            browse = run_json(
                lan.exec_prefix(lan.guest_ns)
                + child("browse-rounds", lan.guest_address, name, str(rounds))
            )
        finally:
            advertiser.stop()
        echo = subprocess.Popen(
            [*lan.exec_prefix(lan.host_ns), *child("udp-echo", lan.host_address)],
            stdout=subprocess.PIPE, text=True, env=child_env(),
        )  # fmt: skip
        try:
            assert echo.stdout is not None and echo.stdout.readline().strip() == "ready"
            ping = run_json(
                lan.exec_prefix(lan.guest_ns) + child("udp-ping", lan.host_address, str(rounds))
            )
        finally:
            echo.terminate()
            echo.wait(timeout=EVENT_TIMEOUT_SECONDS)
        host_start = host_start_rounds(lan, max(3, rounds // 2))
    return {
        "browse_to_found_ms": summary(browse),
        "host_start_to_browsable_ms": summary(host_start),
        "udp_round_trip_ms": summary(ping),
    }


def measure_loopback(rounds: int) -> dict[str, Any]:
    """Browse-to-found on 127.0.0.1, the advertiser in another process."""
    name = f"bench-{uuid.uuid4().hex[:8]}"
    advertiser = Advertiser(name, "127.0.0.1", [])
    try:
        browse = asyncio.run(browse_rounds("127.0.0.1", name, rounds))
    finally:
        advertiser.stop()
    return {"browse_to_found_ms": summary(browse)}


def main() -> int:
    """Run the benchmark, or one of its helper modes inside a namespace."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", nargs="?", default="bench",
                        choices=["bench", "browse-rounds", "udp-ping", "udp-echo"])  # fmt: skip
    parser.add_argument("params", nargs="*")
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    if args.mode == "browse-rounds":
        interface, name, rounds = args.params
        print(json.dumps(asyncio.run(browse_rounds(interface, name, int(rounds)))))
    elif args.mode == "udp-ping":
        target, rounds = args.params
        print(json.dumps(asyncio.run(udp_ping(target, int(rounds)))))
    elif args.mode == "udp-echo":
        udp_echo(args.params[0])
    else:
        figures = {
            "rounds": args.rounds,
            "target_browse_to_found_ms": 500,
            "lan": measure_lan(args.rounds),
            "loopback": measure_loopback(args.rounds),
        }
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
