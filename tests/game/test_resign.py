"""Resigning: a seat leaves the match for good (RULES.md §3, "Resign"), worked by hand."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ono99tui.game import (
    CannotResign,
    Card,
    Discard,
    Discarded,
    Eliminated,
    MalformedMove,
    MatchEnded,
    ObligationCleared,
    Play,
    Resigned,
    RoundDealt,
    RoundEnded,
    acting_seats,
    apply,
    deck,
    legal_moves,
    position,
    preset,
    resign,
    view,
)
from ono99tui.game.codec import event_from_wire, event_to_wire

C = Card
R2022 = preset("2022")
R1980 = preset("1980")


def rng() -> random.Random:
    return random.Random(0)


def all_cards(state) -> Counter:
    return Counter(list(state.draw_cards) + list(state.discard_pile) + [c for h in state.hands for c in h])


HANDS3 = [[C.ONE, C.TWO, C.THREE, C.FOUR], [C.FIVE, C.SIX, C.SEVEN, C.EIGHT], [C.NINE] * 4]
# The 1980 deck has no 1 and three 9s.
HANDS1980 = [[C.TWO, C.TWO, C.THREE, C.FOUR], [C.FIVE, C.SIX, C.SEVEN, C.EIGHT], [C.TEN] * 4]


def test_resign_on_own_turn_reveals_and_passes_the_turn() -> None:
    state = position(R2022, HANDS3, total=40, turn=1)
    after, events = resign(state, 1, rng())
    held = (C.FIVE, C.SIX, C.SEVEN, C.EIGHT)
    assert events == (Resigned(1), Eliminated(1, held))  # 2022 reveals an eliminated hand
    assert after.alive == (True, False, True) and after.in_round == (True, False, True)
    assert after.turn == 2 and after.total == 40
    assert after.revealed[1] == held
    # The hand stays with the seat, as a bust-eliminated hand does: the deck adds up.
    assert after.hands[1] == held and all_cards(after) == Counter(deck(R2022))
    assert legal_moves(after, 1) == () and acting_seats(after) == (2,)
    assert view(after, 1).eliminated[1] and view(after, 1).legal_moves == ()
    assert state.alive == (True, True, True)  # the given state is untouched


def test_resign_off_turn_leaves_the_turn_where_it_is() -> None:
    state = position(R2022, HANDS3, total=40, turn=0)
    after, events = resign(state, 2, rng())
    assert events == (Resigned(2), Eliminated(2, (C.NINE,) * 4))
    assert after.turn == 0 and legal_moves(after, 0) == legal_moves(state, 0)
    after, _ = apply(after, Play(0, C.ONE), rng())
    assert after.turn == 1
    after, _ = apply(after, Play(1, C.FIVE), rng())
    assert after.turn == 0  # seat 2 is skipped


def test_resign_while_owing_play2_ends_the_obligation() -> None:
    state = position(R2022, HANDS3, total=40, turn=1, owed=2)
    after, events = resign(state, 1, rng())
    assert events[:2] == (Resigned(1), ObligationCleared(1))
    # Like a bust: the next seat plays one card, it does not inherit the two.
    assert (after.turn, after.owed, after.obligated) == (2, 1, False)


def test_resign_after_the_first_of_two_owed_cards_ends_the_obligation() -> None:
    state = position(R2022, HANDS3, total=40, turn=1, owed=2)
    state, _ = apply(state, Play(1, C.FIVE), rng())
    assert (state.turn, state.owed) == (1, 1)
    after, events = resign(state, 1, rng())
    assert ObligationCleared(1) in events
    assert (after.turn, after.owed, after.obligated) == (2, 1, False)


def test_resign_with_two_seats_left_ends_the_match() -> None:
    state = position(R2022, HANDS3, total=40, turn=0, alive=(True, True, False))
    after, events = resign(state, 0, rng())
    assert events[-1] == MatchEnded((1,))
    assert after.phase == "match_over" and after.winners == (1,) and after.turn == -1
    assert acting_seats(after) == () and legal_moves(after, 1) == ()


def test_resign_in_tokens_mode_leaves_the_match_not_just_the_round() -> None:
    state = position(R1980, HANDS1980, total=40, turn=1, tokens=(3, 3, 3))
    after, events = resign(state, 1, rng())
    assert events == (Resigned(1), Eliminated(1, None))  # 1980 does not reveal
    assert after.alive == (True, False, True) and after.tokens == (3, 3, 3)
    assert after.round_no == state.round_no and after.turn == 2  # the round goes on
    # With two seats left, the other one resigning ends the match, whatever the tokens.
    after, events = resign(after, 2, rng())
    assert events[-1] == MatchEnded((0,)) and after.winners == (0,)


def test_resigned_seat_gets_no_cards_in_the_next_tokens_round() -> None:
    hands = [[C.TWO] * 3 + [C.THREE], [C.NINE] * 3 + [C.EIGHT], [C.TEN] * 4, [C.FOUR] * 3 + [C.FIVE]]
    state = position(R1980, hands, total=90, turn=0)
    state, _ = resign(state, 2, rng())
    # Seat 0 plays 2 (92); seat 1 holds only 8s and 9s: it busts, loses a token, and the
    # new round is dealt to the three seats still in the match.
    state, events = apply(state, Play(0, C.TWO), rng())
    dealt = next(e for e in events if isinstance(e, RoundDealt))
    assert dealt.hand_sizes == (4, 4, 0, 4) and state.tokens == (3, 2, 3, 3)
    assert state.turn == 1 and state.alive == (True, True, False, True)
    assert all_cards(state) == Counter(deck(R1980))


POINTS = R1980.replace(scoring="points-lowest")
HANDS_POINTS = [[C.HOLD, C.TWO, C.TWO, C.TWO], [C.FOUR, C.FIVE, C.SIX, C.SEVEN], [C.MINUS_TEN] * 4]


def test_points_buster_resigning_before_its_discard_discards_nothing() -> None:
    state = position(POINTS, HANDS_POINTS, total=95)
    state, _ = apply(state, Play(0, C.HOLD), rng())
    assert state.phase == "discarding" and state.discarding == 1
    after, events = resign(state, 1, rng())
    assert not any(isinstance(e, Discarded) for e in events)
    assert after.phase == "playing" and after.discarding == -1 and after.turn == 2
    assert after.alive == (True, False, True)
    assert all_cards(after) == Counter(deck(POINTS))


def test_points_round_left_with_one_seat_is_scored_without_the_resigned_seat() -> None:
    state = position(POINTS, HANDS_POINTS, total=95)
    state, _ = apply(state, Play(0, C.HOLD), rng())
    state, _ = apply(state, Discard(1, C.FOUR), rng())
    assert state.in_round == (True, False, True) and state.turn == 2
    after, events = resign(state, 2, rng())
    ended = next(e for e in events if isinstance(e, RoundEnded))
    # Seat 0: its 2, 2, 2 and the card it drew; seat 1 busted (+25); seat 2 resigned: 0.
    assert ended.points[2] == 0 and ended.points[1] >= 25 and ended.points[0] > 0
    dealt = next(e for e in events if isinstance(e, RoundDealt))
    assert dealt.hand_sizes[2] == 0 and after.round_no == 2
    assert after.alive == (True, True, False) and after.phase == "playing"


def test_points_mode_resign_to_one_seat_ends_the_match_below_the_target() -> None:
    rules = R1980.replace(scoring="points-elimination")
    state = position(rules, HANDS1980, total=40, turn=0, scores=(10, 20, 30),
                     alive=(True, True, False))
    after, events = resign(state, 0, rng())
    assert events[-1] == MatchEnded((1,)) and after.scores == (10, 20, 30)


def test_resign_of_a_seat_owing_its_late_draw_clears_the_draw() -> None:
    rules = R1980.replace(late_draw_penalty=True)
    state = position(rules, HANDS1980, total=40, turn=0)
    state, _ = apply(state, Play(0, C.TWO), rng())
    assert state.pending_draw == 0 and state.turn == 1
    after, _ = resign(state, 0, rng())
    assert after.pending_draw == -1 and acting_seats(after) == (1,)


def test_resign_errors_are_typed_and_change_nothing() -> None:
    state = position(R2022, HANDS3, total=40, turn=0, alive=(True, True, False))
    with pytest.raises(CannotResign) as error:
        resign(state, 2, rng())
    assert error.value.code == "eliminated"
    for bad in (3, -1, "0", None):
        with pytest.raises(MalformedMove):
            resign(state, bad, rng())  # type: ignore[arg-type]
    over, _ = resign(state, 0, rng())
    with pytest.raises(CannotResign) as error:
        resign(over, 1, rng())
    assert error.value.code == "match_over"
    assert state.alive == (True, True, False) and state.phase == "playing"


def test_resigned_event_travels_through_the_codec() -> None:
    assert event_to_wire(Resigned(3)) == {"kind": "resigned", "seat": 3}
    assert event_from_wire({"kind": "resigned", "seat": 3}) == Resigned(3)
    with pytest.raises(ValueError):
        event_from_wire({"kind": "resigned", "seat": "3"})
