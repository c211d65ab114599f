"""Match play over rounds: tokens, points scoring, the buster's discard, late draws, reshuffles."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ono99tui.game import (
    Card,
    Discard,
    Discarded,
    Draw,
    Drew,
    Eliminated,
    IllegalMove,
    MatchEnded,
    MissedDraw,
    OutOfRound,
    Play,
    Reshuffled,
    RoundDealt,
    RoundEnded,
    TokenLost,
    acting_seats,
    apply,
    deck,
    hand_points,
    legal_moves,
    position,
    preset,
    round_points,
)

C = Card
R1980 = preset("1980")


def rng() -> random.Random:
    return random.Random(0)


def test_hand_points_table() -> None:
    assert [hand_points(Card(v)) for v in range(11)] == list(range(11))
    assert hand_points(C.ONO99) == 20
    assert {hand_points(c) for c in (C.HOLD, C.REVERSE, C.MINUS_TEN, C.PLAY2)} == {15}


def test_rules_md_scoring_example() -> None:
    # ONO 99 + Double Play + 4 + 5 = 20 + 15 + 9 = 44
    assert round_points((C.ONO99, C.PLAY2, C.FOUR, C.FIVE), busted=False) == 44
    assert round_points((C.ONO99, C.PLAY2, C.FOUR, C.FIVE), busted=True) == 69
    # 15 per card missing below four (late-draw penalty)
    assert round_points((C.FOUR, C.FIVE, C.SIX), busted=False) == 30


def test_tokens_new_round_is_dealt_by_the_seat_before_the_buster() -> None:
    hands = [[C.HOLD, C.TWO, C.TWO, C.TWO], [C.FOUR, C.FIVE, C.SIX, C.SEVEN], [C.THREE] * 3]
    state = position(R1980, hands, total=95)
    after, events = apply(state, Play(0, C.HOLD), rng())
    assert TokenLost(1, 2) in events
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.tokens == (3, 2, 3) and ended.round_no == 1
    dealt = next(e for e in events if isinstance(e, RoundDealt))
    assert (dealt.round_no, dealt.dealer, dealt.starter) == (2, 0, 1)
    assert dealt.hand_sizes == (4, 4, 4)
    assert Counter(after.draw_cards) + Counter(c for h in after.hands for c in h) == Counter(
        deck(R1980)
    )


def _points_state(scoring: str, scores=(0, 0), hand1=(C.FOUR, C.FIVE, C.SIX, C.SEVEN)):
    rules = R1980.replace(scoring=scoring, target=100)
    hands = [[C.HOLD, C.TWO, C.THREE, C.THREE], list(hand1)]
    # Seat 0 draws the 9 after its Hold; seat 1 draws the 2 after its discard.
    return position(rules, hands, total=95, draw_pile=[C.NINE, C.TWO, C.THREE], scores=list(scores))


def test_points_buster_sits_out_discards_and_draws_back() -> None:
    state, events = apply(_points_state("points-elimination"), Play(0, C.HOLD), rng())
    assert OutOfRound(1) in events
    assert state.phase == "discarding" and acting_seats(state) == (1,)
    assert {m.card for m in legal_moves(state, 1)} == {C.FOUR, C.FIVE, C.SIX, C.SEVEN}
    assert legal_moves(state, 0) == ()
    state, events = apply(state, Discard(1, C.SEVEN), rng())
    assert events[0] == Discarded(1, C.SEVEN)
    assert Drew(1, 1) in events
    ended = next(e for e in events if isinstance(e, RoundEnded))
    # Seat 0 holds 2, 3, 3, 9 = 17; seat 1 holds 4, 5, 6, 2 = 17, +25 for busting.
    assert ended.points == (17, 42)
    assert ended.scores == (17, 42)
    dealt = next(e for e in events if isinstance(e, RoundDealt))
    # The last dealer was seat 1; the next round is dealt by the seat to its left.
    assert (dealt.dealer, dealt.starter) == (0, 1)
    assert state.scores == (17, 42) and state.round_no == 2


def test_points_buster_with_four_ono99_discards_nothing() -> None:
    _state, events = apply(
        _points_state("points-elimination", hand1=[C.ONO99] * 4), Play(0, C.HOLD), rng()
    )
    assert not any(isinstance(e, Discarded) for e in events)
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.points == (17, 80 + 25)


def test_points_elimination_last_one_left_wins() -> None:
    state, _ = apply(_points_state("points-elimination", scores=(50, 70)), Play(0, C.HOLD), rng())
    state, events = apply(state, Discard(1, C.SEVEN), rng())
    assert Eliminated(1, None) in events
    assert events[-1] == MatchEnded((0,))
    assert state.phase == "match_over" and state.scores == (67, 112)


def test_points_elimination_everyone_over_the_target_lowest_wins() -> None:
    state, _ = apply(_points_state("points-elimination", scores=(90, 70)), Play(0, C.HOLD), rng())
    state, events = apply(state, Discard(1, C.SEVEN), rng())
    assert events[-1] == MatchEnded((0,))
    assert state.scores == (107, 112)


@pytest.mark.parametrize(
    ("scores", "winners"),
    [((80, 80), (0,)), ((90, 65), (0, 1)), ((10, 10), None)],
)
def test_points_lowest_ends_when_anyone_reaches_the_target(scores, winners) -> None:
    state, _ = apply(_points_state("points-lowest", scores=scores), Play(0, C.HOLD), rng())
    state, events = apply(state, Discard(1, C.SEVEN), rng())
    if winners is None:
        assert state.phase == "playing" and state.round_no == 2
    else:
        assert events[-1] == MatchEnded(winners)  # a tie shares the win


def test_points_round_goes_on_without_the_buster() -> None:
    rules = R1980.replace(scoring="points-lowest")
    hands = [[C.HOLD, C.TWO, C.TWO, C.TWO], [C.FOUR, C.FIVE, C.SIX, C.SEVEN], [C.MINUS_TEN] * 4]
    state = position(rules, hands, total=95)
    state, _ = apply(state, Play(0, C.HOLD), rng())
    state, _ = apply(state, Discard(1, C.FOUR), rng())
    assert state.phase == "playing" and state.turn == 2
    state, _ = apply(state, Play(2, C.MINUS_TEN), rng())
    assert state.turn == 0  # seat 1 sits out the rest of the round
    state, _ = apply(state, Play(0, C.TWO), rng())
    assert state.turn == 2


LATE = R1980.replace(late_draw_penalty=True)


def _late_state():
    hands = [[C.TWO, C.THREE, C.FOUR, C.FIVE], [C.SIX, C.SEVEN, C.EIGHT, C.NINE], [C.TEN] * 4]
    state, events = apply(position(LATE, hands, total=10), Play(0, C.TWO), rng())
    assert not any(isinstance(e, Drew) for e in events)
    return state


def test_late_draw_both_seats_may_act() -> None:
    state = _late_state()
    assert state.pending_draw == 0
    assert acting_seats(state) == (0, 1)
    assert legal_moves(state, 0) == (Draw(0),)
    state, events = apply(state, Draw(0), rng())
    assert events == (Drew(0, 1),)
    assert len(state.hands[0]) == 4 and acting_seats(state) == (1,)


def test_late_draw_missed_when_the_next_player_plays_first() -> None:
    state = _late_state()
    state, events = apply(state, Play(1, C.SIX), rng())
    assert events[0] == MissedDraw(0)
    assert len(state.hands[0]) == 3  # one card short for the rest of the round
    assert state.pending_draw == 1
    error_state = state
    with pytest.raises(IllegalMove) as caught:
        apply(error_state, Draw(0), rng())
    assert caught.value.code == "nothing_to_draw"


def test_discard_pile_is_reshuffled_when_the_draw_pile_runs_out() -> None:
    rules = preset("2022")
    hands = [[C.ONE, C.TWO, C.TWO, C.TWO], [C.THREE] * 4]
    rest = Counter(deck(rules)) - Counter(c for h in hands for c in h)
    state = position(rules, hands, total=50, draw_pile=[], discard_pile=list(rest.elements()))
    after, events = apply(state, Play(0, C.ONE), rng())
    reshuffled = next(e for e in events if isinstance(e, Reshuffled))
    assert reshuffled.draw_pile_size == sum(rest.values()) + 1  # the card just played too
    assert after.discard_pile == ()
    assert len(after.draw_cards) == sum(rest.values())
    assert after.total == 51 and len(after.hands[0]) == 4


def test_an_empty_draw_pile_reshuffles_even_the_card_just_played() -> None:
    # Hand-made position with no other card outside the hands: the played card is the
    # whole discard pile, so it is reshuffled and drawn straight back.
    state = position(preset("2022"), [[C.ONE, C.TWO], [C.THREE]], total=5, draw_pile=[])
    after, events = apply(state, Play(0, C.ONE), rng())
    assert after.hands[0] == (C.TWO, C.ONE)
    assert Reshuffled(1) in events and Drew(0, 1) in events


def _late_points_state(hand1=(C.FOUR, C.FIVE, C.SIX, C.SEVEN)):
    rules = R1980.replace(scoring="points-elimination", target=100, late_draw_penalty=True)
    hands = [[C.HOLD, C.TWO, C.THREE, C.THREE], list(hand1)]
    return position(rules, hands, total=95, draw_pile=[C.NINE, C.TWO, C.THREE])


def test_late_draw_owed_when_the_next_players_bust_ends_the_round_is_drawn_not_charged() -> None:
    # Seat 0's Hold leaves seat 1 nothing under 99: it busts at once and must discard, and
    # seat 0 may not draw meanwhile. The discard ends the round before anyone *played*, so
    # RULES.md takes no draw away: seat 0 draws its card before the hands are scored.
    state, _ = apply(_late_points_state(), Play(0, C.HOLD), rng())
    assert state.phase == "discarding" and state.pending_draw == 0
    with pytest.raises(IllegalMove):
        apply(state, Draw(0), rng())
    state, events = apply(state, Discard(1, C.SEVEN), rng())
    assert MissedDraw(0) not in events
    assert Drew(1, 1) in events and Drew(0, 1) in events
    ended = next(e for e in events if isinstance(e, RoundEnded))
    # Seat 1 drew the 9 after its discard (4+5+6+9 = 24, +25 for busting); seat 0 then
    # drew the 2 it was owed (2+3+3+2 = 10), not 2+3+3 plus 15 for a missing card.
    assert ended.points == (10, 49)


def test_late_draw_owed_when_a_four_ono99_bust_ends_the_round_is_drawn_not_charged() -> None:
    _state, events = apply(_late_points_state(hand1=[C.ONO99] * 4), Play(0, C.HOLD), rng())
    assert Drew(0, 1) in events and MissedDraw(0) not in events
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.points == (2 + 3 + 3 + 9, 80 + 25)
