"""Why a move is refused, explained from a seat's `PlayerView` alone.

A player's app holds no State, only its view; yet focusing an unplayable card should say
why in the engine's own words. The view holds every fact the engine's refusal reads about
the viewer: the public ones, the viewer's hand and its legal moves. One fact is not in it:
in `tens` mode, whether an ONO 99 card was already played this turn; it is read off the
legal moves (the ONO 99 card would be legal otherwise).
"""

from __future__ import annotations

from ono99tui.game.cards import Card
from ono99tui.game.errors import IllegalMove, MalformedMove
from ono99tui.game.legal import legal_plays
from ono99tui.game.moves import Move, Play
from ono99tui.game.position import position
from ono99tui.game.refusals import refusal
from ono99tui.game.state import MATCH_OVER, State
from ono99tui.game.view import PlayerView


def refusal_for_view(view: PlayerView, move: Move) -> IllegalMove | MalformedMove | None:
    """None if `move` is legal for the viewer now, else the engine's own refusal of it.

    It matches `refusal(state, move)` of the State the view was made from for every move
    of the viewer's seat (tests/game/test_view_refusals.py checks it over random play).
    A spectator's view (seat None) refuses every move.
    """
    if move in view.legal_moves:
        return None
    if view.seat is None:
        return IllegalMove("spectator", "a spectator holds no cards")
    return refusal(_state_as_seen(view), move)


def _state_as_seen(view: PlayerView) -> State:
    """A State agreeing with `view` on everything the refusals read (other hands empty)."""
    seat = view.seat
    assert seat is not None
    hands: list[tuple[Card, ...]] = [() for _ in range(view.seats)]
    hands[seat] = view.hand
    alive = tuple(not out for out in view.eliminated)
    # Not strict: a view from the wire is not checked for equal lengths, and explaining a
    # refusal must never raise.
    in_round = tuple(a and not out for a, out in zip(alive, view.out_of_round, strict=False))
    turn = view.turn if view.turn is not None else 0
    owed = view.obligation_owed or 1
    obligated = view.obligation_seat is not None and view.obligation_seat == turn
    state = position(view.rules, hands, total=view.total, turn=turn, direction=view.direction,
                     owed=owed, obligated=obligated, alive=alive, in_round=in_round,
                     dealer=view.dealer, round_no=view.round_no)
    ono99 = Play(seat, Card.ONO99)
    if (
        turn == seat
        and ono99 not in view.legal_moves
        and ono99 in legal_plays(state.tables, seat, view.hand, view.total, owed, obligated, False)
    ):
        state = state._replace(ono99_this_turn=True)
    return state._replace(
        phase=view.phase,
        turn=-1 if view.phase == MATCH_OVER else turn,
        discarding=-1 if view.discarding is None else view.discarding,
        pending_draw=-1 if view.pending_draw is None else view.pending_draw,
    )
