"""Duplicate sets (ono99tui/game/duplicate.py, docs/DUPLICATE.md): the rotation, the fixed
deals of every preset, finishing places and the comparison, with known inputs."""

from __future__ import annotations

import random

import pytest

from ono99tui.bots import make_bot
from ono99tui.game import (
    MATCH_OVER,
    PRESET_NAMES,
    Card,
    RoundDealt,
    State,
    acting_seats,
    apply,
    position,
    preset,
    resign,
    start_match,
    view,
)
from ono99tui.game.duplicate import (
    DuplicateRandom,
    PlaceTracker,
    compare,
    comparison_order,
    finishing_places,
    hand_of,
    match_rng,
    rotation_seating,
)


def test_rotation_seats_every_player_in_every_seat_once() -> None:
    players = ("A", "B", "C", "D")
    seatings = [rotation_seating(players, k) for k in range(4)]
    assert seatings[0] == ("A", "B", "C", "D")
    assert seatings[1] == ("D", "A", "B", "C")
    assert seatings[3] == ("B", "C", "D", "A")
    for seat in range(4):
        assert sorted(seating[seat] for seating in seatings) == list(players)
    for player, name in enumerate(players):
        for k, seating in enumerate(seatings):
            assert seating[hand_of(player, k, 4)] == name


def test_rotation_refuses_a_rotation_the_set_has_not() -> None:
    with pytest.raises(ValueError, match="rotations 0 to 2"):
        rotation_seating(("A", "B", "C"), 3)
    with pytest.raises(ValueError, match="needs players"):
        rotation_seating((), 0)


def _deals(rules_name: str, seed: int, bot_seed: int, players: int = 3) -> tuple[
        list[tuple[int, tuple[tuple[str, ...], ...]]], State]:
    """Play one match of a set with random bots; each round's number and dealt hands."""
    rng = DuplicateRandom(seed)
    bots = [make_bot("random") for _ in range(players)]
    rngs = [random.Random(bot_seed * 10 + seat) for seat in range(players)]
    state, events = start_match(preset(rules_name), players, rng)
    dealt = [(state.round_no, tuple(tuple(c.token for c in h) for h in state.hands))]
    while state.phase != MATCH_OVER:
        seat = acting_seats(state)[0]
        state, events = apply(state, bots[seat].choose(view(state, seat), rngs[seat]), rng)
        if any(type(event) is RoundDealt for event in events) and state.phase != MATCH_OVER:
            dealt.append((state.round_no,
                          tuple(tuple(c.token for c in h) for h in state.hands)))
    return dealt, state


@pytest.mark.parametrize("rules_name", PRESET_NAMES)
def test_every_round_of_a_set_is_dealt_the_same_whatever_was_played(rules_name: str) -> None:
    """Two matches from the set's seed, played differently: the first deal is the same,
    and every later round dealt to the same live seats gets the same cards."""
    first, end_a = _deals(rules_name, 77, 1)
    second, end_b = _deals(rules_name, 77, 2)
    assert first[0] == second[0]
    assert start_match(preset(rules_name), 3, DuplicateRandom(77))[0].dealer == \
        start_match(preset(rules_name), 3, DuplicateRandom(77))[0].dealer
    by_round = dict(second)
    compared = 0
    for round_no, hands in first:
        other = by_round.get(round_no)
        if other is not None and [bool(h) for h in hands] == [bool(h) for h in other]:
            assert hands == other, f"round {round_no}"
            compared += 1
    assert compared >= 1
    # A different seed deals differently, and a plain generator is not a set's.
    assert _deals(rules_name, 78, 1)[0][0] != first[0]
    assert type(match_rng(77)) is random.Random
    assert type(match_rng(77, duplicate=True)) is DuplicateRandom
    assert end_a.phase == end_b.phase == MATCH_OVER


def test_tokens_rounds_are_the_same_deal_in_every_rotation() -> None:
    """1980 (tokens): many rounds; each one dealt to all seats is the same in two
    differently played matches of the set."""
    first, _ = _deals("1980", 5, 1, players=2)
    second, _ = _deals("1980", 5, 3, players=2)
    assert len(first) > 2 and len(second) > 2
    shared = min(len(first), len(second))
    assert first[:shared] == second[:shared]


def test_a_set_match_replays_from_its_seed() -> None:
    dealt, end = _deals("2022", 9, 4)
    again, end_again = _deals("2022", 9, 4)
    assert dealt == again and end.hands == end_again.hands and end.winners == end_again.winners


def test_places_follow_eliminations_and_share_nothing_in_single() -> None:
    state = position(preset("2022"), hands=[[Card.FIVE]] * 4, total=10)
    tracker = PlaceTracker()
    rng = random.Random(1)
    state, events = resign(state, 2, rng)
    tracker.observe(events)
    state, events = resign(state, 0, rng)
    tracker.observe(events)
    state, events = resign(state, 3, rng)
    tracker.observe(events)
    assert state.phase == MATCH_OVER and state.winners == (1,)
    assert tracker.places(state) == (3, 1, 4, 2)


def test_places_in_points_lowest_go_by_score_and_tie() -> None:
    rules = preset("1980").replace(scoring="points-lowest")
    state = position(rules, hands=[[Card.FIVE]] * 3, total=10)
    ended = state._replace(phase=MATCH_OVER, winners=(0, 2), scores=(40, 120, 40))
    assert finishing_places(ended, {}) == (1, 3, 1)


def test_comparison_of_a_known_three_player_set() -> None:
    """A, B, C; rotation 1 seats (C, A, B), rotation 2 (B, C, A)."""
    places = [(1, 2, 3), (2, 1, 3), (3, 2, 1)]
    result = compare(("A", "B", "C"), places)
    by_name = {score.name: score for score in result.scores}
    assert by_name["A"].edges == (1.5, 1.0, 2.0) and by_name["A"].edge == 4.5
    assert by_name["B"].edges == (-1.5, -0.5, -1.0) and by_name["B"].edge == -3.0
    assert by_name["C"].edges == (0.0, -0.5, -1.0) and by_name["C"].edge == -1.5
    assert [score.name for score in result.scores] == ["A", "C", "B"]
    assert result.hands[0].places == (("A", 1), ("C", 2), ("B", 3))
    assert [hand.best for hand in result.hands] == [("A",), ("A",), ("A",)]
    assert result.complete and result.rotations == 3
    assert comparison_order(result) == (("A",), ("C",), ("B",)) == result.order()
    assert by_name["A"].mean_place == pytest.approx(1.0)
    assert sum(score.edge for score in result.scores) == pytest.approx(0.0)


def test_comparison_ties_and_a_partial_set() -> None:
    # Two players; seat 0 wins both rotations, so each won with the same cards: a dead
    # heat. (Rotation 1 seats Y in seat 0.)
    tied = compare(("X", "Y"), [(1, 2), (1, 2)])
    assert tied.order() == (("X", "Y"),)
    assert tied.hands[0].best == ("X", "Y")
    swept = compare(("X", "Y"), [(1, 2), (2, 1)])  # X won with both hands
    assert swept.order() == (("X",), ("Y",)) and swept.scores[0].edge == 2.0
    # After one rotation of two nobody has been compared with anyone yet.
    partial = compare(("X", "Y"), [(1, 2)])
    assert not partial.complete and all(score.edge == 0 for score in partial.scores)


@pytest.mark.parametrize(("players", "places", "message"), [
    (("A",), [(1,)], "two or more"),
    (("A", "A"), [(1, 2)], "distinct"),
    (("A", "B"), [], "1 to 2 rotations"),
    (("A", "B"), [(1, 2)] * 3, "1 to 2 rotations"),
    (("A", "B"), [(1, 3)], "place from 1 to 2"),
    (("A", "B"), [(1,)], "place from 1 to 2"),
])
def test_comparison_refuses_bad_input(players: tuple[str, ...], places: list[tuple[int, ...]],
                                      message: str) -> None:
    with pytest.raises(ValueError, match=message):
        compare(players, places)


def test_a_bust_that_follows_another_in_one_move_went_out_later() -> None:
    """Within one move's events, seat 0 busts and then seat 1 (it could not play either):
    seat 1 stayed longer. Eliminations with nothing between them (points players past the
    target in one round) went out together, told apart by score."""
    from ono99tui.game import Busted, Eliminated, MatchEnded

    state = position(preset("2022"), hands=[[Card.FIVE]] * 3, total=10)
    ended = state._replace(phase=MATCH_OVER, winners=(2,))
    tracker = PlaceTracker()
    tracker.observe([Busted(0, 95), Eliminated(0, None), Busted(1, 95), Eliminated(1, None),
                     MatchEnded((2,))])
    assert tracker.places(ended) == (3, 2, 1)
    points = position(preset("1980").replace(scoring="points-elimination"),
                      hands=[[Card.FIVE]] * 3, total=10)
    together = points._replace(phase=MATCH_OVER, winners=(2,), scores=(130, 110, 40))
    tracker = PlaceTracker()
    tracker.observe([Eliminated(0, None), Eliminated(1, None), MatchEnded((2,))])
    assert tracker.places(together) == (3, 2, 1)  # out together: the lower score is better
    tied = together._replace(scores=(110, 110, 40))
    assert tracker.places(tied) == (2, 2, 1)
