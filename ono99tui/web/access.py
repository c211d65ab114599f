"""Who may use the web door: the password login, its session cookie, the Origin check.

Pure functions and a small token book, no aiohttp: the server (`ono99tui.web.server`)
applies them to each request (and `netproto.limits.GuessThrottle` to each password).
"""

from __future__ import annotations

import hmac
import secrets
from collections import OrderedDict
from urllib.parse import urlsplit

# The login cookie: HttpOnly (no script can read it), SameSite=Strict (no other site's page
# can send it), scoped to the whole door.
LOGIN_COOKIE = "ono99_login"
# Logins kept before the oldest is forgotten (its browser then sees the login page again).
MAX_LOGINS = 256


def same_origin(origin: str | None, host: str | None, scheme: str = "http") -> bool:
    """Whether a request's Origin header names this door as the browser reached it (Host).

    A page from another site (or a sandboxed one, Origin "null") must not drive a player's
    game through their browser: its websocket and form posts carry its own Origin.
    """
    if not origin or not host:
        return False
    try:
        parts = urlsplit(origin)
        origin_port = parts.port
    except ValueError:
        return False
    if parts.scheme != scheme or not parts.hostname or parts.path not in ("", "/"):
        return False
    try:
        host_parts = urlsplit(f"{scheme}://{host}")
        host_port = host_parts.port
    except ValueError:
        return False
    default = 443 if scheme == "https" else 80
    return (parts.hostname.lower() == (host_parts.hostname or "").lower()
            and (origin_port or default) == (host_port or default))


def password_matches(given: object, expected: str) -> bool:
    """Whether *given* is the door's password (compared in constant time)."""
    if not isinstance(given, str) or not expected:
        return False
    return hmac.compare_digest(given.encode(), expected.encode())


class LoginBook:
    """The login tokens handed out after a right password; the newest MAX_LOGINS are kept."""

    def __init__(self, limit: int = MAX_LOGINS) -> None:
        self._tokens: OrderedDict[str, None] = OrderedDict()
        self._limit = limit

    def issue(self) -> str:
        """A new login token (the cookie's value)."""
        token = secrets.token_urlsafe(32)
        self._tokens[token] = None
        while len(self._tokens) > self._limit:
            self._tokens.popitem(last=False)
        return token

    def valid(self, token: object) -> bool:
        """Whether *token* was issued here and not yet forgotten."""
        return isinstance(token, str) and token in self._tokens
