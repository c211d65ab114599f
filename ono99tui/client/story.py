"""The story of the match as one player's program takes it in: its public events in order,
each round's result and busts, who went out when, what was said, and the catch-up after a
(re)join — as events and values. The words are the front ends' (`ui/present.py` for the
terminal): nothing here is a sentence a player reads.

`MatchStory.record` takes one view's events; `MatchStory.catch_up` the match so far that a
(re)joined view tells (`view.history`, `ono99tui.client.catch_up`), quietly and without
taking anything in twice; `MatchStory.heard` a line of talk. Each returns the changes to the
log it made (`LogChange`), which a front end shows; the whole log of the match so far is
`MatchStory.items`, for a screen opened late.

Pure: no Textual, no sockets, no clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ono99tui.client.catch_up import History, unseen_from
from ono99tui.client.review_plays import PlaysSeen
from ono99tui.game import (
    Busted,
    Eliminated,
    Event,
    MatchEnded,
    PlayerView,
    RoundDealt,
    RoundEnded,
    Rules,
)

# Lines of the talk heard before the first deal that open the first match's log.
TALK_CARRIED = 20


# --- what the log holds --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EventItem:
    """A public event of the match, with the seats' names and the view it came with (what
    a front end needs to put it in words; some events it shows no line for)."""

    event: Event
    names: tuple[str, ...]
    view: PlayerView


@dataclass(frozen=True, slots=True)
class AbridgedItem:
    """The table told the first `rounds` rounds of the match in short (a long match's
    account must fit in one frame: docs/PROTOCOL.md §3 "view")."""

    rounds: int


@dataclass(frozen=True, slots=True)
class StandInItem:
    """What a stand-in bot played for the viewer's `seat` while they were away, among
    `events`; `skip_first`: the first of those moves was the player's own, sent before the
    link dropped."""

    events: tuple[Event, ...]
    seat: int
    rules: Rules
    skip_first: bool


@dataclass(frozen=True, slots=True)
class SaidItem:
    """A line of table talk, its name and text cleaned (`ono99tui.client.talk`)."""

    name: str
    text: str


StoryItem = EventItem | AbridgedItem | StandInItem | SaidItem


@dataclass(frozen=True, slots=True)
class LogAppended:
    """These items go at the end of the log."""

    items: tuple[StoryItem, ...]


@dataclass(frozen=True, slots=True)
class MatchPageOpened:
    """A match was dealt: the log starts its page (the `number`-th match seen here)."""

    number: int


@dataclass(frozen=True, slots=True)
class LogForgotten:
    """The table's account of the match replaces this program's: the log drops `items`
    (the match's, from its page on), and the page's heading too when `page`."""

    items: tuple[StoryItem, ...]
    page: bool


LogChange = LogAppended | MatchPageOpened | LogForgotten


# --- the deal's events, for hints ---------------------------------------------------------


class SeenEvents:
    """The public events of the current deal as this player was sent them (a new deal
    starts a new list): what a hint may know besides the view."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def add(self, events: Iterable[Event]) -> None:
        """Take in one view's events, in order."""
        for event in events:
            if type(event) is RoundDealt:
                self.events.clear()
            self.events.append(event)

    def clear(self) -> None:
        """Forget everything (another table, or a new match)."""
        self.events.clear()


# --- busts --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BustChunk:
    """Events of one view within a round, with the names and the viewer as they were: a
    front end puts each bust among them in words (`present.bust_lines`)."""

    events: tuple[Event, ...]
    names: tuple[str, ...]
    viewer: int | None


@dataclass(frozen=True, slots=True)
class YourBust:
    """The viewer's own bust: the events of the view it came in, the view before it and the
    view it led to (a front end says what was held: `present.bust_notice`); `ends_round`:
    the round or the match ended with it, so the round's (or match's) dialog tells it."""

    events: tuple[Event, ...]
    before: PlayerView | None
    after: PlayerView
    ends_round: bool


def your_bust(events: Sequence[Event], before: PlayerView | None,
              after: PlayerView) -> YourBust | None:
    """The viewer's own bust among `events` (which turned `before` into `after`), or None."""
    me = after.seat
    if me is None:
        return None
    index = next((i for i, e in enumerate(events) if type(e) is Busted and e.seat == me), None)
    if index is None:
        return None
    later = events[index + 1:]
    ends = any(isinstance(e, RoundEnded | MatchEnded) for e in later)
    return YourBust(tuple(events), before, after, ends)


class RoundBusts:
    """Busts per finished round of the current match, kept for the round-end and match-end
    dialogs: in tokens scoring a bust ends the round and its view also deals the next one,
    so the table no longer shows who busted by the time the dialog opens."""

    def __init__(self) -> None:
        # Round number -> the round's events, view by view (each chunk is put in words).
        self.chunks: dict[int, list[BustChunk]] = {}
        # Round number -> who was out of the match at its end.
        self.eliminated: dict[int, tuple[bool, ...]] = {}
        # Round number -> the viewer's own bust that ended it (its dialog shows the hand).
        self.yours: dict[int, YourBust] = {}
        self._this_round: list[BustChunk] = []

    def clear(self) -> None:
        """Forget every round (a new match, or the table's account replacing ours)."""
        self.chunks.clear()
        self.eliminated.clear()
        self.yours.clear()
        self._this_round = []

    def record(self, events: Sequence[Event], names: Sequence[str], view: PlayerView,
               after: Sequence[Event] = ()) -> None:
        """Take in the events that led to `view` (oldest first); `after`: the events that
        followed them up to `view`, when these are a (re)joined view's history (several
        rounds at once)."""
        start = 0
        for index, event in enumerate(events):
            if isinstance(event, RoundDealt) and event.round_no == 1:  # a new match
                self.clear()
                start = index + 1
            elif isinstance(event, RoundEnded):
                self._this_round.append(BustChunk(tuple(events[start:index]), tuple(names),
                                                  view.seat))
                self.chunks[event.round_no] = self._this_round
                self.eliminated[event.round_no] = _out_at_end(
                    view.eliminated, [*events[index + 1:], *after])
                self._this_round, start = [], index + 1
        if any(type(event) is Busted for event in events[start:]):
            self._this_round.append(BustChunk(tuple(events[start:]), tuple(names), view.seat))

    def keep_yours(self, bust: YourBust) -> None:
        """Keep the viewer's bust that ended a round, for that round's dialog."""
        ended = next((e.round_no for e in bust.events if isinstance(e, RoundEnded)), None)
        if ended is not None:
            self.yours[ended] = bust


def _out_at_end(now: tuple[bool, ...], later: Sequence[Event]) -> tuple[bool, ...]:
    """Who was out of the match at the end of a round, given who is out `now` and the
    events from that round's end on: those out now, less the ones eliminated once the next
    round was dealt (whoever a round's end put out of the match is out at its end). Within
    one view only one round ends, so that is the view's own flags."""
    dealt = next((index for index, event in enumerate(later) if isinstance(event, RoundDealt)),
                 len(later))
    gone_since = {event.seat for event in later[dealt:] if isinstance(event, Eliminated)}
    return tuple(out and seat not in gone_since for seat, out in enumerate(now))


# --- the story ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CaughtUp:
    """What `MatchStory.catch_up` took in: the history's events this program had not seen
    (`past`, now in the story), the view's events that are news (to be taken in as any
    view's), the log's changes, and whether a round this program saw is long over (a
    round's dialog still open from before a drop should close)."""

    past: tuple[Event, ...]
    news: tuple[Event, ...]
    changes: list[LogChange]
    round_over: bool


@dataclass
class MatchStory:
    """Everything this program took in of the match at its table (see the module
    docstring). `matches_started` counts the matches seen dealt at this table."""

    items: list[StoryItem] = field(default_factory=list)
    round_results: list[RoundEnded] = field(default_factory=list)
    # Seats in the order they left the match, for the standings.
    out_order: list[int] = field(default_factory=list)
    seen: SeenEvents = field(default_factory=SeenEvents)
    busts: RoundBusts = field(default_factory=RoundBusts)
    # The player's own plays, for a review once the match is over (client/review_plays.py).
    plays: PlaysSeen = field(default_factory=PlaysSeen)
    matches_started: int = 0
    # Whether this match's deal opened its page of the log (and counted in
    # `matches_started`): a program that joined mid-match without a history has none.
    page_open: bool = False
    # Talk heard before the table was shown, which the first match's log starts with.
    talk_before_deal: list[SaidItem] = field(default_factory=list)

    def new_match(self) -> None:
        """Forget the match (its log page, results, busts' order, the deal's events)."""
        self.page_open = False
        self.seen.clear()
        self.items.clear()
        self.talk_before_deal.clear()
        self.round_results.clear()
        self.out_order.clear()

    def reset(self) -> None:
        """Forget everything: another table (or the same one afresh)."""
        self.new_match()
        self.busts.clear()
        self.plays.clear()
        self.matches_started = 0

    def record(self, events: Sequence[Event], view: PlayerView, names: Sequence[str], *,
               abridged: int = 0, stand_in: StandInItem | None = None) -> list[LogChange]:
        """Put one view's `events` (or a history's) in the story; `abridged`: how many of
        their first rounds the table shortened (the log says so); `stand_in`: what a
        stand-in played for the viewer while away, said after them."""
        changes: list[LogChange] = []
        names = tuple(names)
        items: list[StoryItem] = []
        for event in events:
            if isinstance(event, RoundDealt) and event.round_no == 1:
                if items:  # the end of the last match, before the page turns
                    changes.append(LogAppended(tuple(items)))
                # The talk before the deal opens the first match's log.
                items = list(self.talk_before_deal[-TALK_CARRIED:])
                self.new_match()
                self.matches_started += 1
                self.page_open = True
                changes.append(MatchPageOpened(self.matches_started))
            elif isinstance(event, RoundEnded):
                self.round_results.append(event)
            elif isinstance(event, Eliminated):
                self.out_order.append(event.seat)
            if abridged and isinstance(event, RoundDealt):
                items.append(AbridgedItem(abridged))
                abridged = 0
            items.append(EventItem(event, names, view))
        if stand_in is not None:
            items.append(stand_in)
        self.items.extend(items)
        if items:
            changes.append(LogAppended(tuple(items)))
        return changes

    def catch_up(self, history: History, events: tuple[Event, ...], view: PlayerView,
                 names: Sequence[str]) -> CaughtUp:
        """Take in the match so far that a (re)joined view tells (its `history`, then its
        `events`) as if this program had watched it, but quietly, and nothing it already
        took in a second time (see `CaughtUp`)."""
        changes: list[LogChange] = []
        story = (*history.events, *events)
        start = unseen_from(self.seen.events, story)
        if start is None:
            if not any(isinstance(event, MatchEnded) for event in self.seen.events):
                # The table's account differs from what this program holds of the match:
                # the table is the authority, so its account replaces ours.
                opens = bool(story) and type(story[0]) is RoundDealt and story[0].round_no == 1
                changes += self.forget_this_match(reopened=opens)
            start = 0  # (else the match we saw is over: the story is the next one's)
        told = len(history.events)
        past = story[start:told]
        round_over = False
        if past:
            changes += self.record(past, view, names,
                                   abridged=history.abridged if start == 0 else 0)
            self.seen.add(past)
            self.busts.record(past, names, view, after=story[told:])
            round_over = any(isinstance(event, RoundDealt) for event in past)
        return CaughtUp(tuple(past), story[max(start, told):], changes, round_over)

    def forget_this_match(self, *, reopened: bool) -> list[LogChange]:
        """Drop the story of the match in progress (its log, round results, busts), for the
        table's account to replace. What was said meanwhile is kept: it opens the match's
        log again when the account starts with the deal (`reopened`), else it stays where
        the log goes on."""
        talk = [item for item in self.items if isinstance(item, SaidItem)]
        page_open = self.page_open
        changes: list[LogChange] = [LogForgotten(tuple(self.items), page_open and reopened)]
        self.new_match()
        self.busts.clear()
        if reopened:
            if page_open:
                self.matches_started -= 1  # counted again as the account opens the page
            self.talk_before_deal = talk
        else:
            self.page_open = page_open
            self.items.extend(talk)
            if talk:
                changes.append(LogAppended(tuple(talk)))
        return changes

    def heard(self, item: SaidItem, *, table_shown: bool) -> list[LogChange]:
        """A line of talk: in the match's log once the table is shown, else kept for the
        first match's log (the last TALK_CARRIED lines)."""
        if table_shown:
            self.items.append(item)
            return [LogAppended((item,))]
        self.talk_before_deal.append(item)
        del self.talk_before_deal[:-TALK_CARRIED]
        return []

    def table_opened(self) -> None:
        """The table is shown (joined mid-match: no deal carried the talk before it): the
        talk heard so far opens its log."""
        self.items[:0] = self.talk_before_deal[-TALK_CARRIED:]
        self.talk_before_deal.clear()

