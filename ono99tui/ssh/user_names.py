"""SSH user names are player names: let through the door every name a player may have.

asyncssh passes each user name through SASLprep (RFC 4013), whose tables are Unicode 3.2's:
every character assigned since 2002 (all emoji, and letters added to several scripts since)
counts as "unassigned" there, and asyncssh disconnects with its raw "Unassigned character:
'\\360\\237\\216\\262'" before the door ever sees the name (`ssh -p 2222 '🎲Zoë'@host`).
The name becomes a player name, which the door checks itself (`player_name_problem`) and the
app cleans with netproto's `clean_name`, saying what to type instead when it cannot be
used. So asyncssh's user-name preparation is loosened here: a name SASLprep refuses is
taken as it came, NFC-normalized. Passwords are prepared by asyncssh's `auth` module, which
this does not touch.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Callable

import asyncssh.connection
from asyncssh.saslprep import SASLPrepError

log = logging.getLogger("ono99tui.ssh")

_original_saslprep: Callable[[str], str] | None = None


def lenient_user_name(name: str) -> str:
    """asyncssh's SASLprep of a user name, or the name NFC-normalized where SASLprep refuses it."""
    assert _original_saslprep is not None
    try:
        return _original_saslprep(name)
    except SASLPrepError:
        return unicodedata.normalize("NFC", name)


def accept_any_unicode_user_name() -> bool:
    """Make asyncssh's server take user names SASLprep refuses (idempotent); False when this
    asyncssh no longer prepares user names where it did (then they are refused as before)."""
    global _original_saslprep
    current = getattr(asyncssh.connection, "saslprep", None)
    if current is lenient_user_name:
        return True
    if current is None:
        log.warning("this asyncssh version prepares user names elsewhere: emoji names are refused")
        return False
    _original_saslprep = current
    asyncssh.connection.saslprep = lenient_user_name  # type: ignore[assignment]
    return True
