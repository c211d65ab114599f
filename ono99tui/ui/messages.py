"""Messages up to the app: from the connection worker, and from screens asking for actions.

Screens never use the app's connection: they post a request (`MoveChosen`,
`ReadyRequested`, `StartRequested`...), which the app sends to the table, reporting a
failure to send in words (the table's own refusals come back as `ServerRefused`).

The worker is the only code that reads the network. It turns what the `TableClient`
yields into these messages, decoding the game payloads with the engine's codec, so every
handler in the app deals with typed values and never with wire maps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:  # the app loads the protocol and the engine after its first frame
    from netproto.messages import Chat, Lobby, Welcome
    from ono99tui.game import Event, Move, PlayerView
    from ono99tui.ui.catch_up import History


class TableMessage(Message):
    """Base of everything the connection worker reports.

    `connection` numbers the connection it came from (set by the worker): a message from
    a connection the app has since replaced is dropped. None: not from a worker (accepted).
    """

    connection: int | None = None


class Welcomed(TableMessage):
    """The table accepted us (first connection or resume)."""

    def __init__(self, welcome: Welcome) -> None:
        super().__init__()
        self.welcome = welcome


class LobbyUpdated(TableMessage):
    """The table's public state changed: seats, names, phase, options, spectators."""

    def __init__(self, lobby: Lobby) -> None:
        super().__init__()
        self.lobby = lobby


class ViewUpdated(TableMessage):
    """A new view of the match, with the events that led to it (oldest first).

    `clock_deadline`: when the table's turn clock runs, (the seat it runs for, the moment
    on this machine's `time.monotonic()` clock its time is up), worked out on arrival.
    `history`: in the first view after a (re)join, the match before `events`
    (`ono99tui.ui.catch_up`); `bad_history`: why the history that came with it could not
    be read (the view is shown without it).
    """

    def __init__(self, seq: int, view: PlayerView, events: tuple[Event, ...],
                 clock_deadline: tuple[int, float] | None = None, *,
                 history: History | None = None, bad_history: str | None = None) -> None:
        super().__init__()
        self.seq = seq
        self.view = view
        self.events = events
        self.clock_deadline = clock_deadline
        self.history = history
        self.bad_history = bad_history


class ServerRefused(TableMessage):
    """The table refused something we sent; `reason` is in words, `code` for programs."""

    def __init__(self, code: str, reason: str, ref: str | None = None) -> None:
        super().__init__()
        self.code = code
        self.reason = reason
        self.ref = ref


class ChatReceived(TableMessage):
    """Someone at the table said something (as the table sent it: the app cleans it again
    before showing it)."""

    def __init__(self, chat: Chat) -> None:
        super().__init__()
        self.chat = chat


class ConnectionDropped(TableMessage):
    """The link dropped; the client is reconnecting with the resume token if `will_retry`."""

    def __init__(self, reason: str, will_retry: bool) -> None:
        super().__init__()
        self.reason = reason
        self.will_retry = will_retry


class ConnectionResumed(TableMessage):
    """The seat was resumed after a drop."""

    def __init__(self, attempts: int) -> None:
        super().__init__()
        self.attempts = attempts


class ConnectionEnded(TableMessage):
    """The session is over for good (or never started); `reason` says why, in words."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__()
        self.code = code
        self.reason = reason


class MoveChosen(Message):
    """A screen asks the app to send this move to the table."""

    def __init__(self, move: Move) -> None:
        super().__init__()
        self.move = move


class ChatRequested(Message):
    """A screen asks the app to say `text` at the table, or the quick emote `emote`."""

    def __init__(self, *, text: str | None = None, emote: str | None = None) -> None:
        super().__init__()
        self.text = text
        self.emote = emote


class RematchRequested(Message):
    """The player wants another match (the host starts it; others say they are ready)."""


class OpenRoomRequested(Message):
    """The host, a match over, takes the table back to the waiting room (to change the
    rules or the seats before the next match)."""


# --- the waiting room asks the app (which holds the connection) -------------------------


class ReadyRequested(Message):
    """The player says they are (or are no longer) ready for the match."""

    def __init__(self, ready: bool) -> None:
        super().__init__()
        self.ready = ready


class AddBotRequested(Message):
    """The host wants a bot of kind `bot` seated."""

    def __init__(self, bot: str) -> None:
        super().__init__()
        self.bot = bot


class RemoveBotRequested(Message):
    """The host wants the bot in `seat` removed."""

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat


class StartRequested(Message):
    """The host wants the match dealt."""


class OptionsChangeRequested(Message):
    """The host changes the table's rules: a preset by name, and/or single rule options.

    `what` names the change in words, for the error shown if the table refuses it.
    """

    def __init__(self, what: str, *, preset: str | None = None,
                 rules: dict[str, object] | None = None,
                 table: dict[str, object] | None = None) -> None:
        super().__init__()
        self.what = what
        self.preset = preset
        self.rules = rules
        # Table options beside the rules, e.g. {"turn_seconds": 60} (None: no clock).
        self.table = table


class LeaveRequested(Message):
    """The player gives up their seat (or stops watching) to pick another table."""



class TakeSeatRequested(Message):
    """A spectator wants to play the next match at this table: the app says goodbye as a
    spectator and joins the same table again asking for a seat (see `Ono99App.take_seat`)."""
