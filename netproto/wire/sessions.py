"""Resume tokens: the secret that lets a dropped player reclaim their seat.

A token is 24 random bytes (192 bits) from `secrets`, URL-safe base64 encoded. The registry
keeps each token's SHA-256 digest (`token_digest`), and a lookup hashes the guess once and
compares it with `secrets.compare_digest` against every stored digest, so the time taken does
not reveal how much of a guess was right. Keeping digests lets a registry take over tokens
known only by their digest (`adopt`): a server restarted from a record that never held the
tokens themselves still honours them.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Hashable
from typing import Generic, TypeVar

TOKEN_BYTES = 24
MAX_TOKEN_LENGTH = 128

SessionKey = TypeVar("SessionKey", bound=Hashable)


def new_resume_token() -> str:
    """A fresh resume token with 192 bits of entropy."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_digest(token: str) -> str:
    """The SHA-256 of a token (hex): what may be stored instead of the token itself."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class SessionRegistry(Generic[SessionKey]):
    """Maps resume tokens to whatever the application resumes (a seat number, say)."""

    def __init__(self) -> None:
        # The digest of every key's token; the token itself only where this registry
        # issued it (an adopted key's token is known by its digest alone).
        self._digests: dict[SessionKey, bytes] = {}
        self._tokens: dict[SessionKey, str] = {}

    def issue(self, key: SessionKey) -> str:
        """Create (or replace) the token for `key` and return it."""
        token = new_resume_token()
        self._tokens[key] = token
        self._digests[key] = token_digest(token).encode()
        return token

    def adopt(self, key: SessionKey, digest: str) -> None:
        """Let the token whose `token_digest` is `digest` resume `key` (the token itself
        is not known here)."""
        self._tokens.pop(key, None)
        self._digests[key] = digest.encode()

    def token_for(self, key: SessionKey) -> str | None:
        """The current token of `key`, if it has one this registry knows in full."""
        return self._tokens.get(key)

    def digest_for(self, key: SessionKey) -> str | None:
        """The `token_digest` of `key`'s current token, if it has one."""
        digest = self._digests.get(key)
        return digest.decode() if digest is not None else None

    def revoke(self, key: SessionKey) -> None:
        """Forget `key`'s token: it resumes nothing any more."""
        self._tokens.pop(key, None)
        self._digests.pop(key, None)

    def lookup(self, token: str) -> SessionKey | None:
        """The key whose token equals `token`: the guess is hashed once and compared with
        every stored digest in constant time."""
        if not isinstance(token, str) or len(token) > MAX_TOKEN_LENGTH:
            return None
        found: SessionKey | None = None
        candidate = token_digest(token).encode()
        for key, stored in self._digests.items():
            if secrets.compare_digest(stored, candidate):
                found = key
        return found

    def clear(self) -> None:
        """Forget every token."""
        self._tokens.clear()
        self._digests.clear()
