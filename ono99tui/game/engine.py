"""The rules engine: start a match, list legal moves, apply a move.

Pure functions over immutable `State` values; every random choice (deal, dealer,
reshuffles) comes from the `random.Random` the caller passes, so a match replays exactly
from its seed and its move list. Busts, round ends and new deals happen inside `apply`.
"""

from __future__ import annotations

import random
from typing import Any

from ono99tui.game.cards import Card, hand_points
from ono99tui.game.errors import IllegalMove, InvalidPlayerCount, MalformedMove
from ono99tui.game.events import (
    Busted,
    Discarded,
    Eliminated,
    Event,
    MatchEnded,
    MissedDraw,
    ObligationCleared,
    ObligationCreated,
    ObligationPassed,
    OutOfRound,
    Reshuffled,
    Reversed,
    RoundDealt,
    RoundEnded,
    SwappedFour,
    TokenLost,
    drew,
    played,
)
from ono99tui.game.moves import Discard, Draw, Move, Play, SwapFour
from ono99tui.game.rules import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, Rules
from ono99tui.game.state import (
    ALIVE,
    BUSTED,
    DEALER,
    DIRECTION,
    DISCARD_PILE,
    DISCARDING,
    DISCARDING_SEAT,
    DRAW_INDEX,
    DRAW_PILE,
    HANDS,
    IN_ROUND,
    LEGAL,
    MATCH_OVER,
    OBLIGATED,
    OBLIGATION_NEXT,
    ONO99_THIS_TURN,
    OWED,
    PENDING_DRAW,
    PHASE,
    PLAYING,
    PLAYS,
    REVEALED,
    ROUND_NO,
    SCORES,
    TABLES,
    TOKENS,
    TOTAL,
    TURN,
    WINNERS,
    State,
    _make_state,
)
from ono99tui.game.tables import ONO99_BIT, Tables, tables_for

MINUS_TEN = Card.MINUS_TEN
REVERSE = Card.REVERSE
PLAY2 = Card.PLAY2
HOLD = Card.HOLD
ONO99 = Card.ONO99

Events = tuple[Event, ...]
_new_tuple = tuple.__new__


# ---------------------------------------------------------------------------------------
# Legal moves


def _legal_plays(
    tab: Tables, seat: int, hand: tuple[Card, ...], total: int, owed: int, obligated: bool, ono_turn: bool
) -> tuple[Move, ...]:
    """The plays (and swap) open to `seat` holding `hand`; Draw and Discard are not plays."""
    bust_at = tab.bust_at
    row = tab.play[seat]
    moves: list[Move] = []
    seen = 0
    for card in hand:
        bit = 1 << card
        if seen & bit:
            continue
        seen |= bit
        if card <= 10:
            if total + card < bust_at:
                moves.append(row[card])
        elif card == ONO99:
            mode = tab.ono99_mode
            if mode == "set99":
                if 99 < bust_at:
                    moves.append(row[card])
            elif mode == "tens" and total % 10 == 0 and not ono_turn:
                moves.append(row[card])
        elif card == PLAY2:
            if not (obligated and owed == 2) or tab.play2_first:
                moves.append(row[card])
        else:  # −10, Reverse and Hold never break the limit
            moves.append(row[card])
    if seen == ONO99_BIT:
        if tab.swap and len(hand) == HAND_SIZE:
            moves.append(tab.swap_move[seat])
        elif tab.dead_hand:
            return ()
    return tuple(moves)


def legal_moves(state: State, seat: int) -> tuple[Move, ...]:
    """Every move `seat` may make now (empty if it is not that seat's moment to act)."""
    phase = state[PHASE]
    if phase == PLAYING:
        moves = state[LEGAL] if seat == state[TURN] else ()
        if seat == state[PENDING_DRAW]:
            return (state[TABLES].draw_move[seat],) + moves
        return moves
    if phase == DISCARDING and seat == state[DISCARDING_SEAT]:
        row = state[TABLES].discard_move[seat]
        return tuple(row[card] for card in dict.fromkeys(state[HANDS][seat]))
    return ()


def acting_seats(state: State) -> tuple[int, ...]:
    """The seats that have a legal move now. A pending late draw comes first, then the turn."""
    phase = state[PHASE]
    if phase == PLAYING:
        turn = state[TURN]
        pending = state[PENDING_DRAW]
        if pending >= 0 and pending != turn:
            return (pending, turn)
        return (turn,)
    if phase == DISCARDING:
        return (state[DISCARDING_SEAT],)
    return ()


# ---------------------------------------------------------------------------------------
# Starting a match


def start_match(rules: Rules, seats: int, rng: random.Random) -> tuple[State, Events]:
    """A new match: random dealer, first deal. Returns the state and the opening events."""
    if type(seats) is not int or not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        raise InvalidPlayerCount(f"a match needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {seats!r}")
    tab = tables_for(rules)
    dealer = rng.randrange(seats)
    s: list[Any] = [
        rules,
        seats,
        ((),) * seats,
        (),
        0,
        (),
        0,
        1,
        0,
        1,
        False,
        False,
        False,
        -1,
        -1,
        (True,) * seats,
        (True,) * seats,
        (False,) * seats,
        (rules.tokens,) * seats,
        (0,) * seats,
        (None,) * seats,
        dealer,
        0,
        PLAYING,
        (),
        0,
        (),
        tab,
    ]
    events: list[Event] = []
    _deal(s, dealer, _next_alive(s, dealer), events, rng)
    return _settle(s, events, rng)


def new_match(rules: Rules, seats: int, rng: random.Random) -> State:
    """A new match ready for the first move (see `start_match` for the opening events)."""
    return start_match(rules, seats, rng)[0]


def _deal(s: list[Any], dealer: int, starter: int, events: list[Event], rng: random.Random) -> None:
    """Collect every card, shuffle, deal four to each seat still in the match; `starter` leads."""
    tab: Tables = s[TABLES]
    cards = _shuffled(tab.deck, rng)
    seats = s[1]
    alive = s[ALIVE]
    hands: list[list[Card]] = [[] for _ in range(seats)]
    order = [(dealer + 1 + k) % seats for k in range(seats)]
    index = 0
    for _ in range(HAND_SIZE):
        for seat in order:
            if alive[seat]:
                hands[seat].append(cards[index])
                index += 1
    s[HANDS] = tuple(tuple(hand) for hand in hands)
    s[DRAW_PILE] = tuple(cards)
    s[DRAW_INDEX] = index
    s[DISCARD_PILE] = ()
    s[TOTAL] = 0
    s[DIRECTION] = 1
    s[TURN] = starter
    s[OWED] = 1
    s[OBLIGATED] = False
    s[OBLIGATION_NEXT] = False
    s[ONO99_THIS_TURN] = False
    s[PENDING_DRAW] = -1
    s[DISCARDING_SEAT] = -1
    s[IN_ROUND] = alive
    s[BUSTED] = (False,) * seats
    s[DEALER] = dealer
    s[ROUND_NO] += 1
    s[PHASE] = PLAYING
    events.append(
        RoundDealt(s[ROUND_NO], dealer, starter, tuple(map(len, s[HANDS])), len(cards) - index)
    )


# ---------------------------------------------------------------------------------------
# Seats


def _next_in_round(s: list[Any], seat: int, direction: int) -> int:
    """The next seat after `seat` in `direction` that is still in the round."""
    in_round = s[IN_ROUND]
    seats = s[1]
    nxt = (seat + direction) % seats
    while not in_round[nxt]:
        nxt = (nxt + direction) % seats
    return nxt


def _next_alive(s: list[Any], seat: int) -> int:
    """The next seat clockwise after `seat` that is still in the match."""
    alive = s[ALIVE]
    seats = s[1]
    nxt = (seat + 1) % seats
    while not alive[nxt]:
        nxt = (nxt + 1) % seats
    return nxt


def _previous_alive(s: list[Any], seat: int) -> int:
    """The next seat counter-clockwise before `seat` that is still in the match."""
    alive = s[ALIVE]
    seats = s[1]
    prev = (seat - 1) % seats
    while not alive[prev]:
        prev = (prev - 1) % seats
    return prev


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1 :]


# ---------------------------------------------------------------------------------------
# Drawing


def _shuffled(cards: tuple[Card, ...], rng: random.Random) -> list[Card]:
    """The cards in a uniformly random order drawn from `rng`.

    Sorting by one `rng.random()` key per card is a uniform shuffle (a tie between two
    53-bit keys has a chance near 1e-12 per deal) and costs about a third of
    `rng.shuffle`, whose per-card `_randbelow` runs in Python: a deal is a tenth of a
    simulated match.
    """
    key = rng.random
    return sorted(cards, key=lambda _card: key())


def _draw_cards(
    hand: tuple[Card, ...],
    count: int,
    seat: int,
    pile: tuple[Card, ...],
    index: int,
    discard: tuple[Card, ...],
    events: list[Event],
    rng: random.Random,
) -> tuple[tuple[Card, ...], tuple[Card, ...], int, tuple[Card, ...]]:
    """Draw `count` cards into `hand`, reshuffling the discard pile when the draw pile is
    empty. Returns the new (hand, draw pile, draw index, discard pile)."""
    drawn = 0
    while drawn < count:
        if index >= len(pile):
            if not discard:
                break  # both piles empty: the player simply does not draw
            pile = tuple(_shuffled(discard, rng))
            index = 0
            discard = ()
            events.append(Reshuffled(len(pile)))
        take = min(count - drawn, len(pile) - index)
        hand = hand + pile[index : index + take]
        index += take
        drawn += take
    if drawn:
        events.append(drew(seat, drawn))
    return hand, pile, index, discard


def _draw(
    s: list[Any], hand: tuple[Card, ...], count: int, seat: int, events: list[Event], rng: random.Random
) -> tuple[Card, ...]:
    """`_draw_cards` on a state being built as a list."""
    hand, s[DRAW_PILE], s[DRAW_INDEX], s[DISCARD_PILE] = _draw_cards(
        hand, count, seat, s[DRAW_PILE], s[DRAW_INDEX], s[DISCARD_PILE], events, rng
    )
    return hand


# ---------------------------------------------------------------------------------------
# Applying moves


def apply(state: State, move: Move, rng: random.Random) -> tuple[State, Events]:
    """Apply `move` and return the new state with the public events it caused.

    Busts that follow (a seat with no legal move), round ends and new deals are resolved
    here too. Raises MalformedMove or IllegalMove; the given state is never changed.
    """
    # Legal plays are the preallocated move objects of the rules' tables, so a move that
    # *is* one of them (what bots return) is well formed and legal: no further checks.
    for legal in state[LEGAL]:
        if legal is move:
            if type(move) is Play:
                return _apply_play(state, move.seat, move.card, rng)
            return _apply_swap(state, move.seat, rng)
    return _apply_checked(state, move, rng)


def _apply_checked(state: State, move: Move, rng: random.Random) -> tuple[State, Events]:
    """`apply` for a move object built elsewhere (the wire, a test): check, then apply."""
    kind = type(move)
    if kind is Play or kind is SwapFour:
        seat = move.seat
        card = getattr(move, "card", None)
        if type(seat) is int and 0 <= seat < state[1] and (kind is SwapFour or type(card) is Card):
            tab: Tables = state[TABLES]
            canonical = tab.swap_move[seat] if kind is SwapFour else tab.play[seat][card]
            if any(legal is canonical for legal in state[LEGAL]):
                return apply(state, canonical, rng)
    elif kind is Draw:
        seat = move.seat
        if type(seat) is int and seat == state[PENDING_DRAW] and state[PHASE] == PLAYING:
            return _apply_draw(state, seat, rng)
    elif kind is Discard:
        if (
            state[PHASE] == DISCARDING
            and type(move.card) is Card
            and type(move.seat) is int
            and move.seat == state[DISCARDING_SEAT]
            and move.card in state[HANDS][move.seat]
        ):
            return _apply_discard(state, move.seat, move.card, rng)
    raise refusal(state, move)


def _apply_play(state: State, seat: int, card: Card, rng: random.Random) -> tuple[State, Events]:
    """Play `card` (already known legal): the hot path of every simulation.

    The state is unpacked into locals and one new tuple is built, with no per-field
    copies; only a bust (no legal move for the next seat) goes through `_settle`.
    """
    (
        rules, seats, hands, pile, index, discard, total, direction, _turn, owed, obligated,
        obligation_next, ono_turn, pending, discarding, alive, in_round, busted, tokens,
        scores, revealed, dealer, round_no, phase, winners, plays, _legal, tab,
    ) = state
    events: list[Event] = []
    if pending >= 0:
        # Late-draw penalty: a play made before the pending draw forfeits it.
        events.append(MissedDraw(pending))
        pending = -1
    hand = hands[seat]
    i = hand.index(card)
    hand = hand[:i] + hand[i + 1 :]
    if card <= 10:
        total += card
    elif card == MINUS_TEN:
        total -= 10
        if total < 0 and tab.floor is not None:
            total = tab.floor
    elif card == ONO99:
        if tab.ono99_mode == "set99":
            total = 99
        ono_turn = True
    discard += (card,)
    events.append(played(seat, card, total))
    answered = owed == 2 and tab.is_answer[card]
    if card == REVERSE:
        # With two players in the round a Reverse changes nothing (RULES.md §2).
        if sum(in_round) > 2:
            direction = -direction
            events.append(Reversed(direction))
    elif card == PLAY2 and not answered:
        obligation_next = True
    if tab.late_draw:
        pending = seat
    elif index < len(pile):
        hand += (pile[index],)
        index += 1
        events.append(tab.drew_one[seat])
    else:
        hand, pile, index, discard = _draw_cards(hand, 1, seat, pile, index, discard, events, rng)
    hands = hands[:seat] + (hand,) + hands[seat + 1 :]
    if owed == 2 and not answered:
        nxt = seat  # the first of two owed cards: the same seat plays again
        owed = 1
    else:
        nxt = (seat + direction) % seats
        while not in_round[nxt]:
            nxt = (nxt + direction) % seats
        ono_turn = False
        if answered:
            obligation_next = False  # owed stays 2, obligated stays True: passed on
            events.append(ObligationPassed(seat, nxt))
        else:
            if obligated:
                events.append(ObligationCleared(seat))
            if obligation_next:
                owed, obligated, obligation_next = 2, True, False
                events.append(ObligationCreated(nxt))
            else:
                obligated = False
    legal = _legal_plays(tab, nxt, hands[nxt], total, owed, obligated, ono_turn)
    fields = (
        rules, seats, hands, pile, index, discard, total, direction, nxt, owed, obligated,
        obligation_next, ono_turn, pending, discarding, alive, in_round, busted, tokens,
        scores, revealed, dealer, round_no, phase, winners, plays + 1, legal, tab,
    )  # fmt: skip
    if legal or pending == nxt:
        return _new_tuple(State, fields), tuple(events)
    return _settle(list(fields), events, rng)


def _end_turn(s: list[Any], seat: int, direction: int, events: list[Event]) -> None:
    """The turn seat has played everything it owed: pass the turn on."""
    if s[OBLIGATED]:
        events.append(ObligationCleared(seat))
    nxt = _next_in_round(s, seat, direction)
    s[TURN] = nxt
    s[ONO99_THIS_TURN] = False
    if s[OBLIGATION_NEXT]:
        s[OWED] = 2
        s[OBLIGATED] = True
        s[OBLIGATION_NEXT] = False
        events.append(ObligationCreated(nxt))
    else:
        s[OWED] = 1
        s[OBLIGATED] = False


def _apply_swap(state: State, seat: int, rng: random.Random) -> tuple[State, Events]:
    s = list(state)
    events: list[Event] = []
    pending = s[PENDING_DRAW]
    if pending >= 0:
        events.append(MissedDraw(pending))
        s[PENDING_DRAW] = -1
    s[DISCARD_PILE] += s[HANDS][seat]
    s[PLAYS] += 1
    events.append(SwappedFour(seat))
    # The swap draws its four cards at once, even under the late-draw rule.
    hand = _draw(s, (), HAND_SIZE, seat, events, rng)
    s[HANDS] = _set(s[HANDS], seat, hand)
    if s[OWED] == 2:
        s[OWED] = 1  # the swap is the first of the two owed plays
    else:
        _end_turn(s, seat, s[DIRECTION], events)
    return _settle(s, events, rng)


def _apply_draw(state: State, seat: int, rng: random.Random) -> tuple[State, Events]:
    s = list(state)
    events: list[Event] = []
    s[PENDING_DRAW] = -1
    s[HANDS] = _set(s[HANDS], seat, _draw(s, s[HANDS][seat], 1, seat, events, rng))
    return _settle(s, events, rng)


def _apply_discard(state: State, seat: int, card: Card, rng: random.Random) -> tuple[State, Events]:
    s = list(state)
    events: list[Event] = []
    hand = s[HANDS][seat]
    i = hand.index(card)
    hand = hand[:i] + hand[i + 1 :]
    s[DISCARD_PILE] += (card,)
    events.append(Discarded(seat, card))
    hand = _draw(s, hand, HAND_SIZE - len(hand), seat, events, rng)
    s[HANDS] = _set(s[HANDS], seat, hand)
    s[DISCARDING_SEAT] = -1
    s[PHASE] = PLAYING
    if sum(s[IN_ROUND]) <= 1:
        _end_points_round(s, events, rng)
    return _settle(s, events, rng)


# ---------------------------------------------------------------------------------------
# Busts, rounds and the end of the match


def _settle(s: list[Any], events: list[Event], rng: random.Random) -> tuple[State, Events]:
    """Resolve busts until the seat to play has a legal move (or play stops), then freeze."""
    tab: Tables = s[TABLES]
    while s[PHASE] == PLAYING:
        turn = s[TURN]
        legal = _legal_plays(
            tab, turn, s[HANDS][turn], s[TOTAL], s[OWED], s[OBLIGATED], s[ONO99_THIS_TURN]
        )
        # A seat still owed its late draw may draw first and find a legal card.
        if legal or s[PENDING_DRAW] == turn:
            s[LEGAL] = legal
            return _make_state(s), tuple(events)
        _bust(s, turn, events, rng)
    s[LEGAL] = ()
    return _make_state(s), tuple(events)


def _bust(s: list[Any], seat: int, events: list[Event], rng: random.Random) -> None:
    """`seat` has no legal move: resolve it by the scoring mode."""
    tab: Tables = s[TABLES]
    events.append(Busted(seat, s[TOTAL]))
    if s[OBLIGATED]:
        # The obligation ends with the buster: the next player plays normally.
        events.append(ObligationCleared(seat))
    s[OWED] = 1
    s[OBLIGATED] = False
    s[OBLIGATION_NEXT] = False
    s[ONO99_THIS_TURN] = False
    scoring = tab.scoring
    if scoring == "single":
        _eliminate(s, seat, events)
        if not _match_decided(s, events):
            s[TURN] = _next_in_round(s, seat, s[DIRECTION])
    elif scoring == "tokens":
        tokens = s[TOKENS][seat]
        if tokens > 0:
            s[TOKENS] = _set(s[TOKENS], seat, tokens - 1)
            events.append(TokenLost(seat, tokens - 1))
            _round_over(s, events)
            _deal(s, _previous_alive(s, seat), seat, events, rng)
        else:
            _eliminate(s, seat, events)
            _round_over(s, events)
            if not _match_decided(s, events):
                starter = _next_alive(s, seat)
                _deal(s, _previous_alive(s, starter), starter, events, rng)
    else:  # points-elimination / points-lowest: out of this round only
        s[IN_ROUND] = _set(s[IN_ROUND], seat, False)
        s[BUSTED] = _set(s[BUSTED], seat, True)
        events.append(OutOfRound(seat))
        if sum(s[IN_ROUND]) >= 1:
            s[TURN] = _next_in_round(s, seat, s[DIRECTION])
        hand = s[HANDS][seat]
        if hand and not (len(hand) == HAND_SIZE and all(card == ONO99 for card in hand)):
            # Another seat's pending late draw waits until the discard is done.
            s[PHASE] = DISCARDING
            s[DISCARDING_SEAT] = seat
        elif sum(s[IN_ROUND]) <= 1:
            _end_points_round(s, events, rng)


def _eliminate(s: list[Any], seat: int, events: list[Event]) -> None:
    hand = s[HANDS][seat]
    revealed = hand if s[TABLES].rules.reveal_eliminated else None
    s[ALIVE] = _set(s[ALIVE], seat, False)
    s[IN_ROUND] = _set(s[IN_ROUND], seat, False)
    if revealed is not None:
        s[REVEALED] = _set(s[REVEALED], seat, revealed)
    if s[PENDING_DRAW] == seat:
        s[PENDING_DRAW] = -1
    events.append(Eliminated(seat, revealed))


def _match_decided(s: list[Any], events: list[Event]) -> bool:
    """End the match if one seat is left in it."""
    alive = s[ALIVE]
    if sum(alive) > 1:
        return False
    _end_match(s, tuple(seat for seat, on in enumerate(alive) if on), events)
    return True


def _end_match(s: list[Any], winners: tuple[int, ...], events: list[Event]) -> None:
    s[PHASE] = MATCH_OVER
    s[WINNERS] = winners
    s[TURN] = -1
    s[PENDING_DRAW] = -1
    s[DISCARDING_SEAT] = -1
    events.append(MatchEnded(winners))


def _round_over(s: list[Any], events: list[Event], points: tuple[int, ...] | None = None) -> None:
    seats = s[1]
    events.append(RoundEnded(s[ROUND_NO], points or (0,) * seats, s[SCORES], s[TOKENS]))


def round_points(hand: tuple[Card, ...], busted: bool) -> int:
    """Points a hand scores at the end of a points round (RULES.md §3)."""
    missing = max(0, HAND_SIZE - len(hand))
    return sum(map(hand_points, hand)) + 15 * missing + (25 if busted else 0)


def _end_points_round(s: list[Any], events: list[Event], rng: random.Random) -> None:
    """Everyone still in the match scores their hand; then the match goes on or ends."""
    tab: Tables = s[TABLES]
    alive = s[ALIVE]
    points = tuple(
        round_points(hand, busted) if on else 0
        for hand, busted, on in zip(s[HANDS], s[BUSTED], alive)
    )
    scores = s[SCORES] = tuple(a + b for a, b in zip(s[SCORES], points))
    _round_over(s, events, points)
    target = tab.rules.target
    players = [seat for seat, on in enumerate(alive) if on]
    reached = [seat for seat in players if scores[seat] >= target]
    if tab.scoring == "points-lowest":
        if reached:
            low = min(scores[seat] for seat in players)
            _end_match(s, tuple(seat for seat in players if scores[seat] == low), events)
            return
    elif reached:
        left = [seat for seat in players if seat not in reached]
        if not left:
            # Everyone reached the target in the same round: the lowest score wins.
            low = min(scores[seat] for seat in players)
            _end_match(s, tuple(seat for seat in players if scores[seat] == low), events)
            return
        for seat in reached:
            _eliminate(s, seat, events)
        if _match_decided(s, events):
            return
    dealer = _next_alive(s, s[DEALER])
    _deal(s, dealer, _next_alive(s, dealer), events, rng)


# ---------------------------------------------------------------------------------------
# Explaining refusals (slow path only)


def refusal(state: State, move: object) -> MalformedMove | IllegalMove:
    """The typed error explaining why `move` cannot be applied to `state`."""
    kind = type(move)
    if kind not in (Play, SwapFour, Draw, Discard):
        return MalformedMove("not_a_move", f"{move!r} is not a move")
    seat = move.seat  # type: ignore[union-attr]
    if type(seat) is not int or not 0 <= seat < state.seats:
        return MalformedMove("bad_seat", f"seat {seat!r} is not a seat at this table")
    card = getattr(move, "card", None)
    if kind in (Play, Discard) and type(card) is not Card:
        return MalformedMove("bad_card", f"{card!r} is not a card")
    if state.phase == MATCH_OVER:
        return IllegalMove("match_over", "the match is over")
    if not state.alive[seat]:
        return IllegalMove("eliminated", f"seat {seat} is out of the match")
    hand = state.hands[seat]
    if state.phase == DISCARDING:
        if seat != state.discarding:
            return IllegalMove("not_your_turn", f"seat {state.discarding} must discard first")
        if kind is not Discard:
            return IllegalMove("must_discard", "you busted: discard one card first")
        return IllegalMove("not_in_hand", f"you hold no {card.label(state.rules)}")
    if kind is Discard:
        return IllegalMove("no_discard", "only a player who busted in points scoring discards")
    if kind is Draw:
        if not state.rules.late_draw_penalty:
            return IllegalMove("no_late_draw", "cards are drawn automatically in these rules")
        return IllegalMove("nothing_to_draw", "you have no draw pending")
    if not state.in_round[seat]:
        return IllegalMove("out_of_round", f"seat {seat} is out of this round")
    if seat != state.turn:
        return IllegalMove("not_your_turn", f"it is seat {state.turn}'s turn")
    rules = state.rules
    if kind is SwapFour:
        if not rules.four_ono99_swap:
            return IllegalMove("no_swap", "these rules have no four-ONO-99 swap")
        return IllegalMove("no_swap", "you need four ONO 99 cards to swap")
    assert isinstance(card, Card)
    name = card.label(rules)
    if card not in hand:
        return IllegalMove("not_in_hand", f"you hold no {name}")
    if rules.dead_hand_busts and all(c == ONO99 for c in hand):
        return IllegalMove("dead_hand", "a hand of only ONO 99 cards is dead")
    total = state.total
    if card <= 10:
        return IllegalMove("would_bust", f"{name} would make the total {total + card}")
    if card == ONO99:
        if rules.ono99_card == "dead":
            return IllegalMove("dead_card", "the ONO 99 card can never be played")
        if rules.ono99_card == "tens" and state.ono99_this_turn:
            return IllegalMove("one_ono99_per_turn", "only one ONO 99 card per turn")
        if rules.ono99_card == "tens":
            return IllegalMove("ono99_needs_tens", f"ONO 99 needs a total ending in 0, not {total}")
        return IllegalMove("would_bust", f"ONO 99 would make the total 99, the limit is {rules.bust_at}")
    if card == PLAY2:
        return IllegalMove("not_first_card", f"{name} may not be the first of your two cards")
    return IllegalMove("illegal", f"{name} cannot be played now")
