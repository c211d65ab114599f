"""Messages up to the app: from the connection worker, and from screens asking for actions.

Screens never use the app's connection: they post a request (`MoveChosen`,
`ReadyRequested`, `StartRequested`...), which the app hands to its client session
(`ono99tui.client.session`) and sends as the session says, reporting a failure to send in
words (the table's own refusals come back through the session as notices).

The worker is the only code that reads the network. It posts each item the `TableClient`
yields as a `TableItem`; the session decodes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:  # the app loads the protocol and the engine after its first frame
    from ono99tui.game import Move


class TableItem(Message):
    """Something the table's `TableClient` yielded (a welcome, a lobby, a view, a refusal,
    talk, the link dropping, coming back or ending), for the app to hand to its session.

    `connection` numbers the connection it came from (`TableSession.connect`): an item
    from a connection the app has since replaced is stale. None: cannot be stale.
    """

    def __init__(self, item: object, connection: int | None = None) -> None:
        super().__init__()
        self.item = item
        self.connection = connection


class ConnectFailure(Message):
    """The connection never reached the table (or failed past its start); `reason` says
    why in words."""

    def __init__(self, code: str, reason: str, connection: int | None = None) -> None:
        super().__init__()
        self.code = code
        self.reason = reason
        self.connection = connection


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


class RatedRequested(Message):
    """The player asks to be rated from the next match on (`rated`), or not."""

    def __init__(self, rated: bool) -> None:
        super().__init__()
        self.rated = rated


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

    `what` is the title of the error shown if it cannot be sent ("Could not change the
    preset"), in the player's language.
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
    spectator and joins the same table again asking for a seat (`TableSession.take_seat`)."""


class WantSeatToggled(Message):
    """A spectator asks (or stops asking), mid-match, for a seat as soon as the match ends
    (`TableSession.want_seat`)."""
