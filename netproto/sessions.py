"""Resume tokens: the secret that lets a dropped player reclaim their seat.

A token is 24 random bytes (192 bits) from `secrets`, URL-safe base64 encoded; lookups
compare with `secrets.compare_digest` against every stored token so the time taken does
not reveal how much of a guess was right.
"""

from __future__ import annotations

import secrets
from collections.abc import Hashable
from typing import Generic, TypeVar

TOKEN_BYTES = 24
MAX_TOKEN_LENGTH = 128

SessionKey = TypeVar("SessionKey", bound=Hashable)


def new_resume_token() -> str:
    """A fresh resume token with 192 bits of entropy."""
    return secrets.token_urlsafe(TOKEN_BYTES)


class SessionRegistry(Generic[SessionKey]):
    """Maps resume tokens to whatever the application resumes (a seat number, say)."""

    def __init__(self) -> None:
        self._tokens: dict[SessionKey, str] = {}

    def issue(self, key: SessionKey) -> str:
        """Create (or replace) the token for `key` and return it."""
        token = new_resume_token()
        self._tokens[key] = token
        return token

    def token_for(self, key: SessionKey) -> str | None:
        """The current token of `key`, if it has one."""
        return self._tokens.get(key)

    def revoke(self, key: SessionKey) -> None:
        """Forget `key`'s token: it resumes nothing any more."""
        self._tokens.pop(key, None)

    def lookup(self, token: str) -> SessionKey | None:
        """The key whose token equals `token`, compared in constant time per entry."""
        if not isinstance(token, str) or len(token) > MAX_TOKEN_LENGTH:
            return None
        found: SessionKey | None = None
        candidate = token.encode("utf-8", "surrogatepass")
        for key, stored in self._tokens.items():
            if secrets.compare_digest(stored.encode(), candidate):
                found = key
        return found

    def clear(self) -> None:
        """Forget every token."""
        self._tokens.clear()
