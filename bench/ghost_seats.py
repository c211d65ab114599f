"""Ghost seats: connections that say hello and are reset at once. Prints ONE JSON object.

    python bench/ghost_seats.py [--trials 30] [--settle 1.0]

Each trial starts a table (in this process, on 127.0.0.1, 3 seats, `start_when` 3, grace
60 s) and opens three connections that each send `hello` and are reset (SO_LINGER 0)
right after, without waiting for an answer; then it waits the settle time plus 0.3 s and
counts whether the table dealt a match to them. Two ways, in the same run:

- `concurrent`: the three connections opened together (what `--settle` protects against);
- `sequential`: one after another.

Each with `settle_seconds: 0` (the baseline: a table that deals at once, as before issue
11) and with `--settle` (what a headless table uses, `HEADLESS_DEAL_SETTLE`). A figure is
`dealt` (trials in which a match was dealt to ghosts) out of `trials`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import struct
import sys
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT)]

from netproto.wire.connection import Connection, Role  # noqa: E402
from netproto.wire.messages import PROTOCOL_VERSION, Hello  # noqa: E402
from ono99tui.host.server import TableServer  # noqa: E402
from ono99tui.host.table_config import HEADLESS_DEAL_SETTLE, TableConfig  # noqa: E402


async def ghost(port: int, name: str) -> None:
    """Say hello and reset the connection at once."""
    _, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(Connection(Role.CLIENT).send(Hello(proto=PROTOCOL_VERSION, name=name)))
    await writer.drain()
    await asyncio.sleep(0)
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


async def trial(settle: float, concurrent: bool) -> bool:
    """Whether three ghosts got a match dealt."""
    config = TableConfig(capacity=3, start_when=3, grace_seconds=60.0, bot_delay=0.0,
                         deal_settle_seconds=settle)
    server = await TableServer(config).start("127.0.0.1", 0)
    try:
        names = [f"Ghost {number}" for number in range(3)]
        if concurrent:
            await asyncio.gather(*(ghost(server.port, name) for name in names))
        else:
            for name in names:
                await ghost(server.port, name)
        await asyncio.sleep(settle + 0.3)
        return server.table.core.matches_dealt > 0
    finally:
        await server.stop()


async def measure(trials: int, settle: float) -> dict[str, Any]:
    figures: dict[str, Any] = {"trials": trials, "settle_seconds": settle}
    for mode in ("concurrent", "sequential"):
        for seconds in (0.0, settle):
            dealt = [await trial(seconds, mode == "concurrent") for _ in range(trials)]
            figures[f"{mode}_settle_{seconds:g}_dealt"] = sum(dealt)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--settle", type=float, default=HEADLESS_DEAL_SETTLE)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(measure(args.trials, args.settle))))


if __name__ == "__main__":
    main()
