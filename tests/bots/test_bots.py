"""Bots: legal moves only, through views only, and greedy beats random."""

from __future__ import annotations

import random

import pytest

from ono99tui.bots import (
    BOT_NAMES,
    LEVEL_NAMES,
    EasyBot,
    GreedyBot,
    UnknownBot,
    bot_kind,
    bot_kind_of,
    make_bot,
)
from ono99tui.bots.arena import play_matches
from ono99tui.bots.easy import SLIP_CHANCE
from ono99tui.game import (
    MATCH_OVER,
    PRESET_NAMES,
    Card,
    Discard,
    Draw,
    Play,
    SwapFour,
    acting_seats,
    apply,
    new_match,
    position,
    preset,
    view,
)
from ono99tui.game.codec import view_from_wire, view_to_wire

C = Card


def test_bot_names_and_unknown_bot() -> None:
    assert set(BOT_NAMES) == {"easy", "normal", "hard", "random", "greedy"}
    assert LEVEL_NAMES == ("easy", "normal", "hard")
    assert BOT_NAMES[: len(LEVEL_NAMES)] == LEVEL_NAMES  # levels first: what people pick
    for name in BOT_NAMES:
        bot = make_bot(name)
        assert bot.name == bot_kind_of(name) == bot_kind(bot)
    assert isinstance(make_bot("normal"), GreedyBot) and bot_kind_of("normal") == "greedy"
    assert isinstance(make_bot("easy"), EasyBot)
    for bad in ("minimax", "", "Normal"):
        with pytest.raises(UnknownBot) as caught:
            make_bot(bad)
        assert "easy" in str(caught.value) and "greedy" in str(caught.value)


def test_the_easy_bot_plays_greedy_s_card_unless_it_slips() -> None:
    # Many legal cards and no draw: each choice is greedy's, or (a slip) another card.
    state = position(preset("2022"), [[C.NINE, C.TWO, C.REVERSE, C.TEN], [C.ONE] * 4], total=50)
    seen = view(state, 0)
    best = GreedyBot().choose(seen, random.Random(0))
    rng = random.Random(5)
    choices = [EasyBot().choose(seen, rng) for _ in range(2000)]
    assert all(move in seen.legal_moves for move in choices)
    slips = sum(move != best for move in choices) / len(choices)
    assert abs(slips - SLIP_CHANCE) < 0.05
    assert {move for move in choices if move != best} == set(seen.legal_moves) - {best}


def test_the_easy_bot_never_slips_on_a_draw_or_a_swap() -> None:
    state = position(preset("2022"), [[C.ONO99] * 4, [C.ONE] * 4])
    rng = random.Random(1)
    assert {EasyBot().choose(view(state, 0), rng) for _ in range(200)} == {SwapFour(0)}


def test_easy_loses_to_normal_and_beats_random_heads_up() -> None:
    # The level a person can feel: measured (not timed) on a fixed seed, both seat orders.
    rules = preset("2022")
    easy_first = play_matches(rules, 2, 600, 11, ("easy", "normal")).win_rates["easy"]
    easy_second = play_matches(rules, 2, 600, 12, ("normal", "easy")).win_rates["easy"]
    assert (easy_first + easy_second) / 2 <= 0.40
    assert play_matches(rules, 2, 600, 13, ("easy", "random")).win_rates["easy"] > 0.5


@pytest.mark.parametrize("name", BOT_NAMES)
@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_bots_choose_legal_moves_from_a_view_that_crossed_the_wire(name, preset_name) -> None:
    # The bot gets only a view rebuilt from its wire form: nothing else reaches it.
    rules = preset(preset_name).replace(late_draw_penalty=True, scoring="points-lowest")
    rng = random.Random(3)
    bot = make_bot(name)
    for _ in range(3):
        state = new_match(rules, 4, rng)
        while state.phase != MATCH_OVER:
            seat = acting_seats(state)[0]
            seen = view_from_wire(view_to_wire(view(state, seat)))
            move = bot.choose(seen, rng)
            assert move in seen.legal_moves
            state, _ = apply(state, move, rng)


def _greedy_choice(state, seat=0):
    return GreedyBot().choose(view(state, seat), random.Random(0))


def test_greedy_answers_play2_when_obligated() -> None:
    state = position(preset("2022"), [[C.NINE, C.TWO, C.REVERSE, C.TEN], [C.ONE] * 4], owed=2)
    assert _greedy_choice(state) == Play(0, C.REVERSE)


def test_greedy_sheds_the_biggest_fitting_number_and_keeps_answers() -> None:
    state = position(preset("2022"), [[C.NINE, C.TWO, C.REVERSE, C.TEN], [C.ONE] * 4], total=85)
    assert _greedy_choice(state) == Play(0, C.TEN)  # 95 still fits: shed the 10
    state = position(preset("2022"), [[C.NINE, C.TWO, C.REVERSE, C.MINUS_TEN], [C.ONE] * 4], total=97)
    assert _greedy_choice(state) == Play(0, C.MINUS_TEN)  # no number fits; keep the Reverse


def test_greedy_swaps_four_ono99_and_draws_at_once() -> None:
    state = position(preset("2022"), [[C.ONO99] * 4, [C.ONE] * 4])
    assert _greedy_choice(state) == SwapFour(0)
    late = preset("1980").replace(late_draw_penalty=True)
    # Seat 0 played the first of two owed cards: it may draw or play its second card.
    state = position(
        late, [[C.TWO, C.THREE, C.FIVE], [C.FOUR] * 3], obligated=True, pending_draw=0
    )
    assert len(view(state, 0).legal_moves) == 4
    assert _greedy_choice(state, 0) == Draw(0)


def test_greedy_discards_its_most_expensive_card() -> None:
    rules = preset("1980").replace(scoring="points-lowest")
    hands = [[C.HOLD, C.TWO, C.TWO, C.TWO], [C.FOUR, C.ONO99, C.SIX, C.SEVEN], [C.TEN]]
    state, _ = apply(position(rules, hands, total=95), Play(0, C.HOLD), random.Random(0))
    assert state.discarding == 1  # seat 1 busted at 95 and must discard now
    assert _greedy_choice(state, 1) == Discard(1, C.ONO99)


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_greedy_beats_random(preset_name) -> None:
    result = play_matches(preset(preset_name), 4, 60, 99, ("greedy", "random"))
    # Greedy holds half the seats; it must win clearly more than half the matches.
    assert result.seat_shares["greedy"] == 0.5
    assert result.win_rates["greedy"] > 0.6, result.win_rates
    assert sum(result.wins.values()) == pytest.approx(60)
