"""Getting from "that table" to a connected `TableClient`: addresses, resume tokens, retries.

The lobby and `ono99 join HOST[:PORT]` both end here (a typed address is read by
`netproto.addresses.parse_address`). A table advertised on the LAN may
list several addresses: each is tried in turn until one answers. A resume token kept for
the table's address (see `ono99tui.user_settings.ResumeTokens`) is offered first, so a player
whose terminal or SSH session died gets their seat back just by joining again.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace

from netproto.addresses import Address
from netproto.client import ClientSettings, TableClient
from netproto.client_errors import ConnectFailed, HandshakeRefused
from netproto.lan.discovery import DiscoveredTable
from ono99tui.client.connect_errors import connect_error_text
from ono99tui.client.wire_text import shown_reason
from ono99tui.i18n import _
from ono99tui.user_settings import ConfigError, ResumeTokens, table_key


class JoinError(Exception):
    """The table could not be joined; `code` is the server's error code, or a local one."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


@dataclass(frozen=True)
class JoinRequest:
    """Everything needed to sit down at (or watch) one table."""

    addresses: tuple[Address, ...]
    name: str
    password: str | None = None
    spectate: bool = False
    # Shown to the player while connecting; the table's advertised name when known.
    label: str = ""
    # A headless table's operator key or admin password (`ono99 join --host-key`): the
    # table gives host rights to the hello carrying it.
    host_key: str | None = None
    # The table's DNS-SD instance name when it was found on the LAN: if its host comes
    # back elsewhere, this service is looked for first (`netproto.lan.refind`).
    service_name: str | None = None
    # Ask the table not to rate this player (`ono99 join --unrated`; docs/PROTOCOL.md
    # "Ratings").
    unrated: bool = False

    @classmethod
    def for_address(cls, address: Address, name: str, *, spectate: bool = False) -> JoinRequest:
        """A request for a typed address."""
        return cls((address,), name, spectate=spectate, label=str(address))

    @classmethod
    def for_table(cls, table: DiscoveredTable, name: str, *, spectate: bool = False) -> JoinRequest:
        """A request for a table found on the LAN: each advertised address, in order."""
        info = table.info
        addresses = tuple(Address(address, info.port) for address in info.addresses)
        return cls(addresses, name, spectate=spectate, label=info.name,
                   service_name=table.service_name)

    def with_password(self, password: str) -> JoinRequest:
        """The same request carrying a password."""
        return replace(self, password=password)


def _token_key(address: Address, name: str) -> str:
    return table_key(address.host, address.port, name)


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
        raise JoinError("no-address", _("{table} advertises no address").format(
            table=request.label) if request.label else _("The table advertises no address"))
    failures: list[str] = []
    for address in request.addresses:
        token = (None if request.spectate or tokens is None
                 else _safe_get(tokens, address, request.name))
        try:
            client = await TableClient.connect(
                address.host,
                address.port,
                name=request.name,
                password=request.password,
                spectate=request.spectate,
                host_key=request.host_key,
                unrated=request.unrated,
                token=token,
                settings=settings,
            )
        except (ConnectFailed, HandshakeRefused, OSError) as error:
            # Not reaching a table at this address (nothing listening, another protocol, a
            # silent close) is worth trying the next one; a table's refusal is not.
            words = connect_error_text(error, address.host, address.port)
            if words is None and isinstance(error, HandshakeRefused):
                # The table itself refused (bad password, bad name, ...): say its words.
                # (Cleaned by netproto, up to 512 characters: a notice shows 120.)
                raise JoinError(error.code, shown_reason(error.reason) or error.code) from None
            failures.append(words or f"{address}: {error}")
            continue
        if tokens is not None and client.token and client.role == "player":
            _safe_put(tokens, address, request.name, client.token)
        return client
    if len(failures) == 1:
        raise JoinError("unreachable", failures[0])
    raise JoinError("unreachable", _("could not reach the table: {failures}").format(
        failures=_("; ").join(failures)))


def keep_seat(tokens: ResumeTokens, client: TableClient) -> None:
    """Keep the client's token for where the table is now (after it moved, say), so that
    joining it there again from a new app takes the seat back."""
    if client.token and client.role == "player":
        _safe_put(tokens, Address(client.host, client.port), client.name, client.token)


def _safe_get(tokens: ResumeTokens, address: Address, name: str) -> str | None:
    return tokens.get(_token_key(address, name))


def _safe_put(tokens: ResumeTokens, address: Address, name: str, token: str) -> None:
    # Not being able to remember the seat must not stop the game.
    with contextlib.suppress(ConfigError):
        tokens.put(_token_key(address, name), token)

