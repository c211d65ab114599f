"""Helpers of the table tests: fast settings and a table server per test."""

from __future__ import annotations

from netproto.client import ClientSettings
from netproto.server import ServerLimits
from ono99tui.game import preset
from ono99tui.host.server import TableServer
from ono99tui.host.table_config import TableConfig

FAST_LIMITS = ServerLimits(handshake_timeout=2.0, heartbeat_interval=0.2, heartbeat_timeout=2.0)
FAST_CLIENT = ClientSettings(heartbeat_timeout=2.0, backoff_initial=0.01, backoff_max=0.1,
                             reconnect_for=5.0)
PRESETS = ("2022", "1980", "1980-set99")


def config(**options: object) -> TableConfig:
    """A test table: no bot delay, fixed seed, unless told otherwise."""
    options.setdefault("bot_delay", 0.0)
    options.setdefault("seed", 7)
    if isinstance(options.get("rules"), str):
        options["rules"] = preset(options["rules"])  # type: ignore[arg-type]
    return TableConfig(**options)  # type: ignore[arg-type]


async def serve(**options: object) -> TableServer:
    """Start a table on 127.0.0.1, any free port."""
    server = TableServer(config(**options), limits=FAST_LIMITS)
    return await server.start("127.0.0.1", 0)
