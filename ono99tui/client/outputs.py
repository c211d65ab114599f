"""What the client session asks its front end to do (`ono99tui.client.session`).

Every input to a `TableSession` returns a list of these, in order; a front end (the
Textual app, the line mode, the phone page, the network bot) carries out the ones it has a
use for and may ignore the rest: a bot has no dialogs, a line mode no terminal title.
Plain frozen values, so that a test can compare what a session decided.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Literal

from netproto.wire.messages import Message
from ono99tui.client.story import LogChange, SaidItem, YourBust
from ono99tui.game import Event, RoundEnded
from ono99tui.i18n import _

Severity = Literal["information", "warning", "error"]


@dataclass(frozen=True, slots=True)
class Send:
    """Send `message` to the table. If it cannot be sent (the link is down), the front end
    tells the player under `failure_title` and calls `TableSession.not_sent(message)`."""

    message: Message
    # In the language spoken where the Send is made (a phone's seat speaks its phone's).
    failure_title: str = field(default_factory=lambda: _("Not sent"))


@dataclass(frozen=True, slots=True)
class Notice:
    """Tell the player something in passing (a toast in the terminal, a line in line mode).
    `text` is plain text, never markup: it may quote names and the table's words.
    `quiet_under_dialog`: say nothing if a dialog already covers the table (it says what
    happened, and the log has the line)."""

    text: str
    title: str = ""
    severity: Severity = "information"
    timeout: float | None = None
    quiet_under_dialog: bool = False


@dataclass(frozen=True, slots=True)
class ClearNotices:
    """Take down the notices shown: a dialog that tells everything is about to open."""


@dataclass(frozen=True, slots=True)
class TurnSignal:
    """The viewer's turn (or an obligation) came, when `ring`; `title`: what the window's
    title says now (a front end may ring, vibrate, set its title, or nothing)."""

    ring: bool
    title: str


@dataclass(frozen=True, slots=True)
class ShowTable:
    """A match is on: show the table (the first view at this table)."""


class Dialog(enum.StrEnum):
    """The dialogs the session opens and closes."""

    BUST = "bust"  # the viewer's own bust, held on screen until a key or the next deal
    ROUND_END = "round-end"
    MATCH_END = "match-end"


@dataclass(frozen=True, slots=True)
class CloseDialogs:
    """Close whichever of `dialogs` is on top, as long as one is (they may be stacked)."""

    dialogs: frozenset[Dialog]


@dataclass(frozen=True, slots=True)
class ShowBust:
    """Hold the viewer's own bust on screen."""

    bust: YourBust


@dataclass(frozen=True, slots=True)
class ShowRoundEnd:
    """A round of a tokens or points match is over: its results."""

    result: RoundEnded


@dataclass(frozen=True, slots=True)
class ShowMatchEnd:
    """The match is over: its results and the rematch."""


@dataclass(frozen=True, slots=True)
class TableGone:
    """The table closed for good (its host closed it, or stopped answering): say so over
    whatever is shown and offer the way on (back to the list of tables, or quit)."""

    headline: str
    explanation: str


@dataclass(frozen=True, slots=True)
class Log:
    """The match's log changed (`ono99tui.client.story`)."""

    change: LogChange


@dataclass(frozen=True, slots=True)
class EventsTaken:
    """The match's public events this view brought that the session had not taken in
    before, oldest first (with a (re)joined view, the part of its history that was news):
    what a bot observes."""

    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class LogCleared:
    """The log starts afresh: another table (or the same one joined again)."""


@dataclass(frozen=True, slots=True)
class Heard:
    """A line of table talk came (already in the log when the table is shown): a front end
    shows it where talk is in sight, or in passing."""

    said: SaidItem


@dataclass(frozen=True, slots=True)
class RoomOpened:
    """The table went from a finished match back to the waiting room (its host opened it,
    to change the rules or the seats): the match's screens make way for the room, and the
    player is told `notice` (none for the host, who asked for it)."""

    notice: Notice | None


@dataclass(frozen=True, slots=True)
class SeatedAnew:
    """The table gave this player a new seat (its host restarted without their match): the
    match shown is over for good; a front end goes back to its waiting room (and says so
    with `TableSession.match_left`)."""


@dataclass(frozen=True, slots=True)
class JoinAgain:
    """Leave the table as a spectator and join it again asking for a seat, with what it was
    joined with (a clean bye first). The front end reports how it went with
    `TableSession.connect(seat_asked=True)` or `TableSession.seat_not_taken()`."""


Output = (Send | Notice | ClearNotices | TurnSignal | ShowTable | CloseDialogs | ShowBust
          | ShowRoundEnd | ShowMatchEnd | TableGone | Log | EventsTaken | LogCleared | Heard
          | RoomOpened | SeatedAnew | JoinAgain)
