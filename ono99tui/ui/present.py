"""From what the table sends (a PlayerView, the lobby's seats, events) to what widgets show.

Pure functions: each turns engine values into the small display values the widgets take
(`CardFace`, `CardSlot`, `SeatDisplay`, strings). Keeping every "what does the player see"
decision here keeps the widgets dumb and this logic testable without a terminal. It is also
the only UI module that loads the engine, which screens import once the first frame is on
screen (see `ono99tui.ui.app`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from netproto.wire.messages import SeatInfo as LobbySeat
from netproto.wire.messages import SeatKind
from ono99tui.client.names import agreeing, seat_name, verb
from ono99tui.game import (
    Busted,
    Card,
    Discard,
    Discarded,
    Draw,
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
    RoundDealt,
    RoundEnded,
    Rules,
    Scoring,
    SwapFour,
    SwappedFour,
    TimedOut,
    TokenLost,
    refusal_for_view,
)
from ono99tui.game.state import DISCARDING, MATCH_OVER
from ono99tui.ui.glyphs import Glyphs
from ono99tui.ui.rule_labels import ono99_effect
from ono99tui.ui.widgets.cards import CardFace, CardSlot
from ono99tui.ui.widgets.seats import SeatDisplay


def face_for(card: Card, rules: Rules) -> CardFace:
    """How `card` looks at a table playing `rules` (names and effects depend on the edition)."""
    title = card.label(rules)
    if card.is_number:
        kind = "ten" if card is Card.TEN else "number"
        return CardFace(kind, str(int(card)), title, f"+{int(card)}", str(int(card)))
    if card is Card.MINUS_TEN:
        effect = "-10" if rules.negative_totals else "-10, min 0"
        return CardFace("minus-ten", "-10", title, effect, "-10")
    if card is Card.REVERSE:
        return CardFace("reverse", "", title, "turn back", "Reverse")
    if card is Card.PLAY2:
        return CardFace("play-two", "x2", title, "next plays 2", title.split()[0])
    if card is Card.HOLD:
        return CardFace("hold", "", title, "total +0", "Hold")
    word = {"dead": "dead 99", "tens": "99", "set99": "sets 99"}.get(rules.ono99_card, "99")
    return CardFace("ono99", "99", title, ono99_effect(rules.ono99_card), word)


def obligation_card_name(view: PlayerView) -> str:
    """ "Play 2" or "Double Play", as the edition calls it."""
    return Card.PLAY2.label(view.rules)


def cards_owed(owed: int) -> str:
    """What a seat still owes of a Play 2 / Double Play, worded the same everywhere (the
    total panel, the prompt, the log, the seat line): "2 cards", then "1 more card"."""
    return "1 more card" if owed == 1 else f"{owed} cards"


def limit_text(view: PlayerView) -> str:
    """The limit in words: the highest total a play may reach ("you may go up to 98"), and
    whether it may go below 0 (1980's -10 has no floor)."""
    who = "players" if view.seat is None else "you"
    below = ", and below 0" if view.rules.negative_totals else ""
    return f"{who} may go up to {view.bust_at - 1}{below}"


def last_card_text(view: PlayerView) -> str:
    """The card on top of the discard pile: the last one played this round."""
    if view.discard_top is None:
        return "no card played yet"
    return f"last card: {view.discard_top.label(view.rules)}"


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
        return verb(names[0], "wins", "win")
    return f"{', '.join(names[:-1])} and {names[-1]} share the win"


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
    """One log line for an event ("ana played 7 -> 57"), or None for events not worth a line
    (draws; a reversal, which the played Reverse and the direction line already show)."""

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"

    rules = view.rules
    match event:
        case RoundDealt(round_no=round_no, dealer=dealer, starter=starter):
            starts = verb(name(starter), "starts", "start")
            return f"Round {round_no}: {name(dealer)} dealt, {starts}"
        case Played(seat=seat, card=card, total=total):
            return f"{name(seat)} played {card.label(rules)} {glyphs.arrow} {total}"
        case SwappedFour(seat=seat):
            return f"{name(seat)} swapped four ONO 99 cards"
        case Reshuffled(draw_pile_size=size):
            return f"Discards reshuffled: {size} to draw"
        case MissedDraw(seat=seat):
            return f"{name(seat)} missed a draw"
        case ObligationCreated(seat=seat):
            # A new obligation always asks two cards (passing it on starts it afresh).
            owes = verb(name(seat), "owes", "owe")
            return f"{owes} {cards_owed(2)} ({obligation_card_name(view)})"
        case ObligationPassed(from_seat=from_seat, to_seat=to_seat):
            owes = verb(name(to_seat), "owes", "owe")
            passed = obligation_card_name(view)
            return f"{name(from_seat)} passed the {passed} on: {owes} {cards_owed(2)}"
        case Busted(seat=seat, total=total):
            return f"{name(seat)} BUSTED at {total}"
        case Resigned(seat=seat):
            return f"{name(seat)} never came back and resigned"
        case TimedOut(seat=seat, in_a_row=in_a_row):
            again = f" ({in_a_row} in a row)" if in_a_row > 1 else ""
            return f"{name(seat)} ran out of time{again}"
        case Eliminated(seat=seat, hand=hand):
            shown = f" (held {', '.join(c.label(rules) for c in hand)})" if hand else ""
            return f"{verb(name(seat), 'is', 'are')} out of the match{shown}"
        case OutOfRound(seat=seat):
            return f"{verb(name(seat), 'sits', 'sit')} out this round"
        case Discarded(seat=seat, card=card):
            return f"{name(seat)} discarded {card.label(rules)}"
        case TokenLost(seat=seat, tokens_left=left):
            return f"{name(seat)} lost a token ({left} left)"
        case RoundEnded(round_no=round_no):
            return f"Round {round_no} is over"
        case MatchEnded(winners=winners):
            return f"Match over: {' and '.join(name(seat) for seat in winners)} won"
    return None


# --- busts ---------------------------------------------------------------------------------


def _bust_reason(view: PlayerView, dash: str) -> str:
    limit = view.rules.bust_at
    fits = f"under {limit}" if limit == 99 else f"at {limit - 1} or under"
    return f"{dash} no card fits {fits}"


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
    return f"{left} left" if left else "none left: one more bust and out"


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
                "token": f" and lost a token ({_tokens_left(left)})",
                "out": " and are out of the match" if mine else " and is out of the match",
                "round": " and sit out the round" if mine else " and sits out the round",
            }.get(kind, "")
            lines.append(f"{who} busted at {event.total}{cost}")
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


def bust_notice(
    events: Sequence[Event], before: PlayerView | None, after: PlayerView, glyphs: Glyphs
) -> BustNotice | None:
    """The viewer's bust among `events` (which turned `before` into `after`), or None.

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
    dash = "-" if glyphs.ascii else "\u2014"
    kind, left = _bust_cost(events, index, me)
    outcome = {
        "token": f"You lose a token ({_tokens_left(left)}).",
        "out": "You are out of the match.",
        "round": "You sit out the rest of this round.",
    }.get(kind, "")
    if after.discarding == me:
        outcome += " Choose a card to discard."
    return BustNotice(
        headline=f"You busted at {bust.total} {_bust_reason(after, dash)}",
        held=tuple(card.label(rules) for card in hand),
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
