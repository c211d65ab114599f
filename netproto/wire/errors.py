"""Typed protocol errors, each with the wire error code it is reported under.

A `ProtocolError` raised while decoding a peer's bytes is turned into an `error` message
(non-fatal: the connection goes on) or a `bye` message followed by a close (fatal: the byte
stream can no longer be trusted, or the peer must not go on). Applications built on
netproto define their own codes with `ApplicationError`; every code is a short kebab-case
string, documented in docs/PROTOCOL.md.
"""

from __future__ import annotations


class ProtocolError(Exception):
    """Base class of every error a peer can cause; `code` is what goes on the wire."""

    code: str = "protocol-error"
    # Fatal errors end the connection: after them the stream is not trustworthy.
    fatal: bool = False
    # Whether it uses up one of the bad messages a connection is allowed (its error budget).
    charged: bool = True

    def __init__(self, reason: str = "", *, ref: str | None = None,
                 seq: int | None = None) -> None:
        super().__init__(reason or self.code)
        self.reason = reason or self.code
        # The kind of the message refused, when the error is about one message.
        self.ref = ref
        # That message's own `seq`, when it carries one (a move): how a client matches a
        # refusal to the move it made.
        self.seq = seq


class FrameTooLarge(ProtocolError):
    """The length prefix announces a frame above the maximum; nothing of it is buffered."""

    code = "frame-too-large"
    fatal = True


class TruncatedFrame(ProtocolError):
    """The stream ended in the middle of a frame."""

    code = "truncated-frame"
    fatal = True


class MalformedFrame(ProtocolError):
    """A frame of acceptable size whose body is not one msgpack map with string keys."""

    code = "malformed-frame"


class BadMessage(ProtocolError):
    """A map that lacks a field, has a field of the wrong type, or breaks a field's limit."""

    code = "bad-message"


class UnknownKind(ProtocolError):
    """The message's `kind` is not one this protocol version knows."""

    code = "unknown-kind"


class UnexpectedMessage(ProtocolError):
    """A known message that this side may not send in the connection's current state."""

    code = "unexpected-message"


class CrossedMessage(UnexpectedMessage):
    """A message that was right in the state its sender last knew of, and crossed the
    server's change of state on the wire: a `move` sent as the match ended, a `ready` as
    the rematch was dealt. Refused like any unexpected message, but not held against the
    peer: a long session of honest play must never add up to `too-many-errors`."""

    charged = False


class VersionMismatch(ProtocolError):
    """The peer speaks a protocol version this side does not."""

    code = "version-mismatch"
    fatal = True


class BadName(ProtocolError):
    """A player name that is empty, too long, or nothing but unprintable characters."""

    code = "bad-name"


class BadPassword(ProtocolError):
    """The table has a password and the hello did not carry it."""

    code = "bad-password"


class BadHostKey(ProtocolError):
    """A hello offering a host key (an admin password) the table does not have."""

    code = "bad-host-key"


class BadDoorKey(ProtocolError):
    """A hello offering a door's key that is no door's of this server (or from an address
    that is not this machine's): a wrong guess, throttled as a wrong password is."""

    code = "bad-door-key"


class BadToken(ProtocolError):
    """A resume token that matches no seat at this table."""

    code = "bad-token"


class RateLimited(ProtocolError):
    """A message sent faster than its rate limit allows (pings): refused, and counted."""

    code = "rate-limited"


class ResumeThrottled(ProtocolError):
    """Too many bad resume tokens came from this address lately: resumes from it are
    refused, without being looked at, until the oldest of them leaves the window."""

    code = "resume-throttled"
    fatal = True


class HandshakeTimeout(ProtocolError):
    """The peer did not finish its handshake in time."""

    code = "handshake-timeout"
    fatal = True


class HeartbeatTimeout(ProtocolError):
    """Nothing was heard from the peer for longer than the heartbeat timeout."""

    code = "heartbeat-timeout"
    fatal = True


class TooManyErrors(ProtocolError):
    """The peer used up its budget of bad messages."""

    code = "too-many-errors"
    fatal = True


class ServerFull(ProtocolError):
    """The server already holds its maximum number of established connections (those
    past the handshake); unfinished handshakes are limited per address instead."""

    code = "server-full"
    fatal = True


class TooManyConnections(ProtocolError):
    """The peer's address holds too many connections: the newest is refused, or (for
    unfinished handshakes) the address's oldest unfinished handshake is closed to make room.
    Not final: the same address may connect again once it holds fewer."""

    code = "too-many-connections"
    fatal = True


class SlowConsumer(ProtocolError):
    """The peer does not read: its unsent output passed the write-buffer limit."""

    code = "slow-consumer"
    fatal = True


class ApplicationError(ProtocolError):
    """An error the application (e.g. the card table) reports with its own code."""

    def __init__(self, code: str, reason: str = "", *, fatal: bool = False,
                 charged: bool = False) -> None:
        super().__init__(reason or code)
        self.code = code
        self.fatal = fatal
        # An application's refusals (a stale move, not your turn) are part of honest play:
        # not held against the peer unless the application says so.
        self.charged = charged


class LocalProtocolError(Exception):
    """This side tried to send something the protocol forbids: a bug in the caller."""


# Codes netproto itself produces, for docs and tests.
PROTOCOL_ERROR_CODES: tuple[str, ...] = tuple(
    cls.code
    for cls in (
        FrameTooLarge,
        TruncatedFrame,
        MalformedFrame,
        BadMessage,
        UnknownKind,
        UnexpectedMessage,
        VersionMismatch,
        BadName,
        BadPassword,
        BadHostKey,
        BadDoorKey,
        BadToken,
        RateLimited,
        ResumeThrottled,
        HandshakeTimeout,
        HeartbeatTimeout,
        TooManyErrors,
        ServerFull,
        TooManyConnections,
        SlowConsumer,
    )
)

# Codes that end a connection without anything being wrong with the peer's bytes.
CLOSE_CODES: tuple[str, ...] = (
    "normal",  # a side said goodbye
    "eof",  # the peer closed its end of the stream
    "shutdown",  # the server is stopping
    "replaced",  # the seat was resumed from another connection
    "hangup",  # the client's terminal went away: it did not choose to leave (HANGUP)
    "going-away",  # the server is stopping but may come back (GOING_AWAY)
)
# A client whose player's terminal closed says this rather than "normal", so that the table
# holds the seat as after a drop instead of freeing it.
HANGUP = "hangup"
# A server stopped by a signal rather than by its operator's choice (a closed terminal, a
# system shutting down) says this rather than "shutdown": it may be started again and take
# up where it stopped, so clients keep trying to reconnect as after a drop.
GOING_AWAY = "going-away"
