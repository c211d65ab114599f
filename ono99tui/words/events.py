"""The match in words: events, busts, limits, why a card cannot be played, who won.

Pure functions from engine values (a `PlayerView`, events, the lobby's seats) to the strings
a player reads, shared by the Textual app (`ono99tui.ui.present` re-exports them beside the
widgets' display values) and the line mode (`ono99tui.line`). Every sentence goes through
`ono99tui.i18n` whole, with named placeholders. What differs between the two front ends is
a parameter, not a second copy: the log's arrow ("ana played 7 → 57") or the spoken form
("ana played 7. Total 57.", `spoken=True`, for screen readers and braille).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from netproto.wire.messages import SeatInfo as LobbySeat
from ono99tui.client.names import is_named_you, seat_name
from ono99tui.game import (
    Busted,
    Card,
    Discarded,
    Drew,
    Eliminated,
    Event,
    IllegalMove,
    MatchEnded,
    MissedDraw,
    ObligationCreated,
    ObligationPassed,
    OutOfRound,
    Play,
    Played,
    PlayerView,
    Reshuffled,
    Resigned,
    Reversed,
    RoundDealt,
    RoundEnded,
    Rules,
    SwapFour,
    SwappedFour,
    TimedOut,
    TokenLost,
    refusal_for_view,
)
from ono99tui.game.state import DISCARDING, MATCH_OVER
from ono99tui.i18n import _, ngettext
from ono99tui.words.rule_labels import card_label, ono99_effect

__all__ = [
    "BustNotice", "as_sentence", "bust_lines", "bust_notice", "can_swap", "card_effect",
    "cards_owed", "closed", "event_line", "last_card_text", "limit_text", "matches_played",
    "matches_won", "must_draw", "obligation_card_name", "stand_in_line", "unplayable_reason",
    "winners_text",
]

# What may already close a sentence: Latin and Cyrillic stops, Bengali's and Kannada's
# daṇḍa, Urdu's full stop and question mark.
_SENTENCE_ENDS = (".", "!", "?", "\u0964", "\u06d4", "\u061f")


def closed(sentence: str) -> str:
    """`sentence` closed with the language's own full stop (Bengali ends with "।", Urdu
    with "۔"), unless it is closed already."""
    if not sentence or sentence.endswith(_SENTENCE_ENDS):
        return sentence
    # TRANSLATORS: closes a sentence; put your language's full stop ("{sentence}।", "{sentence}۔").
    return _("{sentence}.").format(sentence=sentence)


def as_sentence(words: str) -> str:
    """`words` (a fragment: "it is not your turn") as a sentence for a screen reader or the
    phone: its first letter capitalised, and `closed`. (Not for a line that opens with a
    player's name: names stay as their players typed them.)"""
    return closed(words[:1].upper() + words[1:])


def card_effect(card: Card, rules: Rules) -> str:
    """What `card` does at a table playing `rules`, in the few words printed on it."""
    if card.is_number:
        return f"+{int(card)}"
    if card is Card.MINUS_TEN:
        return "-10" if rules.negative_totals else _("-10, min 0")
    if card is Card.REVERSE:
        return _("turn back")
    if card is Card.PLAY2:
        return _("next plays 2")
    if card is Card.HOLD:
        return _("total +0")
    return ono99_effect(rules.ono99_card)


def obligation_card_name(view: PlayerView) -> str:
    """ "Play 2" or "Double Play", as the edition calls it."""
    return card_label(Card.PLAY2, view.rules)


def cards_owed(owed: int) -> str:
    """What a seat still owes of a Play 2 / Double Play, worded the same everywhere (the
    total panel, the prompt, the log, the seat line): "2 cards", then "1 more card"."""
    return _("1 more card") if owed == 1 else ngettext(
        "{count} card", "{count} cards", owed).format(count=owed)


def limit_text(view: PlayerView) -> str:
    """The limit in words: the highest total a play may reach ("you may go up to 98"), and
    whether it may go below 0 (1980's -10 has no floor)."""
    highest = view.bust_at - 1
    if view.seat is None:
        text = (_("players may go up to {highest}, and below 0") if view.rules.negative_totals
                else _("players may go up to {highest}"))
    else:
        text = (_("you may go up to {highest}, and below 0") if view.rules.negative_totals
                else _("you may go up to {highest}"))
    return text.format(highest=highest)


def last_card_text(view: PlayerView) -> str:
    """The card on top of the discard pile: the last one played this round."""
    if view.discard_top is None:
        return _("no card played yet")
    return _("last card: {card}").format(card=card_label(view.discard_top, view.rules))


def unplayable_reason(view: PlayerView, card: Card) -> str:
    """Why the viewer may not play `card` now, in the engine's own words ("" if they may).

    Off turn the reason stays the same whoever is to play: the prompt line names them,
    and a reason that did would change (and be repainted) with every opponent's move.
    """
    if view.seat is None:
        return _("you are watching")
    if view.phase == MATCH_OVER:
        return _("the match is over")
    if view.eliminated[view.seat]:
        return _("you are out of the match")
    if view.out_of_round[view.seat]:
        return _("you sit out the rest of this round")
    if view.turn != view.seat or view.phase == DISCARDING:
        return _("it is not your turn")
    error = refusal_for_view(view, Play(view.seat, card))
    if error is None:
        return ""
    if not isinstance(error, IllegalMove):
        return str(error)
    return _refusal_words(error, view, card)


def _refusal_words(error: IllegalMove, view: PlayerView, card: Card) -> str:
    """The engine's refusal of a card, said in the language in use (the engine words it in
    English, for logs and the wire; `code` says which refusal it is)."""
    rules = view.rules
    name = card_label(card, rules)
    match error.code:
        case "would_bust" if card.is_number:
            return _("{card} would make the total {total}").format(
                card=name, total=view.total + int(card))
        case "would_bust":
            return _("ONO 99 would make the total 99, the limit is {limit}").format(
                limit=rules.bust_at)
        case "dead_card":
            return _("the ONO 99 card can never be played")
        case "one_ono99_per_turn":
            return _("only one ONO 99 card per turn")
        case "ono99_needs_tens":
            return _("ONO 99 needs a total ending in 0, not {total}").format(total=view.total)
        case "dead_hand":
            return _("a hand of only ONO 99 cards is dead")
        case "not_first_card":
            return _("{card} may not be the first of your two cards").format(card=name)
        case "not_in_hand":
            return _("you hold no {card}").format(card=name)
        case "illegal":
            return _("{card} cannot be played now").format(card=name)
    return error.reason


def can_swap(view: PlayerView) -> bool:
    """May the viewer discard four ONO 99 cards now?"""
    return any(isinstance(move, SwapFour) for move in view.legal_moves)


def must_draw(view: PlayerView) -> bool:
    """Late-draw rule: does the viewer still have to press draw?"""
    return view.seat is not None and view.pending_draw == view.seat


def winners_text(view: PlayerView, seats: Sequence[LobbySeat]) -> str:
    """ "ana wins" / "ana and bob share the win" / "you win"."""
    if list(view.winners) == [view.seat]:
        return _("you win")
    # TRANSLATORS: the viewer among several winners ("ana and you share the win").
    names = [_("you") if seat == view.seat else seat_name(seat, seats) for seat in view.winners]
    if not names:
        return _("nobody wins")
    if len(names) == 1:
        # Whole sentences for "you" and for a name: the verb agrees differently.
        return (_("{you} win") if is_named_you(names[0]) else _("{name} wins")).format(
            you=names[0], name=names[0])
    return _("{names} and {last} share the win").format(names=", ".join(names[:-1]),
                                                        last=names[-1])


def event_line(event: Event, names: Sequence[str], view: PlayerView, arrow: str = "->", *,
               spoken: bool = False) -> str | None:
    """One line for an event, or None for events not worth a line (draws; in the log a
    reversal, which the played Reverse and the direction line already show).

    The log's form by default ("ana played 7 -> 57", with the glyph set's `arrow`); with
    `spoken`, a sentence for a screen reader or a braille line ("ana played 7. Total 57.").
    """
    text = _event_text(event, names, view, arrow, spoken)
    if text is None or not spoken:
        return text
    if text[:4] == "you ":  # `ono99 solo`'s default name opens the sentence
        text = "You " + text[4:]
    return closed(text)


def _event_text(event: Event, names: Sequence[str], view: PlayerView, arrow: str,
                spoken: bool) -> str | None:
    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else _("seat {number}").format(number=seat + 1)

    def mine(seat: int) -> bool:
        # Spoken, the viewer's own seat is "you", in sentences of their own (the verb agrees
        # differently): a screen reader's user hears "You played 7", not their own name.
        return spoken and seat == view.seat

    rules = view.rules
    match event:
        case RoundDealt(round_no=round_no, dealer=dealer, starter=starter):
            starts = (_("Round {round}: {dealer} dealt, {you} start")
                      if mine(starter) or is_named_you(name(starter))
                      else _("Round {round}: {dealer} dealt, {starter} starts"))
            return starts.format(round=round_no, dealer=name(dealer),
                                 you=_("you") if mine(starter) else name(starter),
                                 starter=name(starter))
        case Played(seat=seat, card=card, total=total):
            if mine(seat):
                return _("You played {card}. Total {total}.").format(
                    card=card_label(card, rules), total=total)
            if spoken:
                return _("{name} played {card}. Total {total}.").format(
                    name=name(seat), card=card_label(card, rules), total=total)
            return _("{name} played {card} {arrow} {total}").format(
                name=name(seat), card=card_label(card, rules), arrow=arrow, total=total)
        case SwappedFour(seat=seat):
            if mine(seat):
                return _("You swapped four ONO 99 cards")
            return _("{name} swapped four ONO 99 cards").format(name=name(seat))
        case Reshuffled(draw_pile_size=size):
            return _("Discards reshuffled: {size} to draw").format(size=size)
        case Reversed(direction=direction) if spoken:
            # The terminal shows the direction beside the table; a line mode must say it.
            return (_("Play now goes in seat order.") if direction > 0
                    else _("Play now goes against seat order."))
        case MissedDraw(seat=seat):
            if mine(seat):
                return _("You missed a draw")
            return _("{name} missed a draw").format(name=name(seat))
        case ObligationCreated(seat=seat):
            # A new obligation always asks two cards (passing it on starts it afresh).
            owes = (_("{you} owe {cards} ({card})") if mine(seat) or is_named_you(name(seat))
                    else _("{name} owes {cards} ({card})"))
            return owes.format(you=_("You") if mine(seat) else name(seat), name=name(seat),
                               cards=cards_owed(2),
                               card=obligation_card_name(view))
        case ObligationPassed(from_seat=from_seat, to_seat=to_seat):
            passed = (_("{name} passed the {card} on: {you} owe {cards}")
                      if mine(to_seat) or is_named_you(name(to_seat))
                      else _("{name} passed the {card} on: {next} owes {cards}"))
            return passed.format(name=name(from_seat), card=obligation_card_name(view),
                                 you=_("you") if mine(to_seat) else name(to_seat),
                                 next=name(to_seat), cards=cards_owed(2))
        case Busted(seat=seat, total=total):
            if mine(seat):
                return _("You busted at {total}.").format(total=total)
            if spoken:
                return _("{name} busted at {total}.").format(name=name(seat), total=total)
            return _("{name} BUSTED at {total}").format(name=name(seat), total=total)
        case Resigned(seat=seat):
            return _("{name} never came back and resigned").format(name=name(seat))
        case TimedOut(seat=seat, in_a_row=in_a_row):
            if in_a_row > 1:
                return _("{name} ran out of time ({count} in a row)").format(
                    name=name(seat), count=in_a_row)
            return _("{name} ran out of time").format(name=name(seat))
        case Eliminated(seat=seat, hand=hand):
            you = mine(seat) or is_named_you(name(seat))
            called = _("You") if mine(seat) else name(seat)
            if hand:
                held = (_("{you} are out of the match (held {cards})") if you
                        else _("{name} is out of the match (held {cards})"))
                return held.format(you=called, name=name(seat),
                                   cards=", ".join(card_label(c, rules) for c in hand))
            return (_("{you} are out of the match") if you
                    else _("{name} is out of the match")).format(you=called, name=name(seat))
        case OutOfRound(seat=seat):
            return (_("{you} sit out this round") if mine(seat) or is_named_you(name(seat))
                    else _("{name} sits out this round")).format(
                        you=_("You") if mine(seat) else name(seat), name=name(seat))
        case Discarded(seat=seat, card=card):
            if mine(seat):
                return _("You discarded {card}").format(card=card_label(card, rules))
            return _("{name} discarded {card}").format(name=name(seat),
                card=card_label(card, rules))
        case TokenLost(seat=seat, tokens_left=left):
            if mine(seat):
                return _("You lost a token ({left} left)").format(left=left)
            return _("{name} lost a token ({left} left)").format(name=name(seat), left=left)
        case RoundEnded(round_no=round_no):
            return _("Round {round} is over").format(round=round_no)
        case MatchEnded(winners=winners):
            if spoken and list(winners) == [view.seat]:
                return _("Match over: you won")
            return _("Match over: {names} won").format(
                names=" and ".join(name(seat) for seat in winners))
    return None


# --- busts ---------------------------------------------------------------------------------


def _bust_reason(view: PlayerView, dash: str) -> str:
    limit = view.rules.bust_at
    if limit == 99:
        return _("{dash} no card fits under {limit}").format(dash=dash, limit=limit)
    return _("{dash} no card fits at {highest} or under").format(dash=dash, highest=limit - 1)


def _bust_cost(events: Sequence[Event], start: int, seat: int) -> tuple[str, int]:
    """What the bust at `events[start]` cost `seat`: ("token", tokens left), ("out", 0),
    ("round", 0) for sitting out the round, or ("", 0)."""
    for event in events[start + 1:]:
        if isinstance(event, TokenLost) and event.seat == seat:
            return "token", event.tokens_left
        if isinstance(event, Eliminated) and event.seat == seat:
            return "out", 0
        if isinstance(event, OutOfRound) and event.seat == seat:
            return "round", 0
    return "", 0


def _tokens_left(left: int) -> str:
    return _("{left} left").format(left=left) if left else _("none left: one more bust and out")


def bust_lines(events: Sequence[Event], names: Sequence[str], viewer: int | None) -> list[str]:
    """One line per bust in `events`, with what it cost: "bob busted at 97 and lost a
    token (1 left)", "You busted at 96 and are out of the match"."""
    lines = []
    for index, event in enumerate(events):
        if isinstance(event, Busted):
            mine = event.seat == viewer
            who = "You" if mine else (
                names[event.seat] if event.seat < len(names) else f"seat {event.seat + 1}"
            )
            kind, left = _bust_cost(events, index, event.seat)
            cost = {
                "token": _(" and lost a token ({left})").format(left=_tokens_left(left)),
                "out": _(" and are out of the match") if mine else _(" and is out of the match"),
                "round": _(" and sit out the round") if mine else _(" and sits out the round"),
            }.get(kind, "")
            lines.append(_("{who} busted at {total}{cost}").format(
                who=who, total=event.total, cost=cost))
    return lines


@dataclass(frozen=True)
class BustNotice:
    """The viewer's own bust, as the held banner shows it."""

    headline: str  # "You busted at 97 — no card fits under 99"
    held: tuple[str, ...]  # the cards in the hand they held, by name
    drew_unseen: bool  # they had just drawn a card this view cannot name
    outcome: str  # "You lost a token (2 left)." ...
    # The round or the match ended with it (or in the same view): its dialog says it.
    ends_round: bool


def bust_notice(events: Sequence[Event], before: PlayerView | None, after: PlayerView,
                dash: str = "-") -> BustNotice | None:
    """The viewer's bust among `events` (which turned `before` into `after`), or None;
    `dash`: the glyph set's dash.

    The hand held is the revealed one when the table shows it; else the hand of this
    round as `after` still holds it; else (the bust ended the round and a new hand was
    dealt) the hand shown before, less the cards played since.
    """
    me = after.seat
    if me is None:
        return None
    index = next((i for i, e in enumerate(events) if isinstance(e, Busted) and e.seat == me), None)
    if index is None:
        return None
    bust = events[index]
    assert isinstance(bust, Busted)
    rules = after.rules
    later = events[index + 1:]
    revealed = next(
        (e.hand for e in later if isinstance(e, Eliminated) and e.seat == me and e.hand), None
    )
    new_round = any(isinstance(e, RoundDealt) for e in later)
    drew = False
    if revealed is not None:
        hand = list(revealed)
    elif not new_round:
        hand = list(after.hand)
    else:
        hand = list(before.hand) if before is not None and before.seat == me else []
        for event in events[:index]:
            if isinstance(event, Played) and event.seat == me and event.card in hand:
                hand.remove(event.card)
            elif isinstance(event, Drew) and event.seat == me:
                drew = True
    kind, left = _bust_cost(events, index, me)
    outcome = {
        "token": _("You lose a token ({left}).").format(left=_tokens_left(left)),
        "out": _("You are out of the match."),
        "round": _("You sit out the rest of this round."),
    }.get(kind, "")
    if after.discarding == me:
        outcome += " " + _("Choose a card to discard.")
    return BustNotice(
        headline=_("You busted at {total} {reason}").format(
            total=bust.total, reason=_bust_reason(after, dash)),
        held=tuple(card_label(card, rules) for card in hand),
        drew_unseen=drew,
        outcome=outcome,
        ends_round=any(isinstance(e, (RoundEnded, MatchEnded)) for e in later),
    )


def stand_in_line(
    events: Sequence[Event], seat: int, rules: Rules, *, skip_first: bool = False
) -> str | None:
    """What a stand-in bot played for `seat` among `events` (the events the table kept for
    the seat while its player was away), as one log line; None if it played nothing.
    `skip_first`: the first of those moves was the player's own, sent before the link
    dropped."""
    moves = []
    for event in events:
        match event:
            case Played(seat=who, card=card) if who == seat:
                moves.append(card_label(card, rules))
            case Discarded(seat=who, card=card) if who == seat:
                moves.append(_("discarded {card}").format(card=card_label(card, rules)))
            case SwappedFour(seat=who) if who == seat:
                moves.append(_("swapped four ONO 99"))
    if skip_first:
        moves = moves[1:]
    if not moves:
        return None
    return _("While you were away a bot played for you: {moves}").format(moves=", ".join(moves))


def matches_won(results: Mapping[str, object], seats: int) -> list[int] | None:
    """Matches won per seat at this table (the lobby's `results.matches_won`), None when
    the table has not said (no match over yet) or said it in a shape this app cannot read."""
    return _per_seat_counts(results.get("matches_won"), seats)


def matches_played(results: Mapping[str, object], seats: int) -> list[int] | None:
    """Matches finished at this table per seat's player (`results.matches_played`), None
    when the table has not said (an older host, or no match over yet)."""
    return _per_seat_counts(results.get("matches_played"), seats)


def _per_seat_counts(counts: object, seats: int) -> list[int] | None:
    if (not isinstance(counts, list) or len(counts) != seats
            or not all(type(count) is int and count >= 0 for count in counts)):
        return None
    return list(counts)
