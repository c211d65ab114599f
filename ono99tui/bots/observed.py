"""What a seat has seen of the current deal: the public events, kept as the facts a search
needs (`Observed`). Bots feed it through their `observe(events)` hook.

It holds public information only (the same for every seat): the cards in the discard pile
since the last deal or reshuffle, and the last card played, so that a seat playing the
second of two owed cards knows what its first one was (a Play 2 there obliges the next
seat; an ONO 99 there uses up the turn's one ONO 99 under the `tens` rule), and each
seat's last two plays with the total before each and whether it was the first of two owed
cards (what `worlds` infers a greedy-like player kept from). Everything else a search
needs is in the seat's view.
"""

from __future__ import annotations

from collections.abc import Iterable

from ono99tui.game import (
    Busted,
    Card,
    Discarded,
    Event,
    ObligationCleared,
    ObligationCreated,
    ObligationPassed,
    Played,
    Reshuffled,
    RoundDealt,
    SwappedFour,
)

_TURN_ENDS = (ObligationCleared, ObligationCreated, ObligationPassed, Busted, RoundDealt)


class Observed:
    """The public facts of the current deal, built from events (reset by each deal)."""

    def __init__(self) -> None:
        # The deal these facts are about; None until a RoundDealt was seen (a bot that sat
        # down mid-match knows no discard pile: its search then samples that pile too).
        self.round_no: int | None = None
        self.discard: list[Card] = []
        # (seat, card) of the last play, card None for a four-ONO-99 swap, and whether a
        # turn ended since it.
        self.last_action: tuple[int, Card | None] | None = None
        self.turn_ended_since = True
        # Per seat: (card, total before it, was it the first of two owed cards) of its last
        # play since the deal; None when unknown or when its hand was renewed since. And
        # the play before that one (None likewise).
        self.last_plays: dict[int, tuple[Card, int, bool] | None] = {}
        self.earlier_plays: dict[int, tuple[Card, int, bool] | None] = {}
        self.total = 0  # the total after the last play seen
        self.owes_two: int | None = None  # the seat whose next play is the first of two

    def reset(self) -> None:
        """Forget everything (a new deal, or a seat taken over mid-match)."""
        self.__init__()  # type: ignore[misc]

    def observe(self, events: Iterable[Event]) -> None:
        """Take in the events `apply` reported, in order."""
        for event in events:
            if isinstance(event, Played):
                seat = event.seat
                self.discard.append(event.card)
                self.last_action = (seat, event.card)
                self.turn_ended_since = False
                first_of_two = self.owes_two == seat
                if first_of_two:
                    self.owes_two = None
                self.earlier_plays[seat] = self.last_plays.get(seat)
                self.last_plays[seat] = (event.card, self.total, first_of_two)
                self.total = event.total
            elif isinstance(event, Reshuffled):
                self.discard.clear()  # every discarded card went into the new draw pile
            elif isinstance(event, SwappedFour):
                self.discard.extend([Card.ONO99] * 4)
                self.last_action = (event.seat, None)
                self.turn_ended_since = False
                self.last_plays[event.seat] = None  # four new cards: nothing known of them
                self.earlier_plays[event.seat] = None
                if self.owes_two == event.seat:
                    self.owes_two = None
            elif isinstance(event, Discarded):
                self.discard.append(event.card)
                self.last_plays[event.seat] = None
                self.earlier_plays[event.seat] = None
            elif isinstance(event, ObligationCreated):
                self.owes_two = event.seat
            elif isinstance(event, ObligationPassed):
                self.owes_two = event.to_seat
            elif isinstance(event, Busted) or (
                isinstance(event, ObligationCleared) and self.owes_two == event.seat
            ):
                self.owes_two = None
            elif isinstance(event, RoundDealt):
                self.reset()
                self.round_no = event.round_no
            if isinstance(event, _TURN_ENDS):
                self.turn_ended_since = True

    def discard_pile(self, round_no: int, size: int, top: Card | None) -> list[Card] | None:
        """The discard pile's cards if these facts match a view's (`round_no`, its size and
        top card); None when they cannot be trusted (events were missed)."""
        pile = self.discard
        if self.round_no != round_no or len(pile) != size:
            return None
        if (pile[-1] if pile else None) != top:
            return None
        return pile

    def first_of_two(self, seat: int) -> Card | None:
        """The card `seat` played first this turn if it is playing its second owed card
        now (None for a swap or when unknown)."""
        if self.turn_ended_since or self.last_action is None or self.last_action[0] != seat:
            return None
        return self.last_action[1]
