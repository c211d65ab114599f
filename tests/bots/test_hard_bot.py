"""The hard bot, its observations, its sampled worlds and the hint API."""

from __future__ import annotations

import copy
import random

import pytest

from ono99tui.bots import HardBot, make_bot
from ono99tui.bots.hints import Advice, NoAdvice, advise
from ono99tui.bots.observed import Observed
from ono99tui.bots.worlds import sample_world
from ono99tui.game import (
    MATCH_OVER,
    PRESET_NAMES,
    Card,
    Play,
    State,
    acting_seats,
    apply,
    deck,
    preset,
    start_match,
    view,
)
from ono99tui.words.hints import reason_text

SMALL_BUDGET_S = 0.002  # a few hundred model plays: enough to search, quick in tests


def _hidden_shuffled(state: State, seat: int, rng: random.Random) -> State:
    """The same match seen from `seat`, every card it cannot see dealt differently: the
    other hands (revealed ones stay) and the draw pile."""
    hidden_seats = [
        s for s in range(state.seats) if s != seat and state.revealed[s] is None
    ]
    cards = [c for s in hidden_seats for c in state.hands[s]] + list(state.draw_cards)
    rng.shuffle(cards)
    hands = list(state.hands)
    at = 0
    for s in hidden_seats:
        size = len(state.hands[s])
        hands[s] = tuple(cards[at : at + size])
        at += size
    return state._replace(hands=tuple(hands), draw_pile=tuple(cards[at:]), draw_index=0)


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_the_hard_bot_plays_the_same_behind_the_same_view_and_events(preset_name) -> None:
    rules = preset(preset_name)
    rng = random.Random(11)
    searched = 0
    for match in range(4):
        players = 2 + match
        state, events = start_match(rules, players, rng)
        bot = HardBot(SMALL_BUDGET_S)
        others = [make_bot("greedy") for _ in range(players)]
        while state.phase != MATCH_OVER and state.round_no <= 2:
            bot.observe(events)
            seat = acting_seats(state)[0]
            if seat == 0 and len(state.legal) > 1:
                twin_state = _hidden_shuffled(state, 0, rng)
                assert twin_state.hands != state.hands or not state.draw_cards
                assert view(twin_state, 0) == view(state, 0)
                twin = copy.deepcopy(bot)
                seed = rng.getrandbits(64)
                first, second = random.Random(seed), random.Random(seed)
                move = bot.choose(view(state, 0), first)
                assert twin.choose(view(twin_state, 0), second) == move
                assert first.getstate() == second.getstate()
                searched += 1
            else:
                move = (bot if seat == 0 else others[seat]).choose(view(state, seat), rng)
            state, events = apply(state, move, rng)
    assert searched > 10


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_observed_knows_the_discard_pile_and_worlds_fit_the_view(preset_name) -> None:
    rules = preset(preset_name).replace(reveal_eliminated=True)
    rng = random.Random(5)
    for players in (2, 4, 7):
        state, events = start_match(rules, players, rng)
        observed = Observed()
        greedy = make_bot("greedy")
        while state.phase != MATCH_OVER:
            observed.observe(events)
            seat = acting_seats(state)[0]
            seen = view(state, seat)
            pile = observed.discard_pile(seen.round_no, seen.discard_pile_size, seen.discard_top)
            assert pile == list(state.discard_pile)
            world = sample_world(seen, observed, rng)
            assert world.hands[seat] == [int(c) for c in state.hands[seat]]
            assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
            assert len(world.pile) == len(state.draw_cards)
            assert world.discard == [int(c) for c in state.discard_pile]
            every = sorted(c for h in world.hands for c in h) + world.pile + world.discard
            assert sorted(every) == sorted(int(c) for c in deck(rules))
            assert (world.total, world.turn, world.owed, world.obligated) == (
                state.total, state.turn, state.owed, state.obligated)
            assert world.obligation_next == state.obligation_next
            assert world.moves == [int(m.card) if type(m) is Play else 16 for m in state.legal]
            state, events = apply(state, greedy.choose(seen, rng), rng)


def test_a_bot_that_missed_the_deal_still_plays_from_the_view() -> None:
    rng = random.Random(2)
    state, _ = start_match(preset("2022"), 3, rng)
    greedy = make_bot("greedy")
    for _ in range(12):
        state, _ = apply(state, greedy.choose(view(state, state.turn), rng), rng)
    bot = HardBot(SMALL_BUDGET_S)  # sat down now: it has observed nothing
    seen = view(state, state.turn)
    assert bot.choose(seen, rng) in seen.legal_moves


def test_advice_covers_every_playable_card_and_is_deterministic() -> None:
    rng = random.Random(8)
    asked = 0
    for _ in range(6):
        state, events = start_match(preset("2022"), 3, rng)
        observed = Observed()
        greedy = make_bot("greedy")
        while state.phase != MATCH_OVER:
            observed.observe(events)
            seat = state.turn
            seen = view(state, seat)
            if len(seen.legal_moves) > 1 and state.total > 70:
                advice = advise(seen, observed, budget_s=0.003, rng=random.Random(asked))
                again = advise(seen, observed, budget_s=0.003, rng=random.Random(asked))
                assert isinstance(advice, Advice) and advice == again
                assert [c.move for c in advice.cards] == list(seen.legal_moves)
                assert advice.suggested in seen.legal_moves
                assert all(0 <= c.win <= 1 and 0 <= c.next_bust <= 1 for c in advice.cards)
                assert advice.reason.move == advice.suggested
                assert "\n" not in reason_text(advice.reason, seen.rules)
                assert advice.measures == "match"
                asked += 1
            state, events = apply(state, greedy.choose(seen, rng), rng)
    assert asked > 5


def test_no_advice_when_it_is_not_your_play() -> None:
    state, _ = start_match(preset("2022"), 3, random.Random(1))
    other = (state.turn + 1) % 3
    with pytest.raises(NoAdvice):
        advise(view(state, other), Observed(), rng=random.Random(0))


def test_the_advice_for_a_lone_card_says_so() -> None:
    from ono99tui.game import position

    state = position(preset("2022"), [[Card.ONO99, Card.ONO99, Card.TEN, Card.ZERO],
                                      [Card.FIVE, Card.SIX, Card.SEVEN, Card.EIGHT]],
                     total=90, turn=0)
    seen = view(state, 0)
    advice = advise(seen, Observed(), budget_s=0.002, rng=random.Random(0))
    assert advice.suggested == Play(0, Card.ZERO)
    assert advice.reason.kind == "only"
    assert "only card" in reason_text(advice.reason, seen.rules)


def test_the_suggestion_is_a_card_with_the_highest_chance_shown() -> None:
    # "Suggested: 10 (21%)" was shown while 6 was listed at 22%: the hard bot keeps
    # greedy's card unless another is clearly better, but a person reads the figures.
    from ono99tui.bots.hints import CardAdvice, Reason, _reason, highest_shown
    from ono99tui.game import position

    state = position(preset("2022"), [[Card.TEN, Card.MINUS_TEN, Card.TWO, Card.ZERO],
                                      [Card.FIVE, Card.SIX, Card.SEVEN, Card.EIGHT]],
                     total=60, turn=0)
    seen = view(state, 0)
    ten = CardAdvice(Play(0, Card.TEN), 0.21, 0.1, 100)
    minus = CardAdvice(Play(0, Card.MINUS_TEN), 0.22, 0.1, 100)
    two = CardAdvice(Play(0, Card.TWO), 0.2149, 0.1, 100)
    assert highest_shown((ten, minus, two), 0) == 1
    # Equal to the eye (21% and 21%): the search's own choice stays.
    assert highest_shown((ten, two), 0) == 0 and highest_shown((two, ten), 1) == 1
    reason = _reason((ten, minus), 1, "ahead", "match")
    assert reason == Reason("ahead", minus.move, 0.22, "match", ten.move, 0.21)
    assert reason_text(reason, seen.rules) == (
        "-10 wins 22% of the time, a little more than 10 (21%): so small a lead may be chance.")
    level = CardAdvice(Play(0, Card.MINUS_TEN), 0.21, 0.1, 100)
    assert _reason((ten, level, two), 1, "ahead", "match").kind == "level"
    assert "either will do" in reason_text(_reason((ten, level, two), 1, "ahead", "match"),
                                           seen.rules)
    assert "clearly more than 10 (21%)" in reason_text(
        _reason((ten, minus), 1, "clearly", "match"), seen.rules)
    # The same reason in Bengali: the card names and the sentence from the catalog.
    from ono99tui.i18n import use_language

    use_language("bn")
    try:
        worded = reason_text(_reason((ten, minus), 1, "clearly", "round"), seen.rules)
    finally:
        use_language("en")
    assert "22%" in worded and "(21%)" in worded and "clearly" not in worded
    assert "রাউন্ড" in worded  # the round, as the Bengali glossary names it


def test_advice_suggests_the_card_it_shows_highest() -> None:
    rng = random.Random(5)
    checked = 0
    for _ in range(8):
        state, events = start_match(preset("2022"), 3, rng)
        observed = Observed()
        greedy = make_bot("greedy")
        while state.phase != MATCH_OVER:
            observed.observe(events)
            seen = view(state, state.turn)
            if len(seen.legal_moves) > 1:
                advice = advise(seen, observed, budget_s=0.002, rng=random.Random(checked))
                shown = {c.move: int(f"{c.win:.0%}"[:-1]) for c in advice.cards}
                assert shown[advice.suggested] == max(shown.values()), advice
                checked += 1
            state, events = apply(state, greedy.choose(seen, rng), rng)
    assert checked > 20


def test_what_a_greedy_player_cannot_have_kept() -> None:
    from ono99tui.bots.playout import table_for
    from ono99tui.bots.worlds import kept_bans

    t = table_for(preset("2022"))
    # A 4 at 80: no 5 to 10 (each would have fitted and greedy plays the biggest).
    assert kept_bans(t, Card.FOUR, 80, False) == frozenset(range(5, 11))
    # A -10 at 85: no number fitted, and no Play 2 (greedy ranks it above -10).
    assert kept_bans(t, Card.MINUS_TEN, 85, False) == frozenset([*range(11), int(Card.PLAY2)])
    # A 5 as the first of two owed cards at 50: no answer, no bigger number.
    assert kept_bans(t, Card.FIVE, 50, True) == frozenset(
        [6, 7, 8, 9, 10, int(Card.REVERSE), int(Card.PLAY2)])
    # An answer says nothing: greedy answers whatever else it holds.
    assert kept_bans(t, Card.REVERSE, 50, True) == frozenset()


def test_sampled_hands_respect_what_greedy_players_showed() -> None:
    from ono99tui.bots.worlds import WorldSampler

    rng = random.Random(4)
    checked = 0
    for _ in range(10):
        state, events = start_match(preset("2022"), 4, rng)
        observed = Observed()
        greedy = make_bot("greedy")
        while state.phase != MATCH_OVER:
            observed.observe(events)
            seat = state.turn
            seen = view(state, seat)
            sampler = WorldSampler(seen, observed)
            for _ in range(3):
                world = sampler.sample(rng)
                for other, banned in enumerate(sampler.bans):
                    if banned:
                        # The real hand obeys the bans (greedy played it), so must a world's.
                        assert sum(c in banned for c in map(int, state.hands[other])) <= 1
                        assert sum(c in banned for c in world.hands[other]) <= 1
                        # Kept through its last two plays: all but the two cards drawn since.
                        old = sampler.old_bans[other]
                        assert sum(c in old for c in map(int, state.hands[other])) <= 2
                        assert sum(c in old for c in world.hands[other]) <= 2
                        checked += 1
                every = sorted(c for h in world.hands for c in h) + world.pile + world.discard
                assert sorted(every) == sorted(int(c) for c in deck(preset("2022")))
            state, events = apply(state, greedy.choose(seen, rng), rng)
    assert checked > 100
