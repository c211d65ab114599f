"""The match so far, as the first view after a (re)join tells it (`view.history`).

A view carries the events since the seat's previous view; the first one after a resume,
a spectator's arrival or a host's restart also carries the match's public events before
them (docs/PROTOCOL.md §3 "view"), so that the app can show the whole match in its log,
its round results and its busts as if it had watched. Here: reading that history
(`history_from_wire`, strict like the view's own events: a history this app cannot read
raises `BadHistory`, and the app then shows the view without it), and finding where what
the app has not taken in yet begins (`unseen_from`), so that nothing is shown twice.

Pure: no Textual, no sockets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from netproto.wire.chat_text import clean_line
from ono99tui.game import Event, RoundDealt, TimedOut
from ono99tui.game.codec import event_from_wire

# Characters of a reason for refusing a history that a notice shows (it may quote what
# the table sent, which could be long).
MAX_REASON = 160


class BadHistory(ValueError):
    """A view's history this app cannot read (a table that is not ours, or a rogue one).

    Its message says why, cleaned for the screen. The view and its own events are fine
    without it: the app shows them and leaves its log as it was."""


@dataclass(frozen=True, slots=True)
class History:
    """A view's history, decoded: the match's events before the view's own, oldest first,
    and how many rounds at its start the table shortened to fit (plays left out)."""

    events: tuple[Event, ...]
    abridged: int = 0


def history_from_wire(wire: Sequence[object], abridged: int) -> History:
    """Decode a view's `history` (each entry strictly, as a view's events) and its
    `history_abridged`; raises BadHistory."""
    events: list[Event] = []
    for number, entry in enumerate(wire, 1):
        try:
            events.append(event_from_wire(entry))
        except ValueError as error:
            raise BadHistory(_said(f"its event {number} is not one: {error}")) from None
    deals = sum(1 for event in events if type(event) is RoundDealt)
    if abridged > deals:
        raise BadHistory(f"it says {abridged} rounds were shortened, but holds {deals}")
    return History(tuple(events), abridged)


def unseen_from(seen: Sequence[Event], story: Sequence[Event]) -> int | None:
    """Where in `story` (a (re)joined view's history, then its events: the match so far)
    the events begin that the app has not taken in, given `seen`, the events of the round
    in progress as the app took them in (from its deal on: `story.SeenEvents`).

    0 when the app saw nothing of the match. None when the two do not tell the same match
    (the app saw this round from its middle, or the table's account differs: another match,
    moves the table lost with its journal's last writes): the table's account is then the
    one to show. The table's own `timed_out` events are not in a restarted table's account
    (its journal does not record them), so one the app saw may be missing from it."""
    if not seen:
        return 0
    deal = seen[0]
    if type(deal) is not RoundDealt:
        return None
    try:
        at = story.index(deal)  # round numbers are unique in a match
    except ValueError:
        return None
    for event in seen:
        if at < len(story) and story[at] == event:
            at += 1
        elif type(event) is not TimedOut:
            return None
    return at


def _said(reason: str) -> str:
    """`reason` as a notice may show it: one line, inert, at most MAX_REASON characters."""
    return clean_line(reason, MAX_REASON) or "it cannot be read"
