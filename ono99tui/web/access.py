"""Who may use the web door: the password login, its session cookie, the Origin check.

Pure functions and a small token book (kept in a file of the door's players' folder), no
aiohttp: the server (`ono99tui.web.server`) applies them to each request (and
`netproto.limits.GuessThrottle` to each password).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import os
import secrets
from collections import OrderedDict
from pathlib import Path
from urllib.parse import urlsplit

log = logging.getLogger("ono99tui.web")

# The login cookie: HttpOnly (no script can read it), SameSite=Strict (no other site's page
# can send it), scoped to the whole door.
LOGIN_COOKIE = "ono99_login"
# Logins kept before the oldest is forgotten (its browser then sees the login page again).
MAX_LOGINS = 256
# The logins file's largest readable size: 256 tokens of 43 characters and the JSON around
# them are about 12 KB; anything much bigger was not written by this door.
MAX_LOGINS_FILE_BYTES = 64 * 1024
# Where a door keeps its logins, in its players' folder (`WebDoorConfig.players_dir`).
LOGINS_FILE = "logins.json"


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
    """The login tokens handed out after a right password; the newest MAX_LOGINS are kept.

    With a `path`, the book is kept in that file too (written whole on each login, by a
    rename), so that a host restarted with the same password lets its players' browsers
    straight back in: the phones at a table come back with it. The file holds a salted
    hash of the password the tokens were given for (`password`); a different password,
    or a file that is damaged or cannot be read, starts an empty book (everyone logs in
    again). A file that cannot be written leaves the logins in memory only.
    """

    def __init__(self, limit: int = MAX_LOGINS, *, path: Path | None = None,
                 password: str = "") -> None:
        self._tokens: OrderedDict[str, None] = OrderedDict()
        self._limit = limit
        self._path = path
        self._password = password
        self._salt = secrets.token_hex(16)
        if path is not None:
            self._load(path)

    def issue(self) -> str:
        """A new login token (the cookie's value)."""
        token = secrets.token_urlsafe(32)
        self._tokens[token] = None
        while len(self._tokens) > self._limit:
            self._tokens.popitem(last=False)
        self._save()
        return token

    def valid(self, token: object) -> bool:
        """Whether *token* was issued here and not yet forgotten."""
        return isinstance(token, str) and token in self._tokens

    def _fingerprint(self, salt: str) -> str:
        return hashlib.sha256(f"{salt}:{self._password}".encode()).hexdigest()

    def _load(self, path: Path) -> None:
        try:
            with path.open("rb") as file:
                data = json.loads(file.read(MAX_LOGINS_FILE_BYTES + 1)[:MAX_LOGINS_FILE_BYTES])
        except FileNotFoundError:
            return
        except (OSError, ValueError) as error:
            log.warning("the web door's logins (%s) could not be read, so everyone logs in "
                        "again: %s", path, error)
            return
        salt = data.get("salt") if isinstance(data, dict) else None
        tokens = data.get("tokens") if isinstance(data, dict) else None
        if (not isinstance(salt, str) or not isinstance(tokens, list)
                or not all(isinstance(token, str) and 0 < len(token) <= 64 for token in tokens)):
            log.warning("the web door's logins (%s) are damaged, so everyone logs in again",
                        path)
            return
        if not hmac.compare_digest(str(data.get("password", "")), self._fingerprint(salt)):
            return  # given for another password: those browsers log in again
        self._salt = salt
        for token in tokens[-self._limit:]:
            self._tokens[token] = None

    def _save(self) -> None:
        path = self._path
        if path is None:
            return
        body = json.dumps({"version": 1, "salt": self._salt,
                           "password": self._fingerprint(self._salt),
                           "tokens": list(self._tokens)})
        temporary = path.with_name(path.name + ".new")
        try:
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w", encoding="utf-8") as file:
                file.write(body)
            os.replace(temporary, path)
        except OSError as error:
            with contextlib.suppress(OSError):
                temporary.unlink()
            log.warning("the web door's logins could not be kept in %s (they hold until "
                        "the host stops): %s", path, error)
