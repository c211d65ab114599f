"""The finishing order of a match that is over: who came first, second, … (what a rating
is updated from, `ono99tui.host.ratings`).

    ranks = finishing_ranks(state, eliminations)   # 0 for the winners, then 1, 2, …

`eliminations` are the seats eliminated, in the order the match put them out, grouped by
the moment they went (the seats of one group went out together: several points-elimination
players reaching the target in the same round). A player who stayed in longer finished
higher; the winners (one seat, or several for a shared points-lowest win) are first.
Players still in the match at its end who did not win (points-lowest: everyone; a round
where everyone reached the target) come next, by score, lowest first. Seats that went out
together are told apart by score in the points modes (lowest first), else tied. Equal
ranks are ties. Pure: standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ono99tui.game.state import State


class NotFinished(ValueError):
    """The match is not over (or the eliminations given do not fit it)."""


def finishing_ranks(state: State,
                    eliminations: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Each seat's place, from 0 (the winners); equal places are ties (see the module
    docstring). NotFinished if the match is not over, or `eliminations` names a seat
    twice, a winner, or a seat out of range."""
    if not state.winners:
        raise NotFinished("the match is not over: it has no winners yet")
    seats = state.seats
    points = state.rules.scoring.counts_points
    went_out: dict[int, int] = {}
    for moment, group in enumerate(eliminations):
        for seat in group:
            if not 0 <= seat < seats or seat in went_out or seat in state.winners:
                raise NotFinished(f"seat {seat} cannot have been eliminated in this match")
            went_out[seat] = moment
    keys: list[tuple[int, int, int]] = []
    for seat in range(seats):
        score = state.scores[seat] if points else 0
        if seat in state.winners:
            keys.append((0, 0, 0))
        elif seat not in went_out:
            keys.append((1, 0, score))
        else:
            keys.append((2, -went_out[seat], score))
    order = sorted(set(keys))
    return tuple(order.index(key) for key in keys)


def elimination_groups(events: Iterable[tuple[str, int | None]]) -> list[list[int]]:
    """Group a match's eliminations from its events told in order, each as (its kind, its
    `seat` or None): wire maps and engine events both name their kind. Eliminations with
    no other event between them went out together (a `resigned` event is passed over: its
    `eliminated` follows it)."""
    groups: list[list[int]] = []
    together = False
    for kind, seat in events:
        if kind == "resigned":
            continue
        if kind != "eliminated" or seat is None:
            together = False
            continue
        if together:
            groups[-1].append(seat)
        else:
            groups.append([seat])
            together = True
    return groups
