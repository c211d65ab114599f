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


def place_numbers(view: PlayerView, order: Sequence[int]) -> list[int]:
    """The place of each seat of `order` (as `standings` gives it), shared by equals as
    the table rates them: the winners share the first place, and in points-lowest scoring
    equal scores share one ("1, 2, 2, 4"); the places after a shared one are skipped."""
    points = view.rules.scoring == "points-lowest"

    def equal_key(seat: int) -> tuple[int, int]:
        if seat in view.winners:
            return (0, 0)
        return (1, view.scores[seat]) if points else (2, seat)  # else: no two are equal

    places: list[int] = []
    for index, seat in enumerate(order):
        same = index > 0 and equal_key(seat) == equal_key(order[index - 1])
        places.append(places[-1] if same else index + 1)
    return places
