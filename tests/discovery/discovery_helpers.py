"""Helpers of the discovery tests: advertiser child processes and `ono99 list` runs.

Other test suites of this project may advertise `_ono99._tcp` tables on loopback at the
same time, so every test names its tables uniquely and looks only for those.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

from netproto.lan.discovery import TableChange, TableEvent

REPO_ROOT = Path(__file__).resolve().parents[2]
EVENT_TIMEOUT_SECONDS = 10.0
STOP_SIGNALS = {"sigterm": signal.SIGTERM, "sigint": signal.SIGINT, "sighup": signal.SIGHUP}


def child_env(**extra: str) -> dict[str, str]:
    """The environment for child processes: this checkout importable, mDNS pinned to loopback."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    env.update(extra)
    return env


def unique_table_name(prefix: str = "Test table") -> str:
    """A table name no other test (or concurrently running suite) uses."""
    return f"{prefix} {uuid.uuid4().hex[:10]}"


def table_fields(name: str, **changes: Any) -> dict[str, Any]:
    """JSON-ready TableInfo fields of a plausible waiting table."""
    fields: dict[str, Any] = {
        "protocol_version": 1,
        "name": name,
        "host_player": "Ann",
        "rules": "classic",
        "seats_taken": 1,
        "seats_total": 4,
        "state": "waiting",
        "password_required": True,
        "port": 9099,
        "ssh_port": 2222,
        "web_port": 8080,
    }
    fields.update(changes)
    return fields


class AdvertiserProcess:
    """`python -m netproto.lan.discovery_cli advertise` in a child process (optionally in a netns)."""

    def __init__(self, fields: dict[str, Any], interface: str, netns: str | None = None) -> None:
        self.fields = fields
        self.interface = interface
        self.netns = netns
        self.process: asyncio.subprocess.Process | None = None
        self.service_name = ""
        self.lines: list[dict[str, Any]] = []

    async def start(self) -> dict[str, Any]:
        """Start the child and wait until its table is registered; returns that line."""
        command = [
            sys.executable,
            "-m",
            "netproto.lan.discovery_cli",
            "advertise",
            "--mdns-interface",
            self.interface,
            "--info",
            json.dumps(self.fields),
        ]
        if self.netns is not None:
            command = ["ip", "netns", "exec", self.netns, *command]
        self.process = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=child_env(),
        )
        registered = await self.read_until("registered")
        self.service_name = registered["service_name"]
        return registered

    async def read_until(self, event: str) -> dict[str, Any]:
        """Read the child's JSON lines until one with this event; fails on end of output."""
        assert self.process is not None and self.process.stdout is not None
        async with asyncio.timeout(EVENT_TIMEOUT_SECONDS):
            while line := await self.process.stdout.readline():
                parsed = json.loads(line)
                self.lines.append(parsed)
                if parsed["event"] == event:
                    return parsed
        raise AssertionError(f"advertiser ended before {event!r}; it said {self.lines}")

    async def update(self, **changes: Any) -> None:
        """Send changed fields; returns once the child has advertised them."""
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(json.dumps(changes).encode() + b"\n")
        await self.process.stdin.drain()
        await self.read_until("updated")

    async def stop(self, how: str = "eof") -> int:
        """Stop the child by end of input, SIGTERM, SIGINT or SIGHUP; returns its exit status."""
        assert self.process is not None and self.process.stdin is not None
        if how == "eof":
            self.process.stdin.close()
        else:
            self.process.send_signal(STOP_SIGNALS[how])
        await self.read_until("closed")
        async with asyncio.timeout(EVENT_TIMEOUT_SECONDS):
            return await self.process.wait()

    async def kill(self) -> None:
        """Make sure the child is gone (cleanup after a failed test)."""
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


async def run_ono99_list(
    *args: str, netns: str | None = None, interface: str = "127.0.0.1"
) -> tuple[int, str, str]:
    """Run `ono99 list ARGS` as a real process; returns (exit status, stdout, stderr)."""
    command = [sys.executable, "-m", "ono99tui", "list", "--mdns-interface", interface, *args]
    if netns is not None:
        command = ["ip", "netns", "exec", netns, *command]
    process = await asyncio.create_subprocess_exec(
        *command,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=child_env(),
    )
    async with asyncio.timeout(60):
        stdout, stderr = await process.communicate()
    assert process.returncode is not None
    return process.returncode, stdout.decode(), stderr.decode()


def tables_named(tables: Sequence[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """The tables of `ono99 list --json` output with this table name."""
    return [table for table in tables if table["name"] == name]


async def wait_for_event(
    events: AsyncIterator[TableEvent],
    predicate: Callable[[TableEvent], bool],
    timeout: float = EVENT_TIMEOUT_SECONDS,
) -> TableEvent:
    """The first event from `events` that satisfies `predicate` (others are skipped)."""
    async with asyncio.timeout(timeout):
        async for event in events:
            if predicate(event):
                return event
    raise AssertionError("the browser closed before the expected event")


def about(name: str, change: TableChange) -> Callable[[TableEvent], bool]:
    """A predicate: this change to a table with this table name."""
    return lambda event: event.change is change and event.table.info.name == name
