"""What a table client reports when it cannot do what was asked: typed, with the wire code.

`ConnectFailed` (and its `NothingListening`, `Unreachable`) when no TCP connection could be
made; `HandshakeRefused` (and `WrongProtocol`) when the other end answered hello or resume
with a refusal, or with something that is not this protocol; `NotConnected` for a send
while the link is down. A front end words them (`ono99tui.client.connect_errors`).
"""

from __future__ import annotations


class ClientError(Exception):
    """The client could not do what was asked; `code` is the wire code when there is one."""

    def __init__(self, code: str, reason: str = "") -> None:
        super().__init__(f"{code}: {reason}" if reason else code)
        self.code = code
        self.reason = reason


class HandshakeRefused(ClientError):
    """The server answered hello/resume with an error or a bye (or the link failed).

    `final` says whether trying again is pointless: True for an `error` and for a `bye`
    with a final code; False when the link ended with no word from the server (reset, EOF,
    garbled bytes) or with a bye such as a handshake timeout.
    """

    def __init__(self, code: str, reason: str = "", *, final: bool = True) -> None:
        super().__init__(code, reason)
        self.final = final


class NotConnected(ClientError):
    """A send while the link is down (reconnecting) or closed."""


class ConnectFailed(ClientError):
    """No TCP connection to `host`:`port` could be made, so no protocol was spoken at all.

    `os_error` is the operating system's error (None when the attempt timed out); a UI words
    the reason from it. Subclasses: `NothingListening`, `Unreachable`.
    """

    def __init__(self, code: str, reason: str, host: str, port: int,
                 os_error: OSError | None) -> None:
        super().__init__(code, reason)
        self.host = host
        self.port = port
        self.os_error = os_error


class NothingListening(ConnectFailed):
    """The host answered, but nothing listens on that port (the connection was refused)."""


class Unreachable(ConnectFailed):
    """The host could not be reached at all: unknown name, no route, or no answer in time."""


class WrongProtocol(HandshakeRefused):
    """Something listens at `host`:`port`, but it does not speak this protocol: its first
    bytes are not frames of it (`sample` holds up to 64 of them), or it sent nothing that
    counts as an answer within `ClientSettings.answer_timeout` (`sample` may be empty).

    Not final: while a session reconnects, the table may come back on that port.
    """

    def __init__(self, reason: str, host: str, port: int, sample: bytes) -> None:
        super().__init__("wrong-protocol", reason, final=False)
        self.host = host
        self.port = port
        self.sample = sample
