"""A finished match's finishing order (`game.finish`): what a rating is updated from."""

from __future__ import annotations

import random

import pytest

from ono99tui.bots import GreedyBot
from ono99tui.game import MATCH_OVER, acting_seats, apply, preset, start_match, view
from ono99tui.game.finish import NotFinished, elimination_groups, finishing_ranks
from ono99tui.game.rules import Scoring
from ono99tui.game.state import State


def finished(rules_name: str = "2022", seats: int = 4, seed: int = 7,
             **options: object) -> tuple[State, list[tuple[str, int | None]]]:
    """A greedy match played to its end, and its events as (kind, seat)."""
    rules = preset(rules_name)
    if options:
        rules = rules.replace(**options)
    rng = random.Random(seed)
    state, events = start_match(rules, seats, rng)
    told = [(event.kind, getattr(event, "seat", None)) for event in events]
    bot = GreedyBot()
    while state.phase != MATCH_OVER:
        seat = acting_seats(state)[0]
        state, events = apply(state, bot.choose(view(state, seat), rng), rng)
        told += [(event.kind, getattr(event, "seat", None)) for event in events]
    return state, told


def test_in_2022_the_winner_is_first_and_who_went_out_last_is_next() -> None:
    state, told = finished()
    out = [seat for kind, seat in told if kind == "eliminated"]
    assert len(out) == 3 and state.winners not in out
    ranks = finishing_ranks(state, elimination_groups(told))
    (winner,) = state.winners
    assert ranks[winner] == 0
    # The last out is second, the first out last.
    assert [ranks[seat] for seat in reversed(out)] == [1, 2, 3]


def test_points_lowest_ranks_everyone_by_score_lowest_first() -> None:
    state, told = finished(scoring=Scoring.POINTS_LOWEST, seed=3)
    assert not [seat for kind, seat in told if kind == "eliminated"]
    ranks = finishing_ranks(state, elimination_groups(told))
    by_score = sorted(range(state.seats), key=lambda seat: state.scores[seat])
    assert ranks[by_score[0]] == 0
    assert [ranks[seat] for seat in by_score] == sorted(ranks[seat] for seat in by_score)
    for a in range(state.seats):  # equal scores are ties, and only they
        for b in range(state.seats):
            assert (ranks[a] == ranks[b]) == (state.scores[a] == state.scores[b])


def test_seats_out_together_tie_or_go_by_score() -> None:
    state, _ = finished()
    (winner,) = state.winners
    others = [seat for seat in range(4) if seat != winner]
    # Two went out at the same moment, one before them.
    ranks = finishing_ranks(state, [[others[0]], [others[1], others[2]]])
    assert ranks[winner] == 0
    assert ranks[others[1]] == ranks[others[2]] == 1 and ranks[others[0]] == 2
    points = state._replace(rules=state.rules.replace(scoring=Scoring.POINTS_ELIMINATION),
                            scores=tuple(10 * seat for seat in range(4)))
    ranks = finishing_ranks(points, [[others[0]], [others[1], others[2]]])
    assert ranks[others[1]] < ranks[others[2]] < ranks[others[0]]


def test_the_groups_come_from_the_events_in_order() -> None:
    told = [("played", 0), ("busted", 1), ("eliminated", 1), ("round_dealt", None),
            ("resigned", 2), ("eliminated", 2), ("round_ended", None),
            ("eliminated", 0), ("eliminated", 3), ("match_ended", None)]
    assert elimination_groups(told) == [[1], [2], [0, 3]]


def test_a_match_not_over_or_a_wrong_elimination_is_refused() -> None:
    rng = random.Random(1)
    state, _ = start_match(preset("2022"), 3, rng)
    with pytest.raises(NotFinished, match="not over"):
        finishing_ranks(state, [])
    done, _ = finished(seats=3)
    (winner,) = done.winners
    with pytest.raises(NotFinished, match=f"seat {winner}"):
        finishing_ranks(done, [[winner]])
    with pytest.raises(NotFinished, match="seat 5"):
        finishing_ranks(done, [[5]])
