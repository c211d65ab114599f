"""Why a table could not be joined, in words: from netproto's typed connection errors.

`netproto.client` says what happened (`NothingListening`, `Unreachable`, `WrongProtocol`, a
handshake closed without a word) and stays game-agnostic; this module says it to a player,
the same way in the lobby, `ono99 join HOST:PORT`, the app and `ono99 bot`. No Textual here:
`ono99 bot` runs headless.
"""

from __future__ import annotations

import errno
import socket

from netproto.client_errors import ConnectFailed, HandshakeRefused, NothingListening, WrongProtocol
from ono99tui.i18n import _

# Handshake endings with no word from the peer: it accepted, then closed or reset.
_SILENT_CLOSE_CODES = frozenset({"eof", "connection-lost"})
# The longest first line of a foreign server's answer quoted back to the player.
_QUOTE_LENGTH = 40


def address_text(host: str, port: int) -> str:
    """HOST:PORT as a player types it ([v6]:PORT for an IPv6 address)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def connect_error_text(
    error: Exception, host: str | None = None, port: int | None = None
) -> str | None:
    """One clause saying why connecting to a table failed, or None when `error` is not about
    reaching it (e.g. the table's own refusal, which carries its own words).

    "nothing is listening at 127.0.0.1:9555", "127.0.0.1:8000 does not speak the ono99
    protocol (a web server answered)", "no host is called 'tabel' (the name was not found)".
    The address comes from the error when it carries one (`ConnectFailed`, `WrongProtocol`);
    a handshake closed without a word, or a raw OSError, is said only if `host` and `port`
    are given.
    """
    host = getattr(error, "host", host)
    port = getattr(error, "port", port)
    if host is None or port is None:
        return None
    where = address_text(host, port)
    if isinstance(error, NothingListening):
        return _("nothing is listening at {where}").format(where=where)
    if isinstance(error, ConnectFailed):
        return _unreachable_text(error, where)
    if isinstance(error, WrongProtocol):
        return _("{where} does not speak the ono99 protocol ({answer})").format(
            where=where, answer=_what_answered(error))
    if isinstance(error, HandshakeRefused) and error.code in _SILENT_CLOSE_CODES:
        return _("{where} closed the connection without answering: is it an ono99 table?").format(
            where=where)
    if isinstance(error, ConnectionRefusedError):  # raw OSErrors: from a custom factory
        return _("nothing is listening at {where}").format(where=where)
    if isinstance(error, TimeoutError):  # it answered, then never finished the handshake
        return _("{where} did not let us in: no welcome in time").format(where=where)
    if isinstance(error, OSError):
        return _("{where} cannot be reached ({why})").format(where=where, why=_os_words(error))
    return None


def _unreachable_text(error: ConnectFailed, where: str) -> str:
    cause = error.os_error
    if cause is None:
        return _("{where} did not answer ({reason}): is the host on, or a firewall in the "
                 "way?").format(where=where, reason=error.reason)
    if isinstance(cause, socket.gaierror):
        if cause.errno == socket.EAI_AGAIN:
            return _("the name {host} could not be looked up just now (no answer from DNS)").format(
                host=repr(error.host))
        return _("no host is called {host} (the name was not found)").format(host=repr(error.host))
    if cause.errno == errno.ENETUNREACH:
        return _("{where} is on a network this machine cannot reach").format(where=where)
    if cause.errno == errno.EHOSTUNREACH:
        return _("{where} cannot be reached (no route to that host)").format(where=where)
    if cause.errno == errno.ETIMEDOUT:
        return _("{where} did not answer: is the host on, or a firewall in the way?").format(
            where=where)
    return _("{where} cannot be reached ({why})").format(where=where, why=_os_words(cause))


def _os_words(error: OSError) -> str:
    """The operating system's words for an error, as a clause ("connection reset by peer")."""
    words = (error.strerror or str(error) or type(error).__name__).strip().rstrip(".")
    return words[:1].lower() + words[1:]


def _what_answered(error: WrongProtocol) -> str:
    """A short hint at what answered instead: quoted when it is readable text."""
    sample = error.sample
    if not sample:
        return error.reason  # "no answer within 2 s"
    if sample.startswith(b"HTTP/"):
        return _("a web server answered")
    line = sample.split(b"\n", 1)[0].strip()
    if line and all(32 <= byte < 127 for byte in line):
        text = line.decode("ascii")
        if len(text) > _QUOTE_LENGTH:
            text = text[: _QUOTE_LENGTH - 3] + "..."
        return _("it answered {text}").format(text=repr(text))
    return _("its first bytes are not ono99 messages")
