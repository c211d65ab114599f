"""Getting from "that table" to a connected `TableClient`: addresses, resume tokens, retries.

The lobby and `ono99 join HOST[:PORT]` both end here. A table advertised on the LAN may
list several addresses: each is tried in turn until one answers. A resume token kept for
the table's address (see `ono99tui.config.ResumeTokens`) is offered first, so a player
whose terminal or SSH session died gets their seat back just by joining again.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from dataclasses import dataclass, replace

from netproto.client import ClientSettings, ConnectFailed, HandshakeRefused, TableClient
from netproto.constants import DEFAULT_PORT
from netproto.discovery import DiscoveredTable
from ono99tui.config import ConfigError, ResumeTokens, table_key
from ono99tui.connect_errors import connect_error_text

# Longest host name DNS allows.
_MAX_HOST_LENGTH = 253


class AddressError(ValueError):
    """A typed address is not HOST, HOST:PORT or [IPv6]:PORT with a port 1..65535."""


class JoinError(Exception):
    """The table could not be joined; `code` is the server's error code, or a local one."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


@dataclass(frozen=True)
class Address:
    """Where a table listens."""

    host: str
    port: int

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> Address:
    """Read `HOST`, `HOST:PORT`, `[IPv6]` or `[IPv6]:PORT`; raise AddressError saying why not."""
    text = text.strip()
    if not text:
        raise AddressError("type an address: HOST or HOST:PORT")
    if text.startswith("["):
        host, bracket, rest = text[1:].partition("]")
        if not bracket:
            raise AddressError(f"{text!r}: missing ']' after the IPv6 address")
        if rest and not rest.startswith(":"):
            raise AddressError(f"{text!r}: expected ':PORT' after ']'")
        port_text = rest[1:] if rest else None
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise AddressError(f"{host!r} is not an IPv6 address") from None
    elif text.count(":") > 1:
        host, port_text = text, None  # a bare IPv6 address
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise AddressError(f"{text!r}: write an IPv6 address as [ADDRESS]:PORT") from None
    else:
        host, colon, port_text_raw = text.partition(":")
        port_text = port_text_raw if colon else None
    if not host or len(host) > _MAX_HOST_LENGTH or any(c.isspace() for c in host):
        raise AddressError(f"{text!r}: not a host name or address")
    if port_text is None:
        return Address(host, default_port)
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise AddressError(f"{port_text!r} is not a port (1 to 65535)")
    return Address(host, int(port_text))


@dataclass(frozen=True)
class JoinRequest:
    """Everything needed to sit down at (or watch) one table."""

    addresses: tuple[Address, ...]
    name: str
    password: str | None = None
    spectate: bool = False
    # Shown to the player while connecting; the table's advertised name when known.
    label: str = ""

    @classmethod
    def for_address(cls, address: Address, name: str, *, spectate: bool = False) -> JoinRequest:
        """A request for a typed address."""
        return cls((address,), name, spectate=spectate, label=str(address))

    @classmethod
    def for_table(cls, table: DiscoveredTable, name: str, *, spectate: bool = False) -> JoinRequest:
        """A request for a table found on the LAN: each advertised address, in order."""
        info = table.info
        addresses = tuple(Address(address, info.port) for address in info.addresses)
        return cls(addresses, name, spectate=spectate, label=info.name)

    def with_password(self, password: str) -> JoinRequest:
        """The same request carrying a password."""
        return replace(self, password=password)


def _token_key(address: Address) -> str:
    return table_key(address.host, address.port)


async def connect(
    request: JoinRequest,
    tokens: ResumeTokens | None = None,
    settings: ClientSettings | None = None,
) -> TableClient:
    """Connect to the first address that answers and complete the handshake.

    A seat's resume token kept in `tokens` is offered first (a stale one falls back to a
    fresh hello inside the client); the token the table gives is kept for next time.
    Raises JoinError: with the server's code when it refused (e.g. "bad-password"), or
    "unreachable" when no address has a table answering, saying why for each in words
    ("nothing is listening at HOST:PORT", "HOST:PORT does not speak the ono99 protocol").
    """
    if not request.addresses:
        raise JoinError("no-address", f"{request.label or 'the table'} advertises no address")
    failures: list[str] = []
    for address in request.addresses:
        token = None if request.spectate or tokens is None else _safe_get(tokens, address)
        try:
            client = await TableClient.connect(
                address.host,
                address.port,
                name=request.name,
                password=request.password,
                spectate=request.spectate,
                token=token,
                settings=settings,
            )
        except (ConnectFailed, HandshakeRefused, OSError) as error:
            # Not reaching a table at this address (nothing listening, another protocol, a
            # silent close) is worth trying the next one; a table's refusal is not.
            words = connect_error_text(error, address.host, address.port)
            if words is None and isinstance(error, HandshakeRefused):
                # The table itself refused (bad password, bad name, ...): say its words.
                raise JoinError(error.code, error.reason or error.code) from None
            failures.append(words or f"{address}: {error}")
            continue
        if tokens is not None and client.token and client.role == "player":
            _safe_put(tokens, address, client.token)
        return client
    if len(failures) == 1:
        raise JoinError("unreachable", failures[0])
    raise JoinError("unreachable", "could not reach the table: " + "; ".join(failures))


def _safe_get(tokens: ResumeTokens, address: Address) -> str | None:
    return tokens.get(_token_key(address))


def _safe_put(tokens: ResumeTokens, address: Address, token: str) -> None:
    try:
        tokens.put(_token_key(address), token)
    except ConfigError:
        # Not being able to remember the seat must not stop the game.
        pass


def forget_seat(tokens: ResumeTokens, addresses: Sequence[Address]) -> None:
    """Drop the kept tokens for a table (its match is over)."""
    for address in addresses:
        try:
            tokens.forget(_token_key(address))
        except ConfigError:
            pass
