"""Game-agnostic networking for one table, in three layers.

- `netproto.wire` — the protocol, sans-IO: typed errors, msgpack packing, length-prefixed
  frames, names and chat text made inert, every message as a frozen dataclass, the
  connection state machine and resume tokens. No sockets, no asyncio.
- the asyncio pumps, here at the top: `server` (accepting peers, with `admission`, `limits`
  and `descriptors` keeping a flood of sockets bounded), `client` (one table client that
  reconnects), `receiving` (buffered frame reads) and `addresses` (reading `HOST[:PORT]`).
- `netproto.lan` — the table on the LAN: DNS-SD over mDNS (`discovery`), which interfaces it
  uses, whether an address still answers, finding a moved table again.

The names most programs need are importable from `netproto` itself; they load lazily (PEP
562), so importing one layer does not import the others (a headless bot does not load
zeroconf). Nothing in this package imports `ono99tui` or `textual`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from netproto.addresses import parse_address as parse_address
    from netproto.client import ClientSettings as ClientSettings
    from netproto.client import TableClient as TableClient
    from netproto.lan.discovery import DiscoveredTable as DiscoveredTable
    from netproto.lan.discovery import TableAdvertiser as TableAdvertiser
    from netproto.lan.discovery import TableBrowser as TableBrowser
    from netproto.lan.discovery import TableInfo as TableInfo
    from netproto.server import Server as Server
    from netproto.server import ServerLimits as ServerLimits
    from netproto.wire.connection import Connection as Connection
    from netproto.wire.constants import DEFAULT_PORT as DEFAULT_PORT
    from netproto.wire.errors import ProtocolError as ProtocolError
    from netproto.wire.framing import FrameDecoder as FrameDecoder
    from netproto.wire.framing import encode_frame as encode_frame

# Each public name and the module that defines it.
_PUBLIC_NAMES: dict[str, str] = {
    "parse_address": "netproto.addresses",
    "ClientSettings": "netproto.client",
    "TableClient": "netproto.client",
    "DiscoveredTable": "netproto.lan.discovery",
    "TableAdvertiser": "netproto.lan.discovery",
    "TableBrowser": "netproto.lan.discovery",
    "TableInfo": "netproto.lan.discovery",
    "Server": "netproto.server",
    "ServerLimits": "netproto.server",
    "Connection": "netproto.wire.connection",
    "DEFAULT_PORT": "netproto.wire.constants",
    "ProtocolError": "netproto.wire.errors",
    "FrameDecoder": "netproto.wire.framing",
    "encode_frame": "netproto.wire.framing",
}

__all__ = sorted(_PUBLIC_NAMES)


def __getattr__(name: str) -> Any:
    """Load a public name's module on first use (PEP 562)."""
    module = _PUBLIC_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'netproto' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC_NAMES))
