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
from ono99tui.client.names import is_named_you, seat_name
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
from ono99tui.i18n import _
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
        return CardFace("reverse", "", title, effect, title)
    if card is Card.PLAY2:
        return CardFace("play-two", "x2", title, effect, title.split()[0])
    if card is Card.HOLD:
        return CardFace("hold", "", title, effect, title)
    # The one word a compact card has room for (ui/widgets/cards.py).
    word = {"dead": _("dead 99"), "tens": "99", "set99": _("sets 99")}.get(rules.ono99_card, "99")
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
        return _("{card}! YOU owe {cards}").format(card=card, cards=cards), True
    who = seat_name(seat, seats)
    owes = _("{card}: {you} owe {cards}") if is_named_you(who) else _("{card}: {name} owes {cards}")
    return owes.format(card=card, you=who, name=who, cards=cards), False


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
                name=lobby.name if lobby else _("seat {number}").format(number=seat + 1),
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
        over = _("Match over: {winners}.").format(winners=winners_text(view, seats))
        # The Footer offers r and w too.
        return ((_("{over} r: rematch, w: results.").format(over=over), over)
                if me is not None else (over,)), False
    if view.discarding is not None:
        if view.discarding == me:
            return (_("You busted: choose a card to discard (1-4 or Enter)."),
                    _("You busted: discard a card (1-4 or Enter)."),
                    _("You busted: discard a card (1-4).")), True
        who = seat_name(view.discarding, seats)
        if is_named_you(who):
            return (_("{you} busted and are choosing a discard.").format(you=who),
                    _("{you} are choosing a discard.").format(you=who)), False
        return (_("{name} busted and is choosing a discard.").format(name=who),
                _("{name} is choosing a discard.").format(name=who)), False
    if must_draw(view):
        return (_("Press d to draw your card before the next player plays!"),
                _("Press d to draw your card now!")), True
    if me is not None and view.turn == me and view.legal_moves:
        return _your_turn_forms(view), True
    if view.turn is None:
        return ("",), False
    who = seat_name(view.turn, seats)
    to_play = _("{name} to play.").format(name=who)
    return ((_("Watching: {name} to play.").format(name=who), to_play) if me is None
            else (to_play,)), False


def _your_turn_forms(view: PlayerView) -> tuple[str, ...]:
    """The prompt on the viewer's own turn to play, fullest first. Each form is a whole
    sentence in the catalog (with and without the swap key): word order differs."""
    swap = can_swap(view)
    # Four ONO 99 and nothing else: "play a card (1-4 …)" sent the player to keys that
    # could only ring (found by play-testing). The swap is the move.
    swap_only = swap and not any(type(move) is Play for move in view.legal_moves)
    if view.obligation_seat == view.seat:
        owed = view.obligation_owed
        owe = _("You owe {cards}").format(cards=cards_owed(owed))
        card = obligation_card_name(view)
        if swap_only:
            return (_("{card}! {owe}: four ONO 99 and nothing else: press s to swap them.").format(
                        card=card, owe=owe),
                    _("{card}! {owe}: press s to swap your four ONO 99.").format(
                        card=card, owe=owe),
                    _("{card}! {owe}: press s to swap.").format(card=card, owe=owe),
                    _("{owe}: press s to swap.").format(owe=owe))
        if owed == 1:
            forms = ((_("{card}! {owe}: play it (1-4, arrows+Enter, s to swap four ONO 99)."),
                      _("{card}! {owe}: play it (1-4 or Enter, s: swap)."))
                     if swap else
                     (_("{card}! {owe}: play it (1-4, arrows+Enter)."),
                      _("{card}! {owe}: play it (1-4 or Enter).")))
        else:
            forms = ((_("{card}! {owe}: play the first (1-4, arrows+Enter, s to swap four "
                        "ONO 99)."),
                      _("{card}! {owe}: play the first (1-4 or Enter, s: swap)."))
                     if swap else
                     (_("{card}! {owe}: play the first (1-4, arrows+Enter)."),
                      _("{card}! {owe}: play the first (1-4 or Enter).")))
        shortest = ((_("{card}! {owe}: play 1-4, s: swap."), _("{owe}: play 1-4, s: swap."))
                    if swap else (_("{card}! {owe}: play 1-4."), _("{owe}: play 1-4.")))
        return tuple(form.format(card=card, owe=owe) for form in (*forms, *shortest))
    if swap_only:
        return (_("Your turn: four ONO 99 and nothing else: press s to swap them."),
                _("Four ONO 99: press s to swap them."), _("Press s to swap."))
    if swap:
        return (_("Your turn: play a card (1-4, arrows+Enter, s to swap four ONO 99)."),
                _("Your turn: play a card (1-4 or Enter, s: swap)."),
                _("Your turn: play 1-4, s: swap."))
    return (_("Your turn: play a card (1-4, arrows+Enter)."),
            _("Your turn: play a card (1-4 or Enter)."),
            _("Your turn: play 1-4."))

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
