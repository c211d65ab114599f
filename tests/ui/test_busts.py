"""Busts as the player sees them: their own bust held on screen until a key (or the next
deal), the round-end dialog saying who busted and what it cost, and 1980's tokens (0 is a
last life, not "out")."""

from __future__ import annotations

import re

from table_helpers import (
    LocalMatch,
    RecordingApp,
    lobby_for,
    open_local,
    wait_until,
)

from ono99tui.game import (
    DISCARDING,
    MATCH_OVER,
    Busted,
    Card,
    Eliminated,
    RoundEnded,
    legal_moves,
    position,
    preset,
)
from ono99tui.ui.screens.bust import BustScreen
from ono99tui.ui.screens.results import MatchEndScreen, RoundEndScreen
from ono99tui.ui.screens.table import TableScreen
from ono99tui.ui.widgets.seats import SeatLine

C = Card


def bust_on_bobs_play() -> LocalMatch:
    """RULES.md example 2's bust: cy plays 2 onto 90, and ana, holding {ONO 99, 7, 9, 10}
    at 92, has no legal card: the table busts her without her pressing anything."""
    state = position(preset("2022"), [[C.ONO99, C.SEVEN, C.NINE, C.TEN], [C.THREE] * 4, [C.TWO] * 4],
                     total=90, turn=2)
    return LocalMatch.at(state)


def dialog_text(app) -> str:
    return "\n".join(str(s.content) for s in app.screen.query("Static"))


async def test_your_own_bust_is_held_until_you_press_a_key() -> None:
    match = bust_on_bobs_play()
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(3, bots=(1, 2)))
        assert isinstance(app.screen, TableScreen)
        match.step()  # cy plays 2: ana busts at 92 at once
        assert any(isinstance(e, Busted) and e.seat == 0 for e in match.pending)
        await match.show(app, pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, BustScreen))
        text = dialog_text(app)
        assert "You busted at 92 — no card fits under 99" in text
        assert "You held: ONO 99, 7, 9, 10" in text
        assert "You are out of the match." in text
        for _ in range(3):  # the bots play on; the banner stays
            match.step()
            await match.show(app, pilot)
            assert isinstance(app.screen, BustScreen)
        await pilot.press("1")
        assert isinstance(app.screen, TableScreen)
        assert app.sent == []  # the key only closed the banner


async def test_others_busting_raise_no_banner() -> None:
    state = position(preset("2022"), [[C.TWO] * 4, [C.ONO99, C.SEVEN, C.NINE, C.TEN], [C.THREE] * 4],
                     total=90, turn=0)
    match = LocalMatch.at(state)
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(3, bots=(1, 2)))
        match.step()  # ana plays 2: bob busts
        assert any(isinstance(e, Busted) and e.seat == 1 for e in match.pending)
        await match.show(app, pilot)
        assert any("bob BUSTED" in line for line in app.log_lines)
        assert isinstance(app.screen, TableScreen)


async def test_a_points_bust_banner_closes_when_the_next_round_is_dealt() -> None:
    rules = preset("1980").replace(scoring="points-elimination")
    match = LocalMatch(rules, 3, seed=2)
    match.run_until(lambda state: state.phase == DISCARDING)
    match.me = match.state.discarding
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(3))
        await wait_until(pilot, lambda: isinstance(app.screen, BustScreen))
        assert "Choose a card to discard." in dialog_text(app)
        round_no = match.state.round_no
        while match.state.round_no == round_no:
            match.step(lambda state, seat: match.rng.choice(legal_moves(state, seat)))
        await match.show(app, pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, RoundEndScreen))
        assert not any(isinstance(screen, BustScreen) for screen in app.screen_stack)
        assert "You busted at" in dialog_text(app)  # the round-end dialog says it again


async def test_the_tokens_round_end_dialog_says_who_busted_and_what_it_cost() -> None:
    match = LocalMatch(preset("1980"), 3, seed=6)
    match.run_until(lambda state: state.round_no == 2)
    buster = next(e.seat for e in match.pending if isinstance(e, Busted))
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(3))
        await wait_until(pilot, lambda: isinstance(app.screen, RoundEndScreen))
        text = dialog_text(app)
        who = "You" if buster == 0 else ["ana", "bob", "cy"][buster]
        assert f"{who} busted at" in text and "lost a token (2 left)" in text



async def test_your_bust_that_ends_the_round_shows_your_hand_in_its_dialog() -> None:
    # 1980 tokens: ana holds only cards over the limit at 92 when bob's play comes to her.
    state = position(preset("1980"), [[C.NINE, C.EIGHT, C.TEN, C.SEVEN], [C.TWO, C.THREE, C.FOUR, C.FIVE]],
                     total=90, turn=1)
    match = LocalMatch.at(state)
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(2, bots=(1,)))
        # bob plays 2: ana busts, loses a token, a new round is dealt
        match.step(lambda state, seat: next(m for m in legal_moves(state, seat) if m.card is C.TWO))
        assert any(isinstance(e, RoundEnded) for e in match.pending)
        await match.show(app, pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, RoundEndScreen))
        text = dialog_text(app)
        assert "You busted at 92 and lost a token (2 left)" in text
        assert "You held: 9, 8, 10, 7" in text
        assert not any(isinstance(screen, BustScreen) for screen in app.screen_stack)


async def test_1980_tokens_zero_is_a_last_life_and_out_is_out() -> None:
    match = LocalMatch(preset("1980"), 3, seed=3)
    match.run_until(lambda state: any(isinstance(e, Eliminated) for e in match.pending)
                    or state.phase == MATCH_OVER)
    out = next(e.seat for e in match.pending if isinstance(e, Eliminated))
    app = RecordingApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_local(app, pilot, match, lobby_for(3))
        await wait_until(pilot, lambda: isinstance(app.screen, RoundEndScreen))
        text = dialog_text(app)
        name = ["ana", "bob", "cy"][out]
        who = "You" if out == 0 else name
        assert f"{who} busted at" in text and "out of the match" in text
        assert re.search(rf"{name}\s+out$", text, re.MULTILINE)
        for seat, tokens in enumerate(match.state.tokens):
            if match.state.alive[seat] and tokens == 0:
                assert re.search(rf"{['ana', 'bob', 'cy'][seat]}\s+0 \(last life\)", text)
        lines = {line.info.name: line.render().plain for line in app.screen_stack[1].query(SeatLine)}
        assert "✗out" in lines[name] and "●" not in lines[name]
        for seat, tokens in enumerate(match.state.tokens):
            if match.state.alive[seat]:
                # Spent tokens are drawn hollow: 0 tokens reads ○○○, never an empty space.
                assert lines[["ana", "bob", "cy"][seat]].count("○") == 3 - tokens


async def test_the_match_end_rounds_table_marks_who_was_out() -> None:
    match = LocalMatch(preset("1980"), 3, seed=3)
    app = RecordingApp()
    async with app.run_test(size=(100, 40)) as pilot:
        await open_local(app, pilot, match, lobby_for(3))
        while match.state.phase != MATCH_OVER:  # one view per round end, as the table sends
            match.step(lambda state, seat: match.rng.choice(legal_moves(state, seat)))
            if any(isinstance(e, (RoundEnded, Eliminated)) for e in match.pending):
                await match.show(app, pilot)
        await match.show(app, pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, MatchEndScreen))
        rounds = str(app.screen.query_one("#rounds Static").content).splitlines()
        first_out = app.session.story.out_order[0]
        assert rounds[-1].split()[1 + first_out] == "out"
        winner = match.state.winners[0]
        assert rounds[-1].split()[1 + winner] != "out"


async def test_the_end_of_the_match_closes_the_banner_for_its_own_dialog() -> None:
    match = bust_on_bobs_play()
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(3, bots=(1, 2)))
        match.step()
        await match.show(app, pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, BustScreen))
        while match.state.phase != MATCH_OVER:
            match.step(lambda state, seat: match.rng.choice(legal_moves(state, seat)))
            await match.show(app, pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, MatchEndScreen))
        assert not any(isinstance(screen, BustScreen) for screen in app.screen_stack)
