"""The sans-IO connection: bytes in -> events out, messages in -> bytes out. No sockets here.

Both ends run the same state machine and move it with the same messages, so they always
agree on the state (as in h11):

    HANDSHAKE --welcome(role=player)--> LOBBY <--lobby(phase=playing / other)--> SEATED
    HANDSHAKE --welcome(role=spectator)--> SPECTATING
    any state --bye (either way), fatal error, end of stream--> CLOSED

In each state a side may send only certain kinds (`CLIENT_MAY_SEND`, `SERVER_MAY_SEND`).
A peer breaking that gets an `UnexpectedMessage` violation; sending it ourselves raises
`LocalProtocolError` because that is a bug in the caller.
"""

from __future__ import annotations

import enum
from collections import deque
from dataclasses import dataclass
from typing import Any

from netproto.wire.errors import (
    CrossedMessage,
    LocalProtocolError,
    ProtocolError,
    TooManyErrors,
    UnexpectedMessage,
    VersionMismatch,
)
from netproto.wire.framing import MAX_FRAME_SIZE, FrameDecoder, encode_frame
from netproto.wire.messages import (
    PROTOCOL_VERSION,
    AddBot,
    Bye,
    Chat,
    Error,
    Hello,
    Lobby,
    Message,
    Move,
    OpenRoom,
    Ping,
    Pong,
    Rated,
    Ready,
    RemoveBot,
    Resume,
    Say,
    SetOptions,
    Start,
    TablePhase,
    View,
    Welcome,
    message_from_wire,
)


class Role(enum.Enum):
    """Which end of the connection this object is."""

    CLIENT = "client"
    SERVER = "server"


class State(enum.Enum):
    """Where the session stands; see the module docstring for the transitions."""

    HANDSHAKE = "handshake"
    LOBBY = "lobby"
    SEATED = "seated"
    SPECTATING = "spectating"
    CLOSED = "closed"

    # Members are singletons compared by identity, so identity can hash them too: Enum's
    # own hash runs Python code, and every frame sent or received looks its state up.
    __hash__ = object.__hash__


_ALWAYS = frozenset({Ping, Pong, Bye})
# Table talk goes both ways in every state after the handshake, spectators included.
_TALK = _ALWAYS | {Say}
CLIENT_MAY_SEND: dict[State, frozenset[type[Message]]] = {
    State.HANDSHAKE: _ALWAYS | {Hello, Resume},
    State.LOBBY: _TALK | {Ready, Rated, Start, OpenRoom, AddBot, RemoveBot, SetOptions},
    # set_options too: a table may let some options change during a match (which ones is
    # the table's business; the rest it refuses). And `rated`: the table answers it during
    # a match with its own refusal, which says when it may be changed.
    State.SEATED: _TALK | {Move, SetOptions, Rated},
    State.SPECTATING: _TALK,
    State.CLOSED: frozenset(),
}
_SERVER_IN_SESSION = _ALWAYS | {Lobby, View, Chat, Error}
SERVER_MAY_SEND: dict[State, frozenset[type[Message]]] = {
    State.HANDSHAKE: _ALWAYS | {Welcome, Error},
    State.LOBBY: _SERVER_IN_SESSION,
    State.SEATED: _SERVER_IN_SESSION,
    State.SPECTATING: _SERVER_IN_SESSION,
    State.CLOSED: frozenset(),
}

# What a player may send in the other in-session state: the state changes on the server's
# side, so a message chosen in one state may arrive in the other (see CrossedMessage).
_CROSSING: dict[State, frozenset[type[Message]]] = {
    State.LOBBY: CLIENT_MAY_SEND[State.SEATED],
    State.SEATED: CLIENT_MAY_SEND[State.LOBBY],
}
# Their kinds, for a client telling such a refusal (unexpected-message, ref=kind) apart.
CROSSING_KINDS: frozenset[str] = frozenset(
    message_type.kind for kinds in _CROSSING.values() for message_type in kinds - _TALK
)

# The only messages that move the state machine (besides bye, see `_advance`).
_STATE_CHANGING = frozenset({Welcome, Lobby})

DEFAULT_ERROR_BUDGET = 32


@dataclass(frozen=True)
class Violation:
    """The peer sent something bad. If `error.fatal`, the connection is now CLOSED."""

    error: ProtocolError


@dataclass(frozen=True)
class ConnectionClosed:
    """The connection ended: the peer said bye, the stream ended, or a fatal violation."""

    code: str
    reason: str
    by_peer: bool


Event = Message | Violation | ConnectionClosed


class Connection:
    """One end of a connection, as a pure state machine (feed it bytes, send messages)."""

    def __init__(
        self,
        role: Role,
        *,
        max_frame_size: int = MAX_FRAME_SIZE,
        error_budget: int = DEFAULT_ERROR_BUDGET,
    ) -> None:
        self.role = role
        # Worked out once: every frame sent checks them (an enum's attribute lookup runs
        # Python code).
        self._may_send = CLIENT_MAY_SEND if role is Role.CLIENT else SERVER_MAY_SEND
        self._is_server = role is Role.SERVER
        self.state = State.HANDSHAKE
        self.max_frame_size = max_frame_size
        self.error_budget = error_budget
        self.errors = 0
        self.close_code: str | None = None
        self._decoder = FrameDecoder(max_size=max_frame_size)
        self._frames: deque[dict[str, Any] | ProtocolError] = deque()
        self._events: deque[Event] = deque()
        self._eof = False
        self._bye_sent = False

    # --- incoming ------------------------------------------------------------------------

    def receive_data(self, data: bytes | memoryview) -> list[Event]:
        """Feed bytes from the peer (b"" means end of stream); return every event they make.

        Each frame is checked against the state as it stands once the frames before it
        were decoded. A pump that lets the application act between frames (so a reply
        that changes the state counts for the next frame) uses `feed` and `next_event`.
        """
        self.feed(data)
        events: list[Event] = []
        while (event := self.next_event()) is not None:
            events.append(event)
        return events

    def feed(self, data: bytes | memoryview) -> None:
        """Buffer bytes from the peer (b"" means end of stream) for `next_event`."""
        if self.state is State.CLOSED or self._eof:
            return
        if data:
            self._frames.extend(self._decoder.feed(data))
        else:
            self._eof = True

    def next_event(self) -> Event | None:
        """The next event from the buffered bytes, or None until more arrive."""
        while not self._events:
            if self.state is State.CLOSED:
                self._frames.clear()
                return None
            if self._frames:
                self._events.extend(self._decode(self._frames.popleft()))
            elif self._eof:
                truncated = self._decoder.end_of_stream()
                if truncated is not None:
                    self._events.append(Violation(truncated))
                self._close("eof", "the peer closed the stream")
                self._events.append(
                    ConnectionClosed("eof", "the peer closed the stream", by_peer=True))
            else:
                return None
        return self._events.popleft()

    def _decode(self, item: dict[str, Any] | ProtocolError) -> list[Event]:
        if isinstance(item, ProtocolError):
            return self._violation(item)
        try:
            message = message_from_wire(item)
            self._check_incoming(message)
        except ProtocolError as error:
            return self._violation(error)
        self._advance(message, from_server=self.role is Role.CLIENT)
        if isinstance(message, Bye):
            self._close(message.code, message.reason)
            return [message, ConnectionClosed(message.code, message.reason, by_peer=True)]
        return [message]

    def _check_incoming(self, message: Message) -> None:
        allowed = (SERVER_MAY_SEND if self.role is Role.CLIENT else CLIENT_MAY_SEND)[self.state]
        if type(message) not in allowed:
            reason = f"{message.kind!r} is not allowed in state {self.state.value}"
            seq = getattr(message, "seq", None)
            if self.role is Role.SERVER and type(message) in _CROSSING.get(self.state, ()):
                raise CrossedMessage(reason, ref=message.kind, seq=seq)
            raise UnexpectedMessage(reason, ref=message.kind, seq=seq)
        if isinstance(message, (Hello, Resume, Welcome)) and message.proto != PROTOCOL_VERSION:
            raise VersionMismatch(
                f"this side speaks protocol {PROTOCOL_VERSION}, the peer {message.proto}"
            )

    def _violation(self, error: ProtocolError) -> list[Event]:
        events: list[Event] = [Violation(error)]
        if error.fatal:
            self._close(error.code, error.reason)
            events.append(ConnectionClosed(error.code, error.reason, by_peer=False))
            return events
        events.extend(self.charge(error))
        return events

    def charge(self, error: ProtocolError) -> list[Event]:
        """Count one bad message against the error budget (if `error.charged`).

        For errors found above this layer (an application's `bad-token`, a ping over the
        rate): when the budget is used up, returns the `too-many-errors` violation and the
        close, as for a bad frame; otherwise nothing.
        """
        if not error.charged or self.state is State.CLOSED:
            return []
        self.errors += 1
        if self.errors <= self.error_budget:
            return []
        budget = TooManyErrors(f"more than {self.error_budget} bad messages")
        self._close(budget.code, budget.reason)
        return [Violation(budget),
                ConnectionClosed(budget.code, budget.reason, by_peer=False)]

    # --- outgoing ------------------------------------------------------------------------

    def send(self, message: Message) -> bytes:
        """Frame a message for the peer, moving the state machine; bytes to write."""
        if isinstance(message, Bye):
            # A bye may follow a fatal violation (state already CLOSED), but only once.
            if self._bye_sent:
                raise LocalProtocolError("bye was already sent")
            self._bye_sent = True
            self._close(message.code, message.reason)
            return encode_frame(message.to_wire(), max_size=self.max_frame_size)
        if type(message) not in self._may_send[self.state]:
            raise LocalProtocolError(
                f"{self.role.value} may not send {message.kind!r} in state {self.state.value}"
            )
        frame = encode_frame(message.to_wire(), max_size=self.max_frame_size)
        if self._is_server and type(message) in _STATE_CHANGING:
            self._advance(message, from_server=True)
        return frame

    def bye_for(self, error: ProtocolError) -> bytes:
        """The frame reporting a fatal error (or any closing reason) to the peer."""
        return self.send(Bye(code=error.code, reason=error.reason))

    def error_for(self, error: ProtocolError, ref: str | None = None) -> bytes:
        """The frame reporting a non-fatal error; the connection goes on."""
        return self.send(Error(code=error.code, reason=error.reason, ref=ref or error.ref,
                               seq=error.seq))

    @property
    def bye_sent(self) -> bool:
        """Whether this side already said goodbye."""
        return self._bye_sent

    # --- state ---------------------------------------------------------------------------

    def _advance(self, message: Message, *, from_server: bool) -> None:
        if not from_server:
            return
        if isinstance(message, Welcome):
            self.state = State.SPECTATING if message.role == "spectator" else State.LOBBY
        elif isinstance(message, Lobby) and self.state in (State.LOBBY, State.SEATED):
            self.state = State.SEATED if message.phase == TablePhase.PLAYING else State.LOBBY

    def _close(self, code: str, reason: str) -> None:
        if self.state is not State.CLOSED:
            self.state = State.CLOSED
            self.close_code = code
