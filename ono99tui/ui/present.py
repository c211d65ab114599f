"""From what the table sends (a PlayerView, the lobby's seats, events) to what widgets show.

Pure functions: each turns engine values into the small display values the widgets take
(`CardFace`, `CardSlot`, `SeatDisplay`, strings). Keeping every "what does the player see"
decision here keeps the widgets dumb and this logic testable without a terminal. It is also
the only UI module that loads the engine, which screens import once the first frame is on
screen (see `ono99tui.ui.app`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from netproto.wire.messages import SeatInfo as LobbySeat
from netproto.wire.messages import SeatKind
from ono99tui.client.names import agreeing, seat_name, verb
from ono99tui.game import (
    Card,
    Discard,
    Draw,
    Event,
    Play,
    PlayerView,
    Rules,
    Scoring,
)
from ono99tui.game.state import MATCH_OVER
from ono99tui.ui.glyphs import Glyphs
from ono99tui.ui.widgets.cards import CardFace, CardSlot
from ono99tui.ui.widgets.seats import SeatDisplay
from ono99tui.words import events as words

# The words themselves are `ono99tui.words.events`' (shared with the line mode); the
# screens keep reading them here, beside the widgets' display values.
from ono99tui.words.events import (
    BustNotice,
    bust_lines,
    can_swap,
    card_effect,
    cards_owed,
    last_card_text,
    limit_text,
    matches_played,
    matches_won,
    must_draw,
    obligation_card_name,
    stand_in_line,
    unplayable_reason,
    winners_text,
)
from ono99tui.words.rule_labels import card_label

__all__ = [
    "CLOCK_WARNING_SECONDS", "BustNotice", "bust_lines", "bust_notice", "can_swap",
    "card_slots", "cards_owed", "clock_seconds_left", "clock_warning", "event_line",
    "face_for", "last_card_text", "limit_text", "matches_played", "matches_won", "must_draw",
    "near_limit", "obligation_card_name", "obligation_line", "prompt", "prompt_forms",
    "seat_infos", "stand_in_line", "unplayable_reason", "winners_text",
]


def face_for(card: Card, rules: Rules) -> CardFace:
    """How `card` looks at a table playing `rules` (names and effects depend on the edition)."""
    title = card_label(card, rules)
    effect = card_effect(card, rules)
    if card.is_number:
        kind = "ten" if card is Card.TEN else "number"
        return CardFace(kind, str(int(card)), title, effect, str(int(card)))
    if card is Card.MINUS_TEN:
        return CardFace("minus-ten", "-10", title, effect, "-10")
    if card is Card.REVERSE:
        return CardFace("reverse", "", title, effect, "Reverse")
    if card is Card.PLAY2:
        return CardFace("play-two", "x2", title, effect, title.split()[0])
    if card is Card.HOLD:
        return CardFace("hold", "", title, effect, "Hold")
    word = {"dead": "dead 99", "tens": "99", "set99": "sets 99"}.get(rules.ono99_card, "99")
    return CardFace("ono99", "99", title, effect, word)


def near_limit(view: PlayerView) -> bool:
    """Close enough to the limit that the total is drawn in the warning colour."""
    return view.total >= view.bust_at - 10


def obligation_line(view: PlayerView, seats: Sequence[LobbySeat]) -> tuple[str, bool]:
    """The pending Play 2 / Double Play line and whether the viewer is the one who owes it."""
    seat = view.obligation_seat
    if seat is None or view.phase == MATCH_OVER:
        return "", False
    card = obligation_card_name(view)
    cards = cards_owed(view.obligation_owed)
    if seat == view.seat:
        return f"{card}! YOU owe {cards}", True
    return f"{card}: {verb(seat_name(seat, seats), 'owes', 'owe')} {cards}", False


# On their own turn a player is warned when this many seconds or fewer are left.
CLOCK_WARNING_SECONDS = 10


def clock_seconds_left(deadline: tuple[int, float] | None, now: float) -> tuple[int, int] | None:
    """(seat, whole seconds left, rounded up) of a turn clock due at `deadline` (seat,
    time), read at `now`; None when no clock runs."""
    if deadline is None:
        return None
    seat, due = deadline
    return seat, max(0, math.ceil(due - now))


def clock_warning(view: PlayerView, clock: tuple[int, int] | None) -> bool:
    """Is the viewer's own move being timed, with `CLOCK_WARNING_SECONDS` or fewer left?"""
    return (clock is not None and view.seat is not None and clock[0] == view.seat
            and view.phase != MATCH_OVER and clock[1] <= CLOCK_WARNING_SECONDS)


def seat_infos(view: PlayerView, seats: Sequence[LobbySeat],
               clock: tuple[int, int] | None = None) -> list[SeatDisplay]:
    """One `SeatDisplay` per seat, from the view's public facts and the lobby's names/marks;
    `clock`: (seat, seconds left) of the turn clock, shown while that seat's human plays."""
    by_seat = {info.seat: info for info in seats}
    scoring = view.rules.scoring
    # While a buster chooses a card to discard (points scoring) the turn has passed on to
    # the next player, who waits for that: the marker is on whoever must act.
    acting = view.discarding if view.discarding is not None else view.turn
    infos = []
    for seat in range(view.seats):
        lobby = by_seat.get(seat)
        infos.append(
            SeatDisplay(
                name=lobby.name if lobby else f"seat {seat + 1}",
                cards=view.hand_sizes[seat],
                is_you=seat == view.seat,
                is_turn=acting == seat and view.phase != MATCH_OVER,
                is_bot=lobby is not None and lobby.kind == SeatKind.BOT,
                connected=lobby.connected if lobby else True,
                eliminated=view.eliminated[seat],
                out_of_round=view.out_of_round[seat],
                owes=view.obligation_owed if view.obligation_seat == seat else 0,
                tokens=view.tokens[seat] if scoring == Scoring.TOKENS else None,
                tokens_at_start=view.rules.tokens,
                score=view.scores[seat] if scoring.counts_points else None,
                seconds_left=(clock[1] if clock is not None and clock[0] == seat
                              and view.phase != MATCH_OVER and lobby is not None
                              and lobby.kind == SeatKind.HUMAN and lobby.connected else None),
            )
        )
    return infos


def card_slots(view: PlayerView) -> list[CardSlot]:
    """The viewer's hand as card slots: playable (or discardable) or not, and why not."""
    discarding = view.discarding == view.seat and view.seat is not None
    allowed = {
        move.card
        for move in view.legal_moves
        if isinstance(move, Discard if discarding else Play)
    }
    # Acting: there is a card to play, swap or discard now (a pending draw alone is not).
    acting = any(not isinstance(move, Draw) for move in view.legal_moves)
    slots = []
    reasons: dict[Card, str] = {}
    for card in view.hand:
        playable = card in allowed
        if not playable and card not in reasons:
            reasons[card] = unplayable_reason(view, card)
        reason = "" if playable else reasons[card]
        slots.append(CardSlot(face_for(card, view.rules), playable, reason, waiting=not acting))
    return slots


def prompt(view: PlayerView, seats: Sequence[LobbySeat]) -> tuple[str, bool]:
    """The one-line prompt under the table (its fullest form) and whether it calls the
    viewer to act."""
    forms, act = prompt_forms(view, seats)
    return forms[0], act


def prompt_forms(view: PlayerView, seats: Sequence[LobbySeat]) -> tuple[tuple[str, ...], bool]:
    """The prompt in its forms, fullest first, and whether it calls the viewer to act.

    The table shows the first form that fits its width: at 61 columns the fullest Double
    Play prompt lost its keys off the end of the row. Shorter forms keep what to do and
    its keys, and drop words the rest of the screen says (the card's name is in the total
    panel, "4x99" in the Footer).
    """
    me = view.seat
    if view.phase == MATCH_OVER:
        over = f"Match over: {winners_text(view, seats)}."
        # The Footer offers r and w too.
        return ((f"{over} r: rematch, w: results.", over) if me is not None else (over,)), False
    if view.discarding is not None:
        if view.discarding == me:
            return ("You busted: choose a card to discard (1-4 or Enter).",
                    "You busted: discard a card (1-4 or Enter).",
                    "You busted: discard a card (1-4)."), True
        who = seat_name(view.discarding, seats)
        return (f"{who} busted and {agreeing(who, 'is', 'are')} choosing a discard.",
                f"{verb(who, 'is', 'are')} choosing a discard."), False
    if must_draw(view):
        return ("Press d to draw your card before the next player plays!",
                "Press d to draw your card now!"), True
    if me is not None and view.turn == me and view.legal_moves:
        swap = can_swap(view)
        # Four ONO 99 and nothing else: "play a card (1-4 …)" sent the player to keys that
        # could only ring (found by play-testing). The swap is the move.
        swap_only = swap and not any(type(move) is Play for move in view.legal_moves)
        extra = ", s to swap four ONO 99" if swap else ""
        short = ", s: swap" if swap else ""
        if view.obligation_seat == me:
            owed = view.obligation_owed
            which = "play it" if owed == 1 else "play the first"
            owe = f"You owe {cards_owed(owed)}"
            card = obligation_card_name(view)
            if swap_only:
                return (f"{card}! {owe}: four ONO 99 and nothing else: press s to swap them.",
                        f"{card}! {owe}: press s to swap your four ONO 99.",
                        f"{card}! {owe}: press s to swap.",
                        f"{owe}: press s to swap."), True
            return (f"{card}! {owe}: {which} (1-4, arrows+Enter{extra}).",
                    f"{card}! {owe}: {which} (1-4 or Enter{short}).",
                    f"{card}! {owe}: play 1-4{short}.",
                    f"{owe}: play 1-4{short}."), True
        if swap_only:
            return ("Your turn: four ONO 99 and nothing else: press s to swap them.",
                    "Four ONO 99: press s to swap them.", "Press s to swap."), True
        return (f"Your turn: play a card (1-4, arrows+Enter{extra}).",
                f"Your turn: play a card (1-4 or Enter{short}).",
                f"Your turn: play 1-4{short}."), True
    if view.turn is None:
        return ("",), False
    who = seat_name(view.turn, seats)
    to_play = f"{who} to play."
    return ((f"Watching: {to_play}", to_play) if me is None else (to_play,)), False

def event_line(event: Event, names: Sequence[str], view: PlayerView, glyphs: Glyphs) -> str | None:
    """One log line for an event ("ana played 7 -> 57", with the glyph set's arrow), or None
    for events not worth a line (`ono99tui.words.events.event_line`)."""
    return words.event_line(event, names, view, glyphs.arrow)


def bust_notice(
    events: Sequence[Event], before: PlayerView | None, after: PlayerView, glyphs: Glyphs
) -> BustNotice | None:
    """The viewer's bust among `events`, as the held banner shows it, with the glyph set's
    dash (`ono99tui.words.events.bust_notice`)."""
    return words.bust_notice(events, before, after, "-" if glyphs.ascii else "\u2014")
