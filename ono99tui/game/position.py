"""Build a hand-made position: for tests, puzzles and examples.

`position(rules, hands, total=92, turn=1, ...)` returns a State as if play had reached it.
The draw pile holds the rest of the deck (cards not in hands or the discard pile) in a
fixed order unless given. Busts are not resolved here: a position whose turn seat has no
legal move simply lists none (apply the previous player's move to see the bust happen).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ono99tui.game.cards import Card
from ono99tui.game.legal import legal_plays
from ono99tui.game.rules import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, Rules
from ono99tui.game.rules_lookup import lookup_for
from ono99tui.game.state import PLAYING, State, _make_state


def position(
    rules: Rules,
    hands: Sequence[Sequence[Card]],
    *,
    total: int = 0,
    turn: int = 0,
    direction: int = 1,
    owed: int = 1,
    obligated: bool | None = None,
    ono99_this_turn: bool = False,
    draw_pile: Sequence[Card] | None = None,
    discard_pile: Sequence[Card] = (),
    alive: Sequence[bool] | None = None,
    in_round: Sequence[bool] | None = None,
    tokens: Sequence[int] | None = None,
    scores: Sequence[int] | None = None,
    pending_draw: int | None = None,
    dealer: int | None = None,
    round_no: int = 1,
) -> State:
    """A State with the given hands and facts; checks the cards against the deck.

    `owed=2` puts the turn seat under a Play 2 obligation (obligated defaults to owed == 2).
    `draw_pile` is listed top first.
    """
    seats = len(hands)
    if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        raise ValueError(f"{seats} seats: a table has {MIN_PLAYERS} to {MAX_PLAYERS}")
    tab = lookup_for(rules)
    hand_tuples = tuple(tuple(Card(c) for c in hand) for hand in hands)
    if any(len(hand) > HAND_SIZE for hand in hand_tuples):
        raise ValueError("a hand holds at most four cards")
    used = Counter(c for hand in hand_tuples for c in hand) + Counter(map(Card, discard_pile))
    rest = Counter(tab.deck) - used
    if used - Counter(tab.deck):
        raise ValueError(f"more cards than the {rules.deck} deck holds: {used - Counter(tab.deck)}")
    if draw_pile is None:
        pile = tuple(sorted(rest.elements()))
    else:
        pile = tuple(Card(c) for c in draw_pile)
        if Counter(pile) - rest:
            raise ValueError("the draw pile holds cards the deck has no room for")
    alive_t = tuple(alive) if alive is not None else (True,) * seats
    in_round_t = tuple(in_round) if in_round is not None else alive_t
    if obligated is None:
        obligated = owed == 2
    legal = legal_plays(tab, turn, hand_tuples[turn], total, owed, obligated, ono99_this_turn)
    fields: list[Any] = [
        rules,
        seats,
        hand_tuples,
        pile,
        0,
        tuple(Card(c) for c in discard_pile),
        total,
        direction,
        turn,
        owed,
        obligated,
        False,
        ono99_this_turn,
        -1 if pending_draw is None else pending_draw,
        -1,
        alive_t,
        in_round_t,
        (False,) * seats,
        tuple(tokens) if tokens is not None else (rules.tokens,) * seats,
        tuple(scores) if scores is not None else (0,) * seats,
        (None,) * seats,
        (turn - 1) % seats if dealer is None else dealer,
        round_no,
        PLAYING,
        (),
        0,
        legal,
        tab,
    ]
    return _make_state(fields)
