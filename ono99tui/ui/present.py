"""From what the table sends (a PlayerView, the lobby's seats, events) to what widgets show.

Pure functions: each turns engine values into the small display values the widgets take
(`CardFace`, `CardSlot`, `SeatInfo`, strings). Keeping every "what does the player see"
decision here keeps the widgets dumb and this logic testable without a terminal. It is also
the only UI module that loads the engine, which screens import once the first frame is on
screen (see `ono99tui.ui.app`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from netproto.messages import SeatInfo as LobbySeat
from ono99tui.game import (
    Busted,
    Card,
    Discard,
    Discarded,
    Draw,
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
    RoundDealt,
    RoundEnded,
    Rules,
    SwapFour,
    SwappedFour,
    TokenLost,
    refusal_for_view,
)
from ono99tui.game.state import DISCARDING, MATCH_OVER
from ono99tui.ui.glyphs import Glyphs
from ono99tui.ui.widgets.cards import CardFace, CardSlot
from ono99tui.ui.widgets.seats import SeatInfo


_ONO99_EFFECT = {"dead": "dead card", "tens": "0 on tens", "set99": "sets 99"}


def face_for(card: Card, rules: Rules) -> CardFace:
    """How `card` looks at a table playing `rules` (names and effects depend on the edition)."""
    title = card.label(rules)
    if card.is_number:
        kind = "ten" if card is Card.TEN else "number"
        return CardFace(kind, str(int(card)), title, f"+{int(card)}")
    if card is Card.MINUS_TEN:
        return CardFace("minus-ten", "-10", title, "-10" if rules.negative_totals else "-10, min 0")
    if card is Card.REVERSE:
        return CardFace("reverse", "", title, "turn back")
    if card is Card.PLAY2:
        return CardFace("play-two", "x2", title, "next plays 2")
    if card is Card.HOLD:
        return CardFace("hold", "", title, "total +0")
    return CardFace("ono99", "99", title, _ONO99_EFFECT.get(rules.ono99_card, rules.ono99_card))


def seat_name(seat: int, seats: Sequence[LobbySeat]) -> str:
    """The name sitting in `seat`, or "seat N" before the lobby has told us."""
    for info in seats:
        if info.seat == seat:
            return info.name
    return f"seat {seat + 1}"


def names_of(view: PlayerView, seats: Sequence[LobbySeat]) -> list[str]:
    """Every seat's name, in seat order (the log says "ana played 7", even to ana)."""
    return [seat_name(seat, seats) for seat in range(view.seats)]


def obligation_card_name(view: PlayerView) -> str:
    """ "Play 2" or "Double Play", as the edition calls it."""
    return Card.PLAY2.label(view.rules)


def limit_text(view: PlayerView) -> str:
    """The limit in words: the highest total a play may reach."""
    return f"limit: max {view.bust_at - 1}"


def near_limit(view: PlayerView) -> bool:
    """Close enough to the limit that the total is drawn in the warning colour."""
    return view.total >= view.bust_at - 10


def obligation_line(view: PlayerView, seats: Sequence[LobbySeat]) -> tuple[str, bool]:
    """The pending Play 2 / Double Play line and whether the viewer is the one who owes it."""
    seat = view.obligation_seat
    if seat is None or view.phase == MATCH_OVER:
        return "", False
    card = obligation_card_name(view)
    owed = view.obligation_owed
    cards = "1 more card" if owed == 1 else f"{owed} cards"
    if seat == view.seat:
        return f"{card}! YOU must play {cards}", True
    return f"{card}: {seat_name(seat, seats)} owes {cards}", False


def seat_infos(view: PlayerView, seats: Sequence[LobbySeat]) -> list[SeatInfo]:
    """One `SeatInfo` per seat, from the view's public facts and the lobby's names/marks."""
    by_seat = {info.seat: info for info in seats}
    scoring = view.rules.scoring
    infos = []
    for seat in range(view.seats):
        lobby = by_seat.get(seat)
        infos.append(
            SeatInfo(
                name=lobby.name if lobby else f"seat {seat + 1}",
                cards=view.hand_sizes[seat],
                is_you=seat == view.seat,
                is_turn=view.turn == seat and view.phase != MATCH_OVER,
                is_bot=lobby is not None and lobby.kind == "bot",
                connected=lobby.connected if lobby else True,
                eliminated=view.eliminated[seat],
                out_of_round=view.out_of_round[seat],
                owes_two=view.obligation_seat == seat,
                tokens=view.tokens[seat] if scoring == "tokens" else None,
                score=view.scores[seat] if scoring.startswith("points") else None,
            )
        )
    return infos


def unplayable_reason(view: PlayerView, card: Card) -> str:
    """Why the viewer may not play `card` now, in the engine's own words.

    Off turn the reason stays the same whoever is to play: the prompt line names them,
    and a reason that did would change (and be repainted) with every opponent's move.
    """
    if view.seat is None:
        return "you are watching"
    if view.phase == MATCH_OVER:
        return "the match is over"
    if view.eliminated[view.seat]:
        return "you are out of the match"
    if view.out_of_round[view.seat]:
        return "you sit out the rest of this round"
    if view.turn != view.seat or view.phase == DISCARDING:
        return "it is not your turn"
    error = refusal_for_view(view, Play(view.seat, card))
    if error is None:
        return ""
    return error.reason if isinstance(error, IllegalMove) else str(error)


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


def can_swap(view: PlayerView) -> bool:
    """May the viewer discard four ONO 99 cards now?"""
    return any(isinstance(move, SwapFour) for move in view.legal_moves)


def must_draw(view: PlayerView) -> bool:
    """Late-draw rule: does the viewer still have to press draw?"""
    return view.seat is not None and view.pending_draw == view.seat


def winners_text(view: PlayerView, seats: Sequence[LobbySeat]) -> str:
    """ "ana wins" / "ana and bob share the win" / "you win"."""
    names = ["you" if seat == view.seat else seat_name(seat, seats) for seat in view.winners]
    if not names:
        return "nobody wins"
    if len(names) == 1:
        return f"{names[0]} {'win' if names[0] == 'you' else 'wins'}"
    return f"{', '.join(names[:-1])} and {names[-1]} share the win"


def prompt(view: PlayerView, seats: Sequence[LobbySeat]) -> tuple[str, bool]:
    """The one-line prompt under the table and whether it calls the viewer to act."""
    me = view.seat
    if view.phase == MATCH_OVER:
        keys = " r: rematch, w: results." if me is not None else ""
        return f"Match over: {winners_text(view, seats)}.{keys}", False
    if view.discarding is not None:
        if view.discarding == me:
            return "You busted: choose a card to discard (1-4 or Enter).", True
        return f"{seat_name(view.discarding, seats)} busted and is choosing a discard.", False
    if must_draw(view):
        return "Press d to draw your card before the next player plays!", True
    if me is not None and view.turn == me and view.legal_moves:
        extra = ", s to swap four ONO 99" if can_swap(view) else ""
        if view.obligation_seat == me:
            which = "the first of your two cards" if view.obligation_owed == 2 else "your second card"
            return f"{obligation_card_name(view)}! Play {which} (1-4, arrows+Enter{extra}).", True
        return f"Your turn: play a card (1-4, arrows+Enter{extra}).", True
    if view.turn is None:
        return "", False
    who = seat_name(view.turn, seats)
    return (f"Watching: {who} to play." if me is None else f"{who} to play."), False


def event_line(event: Event, names: Sequence[str], view: PlayerView, glyphs: Glyphs) -> str | None:
    """One log line for an event ("ana played 7 -> 57"), or None for events not worth a line
    (draws; a reversal, which the played Reverse and the direction line already show)."""

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"

    rules = view.rules
    match event:
        case RoundDealt(round_no=round_no, dealer=dealer, starter=starter):
            return f"Round {round_no}: {name(dealer)} dealt, {name(starter)} starts"
        case Played(seat=seat, card=card, total=total):
            return f"{name(seat)} played {card.label(rules)} {glyphs.arrow} {total}"
        case SwappedFour(seat=seat):
            return f"{name(seat)} swapped four ONO 99 cards"
        case Reshuffled(draw_pile_size=size):
            return f"Discards reshuffled: {size} to draw"
        case MissedDraw(seat=seat):
            return f"{name(seat)} missed a draw"
        case ObligationCreated(seat=seat):
            return f"{name(seat)} must play two ({obligation_card_name(view)})"
        case ObligationPassed(from_seat=from_seat, to_seat=to_seat):
            return f"{name(from_seat)} passed the {obligation_card_name(view)} to {name(to_seat)}"
        case Busted(seat=seat, total=total):
            return f"{name(seat)} BUSTED at {total}"
        case Resigned(seat=seat):
            return f"{name(seat)} never came back and resigned"
        case Eliminated(seat=seat, hand=hand):
            shown = f" (held {', '.join(c.label(rules) for c in hand)})" if hand else ""
            return f"{name(seat)} is out of the match{shown}"
        case OutOfRound(seat=seat):
            return f"{name(seat)} sits out this round"
        case Discarded(seat=seat, card=card):
            return f"{name(seat)} discarded {card.label(rules)}"
        case TokenLost(seat=seat, tokens_left=left):
            return f"{name(seat)} lost a token ({left} left)"
        case RoundEnded(round_no=round_no):
            return f"Round {round_no} is over"
        case MatchEnded(winners=winners):
            return f"Match over: {' and '.join(name(seat) for seat in winners)} won"
    return None


def stand_in_line(events: Sequence[Event], seat: int, rules: Rules, *, skip_first: bool = False) -> str | None:
    """What a stand-in bot played for `seat` among `events` (the events the table kept for
    the seat while its player was away), as one log line; None if it played nothing.
    `skip_first`: the first of those moves was the player's own, sent before the link
    dropped."""
    moves = []
    for event in events:
        match event:
            case Played(seat=who, card=card) if who == seat:
                moves.append(card.label(rules))
            case Discarded(seat=who, card=card) if who == seat:
                moves.append(f"discarded {card.label(rules)}")
            case SwappedFour(seat=who) if who == seat:
                moves.append("swapped four ONO 99")
    if skip_first:
        moves = moves[1:]
    if not moves:
        return None
    return f"While you were away a bot played for you: {', '.join(moves)}"


def matches_won(results: Mapping[str, object], seats: int) -> list[int] | None:
    """Matches won per seat at this table (the lobby's `results.matches_won`), None when
    the table has not said (no match over yet) or said it in a shape this app cannot read."""
    won = results.get("matches_won")
    if (not isinstance(won, list) or len(won) != seats
            or not all(type(count) is int and count >= 0 for count in won)):
        return None
    return list(won)
