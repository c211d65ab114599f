"""The coach's review (`bots/review.py`): its figures against a large-sample reference at
fixed seeds, determinism, never for a match still being played, never from hidden cards;
the client's record of the player's own plays (`client/review_plays.py`) against the
journal's; the review's sentences (`words/review.py`)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from ono99tui.bots import make_bot
from ono99tui.bots.hints import CardAdvice
from ono99tui.bots.review import (
    Decision,
    MatchNotOver,
    Review,
    ReviewedPlay,
    decisions_in_replay,
    review_decision,
    review_decisions,
)
from ono99tui.client.review_plays import PlaysSeen
from ono99tui.game import (
    MATCH_OVER,
    Card,
    Event,
    Play,
    RoundDealt,
    State,
    acting_seats,
    apply,
    legal_moves,
    position,
    preset,
    start_match,
    view,
)
from ono99tui.game.codec import move_to_wire
from ono99tui.words.review import listed, play_sentence, review_lines

SMALL_BUDGET_S = 0.01  # ~4,000 model plays a position: quick in tests


@dataclass(frozen=True)
class Step:
    """A replayed step, as `host.journal.history.ReplayStep` has it."""

    number: int
    seat: int | None
    move: dict[str, Any] | None
    events: tuple[Event, ...]
    state: State


def greedy_match(rules_name: str, seats: int, seed: int) -> list[Step]:
    """A whole match of greedy bots, step by step as a journal's replay gives it."""
    rng = random.Random(seed)
    greedy = make_bot("greedy")
    state, events = start_match(preset(rules_name), seats, rng)
    steps = [Step(0, None, None, events, state)]
    while state.phase != MATCH_OVER:
        seat = acting_seats(state)[0]
        move = greedy.choose(view(state, seat), rng)
        state, events = apply(state, move, rng)
        steps.append(Step(len(steps), seat, move_to_wire(move), events, state))
    return steps


def test_the_review_agrees_with_a_large_sample_reference() -> None:
    # As the hint figures are checked (docs/BOTS.md, "Hints"): the budgeted chances against
    # 1,500 deals of the same search. A card's chance from ~100 deals has a standard error of
    # 3-5 points; the cost, a paired difference, less.
    steps = greedy_match("2022", 3, seed=21)
    decisions = [d for d in decisions_in_replay(steps, 0)
                 if len(set(d.view.legal_moves)) > 1][:4]
    assert len(decisions) == 4
    errors, cost_errors = [], []
    for number, decision in enumerate(decisions):
        fast = review_decision(decision, number, budget_s=0.05, seed=3)
        reference = review_decision(decision, number, worlds=1500, seed=4)
        assert fast is not None and reference is not None
        assert [c.move for c in fast.cards] == [c.move for c in reference.cards]
        errors += [abs(a.win - b.win) for a, b in zip(fast.cards, reference.cards, strict=True)]
        reference_played = reference.played.win
        fast_best = next(c for c in reference.cards if c.move == fast.best).win
        # What the fast review says the choice cost, against what the reference says the
        # same two cards differ by.
        cost_errors.append(abs(fast.cost - (fast_best - reference_played)))
    assert sum(errors) / len(errors) < 0.04, errors
    assert max(errors) < 0.12, errors
    assert max(cost_errors) < 0.08, cost_errors


def test_the_review_is_deterministic_and_the_same_in_parts() -> None:
    steps = greedy_match("2022", 4, seed=7)
    decisions = decisions_in_replay(steps, 2)
    whole = review_decisions(decisions, budget_s=SMALL_BUDGET_S, seed=5)
    again = review_decisions(decisions, budget_s=SMALL_BUDGET_S, seed=5)
    assert whole == again
    assert whole.seat == 2 and whole.plays
    assert len(whole.plays) + whole.skipped == len(decisions)
    # Each play has its own generator: one reviewed alone has the same figures.
    play = whole.plays[-1]
    alone = review_decision(decisions[play.number], play.number, budget_s=SMALL_BUDGET_S,
                            seed=5)
    assert alone == play
    costs = [p.cost for p in whole.costliest()]
    assert costs == sorted(costs, reverse=True) and all(cost > 0 for cost in costs)
    for reviewed in whole.plays:
        assert reviewed.move in reviewed.view.legal_moves
        assert reviewed.cost == pytest.approx(reviewed.best_card.win - reviewed.played.win)
        assert reviewed.best_card.win == max(c.win for c in reviewed.cards)


@pytest.mark.parametrize("rules_name", ["1980", "1980-set99"])
def test_the_round_based_modes_are_reviewed_too(rules_name: str) -> None:
    steps = greedy_match(rules_name, 3, seed=2)
    review = review_decisions(decisions_in_replay(steps, 1)[:6], budget_s=0.003, seed=1)
    assert review.plays
    assert {p.measures for p in review.plays} == {
        "round" if preset(rules_name).scoring == "tokens" else "points"}


def test_no_review_of_a_match_still_being_played() -> None:
    steps = greedy_match("2022", 3, seed=9)
    with pytest.raises(MatchNotOver):
        decisions_in_replay(steps[:-1], 0)
    with pytest.raises(ValueError):
        decisions_in_replay(steps, 3)
    # The client's record of the player's plays gives nothing until the match has ended.
    seen = PlaysSeen()
    deal: list[Event] = []
    for step in steps[:-1]:
        deal = feed(seen, step, 0, deal)
        with pytest.raises(MatchNotOver):
            seen.decisions()
        assert not seen.match_over
    feed(seen, steps[-1], 0, deal)
    assert seen.match_over and seen.decisions()


def feed(seen: PlaysSeen, step: Step, seat: int, deal: list[Event]) -> list[Event]:
    """One step as the seat's program takes it in: its events, then the seat's view."""
    for event in step.events:
        if type(event) is RoundDealt:
            deal = []
        deal.append(event)
    seen.take(step.events, view(step.state, seat), deal)
    return deal


@pytest.mark.parametrize(("rules_name", "seed"), [("2022", 3), ("1980", 4), ("1980-set99", 5)])
def test_the_clients_record_of_its_plays_is_the_journals(rules_name: str, seed: int) -> None:
    steps = greedy_match(rules_name, 4, seed)
    for seat in range(4):
        seen = PlaysSeen()
        deal: list[Event] = []
        for step in steps:
            deal = feed(seen, step, seat, deal)
        assert seen.decisions() == decisions_in_replay(steps, seat)
        assert seen.seat == seat


def _twin(state: State, seat: int, hands: dict[int, tuple[Card, ...]]) -> State:
    """The same position with other seats' hidden cards swapped with the draw pile's."""
    new_hands = list(state.hands)
    pile = list(state.draw_cards)
    for other, hand in hands.items():
        assert other != seat
        pool = list(new_hands[other]) + pile
        for card in hand:
            pool.remove(card)
        new_hands[other] = hand
        pile = pool
    return state._replace(hands=tuple(new_hands), draw_pile=tuple(pile), draw_index=0)


def test_the_review_never_sees_other_hands() -> None:
    rules = preset("2022")
    # ana at 94 holds a 4 and a -10. bob holds only numbers 5 and up: after ana's 4 (98)
    # whatever bob plays busts him, and ana wins the match outright. Knowing bob's hand,
    # the 4 is worth a sure win; from ana's own view, bob may hold an answer.
    state = position(rules, [[Card.FOUR, Card.MINUS_TEN, Card.EIGHT, Card.NINE],
                             [Card.FIVE, Card.SIX, Card.SEVEN, Card.EIGHT]], total=94, turn=0)
    after, _ = apply(state, Play(0, Card.FOUR), random.Random(0))
    assert all(apply(after, move, random.Random(0))[0].phase == MATCH_OVER
               for move in legal_moves(after, 1))  # a sure win for ana, with bob's cards
    # The same position, bob holding answers instead (0, -10, Reverse, Play 2).
    answers = _twin(state, 0, {1: (Card.ZERO, Card.MINUS_TEN, Card.REVERSE, Card.PLAY2)})
    assert view(answers, 0) == view(state, 0) and answers.hands[1] != state.hands[1]
    decision = Decision(view(state, 0), (), Play(0, Card.MINUS_TEN))
    twin_decision = Decision(view(answers, 0), (), Play(0, Card.MINUS_TEN))
    reviewed = review_decision(decision, 0, worlds=400, seed=1)
    twin = review_decision(twin_decision, 0, worlds=400, seed=1)
    assert reviewed is not None and reviewed == twin  # bob's cards change nothing
    four = next(c for c in reviewed.cards if c.move == Play(0, Card.FOUR))
    # Not the sure win that knowing bob's hand would make it.
    assert four.win < 0.95
    # A journal holds every hand, but its decisions are the seat's views: the same as what
    # the seat's own program was sent (test_the_clients_record_of_its_plays_is_the_journals).


def _play(total: int, hand: tuple[Card, ...], played: Card, better: Card, win_played: float,
          win_better: float, measures: str = "match") -> ReviewedPlay:
    state = position(preset("2022"), [list(hand), [Card.FIVE, Card.SIX, Card.SEVEN,
                                                    Card.EIGHT]], total=total, turn=0)
    seen = view(state, 0)
    cards = tuple(CardAdvice(Play(0, card), win_better if card == better else
                             win_played if card == played else 0.2, 0.1, 100)
                  for card in dict.fromkeys(hand))
    return ReviewedPlay(0, seen, Play(0, played), cards, Play(0, better),
                        win_better - win_played, measures)


def test_the_sentences_say_the_cost_as_the_issue_asks() -> None:
    play = _play(84, (Card.TEN, Card.SEVEN, Card.TWO, Card.MINUS_TEN), Card.TEN, Card.SEVEN,
                 0.38, 0.50)
    # Percentage points of chance, said so: "12 points" read like a points match's score.
    assert play_sentence(play) == ("At 84 you played 10; 7 kept you 12 percentage points more "
                                   "likely to win.")
    one = _play(84, (Card.TEN, Card.SEVEN, Card.TWO, Card.MINUS_TEN), Card.TEN, Card.SEVEN,
                0.38, 0.39, "round")
    assert play_sentence(one) == ("At 84 you played 10; 7 kept you 1 percentage point more "
                                  "likely to get through the round.")
    tiny = _play(50, (Card.TEN, Card.SEVEN, Card.TWO, Card.MINUS_TEN), Card.TEN, Card.SEVEN,
                 0.381, 0.384)
    review = Review(0, (one, play, tiny), skipped=2)
    assert listed(review) == [play, one]  # costliest first; under a point left out
    lines = review_lines(review)
    assert lines[0] == ("Of your 3 plays with a choice, 2 cost you a percentage point or more; "
                        "the costliest first.")
    assert lines[1].startswith("At 84 you played 10; 7 kept you 12 percentage points")
    assert "Round 1, total 84 of 99; you held 10, 7, 2, -10." in lines[1]
    assert "Chances: 10 38%, 7 50%, 2 20%, -10 20%." in lines[1]
    assert review_lines(Review(0, (tiny,), 0)) == [
        "Of your 1 play with a choice, none cost you a percentage point: well played."]


def test_the_review_in_a_child_process_gives_the_same_figures(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from ono99tui.bots.review_apart import ReviewFailed, review_apart

    decisions = decisions_in_replay(greedy_match("2022", 3, seed=12), 1)[:5]
    told: list[tuple[int, int]] = []
    apart = review_apart(decisions, budget_s=SMALL_BUDGET_S, seed=2,
                         progress=lambda done, of: told.append((done, of)))
    assert apart == review_decisions(decisions, budget_s=SMALL_BUDGET_S, seed=2)
    assert told == [(done, 5) for done in range(1, 6)]
    # Stopped after the first play: that one is kept, the child is let go.
    first: list[int] = []
    stopped = review_apart(decisions, budget_s=0.2, seed=2,
                           progress=lambda done, of: first.append(done),
                           cancelled=lambda: bool(first))
    assert first == [1] and len(stopped.plays) + stopped.skipped == 1
    # A child that ends without a review is said to have failed.
    monkeypatch.setattr("sys.executable", "/bin/false")
    with pytest.raises(ReviewFailed, match="status 1"):
        review_apart(decisions, budget_s=SMALL_BUDGET_S)
