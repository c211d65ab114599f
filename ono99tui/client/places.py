"""The seats of a finished match from first to last place, as every front end shows them
(the terminal's match-over dialog, the phone page's standings).

Pure: no Textual, no sockets, no clock.
"""

from __future__ import annotations

from collections.abc import Sequence

from ono99tui.game import PlayerView


def standings(view: PlayerView, out_order: Sequence[int]) -> list[int]:
    """Seats from first to last place: the winners, then (points-lowest) by score, or those
    still in, then the others from the last to go out to the first (`out_order`: the seats
    in the order this client saw them go out)."""
    scoring = view.rules.scoring
    seats = range(view.seats)
    if scoring == "points-lowest":
        return sorted(seats, key=lambda seat: (seat not in view.winners, view.scores[seat]))
    last_out_first = [s for s in reversed(out_order) if s not in view.winners]
    rest = [seat for seat in seats if seat not in view.winners and seat not in last_out_first]
    # An app that came to the match late (a rejoin, a restarted host) saw only the last
    # eliminations: those out before it was watching went out before all of them.
    unseen_out = [seat for seat in rest if view.eliminated[seat]]
    still_in = [seat for seat in rest if not view.eliminated[seat]]
    return [*view.winners, *still_in, *last_out_first, *unseen_out]
