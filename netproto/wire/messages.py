"""Every message of the protocol as a frozen dataclass, with strict decoding from wire maps.

On the wire each message is a msgpack map whose "kind" field names it. Decoding checks
every field's type and limits and raises `BadMessage` / `UnknownKind`; fields a message does
not define are ignored, so a later minor version may add optional fields. Game payloads
(`Move.move`, `View.view`, `View.events`, `SetOptions.options`, `Welcome.table`) are
opaque maps here: the application validates them.

Text a peer shows on someone's screen (seat and chat names, chat lines, refusal codes and
reasons) is made inert as it is decoded, by `netproto.wire.chat_text.clean_line`: a client
never trusts the server it talks to. docs/PROTOCOL.md §6 says what stands in for a field
that nothing printable is left of.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

# MAX_CHAT_TEXT lives with the cleaner and is re-exported here, with the other limits.
from netproto.wire.chat_text import MAX_CHAT_TEXT as MAX_CHAT_TEXT
from netproto.wire.chat_text import clean_line
from netproto.wire.errors import BadMessage, UnknownKind
from netproto.wire.packing import Prepacked

PROTOCOL_VERSION = 1

MAX_SHORT_TEXT = 64  # codes, bot names, roles, phases
MAX_TEXT = 512  # reasons, passwords
MAX_NAME_FIELD = 256  # raw names: cleaned and shortened by netproto.wire.names
MAX_DOOR_KEY = 128  # a door's key (netproto.server.Server.trust_door: 43 characters)
MAX_SEQ = 2**53  # stays exact in every language's number type
MAX_SEATS_LISTED = 16
# A seat's rating as a lobby lists it: an application's whole number, within ± this.
MAX_RATING = 1_000_000
MAX_EVENTS = 256
# A view's `history` (the events before its own, for a peer that (re)joined): more entries
# than any frame holds, so the frame's size is what limits it in practice.
MAX_HISTORY = 8192
# What a decoded name or code reads when nothing printable is left of it after cleaning
# (a name must show as something; a reason may be empty, the UI then shows the code).
UNREADABLE = "?"


def _get(data: dict[str, Any], name: str, kind: str) -> Any:
    if name not in data:
        raise BadMessage(f"{kind}: missing field {name!r}")
    return data[name]


def _int(data: dict[str, Any], name: str, kind: str, *, low: int = 0, high: int = MAX_SEQ,
         default: int | None = None, required: bool = True) -> int:
    if not required and name not in data:
        assert default is not None
        return default
    value = _get(data, name, kind)
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadMessage(f"{kind}.{name} must be an integer")
    if not low <= value <= high:
        raise BadMessage(f"{kind}.{name} must be between {low} and {high}")
    return value


def _optional_int(data: dict[str, Any], name: str, kind: str, *, low: int = 0,
                  high: int = MAX_SEQ) -> int | None:
    if data.get(name) is None:
        return None
    return _int(data, name, kind, low=low, high=high)


def _str(data: dict[str, Any], name: str, kind: str, *, limit: int = MAX_SHORT_TEXT,
         default: str | None = None) -> str:
    if default is not None and name not in data:
        return default
    value = _get(data, name, kind)
    if not isinstance(value, str):
        raise BadMessage(f"{kind}.{name} must be a string")
    if len(value) > limit:
        raise BadMessage(f"{kind}.{name} may have at most {limit} characters")
    return value


def _shown(text: str, limit: int, empty: str = "") -> str:
    """`text` as it may be shown on a screen (`clean_line`), or `empty` if nothing is left."""
    return clean_line(text, limit) or empty


def _optional_str(data: dict[str, Any], name: str, kind: str, *,
                  limit: int = MAX_TEXT) -> str | None:
    if data.get(name) is None:
        return None
    return _str(data, name, kind, limit=limit)


def _bool(data: dict[str, Any], name: str, kind: str, *, default: bool | None = None) -> bool:
    if default is not None and name not in data:
        return default
    value = _get(data, name, kind)
    if not isinstance(value, bool):
        raise BadMessage(f"{kind}.{name} must be true or false")
    return value


def _map(data: dict[str, Any], name: str, kind: str, *, default: bool = False) -> dict[str, Any]:
    if default and name not in data:
        return {}
    value = _get(data, name, kind)
    if not isinstance(value, dict):
        raise BadMessage(f"{kind}.{name} must be a map")
    return value


def _choice(data: dict[str, Any], name: str, kind: str, choices: tuple[str, ...]) -> str:
    value = _str(data, name, kind)
    if value not in choices:
        raise BadMessage(f"{kind}.{name} must be one of {', '.join(choices)}")
    return value


VocabularyT = TypeVar("VocabularyT", bound=enum.StrEnum)


def _member(
    data: dict[str, Any], name: str, kind: str, vocabulary: type[VocabularyT]
) -> VocabularyT:
    """The member of `vocabulary` a field names; BadMessage lists the names it may take."""
    value = _str(data, name, kind)
    try:
        return vocabulary(value)
    except ValueError:
        raise BadMessage(f"{kind}.{name} must be one of {', '.join(vocabulary)}") from None


@dataclass(frozen=True)
class Message:
    """Base of all messages; `kind` is the wire name."""

    kind: ClassVar[str] = ""

    def to_wire(self) -> dict[str, Any]:
        """The map that goes into a frame."""
        wire: dict[str, Any] = {"kind": self.kind}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if value is not None:
                wire[name] = value
        return wire

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Message:
        """Build the message from its map; raises BadMessage on any bad field."""
        raise NotImplementedError


# --- handshake (client -> server) ---------------------------------------------------------


@dataclass(frozen=True)
class Hello(Message):
    """Ask for a seat (or to watch): the first message of a new session."""

    kind: ClassVar[str] = "hello"
    proto: int
    name: str
    password: str | None = None
    spectate: bool = False
    host_key: str | None = None
    # The player asks the table not to rate them (True); None: rated as usual (not sent).
    unrated: bool | None = None
    # A door's key (docs/PROTOCOL.md §4 "Doors"): this connection is one of the users a
    # door in the host's own process let in, counted under the door's caps, not its address.
    door_key: str | None = None

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Hello:
        return cls(
            proto=_int(data, "proto", cls.kind, high=2**31),
            name=_str(data, "name", cls.kind, limit=MAX_NAME_FIELD),
            password=_optional_str(data, "password", cls.kind),
            spectate=_bool(data, "spectate", cls.kind, default=False),
            host_key=_optional_str(data, "host_key", cls.kind),
            unrated=_bool(data, "unrated", cls.kind, default=False) or None,
            door_key=_optional_str(data, "door_key", cls.kind, limit=MAX_DOOR_KEY),
        )


@dataclass(frozen=True)
class Resume(Message):
    """Reclaim a seat after a drop, proving it with the seat's resume token."""

    kind: ClassVar[str] = "resume"
    proto: int
    token: str

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Resume:
        return cls(
            proto=_int(data, "proto", cls.kind, high=2**31),
            token=_str(data, "token", cls.kind, limit=128),
        )


# --- handshake (server -> client) ---------------------------------------------------------


ROLES = ("player", "spectator")


@dataclass(frozen=True)
class Welcome(Message):
    """The handshake succeeded: the role, seat and resume token of this session."""

    kind: ClassVar[str] = "welcome"
    proto: int
    role: str
    seat: int | None = None
    token: str | None = None
    host: bool = False
    table: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Welcome:
        return cls(
            proto=_int(data, "proto", cls.kind, high=2**31),
            role=_choice(data, "role", cls.kind, ROLES),
            seat=_optional_int(data, "seat", cls.kind, high=MAX_SEATS_LISTED),
            token=_optional_str(data, "token", cls.kind, limit=128),
            host=_bool(data, "host", cls.kind, default=False),
            table=_map(data, "table", cls.kind, default=True),
        )


# --- waiting room (client -> server) ------------------------------------------------------


@dataclass(frozen=True)
class Ready(Message):
    """Say whether this seat is ready for the next match."""

    kind: ClassVar[str] = "ready"
    ready: bool = True

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Ready:
        return cls(ready=_bool(data, "ready", cls.kind, default=True))


@dataclass(frozen=True)
class Rated(Message):
    """Say whether this seat's player is to be rated (`rated` false: left out of the
    ratings, as `Hello.unrated` asks at the start). The application says when it may
    change (ono99: between matches)."""

    kind: ClassVar[str] = "rated"
    rated: bool

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Rated:
        return cls(rated=_bool(data, "rated", cls.kind))


@dataclass(frozen=True)
class Start(Message):
    """Host only: deal a match (the first one, or a rematch)."""

    kind: ClassVar[str] = "start"

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Start:
        return cls()


@dataclass(frozen=True)
class OpenRoom(Message):
    """Host only: after a match, take the table back to the waiting room (to change the
    rules or the seats before the next deal)."""

    kind: ClassVar[str] = "open_room"

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> OpenRoom:
        return cls()


@dataclass(frozen=True)
class AddBot(Message):
    """Host only: seat a computer player of the named kind."""

    kind: ClassVar[str] = "add_bot"
    bot: str

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> AddBot:
        return cls(bot=_str(data, "bot", cls.kind))


@dataclass(frozen=True)
class RemoveBot(Message):
    """Host only: remove the computer player in `seat`."""

    kind: ClassVar[str] = "remove_bot"
    seat: int

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> RemoveBot:
        return cls(seat=_int(data, "seat", cls.kind, high=MAX_SEATS_LISTED))


@dataclass(frozen=True)
class SetOptions(Message):
    """Host only: change table options (opaque to netproto)."""

    kind: ClassVar[str] = "set_options"
    options: dict[str, Any]

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> SetOptions:
        return cls(options=_map(data, "options", cls.kind))


# --- playing ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Move(Message):
    """Play a move; `seq` is the sequence number of the view it was chosen from."""

    kind: ClassVar[str] = "move"
    seq: int
    move: dict[str, Any]

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Move:
        return cls(seq=_int(data, "seq", cls.kind), move=_map(data, "move", cls.kind))


class TablePhase(enum.StrEnum):
    """Where a table stands: seating players, playing a match, or between matches.

    The wire carries the value (a StrEnum packs as its string).
    """

    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"


class SeatKind(enum.StrEnum):
    """Who sits in a seat, as the lobby tells everyone."""

    HUMAN = "human"
    BOT = "bot"
    # The seat left the match in progress and only watches it (its player may be back).
    RESIGNED = "resigned"


# Wire string -> member, for the decoders' fast paths (a dict lookup, not an Enum call).
_PHASE_BY_WIRE: dict[str, TablePhase] = {phase.value: phase for phase in TablePhase}
_SEAT_KIND_BY_WIRE: dict[str, SeatKind] = {kind.value: kind for kind in SeatKind}


@dataclass(frozen=True)
class SeatInfo:
    """One seat as the waiting room shows it."""

    seat: int
    name: str
    kind: SeatKind
    ready: bool
    connected: bool
    # The seat's player's rating as the table shows it (an application's number, e.g.
    # ono99's 1000 + 40(mu - 3 sigma)); None: the table rates nobody, or not this seat.
    rating: int | None = None
    # Its player asked not to be rated (`Hello.unrated`, `Rated`); on the wire only when true.
    unrated: bool = False

    def to_wire(self) -> dict[str, Any]:
        """The seat's map inside a `lobby` message (`rating` only when there is one,
        `unrated` only when true)."""
        wire = {"seat": self.seat, "name": self.name, "kind": self.kind,
                "ready": self.ready, "connected": self.connected}
        if self.rating is not None:
            wire["rating"] = self.rating
        if self.unrated:
            wire["unrated"] = True
        return wire

    @classmethod
    def from_wire(cls, data: Any) -> SeatInfo:
        """Decode one seat map; raises BadMessage."""
        if not isinstance(data, dict):
            raise BadMessage("lobby.seats entries must be maps")
        # Every lobby lists every seat, and each client decodes every lobby: the common case
        # (all five fields right) is checked in one expression; anything else goes through
        # the field-by-field checks below, which say what is wrong.
        seat, name, kind_text = data.get("seat"), data.get("name"), data.get("kind")
        kind = _SEAT_KIND_BY_WIRE.get(kind_text) if type(kind_text) is str else None
        ready, connected = data.get("ready"), data.get("connected")
        rating, unrated = data.get("rating"), data.get("unrated", False)
        if (type(seat) is int and 0 <= seat <= MAX_SEATS_LISTED and type(name) is str
                and len(name) <= MAX_NAME_FIELD and kind is not None
                and type(ready) is bool and type(connected) is bool
                and (rating is None or (type(rating) is int and -MAX_RATING <= rating
                                        <= MAX_RATING))
                and type(unrated) is bool):
            return cls(seat, _shown(name, MAX_NAME_FIELD, UNREADABLE), kind, ready, connected,
                       rating, unrated)
        return cls.checked_from_wire(data)

    @classmethod
    def checked_from_wire(cls, data: dict[str, Any]) -> SeatInfo:
        """`from_wire` field by field: the same result, or the BadMessage naming the field."""
        return cls(
            seat=_int(data, "seat", "lobby.seats", high=MAX_SEATS_LISTED),
            name=_shown(_str(data, "name", "lobby.seats", limit=MAX_NAME_FIELD),
                        MAX_NAME_FIELD, UNREADABLE),
            kind=_member(data, "kind", "lobby.seats", SeatKind),
            ready=_bool(data, "ready", "lobby.seats"),
            connected=_bool(data, "connected", "lobby.seats"),
            rating=(None if data.get("rating") is None
                    else _int(data, "rating", "lobby.seats", low=-MAX_RATING, high=MAX_RATING)),
            unrated=_bool(data, "unrated", "lobby.seats", default=False),
        )


@dataclass(frozen=True)
class Lobby(Message):
    """The table's public state: phase, seats, options; sent on every change."""

    kind: ClassVar[str] = "lobby"
    phase: TablePhase
    seats: tuple[SeatInfo, ...]
    host_seat: int | None = None
    # The receiver's own seat (seats shift when someone leaves the waiting room).
    you: int | None = None
    capacity: int = 0
    spectators: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    results: dict[str, Any] = field(default_factory=dict)

    def to_wire(self) -> dict[str, Any]:
        wire = super().to_wire()
        wire["seats"] = [seat.to_wire() for seat in self.seats]
        return wire

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Lobby:
        seats = cls._seat_list(data)
        # Every client decodes every lobby (a full table's match end sends eight at once):
        # the common case is checked in one expression, as for SeatInfo; anything else goes
        # through the field-by-field checks, which say what is wrong.
        phase_text, host_seat, you = data.get("phase"), data.get("host_seat"), data.get("you")
        phase = _PHASE_BY_WIRE.get(phase_text) if type(phase_text) is str else None
        capacity, spectators = data.get("capacity", 0), data.get("spectators", 0)
        options, results = data.get("options", {}), data.get("results", {})
        if (phase is not None
                and (host_seat is None
                     or (type(host_seat) is int and 0 <= host_seat <= MAX_SEATS_LISTED))
                and (you is None or (type(you) is int and 0 <= you <= MAX_SEATS_LISTED))
                and type(capacity) is int and 0 <= capacity <= MAX_SEATS_LISTED
                and type(spectators) is int and 0 <= spectators <= MAX_SEQ
                and type(options) is dict and type(results) is dict):
            return cls(phase, tuple(SeatInfo.from_wire(seat) for seat in seats), host_seat,
                       you, capacity, spectators, options, results)
        return cls.checked_from_wire(data)

    @classmethod
    def checked_from_wire(cls, data: dict[str, Any]) -> Lobby:
        """`from_wire` field by field: the same result, or the BadMessage naming the field."""
        seats = cls._seat_list(data)
        return cls(
            phase=_member(data, "phase", cls.kind, TablePhase),
            seats=tuple(SeatInfo.from_wire(seat) for seat in seats),
            host_seat=_optional_int(data, "host_seat", cls.kind, high=MAX_SEATS_LISTED),
            you=_optional_int(data, "you", cls.kind, high=MAX_SEATS_LISTED),
            capacity=_int(data, "capacity", cls.kind, high=MAX_SEATS_LISTED, default=0,
                          required=False),
            spectators=_int(data, "spectators", cls.kind, default=0, required=False),
            options=_map(data, "options", cls.kind, default=True),
            results=_map(data, "results", cls.kind, default=True),
        )

    @classmethod
    def _seat_list(cls, data: dict[str, Any]) -> list[Any]:
        seats = _get(data, "seats", cls.kind)
        if not isinstance(seats, list) or len(seats) > MAX_SEATS_LISTED:
            raise BadMessage(f"lobby.seats must be a list of at most {MAX_SEATS_LISTED} maps")
        return seats


# The longest turn time a clock may carry (a day): anything longer is not a clock.
MAX_TURN_SECONDS = 86_400.0


def _seconds(data: dict[str, Any], name: str, kind: str, *, low: float,
             high: float = MAX_TURN_SECONDS) -> float:
    value = _get(data, name, kind)
    if not isinstance(value, int | float) or isinstance(value, bool) or value != value:
        raise BadMessage(f"{kind}.{name} must be a number of seconds")
    if not low <= value <= high:
        raise BadMessage(f"{kind}.{name} must be between {low:g} and {high:g}")
    return float(value)


@dataclass(frozen=True)
class TurnClock:
    """A running turn clock, as a `view` tells it: the seat the table waits for, the
    seconds each of its moves is allowed, and the seconds left when the view was sent.

    `left` is relative because clocks differ between machines: count down from when the
    view arrived."""

    seat: int
    seconds: float
    left: float

    def to_wire(self) -> dict[str, Any]:
        """The clock's map inside a `view` message."""
        return {"seat": self.seat, "seconds": self.seconds, "left": self.left}

    @classmethod
    def from_wire(cls, data: Any) -> TurnClock:
        """Decode `view.clock`; raises BadMessage."""
        if not isinstance(data, dict):
            raise BadMessage("view.clock must be a map")
        seconds = _seconds(data, "seconds", "view.clock", low=0.0)
        return cls(seat=_int(data, "seat", "view.clock", high=MAX_SEATS_LISTED),
                   seconds=seconds, left=_seconds(data, "left", "view.clock", low=0.0))


@dataclass(frozen=True)
class View(Message):
    """What one seat (or a spectator) may see now, and the events since its last view;
    `clock` when the table's turn clock is running for a seat.

    `history`, in the first view after a peer (re)joined only (None in every other): the
    events that came before this view's own, so that a peer that was away, or never there,
    can tell the story so far; `history_abridged` says how many of its oldest parts the
    sender shortened to fit the frame (the application says what a part is and what it
    keeps of one: docs/PROTOCOL.md §3 "view"). Both came later within version 1: a peer
    that does not know them ignores them.

    A sender may give `view` as a `Prepacked` map (netproto.wire.packing), packed from parts it
    shares between peers; it goes on the wire as the same bytes as the plain map would. A
    received view is always a plain map.
    """

    kind: ClassVar[str] = "view"
    seq: int
    view: dict[str, Any] | Prepacked
    events: tuple[dict[str, Any], ...] = ()
    clock: TurnClock | None = None
    history: tuple[dict[str, Any], ...] | None = None
    history_abridged: int = 0

    def to_wire(self) -> dict[str, Any]:
        wire = {"kind": self.kind, "seq": self.seq, "view": self.view,
                "events": list(self.events)}
        if self.clock is not None:
            wire["clock"] = self.clock.to_wire()
        if self.history is not None:
            wire["history"] = list(self.history)
            if self.history_abridged:
                wire["history_abridged"] = self.history_abridged
        return wire

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> View:
        events = _maps(data, "events", cls.kind, MAX_EVENTS)
        clock = data.get("clock")
        history = None if data.get("history") is None else _maps(
            data, "history", cls.kind, MAX_HISTORY)
        return cls(
            seq=_int(data, "seq", cls.kind),
            view=_map(data, "view", cls.kind),
            events=events,
            clock=None if clock is None else TurnClock.from_wire(clock),
            history=history,
            history_abridged=0 if history is None else _int(
                data, "history_abridged", cls.kind, high=MAX_HISTORY, default=0,
                required=False),
        )


def _maps(data: dict[str, Any], name: str, kind: str, limit: int) -> tuple[dict[str, Any], ...]:
    """The list of at most `limit` maps in field `name` (absent: none), opaque here."""
    value = data.get(name, [])
    if not isinstance(value, list) or len(value) > limit:
        raise BadMessage(f"{kind}.{name} must be a list of at most {limit} maps")
    if not all(isinstance(entry, dict) for entry in value):
        raise BadMessage(f"{kind}.{name} entries must be maps")
    return tuple(value)


# --- table talk ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Say(Message):
    """Say something to everyone at the table: a line of `text`, or a quick `emote` (a short
    name the application knows, such as "good-game"). Exactly one of the two."""

    kind: ClassVar[str] = "say"
    text: str | None = None
    emote: str | None = None

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Say:
        text = _optional_str(data, "text", cls.kind, limit=MAX_CHAT_TEXT)
        emote = _optional_str(data, "emote", cls.kind, limit=MAX_SHORT_TEXT)
        if (text is None) == (emote is None):
            raise BadMessage("say needs exactly one of text and emote")
        return cls(text=text, emote=emote)


@dataclass(frozen=True)
class Chat(Message):
    """Someone at the table said something: the sender's `name`, their `seat` (None for a
    spectator), the cleaned `text` (an emote's words too) and the `emote`'s name if it
    was one. Text only: the application never puts anything else in a chat."""

    kind: ClassVar[str] = "chat"
    name: str
    text: str
    seat: int | None = None
    emote: str | None = None

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Chat:
        return cls(
            name=_shown(_str(data, "name", cls.kind, limit=MAX_NAME_FIELD), MAX_NAME_FIELD,
                        UNREADABLE),
            # An empty line stays empty: a client drops a chat with nothing to show.
            text=_shown(_str(data, "text", cls.kind, limit=MAX_CHAT_TEXT), MAX_CHAT_TEXT),
            seat=_optional_int(data, "seat", cls.kind, high=MAX_SEATS_LISTED),
            emote=_optional_str(data, "emote", cls.kind, limit=MAX_SHORT_TEXT),
        )


# --- either direction ---------------------------------------------------------------------


@dataclass(frozen=True)
class Error(Message):
    """A request was refused; the connection goes on. `ref` is the refused message's kind
    and `seq` its own `seq` when it carried one (a move), so a refusal can be matched to it.
    `seq` came later within protocol 1: absent from older servers, ignored by older clients."""

    kind: ClassVar[str] = "error"
    code: str
    reason: str = ""
    ref: str | None = None
    seq: int | None = None

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Error:
        return cls(
            code=_shown(_str(data, "code", cls.kind), MAX_SHORT_TEXT, UNREADABLE),
            reason=_shown(_str(data, "reason", cls.kind, limit=MAX_TEXT, default=""), MAX_TEXT),
            ref=_optional_str(data, "ref", cls.kind, limit=MAX_SHORT_TEXT),
            seq=_optional_int(data, "seq", cls.kind),
        )


@dataclass(frozen=True)
class Ping(Message):
    """Heartbeat: the receiver answers with a pong carrying the same nonce."""

    kind: ClassVar[str] = "ping"
    nonce: int = 0

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Ping:
        return cls(nonce=_int(data, "nonce", cls.kind, high=2**63, default=0, required=False))


@dataclass(frozen=True)
class Pong(Message):
    """Heartbeat answer."""

    kind: ClassVar[str] = "pong"
    nonce: int = 0

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Pong:
        return cls(nonce=_int(data, "nonce", cls.kind, high=2**63, default=0, required=False))


@dataclass(frozen=True)
class Bye(Message):
    """The sender closes the connection; `code` says why ("normal" when all is well)."""

    kind: ClassVar[str] = "bye"
    code: str = "normal"
    reason: str = ""

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Bye:
        return cls(
            code=_shown(_str(data, "code", cls.kind, default="normal"), MAX_SHORT_TEXT,
                        UNREADABLE),
            reason=_shown(_str(data, "reason", cls.kind, limit=MAX_TEXT, default=""), MAX_TEXT),
        )


MESSAGE_TYPES: dict[str, type[Message]] = {
    cls.kind: cls
    for cls in (Hello, Resume, Welcome, Ready, Rated, Start, OpenRoom, AddBot, RemoveBot,
                SetOptions, Move, Lobby, View, Say, Chat, Error, Ping, Pong, Bye)
}


def message_from_wire(data: dict[str, Any]) -> Message:
    """Decode any message map; raises BadMessage or UnknownKind."""
    kind = data.get("kind")
    if not isinstance(kind, str):
        raise BadMessage("every message needs a string field 'kind'")
    cls = MESSAGE_TYPES.get(kind)
    if cls is None:
        raise UnknownKind(f"unknown message kind {kind[:MAX_SHORT_TEXT]!r}")
    try:
        return cls.from_wire(data)
    except BadMessage as error:
        # The refusal names the kind it refuses (a client tells "your chat line was too
        # long" from other refusals by it).
        if error.ref is None:
            error.ref = kind
        raise
