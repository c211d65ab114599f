"""Why a move cannot be applied: the typed error with a code and a readable reason.

Only the refused-move path runs this, so it favours clarity over speed.
"""

from __future__ import annotations

from ono99tui.game.cards import Card
from ono99tui.game.errors import IllegalMove, MalformedMove
from ono99tui.game.moves import Discard, Draw, Play, SwapFour
from ono99tui.game.rules import Ono99Card
from ono99tui.game.state import DISCARDING, MATCH_OVER, State

ONO99 = Card.ONO99
PLAY2 = Card.PLAY2


def refusal(state: State, move: object) -> MalformedMove | IllegalMove:
    """The typed error explaining why `move` cannot be applied to `state`."""
    kind = type(move)
    if kind not in (Play, SwapFour, Draw, Discard):
        return MalformedMove("not_a_move", f"{move!r} is not a move")
    assert isinstance(move, (Play, SwapFour, Draw, Discard))  # exactly one of them, as checked
    seat = move.seat
    if type(seat) is not int or not 0 <= seat < state.seats:
        return MalformedMove("bad_seat", f"seat {seat!r} is not a seat at this table")
    card: Card | None = getattr(move, "card", None)
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
        assert card is not None  # a Discard's card was checked above
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
        if rules.ono99_card == Ono99Card.DEAD:
            return IllegalMove("dead_card", "the ONO 99 card can never be played")
        if rules.ono99_card == Ono99Card.TENS and state.ono99_this_turn:
            return IllegalMove("one_ono99_per_turn", "only one ONO 99 card per turn")
        if rules.ono99_card == Ono99Card.TENS:
            return IllegalMove("ono99_needs_tens", f"ONO 99 needs a total ending in 0, not {total}")
        return IllegalMove(
            "would_bust", f"ONO 99 would make the total 99, the limit is {rules.bust_at}"
        )
    if card == PLAY2:
        return IllegalMove("not_first_card", f"{name} may not be the first of your two cards")
    return IllegalMove("illegal", f"{name} cannot be played now")
