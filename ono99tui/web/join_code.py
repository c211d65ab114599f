"""The web door's join code and its QR code: a phone logs in by opening one address.

A password-protected door holds one `JoinCode` (random, URL-safe). Opening
`http://IP:PORT/j/CODE` gives the browser the same login cookie the password gives
(`ono99tui.web.server`); the host replaces the code when it has gone too far (docs/WEB.md
"Joining in one step"). The address always names this machine by an IP literal
(`phone_address`): a phone's camera app may not resolve `.local` names.

No aiohttp here: the host's Textual app draws the QR code (`qr_rows`) without the web extra.
"""

from __future__ import annotations

import hmac
import io
import ipaddress
import secrets
from collections.abc import Callable
from dataclasses import dataclass

import ifaddr
import segno

from netproto.lan.interfaces import default_interfaces
from ono99tui.web import web_url

# The join address's path: JOIN_PREFIX + code.
JOIN_PREFIX = "/j/"
# 9 random bytes: 72 bits, 12 URL-safe characters (short enough for a small QR code, far
# too many to guess at the throttled rate of `netproto.limits.GuessThrottle`).
CODE_BYTES = 9
# A code longer than this is not one of ours (and is not compared).
MAX_CODE_LENGTH = 64


class JoinCode:
    """The door's current join code; `replace` makes a new one and the old one stops working."""

    def __init__(self, code: str | None = None) -> None:
        self._code = code or secrets.token_urlsafe(CODE_BYTES)

    @property
    def code(self) -> str:
        """The current code (goes in the join address)."""
        return self._code

    def replace(self) -> str:
        """Make a new code (the old one no longer logs anyone in) and return it."""
        self._code = secrets.token_urlsafe(CODE_BYTES)
        return self._code

    def matches(self, given: object) -> bool:
        """Whether `given` is the current code (compared in constant time)."""
        if not isinstance(given, str) or not given or len(given) > MAX_CODE_LENGTH:
            return False
        return hmac.compare_digest(given.encode(), self._code.encode())


@dataclass(frozen=True)
class JoinLink:
    """The web door's join address as the host's app sees it: `url` gives the current
    one, `replace` makes a new code and gives the new address (None: an open door, with no
    code to replace)."""

    url: Callable[[], str]
    replace: Callable[[], str] | None = None
    # The printable page with the code (`/qr`, for a browser on this machine).
    page: str = ""


def join_url(host: str, port: int, code: str | None) -> str:
    """The address a phone opens to join: http://HOST:PORT/j/CODE (no code: the door's
    own address, for an open door)."""
    base = web_url(host, port)
    return base if code is None else base + JOIN_PREFIX.lstrip("/") + code


def phone_address(bind_host: str | None,
                  adapters: list[ifaddr.Adapter] | None = None) -> str:
    """The IP literal of this machine a phone can reach a door bound to `bind_host` at:
    that address itself when it is one, else (every interface, or a name) the first
    non-loopback IPv4 address of this machine's interfaces (loopback when it has none)."""
    if bind_host:
        try:
            address = ipaddress.ip_address(bind_host)
        except ValueError:
            address = None
        if address is not None and not address.is_unspecified:
            return str(address)
    found = adapters if adapters is not None else list(ifaddr.get_adapters())
    return default_interfaces(found)[0]


def qr_code(text: str) -> segno.QRCode:
    """The QR code of `text` (error correction M: a phone reads it off a glossy screen)."""
    return segno.make_qr(text, error="m", boost_error=False)


def qr_rows(text: str, border: int = 2) -> list[str]:
    """The QR code of `text` drawn with half blocks, two modules a character.

    The blocks are the code's *light* modules (and its quiet zone), so it must be drawn light
    on dark (white foreground, black background): a dark-on-light code whatever the
    terminal's colours. A 12-character code at a LAN address is version 3 (29 modules):
    33×17 characters with a border of 2.
    """
    matrix = [list(row) for row in qr_code(text).matrix_iter(scale=1, border=border)]
    if len(matrix) % 2:
        matrix.append([0] * len(matrix[0]))  # a dark bottom half: no light module there
    blocks = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}
    rows = []
    for top, bottom in zip(matrix[0::2], matrix[1::2], strict=True):
        rows.append("".join(blocks[(not upper, not lower)]
                            for upper, lower in zip(top, bottom, strict=True)))
    return rows


def qr_svg(text: str) -> str:
    """The QR code of `text` as an SVG document (for the printable page)."""
    code = qr_code(text)
    out = io.BytesIO()
    code.save(out, kind="svg", scale=8, border=4, xmldecl=False,
              title="QR code of the join address")
    width, height = code.symbol_size(scale=8, border=4)
    # A viewBox, so that the page may scale it to the paper (segno gives pixel sizes only).
    return out.getvalue().decode().replace("<svg ", f'<svg viewBox="0 0 {width} {height}" ', 1)


def _ip(socket_name: object) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    if not isinstance(socket_name, tuple) or not socket_name or not isinstance(socket_name[0], str):
        return None
    try:
        address = ipaddress.ip_address(socket_name[0].split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def is_local_peer(peername: object, sockname: object) -> bool:
    """Whether a connection (its socket's peername and sockname) comes from this machine:
    from loopback, or from the very address it reached (a machine's connection to its own
    LAN address). Only the host's own browser may see the printable join page."""
    peer = _ip(peername)
    if peer is None:
        return False
    return peer.is_loopback or peer == _ip(sockname)
