"""Where a table listens: reading a typed `HOST[:PORT]`, and reaching this machine's own table.

Every door in (`ono99 join HOST[:PORT]`, `ono99 bot HOST[:PORT]`, the lobby's address field)
reads addresses with `parse_address`, so they accept the same forms and refuse the same
mistakes with the same words. A web address pasted instead (`http://192.168.1.20:8099/`,
what a host's web door shows) is refused with `WebAddressGiven`, which holds it: the
application may ask that web server for the table behind it. `loopback_for` is where a
program on this machine connects to a server bound to an address: an unspecified bind
(`0.0.0.0`, `::`) is reached on loopback.
"""

from __future__ import annotations

import ipaddress
import re
import urllib.parse
from dataclasses import dataclass

from netproto.wire.constants import DEFAULT_PORT

# Longest host name DNS allows.
MAX_HOST_LENGTH = 253
LOWEST_PORT, HIGHEST_PORT = 1, 65535
# "scheme://" at the start: an address copied from a browser, or a URL of another kind.
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_WEB_PORTS = {"http": 80, "https": 443}


class AddressError(ValueError):
    """A typed address is not HOST, HOST:PORT, [IPv6] or [IPv6]:PORT with a port 1..65535.

    The message says what is wrong, in English words a player can act on; `code` says which
    problem it is and `values` what it names (`text`, `host`, `port`), so that a front end
    can say it in the player's language.
    """

    def __init__(self, code: str, message: str, **values: str | int) -> None:
        super().__init__(message)
        self.code = code
        self.values = values


@dataclass(frozen=True)
class Address:
    """Where a table listens: a host name or IP address, and a TCP port."""

    host: str
    port: int

    def __str__(self) -> str:
        """`HOST:PORT`, with an IPv6 address in brackets (`[::1]:9099`): it parses back."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


@dataclass(frozen=True)
class WebAddress:
    """A web server's address as a browser is given it: `http` or `https`, host and port."""

    scheme: str
    host: str
    port: int

    def __str__(self) -> str:
        """`http://HOST:PORT/` (the IPv6 address in brackets)."""
        return f"{self.scheme}://{Address(self.host, self.port)}/"


class WebAddressGiven(AddressError):
    """The text is a web address (`http://HOST:PORT/…`), not a table's: `web` holds it."""

    def __init__(self, text: str, web: WebAddress) -> None:
        super().__init__("web_address", f"{text!r} is a web address (for a browser), not a "
                         "table's address: type HOST:PORT", text=text)
        self.web = web


def _web_address(text: str, scheme: str) -> WebAddress:
    """The web server of a typed `scheme://…` URL; AddressError for any other kind of URL
    or one with no usable host or port."""
    if scheme.lower() not in _WEB_PORTS:
        raise AddressError("other_url", f"{text!r} is a URL, not a table's address: type HOST:PORT",
                           text=text)
    try:
        parts = urllib.parse.urlsplit(text)
        host, port = parts.hostname, parts.port
    except ValueError:  # a port out of range, or a bracket not closed
        raise AddressError("bad_web_address", f"{text!r}: not a web address a browser could "
                           "open", text=text) from None
    if not host:
        raise AddressError("web_address_without_host", f"{text!r}: a web address with no host",
                           text=text)
    return WebAddress(scheme.lower(), host, port or _WEB_PORTS[scheme.lower()])


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> Address:
    """Read `HOST`, `HOST:PORT`, `[IPv6]`, `[IPv6]:PORT` or a bare IPv6 address.

    Spaces around the text are ignored; `default_port` is used when no port is given.
    Raises AddressError saying what is wrong (no host, a missing `]`, a port out of range…),
    WebAddressGiven for a web address (`http://…`, `https://…`).
    """
    text = text.strip()
    if not text:
        raise AddressError("empty", "type an address: HOST or HOST:PORT")
    scheme = _SCHEME.match(text)
    if scheme is not None:
        web = _web_address(text, scheme.group(1))
        raise WebAddressGiven(text, web)
    port_text: str | None
    if text.startswith("["):
        host, bracket, rest = text[1:].partition("]")
        if not bracket:
            raise AddressError("no_closing_bracket",
                               f"{text!r}: missing ']' after the IPv6 address", text=text)
        if rest and not rest.startswith(":"):
            raise AddressError("junk_after_bracket", f"{text!r}: expected ':PORT' after ']'",
                               text=text)
        port_text = rest[1:] if rest else None
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise AddressError("not_ipv6", f"{host!r} is not an IPv6 address",
                               host=host) from None
    elif text.count(":") > 1:
        host, port_text = text, None  # a bare IPv6 address
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise AddressError("bare_ipv6_with_port", f"{text!r}: write an IPv6 address as "
                               "[ADDRESS]:PORT", text=text) from None
    else:
        host, colon, after_colon = text.partition(":")
        port_text = after_colon if colon else None
    if not host or len(host) > MAX_HOST_LENGTH or any(c.isspace() for c in host):
        raise AddressError("bad_host", f"{text!r}: not a host name or address", text=text)
    if port_text is None:
        return Address(host, default_port)
    # isdecimal, not isdigit: "²" is a digit that int() refuses.
    if (not port_text.isascii() or not port_text.isdecimal()
            or not LOWEST_PORT <= int(port_text) <= HIGHEST_PORT):
        raise AddressError("bad_port", f"{port_text!r} is not a port ({LOWEST_PORT} to "
                           f"{HIGHEST_PORT})", port=port_text)
    return Address(host, int(port_text))


def loopback_for(bind: str) -> str:
    """The address a program on this machine uses to reach a server bound to `bind`.

    An unspecified address (`0.0.0.0`, `::`, or an empty bind, which means every IPv4
    interface) is reached on the loopback address of its family; any other address or host
    name is used as it is.
    """
    try:
        address = ipaddress.ip_address(bind or "0.0.0.0")
    except ValueError:
        return bind  # a host name
    if address.is_unspecified:
        return "::1" if address.version == 6 else "127.0.0.1"
    return bind
