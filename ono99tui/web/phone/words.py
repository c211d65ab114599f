"""The sentences the door writes for a phone: one per public event, and why a card cannot
be played, each a whole sentence through `ono99tui.i18n._` (the languages issue translates
them; names and card labels are placeholders' values).

The terminal's words are in `ono99tui.ui.present`, which loads Textual's widgets; a
headless host's door never imports Textual, so the phone has its own, shorter sentences
(a screen reader says each one: "Ana played 7. The total is 57.").
"""

from __future__ import annotations

from collections.abc import Sequence

from ono99tui.game import (
    Busted,
    Discarded,
    Eliminated,
    Event,
    MatchEnded,
    MissedDraw,
    ObligationCreated,
    ObligationPassed,
    OutOfRound,
    Played,
    PlayerView,
    Reshuffled,
    Resigned,
    RoundDealt,
    RoundEnded,
    Rules,
    SwappedFour,
    TimedOut,
    TokenLost,
)
from ono99tui.game.cards import Card
from ono99tui.i18n import _
from ono99tui.words.events import as_sentence
from ono99tui.words.events import unplayable_reason as terminal_reason
from ono99tui.words.rule_labels import card_label


def isolated(name: str) -> str:
    """`name` between Unicode's first-strong isolate marks, so that a right-to-left name
    inside a left-to-right sentence (or the other way) keeps the sentence's order."""
    return f"\u2068{name}\u2069"


def _obligation(rules: Rules) -> str:
    return _("Double Play") if rules.deck == "1980" else _("Play 2")


def event_sentence(event: Event, names: Sequence[str], rules: Rules,
                   viewer: int | None) -> str | None:
    """One sentence for `event` (None for events a player is not told: draws, reversals,
    which the played Reverse says)."""

    def name(seat: int) -> str:
        if seat == viewer:
            return _("You")
        return isolated(names[seat]) if 0 <= seat < len(names) else _("Seat {n}").format(
            n=seat + 1)

    def named_later(seat: int) -> str:
        # Inside a sentence: "you", not "You".
        return _("you") if seat == viewer else name(seat)

    mine = _own_sentence(event, rules, viewer)
    if mine is not None:
        return mine
    match event:
        case RoundDealt(round_no=round_no, starter=starter) if starter == viewer:
            # Its own sentence: the verb agrees with "you" ("you start", not "You starts").
            return _("Round {round} is dealt; you start.").format(round=round_no)
        case RoundDealt(round_no=round_no, starter=starter):
            return _("Round {round} is dealt; {name} starts.").format(round=round_no,
                                                                    name=name(starter))
        case Played(seat=seat, card=card, total=total):
            return _("{name} played {card}. The total is {total}.").format(
                name=name(seat), card=card_label(card, rules), total=total)
        case SwappedFour(seat=seat):
            return _("{name} swapped four ONO 99 cards.").format(name=name(seat))
        case Reshuffled(draw_pile_size=size):
            return _("The discards were shuffled: {n} cards to draw.").format(n=size)
        case MissedDraw(seat=seat):
            return _("{name} missed a draw.").format(name=name(seat))
        case ObligationCreated(seat=seat):
            return _("{name} must play two cards ({card}).").format(
                name=name(seat), card=_obligation(rules))
        case ObligationPassed(from_seat=source, to_seat=target):
            return _("{name} passed the {card} on: {other} must play two cards.").format(
                name=name(source), card=_obligation(rules), other=named_later(target))
        case Busted(seat=seat, total=total):
            return _("{name} busted at {total}.").format(name=name(seat), total=total)
        case Resigned(seat=seat):
            return _("{name} never came back and resigned.").format(name=name(seat))
        case TimedOut(seat=seat):
            return _("{name} ran out of time.").format(name=name(seat))
        case Eliminated(seat=seat, hand=hand) if seat == viewer:
            return _("You are out of the match.")
        case OutOfRound(seat=seat) if seat == viewer:
            return _("You sit out this round.")
        case Eliminated(seat=seat, hand=hand):
            if hand:
                return _("{name} is out of the match, holding {cards}.").format(
                    name=name(seat), cards=", ".join(card_label(card, rules) for card in hand))
            return _("{name} is out of the match.").format(name=name(seat))
        case OutOfRound(seat=seat):
            return _("{name} sits out this round.").format(name=name(seat))
        case Discarded(seat=seat, card=card):
            return _("{name} discarded {card}.").format(name=name(seat),
                                                        card=card_label(card, rules))
        case TokenLost(seat=seat, tokens_left=left):
            return _("{name} lost a token; {n} left.").format(name=name(seat), n=left)
        case RoundEnded(round_no=round_no):
            return _("Round {round} is over.").format(round=round_no)
        case MatchEnded(winners=winners):
            return _("The match is over: {names} won.").format(
                names=" & ".join(named_later(seat) for seat in winners))
    return None


def _own_sentence(event: Event, rules: Rules, viewer: int | None) -> str | None:
    """The viewer's own moves said to them, each a sentence of its own (the verb agrees
    with "you" in every language: "You played 7", never "You" put in "{name} played 7")."""
    if viewer is None:
        return None
    match event:
        case Played(seat=seat, card=card, total=total) if seat == viewer:
            return _("You played {card}. The total is {total}.").format(
                card=card_label(card, rules), total=total)
        case SwappedFour(seat=seat) if seat == viewer:
            return _("You swapped four ONO 99 cards.")
        case MissedDraw(seat=seat) if seat == viewer:
            return _("You missed a draw.")
        case ObligationCreated(seat=seat) if seat == viewer:
            return _("You must play two cards ({card}).").format(card=_obligation(rules))
        case Busted(seat=seat, total=total) if seat == viewer:
            return _("You busted at {total}.").format(total=total)
        case TimedOut(seat=seat) if seat == viewer:
            return _("You ran out of time.")
        case Discarded(seat=seat, card=card) if seat == viewer:
            return _("You discarded {card}.").format(card=card_label(card, rules))
        case TokenLost(seat=seat, tokens_left=left) if seat == viewer:
            return _("You lost a token; {n} left.").format(n=left)
        case MatchEnded(winners=winners) if list(winners) == [viewer]:
            return _("The match is over: you won.")
    return None


def unplayable_reason(view: PlayerView, card: Card) -> str:
    """Why the viewer may not play `card` now, as a sentence (empty: it may): the
    terminal's words for it, in the language in use. The engine words its refusals in
    English, for logs and the wire; a phone in Bengali once showed them as they came."""
    reason = terminal_reason(view, card)
    return as_sentence(reason) if reason else ""
