"""The table screen with engine-made positions: what it shows and what each key sends."""

from __future__ import annotations

import pytest
from table_helpers import (
    LocalMatch,
    RecordingApp,
    first_playable,
    hand,
    lobby_for,
    open_local,
    record_notices,
    screen_text,
    wait_until,
)
from table_items import lobby_updated, view_updated

from ono99tui.game import (
    DISCARDING,
    MATCH_OVER,
    Card,
    Discard,
    Draw,
    Eliminated,
    Play,
    RoundEnded,
    SwapFour,
    TimedOut,
    legal_moves,
    position,
    preset,
)
from ono99tui.ui.screens.bust import BustScreen
from ono99tui.ui.screens.confirm_quit import ConfirmQuitScreen
from ono99tui.ui.screens.help import HelpScreen
from ono99tui.ui.screens.results import MatchEndScreen, RoundEndScreen
from ono99tui.ui.screens.table import TableScreen
from ono99tui.ui.widgets.log import EventLog
from ono99tui.ui.widgets.seats import SeatLine
from ono99tui.ui.widgets.total import TotalPanel

C = Card


def example_2() -> LocalMatch:
    """RULES.md example 2: 2022, total 92, hand {ONO 99, 0, 7, Reverse}."""
    state = position(preset("2022"), [[C.ONO99, C.ZERO, C.SEVEN, C.REVERSE], [C.FIVE] * 4], total=92)
    return LocalMatch.at(state)


async def test_unplayable_cards_look_different_and_say_why() -> None:
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, example_2(), lobby_for(2))
        cards = hand(app).cards
        assert [card.has_class("-unplayable") for card in cards] == [True, False, True, False]
        await pilot.press("right")  # from the 0 (focused first, being playable) to the 7
        assert cards[2].has_focus
        hint = str(app.screen.query_one("#hand-hint").content)
        assert hint == "3: 7 cannot be played: 7 would make the total 99"
        await pilot.press("1")
        assert "the ONO 99 card can never be played" in str(app.screen.query_one("#hand-hint").content)
        assert app.sent == []  # an unplayable card is never sent
        await pilot.press("2")
        assert app.sent == [Play(0, C.ZERO)]


async def test_a_click_plays_the_card() -> None:
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, example_2(), lobby_for(2))
        await pilot.click(hand(app).cards[3])
        assert app.sent == [Play(0, C.REVERSE)]


async def test_swap_key_sends_the_four_ono99_swap_only_when_allowed() -> None:
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        match = example_2()
        await open_local(app, pilot, match, lobby_for(2))
        assert app.screen.check_action("swap", ()) is None  # shown, greyed out
        await pilot.press("s")
        assert app.sent == []
        match.state = position(preset("2022"), [[C.ONO99] * 4, [C.FIVE] * 4], total=40)
        await match.show(app, pilot)
        assert all(card.has_class("-unplayable") for card in hand(app).cards)
        assert "press s to swap them" in str(app.screen.query_one("#prompt").content)
        await pilot.press("s")
        assert app.sent == [SwapFour(0)]


async def test_late_draw_key_appears_with_the_rule_and_sends_the_draw() -> None:
    rules = preset("1980").replace(late_draw_penalty=True)
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        match = LocalMatch(rules, 3, seed=4)
        match.run_until(lambda state: state.turn == 0)
        match.step()  # seat 0 plays and now owes a draw
        assert match.state.pending_draw == 0
        await open_local(app, pilot, match, lobby_for(3))
        assert app.screen.check_action("draw", ()) is True
        assert "Press d to draw" in str(app.screen.query_one("#prompt").content)
        await pilot.press("d")
        assert app.sent == [Draw(0)]


async def test_draw_key_is_hidden_without_the_late_draw_rule() -> None:
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, example_2(), lobby_for(2))
        assert app.screen.check_action("draw", ()) is False


async def test_points_buster_chooses_a_discard() -> None:
    rules = preset("1980").replace(scoring="points-elimination")
    match = LocalMatch(rules, 3, seed=2)
    match.run_until(lambda state: state.phase == DISCARDING)
    match.me = match.state.discarding
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(3))
        await wait_until(pilot, lambda: isinstance(app.screen, BustScreen))
        await pilot.press("space")  # the bust banner is held until a key (tests/ui/test_busts.py)
        prompt = str(app.screen.query_one("#prompt").content)
        assert prompt.startswith("You busted: choose a card to discard")
        index = first_playable(app)
        assert index is not None
        await pilot.press(str(index + 1))
        assert app.sent == [Discard(match.me, match.state.hands[match.me][index])]
        assert " discards " in str(app.screen.query_one("#hand-hint").content)
        assert "bust" in app.screen.query(SeatLine)[match.me].render().plain


async def test_pending_play_two_is_unmistakable_for_the_one_who_owes_it() -> None:
    state = position(preset("2022"), [[C.ONE] * 4, [C.TWO] * 4, [C.THREE] * 4], total=30, turn=1, owed=2)
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        match = LocalMatch.at(state, me=1)
        await open_local(app, pilot, match, lobby_for(3, you=1))
        line = app.screen.query_one("#obligation")
        assert str(line.content) == "Play 2! YOU owe 2 cards"
        assert line.has_class("-mine") and app.screen.has_class("-owes")
        assert app.screen.query_one("#prompt").has_class("-owes")
        match.me = 0  # the same moment, seen by ana
        await match.show(app, pilot)
        assert str(line.content) == "Play 2: bob owes 2 cards"
        assert not line.has_class("-mine")
        seat_lines = list(app.screen.query(SeatLine))
        assert [seat.info.owes for seat in seat_lines] == [0, 2, 0]
        assert "owes 2" in seat_lines[1].render().plain


async def test_seats_show_turn_bots_absent_spectators_and_eliminations() -> None:
    match = LocalMatch(preset("2022"), 4, seed=9)
    match.run_until(lambda state: not all(state.alive))
    out = match.state.alive.index(False)
    app = RecordingApp()
    notices = record_notices(app)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_local(app, pilot, match, lobby_for(4, bots=(2,), away=(3,), spectators=2))
        lines = [line.render().plain for line in app.screen.query(SeatLine)]
        assert "(you)" in lines[0]
        assert "⚙" in lines[2]
        assert "away" in lines[3]
        assert "out" in lines[out]
        turn = match.state.turn
        assert lines[turn].startswith("▶")
        assert "2 watching" in screen_text(app)
        assert any(f"{('You are' if out == 0 else ['ana', 'bob', 'cy', 'dee'][out] + ' is')} out of the match" in n
                   for n in notices)
        assert any("is out of the match" in line for line in app.log_lines)


async def test_the_turn_clock_counts_down_on_the_seat_to_play_and_warns_at_ten_seconds() -> None:
    match = LocalMatch(preset("2022"), 3, seed=9)
    me = match.me = match.state.turn
    app = RecordingApp()
    notices = record_notices(app)
    now = [1000.0]  # the app's clock, moved by the test: the countdown never races real time
    app.clock = lambda: now[0]
    async with app.run_test(size=(100, 30)) as pilot:
        app.post_message(lobby_updated(lobby_for(3, you=me)))
        # The table said 12.6 s were left when it sent the view.
        app.post_message(view_updated(1, match.view(), match.pending,
                                     (me, now[0] + 12.6), now=now[0]))
        await wait_until(pilot, lambda: app.session.view is not None and app._table_screen() is not None)

        def line(seat: int) -> str:
            return str(app.screen.query(SeatLine)[seat].render().plain)

        await wait_until(pilot, lambda: line(me).rstrip().endswith(" 13s"))
        assert all(not line(seat).rstrip().endswith("s") for seat in range(3) if seat != me)
        # No new view: the app counts down by itself.
        now[0] += 1.0
        await wait_until(pilot, lambda: line(me).rstrip().endswith(" 12s"))
        assert not [n for n in notices if "seconds left" in n]
        # At ten seconds or fewer on the player's own turn: one warning, not one per tick.
        app.post_message(view_updated(2, match.view(), (), (me, now[0] + 10.4), now=now[0]))
        await wait_until(pilot, lambda: line(me).rstrip().endswith(" 11s"))
        assert not [n for n in notices if "seconds left" in n]
        now[0] += 0.5  # 9.9 s left: shown as 10
        await wait_until(pilot, lambda: any("seconds left" in n for n in notices))
        await wait_until(pilot, lambda: line(me).rstrip().endswith(" 10s"))
        assert len([n for n in notices if "seconds left" in n]) == 1
        # A view without a clock (the turn moved to a bot, say): no seconds on any seat.
        app.post_message(view_updated(3, match.view(), ()))
        await wait_until(pilot, lambda: not line(me).rstrip().endswith("s"))
        # The time ran out: the player is told, and so is the log.
        app.post_message(view_updated(4, match.view(), (TimedOut(me, 2),)))
        await wait_until(pilot, lambda: any("Your time ran out (2 in a row)" in n
                                            for n in notices))
        assert any("ran out of time (2 in a row)" in entry for entry in app.log_lines)


async def test_total_direction_limit_and_log() -> None:
    match = LocalMatch(preset("2022"), 3, seed=1)
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(3))
        for _ in range(6):
            match.step()
        await match.show(app, pilot)
        total = match.state.total
        panel = app.screen.query_one(TotalPanel)
        assert panel.query_one("#total-big").value == str(total)
        assert str(panel.query_one("#limit").content) == "you may go up to 98"
        direction = panel.query_one("#direction").render().plain
        assert direction == ("↻ clockwise" if match.state.direction > 0 else "↺ counter-clockwise")
        played = [line for line in app.log_lines if " played " in line]
        assert len(played) == 6
        assert played[-1].endswith(f"→ {total}")
        shown = app.screen.query_one(EventLog).lines
        assert any(line.startswith(played[-1][:20]) for line in shown)


async def test_the_log_follows_its_newest_line() -> None:
    match = LocalMatch(preset("2022"), 3, seed=1)
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(3))
        for _ in range(25):
            match.step()
            await match.show(app, pilot)
        log = app.screen.query_one(EventLog)
        assert log.line_count > log.size.height  # more than the log has rows for
        screen = screen_text(app)
        assert log.lines[-1].strip() in screen  # the newest line is on screen...
        assert log.lines[0].strip() not in screen  # ...and the oldest has scrolled away


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (79, 23), (60, 18), (40, 12), (20, 6), (8, 3)])
async def test_any_size_and_resizing_never_crash(size: tuple[int, int]) -> None:
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, example_2(), lobby_for(2))
        await pilot.resize_terminal(*size)
        await pilot.pause()
        screen = app.screen
        # 80 to 99 columns: wide; from 100: roomy (the seats and log widen).
        assert screen.has_class("-wide") == (80 <= size[0] < 100)
        assert screen.has_class("-roomy") == (100 <= size[0] < 160)
        assert screen.has_class("-short") == (size[1] < 24)
        screen_text(app)  # renders every widget at this size
        await pilot.resize_terminal(80, 24)
        await pilot.press("2")
        assert app.sent == [Play(0, C.ZERO)]


async def test_compact_layout_keeps_total_and_cards_on_one_line() -> None:
    app = RecordingApp()
    async with app.run_test(size=(60, 18)) as pilot:
        await open_local(app, pilot, example_2(), lobby_for(2))
        text = screen_text(app)
        assert "Total 92" in text
        assert "1 ⊘ ✖ 99" in text and "2 # 0" in text
        assert not app.screen.query_one("#log-pane").display


async def test_ascii_mode_from_the_locale_and_the_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "C")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_CTYPE", raising=False)
    app = RecordingApp(ascii_glyphs=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, example_2(), lobby_for(2))
        assert app.glyphs.ascii
        await pilot.pause()
        assert screen_text(app).isascii()  # borders, footer and all
        cards = "\n".join(card.render().plain for card in hand(app).cards)
        assert cards.isascii() and " _ " in cards
        seats = "\n".join(line.render().plain for line in app.screen.query(SeatLine))
        assert seats.isascii() and seats.startswith(">")
        for key in ("question_mark", "q"):  # the help page and the quit dialog too
            await pilot.press(key)
            await pilot.pause()
            assert not isinstance(app.screen, TableScreen) and screen_text(app).isascii()
            await pilot.press("escape")
        await pilot.press("f2")
        assert not app.glyphs.ascii
        assert "▶" in app.screen.query(SeatLine).first().render().plain
        assert "✖" in hand(app).cards[0].render().plain


async def test_help_screen_shows_the_tables_rules() -> None:
    state = position(preset("1980-set99"), [[C.TWO] * 3 + [C.HOLD], [C.FIVE] * 3 + [C.SIX]], total=40)
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, LocalMatch.at(state), lobby_for(2))
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = "\n".join(str(s.content) for s in app.screen.query(".help-text, .help-heading"))
        assert "Rules: 1980-set99" in text
        assert "sets the total to exactly 99" in text
        assert "Double Play" in text and "Hold" in text
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)


async def test_quitting_mid_game_asks_first() -> None:
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, example_2(), lobby_for(2))
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmQuitScreen)
        await pilot.press("n")
        assert isinstance(app.screen, TableScreen)
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, ConfirmQuitScreen)
        await pilot.press("y")
        await pilot.pause()
    assert app.return_code == 0 and not app.is_running


async def test_round_end_screen_after_a_tokens_round() -> None:
    match = LocalMatch(preset("1980"), 3, seed=6)
    match.run_until(lambda state: state.round_no == 2)
    assert any(isinstance(event, RoundEnded) for event in match.pending)
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(3))
        await wait_until(pilot, lambda: isinstance(app.screen, RoundEndScreen))
        text = "\n".join(str(s.content) for s in app.screen.query(".results-table, .results-title"))
        assert "Round 1 is over" in text
        assert "Tokens" in text and "ana" in text
        await pilot.press("enter")
        assert isinstance(app.screen, TableScreen)


async def test_match_end_screen_standings_and_rematch_request() -> None:
    match = LocalMatch(preset("2022"), 3, seed=8)
    match.run_until(lambda state: state.phase == MATCH_OVER)
    out = [e.seat for e in match.pending if isinstance(e, Eliminated)]
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(3))
        await wait_until(pilot, lambda: isinstance(app.screen, MatchEndScreen))
        standings = str(app.screen.query_one("#standings").content).splitlines()
        names = ["ana", "bob", "cy"]
        winner = match.state.winners[0]
        assert standings[0] == f"1. {names[winner]}"
        assert standings[1:] == [f"{place}. {names[seat]}" for place, seat in enumerate(reversed(out), 2)]
        assert app.session.in_game is False
        await pilot.press("q")  # the match is over: no question asked
        await pilot.pause()
    assert not app.is_running


async def test_spectator_view_has_no_hand_and_says_watching() -> None:
    match = LocalMatch(preset("2022"), 3, seed=1)
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        from ono99tui.game import spectator_view

        app.post_message(lobby_updated(lobby_for(3, spectators=1)))
        app.post_message(view_updated(1, spectator_view(match.state), match.pending))
        await wait_until(pilot, lambda: app.session.view is not None)
        assert hand(app).cards == []
        assert str(app.screen.query_one("#prompt").content).startswith("Watching:")
        assert app.screen.check_action("choose", (0,)) is False
        await pilot.pause()
        assert "1-4" not in screen_text(app).splitlines()[-1]  # the Footer offers no play
        assert "Swap" not in screen_text(app).splitlines()[-1]  # ... nor a swap
        assert app.screen.check_action("swap", ()) is False
        assert app.session.in_game is False
        assert not any(line.info.is_you for line in app.screen.query(SeatLine))


def test_legal_moves_match_playable_cards_on_many_positions() -> None:
    """Every card the engine allows is playable on screen and every other one has a reason."""
    from ono99tui.ui.present import card_slots

    for seed in range(20):
        match = LocalMatch(preset("2022" if seed % 2 else "1980"), 3, seed=seed)
        for _ in range(30):
            if match.state.phase == MATCH_OVER:
                break
            seat = match.state.turn
            match.me = seat
            view = match.view()
            allowed = {m.card for m in legal_moves(match.state, seat) if isinstance(m, Play)}
            for card, slot in zip(view.hand, card_slots(view), strict=True):
                assert slot.playable == (card in allowed)
                assert slot.playable or slot.reason
            match.step(lambda state, s, match=match: match.rng.choice(legal_moves(state, s)))


async def test_command_palette_switches_glyphs_and_themes() -> None:
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, example_2(), lobby_for(2))
        await pilot.press("ctrl+p", *"ASCII glyphs")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.glyphs.ascii and isinstance(app.screen, TableScreen))
        await pilot.press("ctrl+p", *"theme")
        await pilot.pause(0.3)
        await pilot.press("enter")  # "Theme": a second palette lists the themes
        await pilot.pause(0.3)
        await pilot.press(*"nord")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.theme == "nord" and isinstance(app.screen, TableScreen))
        await pilot.press("2")
        assert app.sent == [Play(0, C.ZERO)]


@pytest.mark.parametrize("built", [False, True], ids=["closed-while-building", "closed-after-building"])
async def test_updates_after_the_table_screen_closed_are_harmless(built: bool) -> None:
    from ono99tui.ui.app import Ono99App

    app = Ono99App(ascii_glyphs=False, sixteen_colours=False)
    match = LocalMatch(preset("2022"), 3, seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        closed = TableScreen()
        await app.push_screen(closed)
        if built:
            await pilot.pause()
            assert closed.query_one(EventLog) is not None
        app.pop_screen()  # before its first refresh, when not built
        await pilot.pause()
        await open_local(app, pilot, match, lobby_for(3))
        match.step()
        await match.show(app, pilot)
        closed.add_log_lines(["a late line"])
        await pilot.pause()
        assert app.is_running and app._exception is None
        assert app.screen is not closed and isinstance(app.screen, TableScreen)


async def test_an_emoji_name_keeps_the_card_count_on_its_seat_row() -> None:
    """Names are cut by terminal cells: "🎲" takes two cells, and counting it as one
    character pushed the card count and the marks off the row."""
    from dataclasses import replace

    from rich.cells import cell_len

    lobby = lobby_for(2, bots=(1,))
    emoji = replace(lobby.seats[1], name="🎲🎲🎲🎲🎲🎲Zoë🎲🎲🎲🎲🎲🎲")
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, example_2(), replace(lobby, seats=(lobby.seats[0], emoji)))
        line = app.screen.query(SeatLine)[1]
        text = line.render().plain
        assert cell_len(text) <= line.content_size.width
        assert text.endswith("4c ⚙")
        assert "4c ⚙" in screen_text(app)


@pytest.mark.parametrize("size", [(60, 18), (61, 19), (66, 20)])
async def test_compact_layout_keeps_a_gap_between_the_seats_and_the_total(
        size: tuple[int, int]) -> None:
    # Played in tmux at 61x19 (1980, five seats): "▶ Jo (you)  4c ●●● owes 2you may go up
    # to 98, and below" — with no borders there, the seat lines ran into the limit line.
    match = LocalMatch(preset("1980"), 5, seed=3)
    app = RecordingApp()
    async with app.run_test(size=size) as pilot:
        await open_local(app, pilot, match, lobby_for(5, bots=(1, 2)))
        await pilot.pause()
        seats = app.screen.query_one("#seats-pane").content_region
        center = app.screen.query_one("#center").content_region
        assert seats.right < center.x, (seats, center)


@pytest.mark.parametrize(("size", "rows"), [
    ((61, 19), ["you may go up to 98,", "and below 0"]),
    ((80, 24), ["you may go up to 98,", "and below 0"]),
    ((120, 36), ["you may go up to 98, and below 0"]),
])
async def test_the_limit_line_breaks_between_its_phrases(
        size: tuple[int, int], rows: list[str]) -> None:
    # Played at 61x19 (1980): "you may go up to 98, and below" over a lone "0".
    match = LocalMatch(preset("1980"), 3, seed=3)
    app = RecordingApp()
    async with app.run_test(size=size) as pilot:
        await open_local(app, pilot, match, lobby_for(3, bots=(1, 2)))
        await pilot.pause()
        box = app.screen.query_one("#limit").content_region
        shown = screen_text(app).splitlines()[box.y:box.bottom]
        assert [row[box.x:box.right].strip() for row in shown] == rows


async def test_a_player_out_of_the_match_is_offered_no_play_keys() -> None:
    # Played in tmux (1980, five seats): Ivo, out with no cards, watched ten more rounds
    # with "1-4 Play" in his Footer; pressing them only said the card could not be played.
    from ono99tui.game import view as view_of

    match = LocalMatch(preset("1980").replace(tokens=1), 4, seed=2)
    match.run_until(lambda state: view_of(state, 0).eliminated[0]
                    and state.phase != MATCH_OVER)
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(4, bots=(1, 2, 3)))
        while not isinstance(app.screen, TableScreen):  # the round's dialog, the bust
            await pilot.press("enter")
        await pilot.pause()
        assert app.screen.check_action("choose", (0,)) is False
        assert "1-4" not in screen_text(app).splitlines()[-1]
        assert "Chat" in screen_text(app).splitlines()[-1] or not app.session.may_chat


async def test_a_player_out_of_the_match_is_offered_no_hint() -> None:
    # Played in tmux (solo, 1980): out with no cards, the Footer still offered "h Hint".
    from dataclasses import replace

    from ono99tui.game import view as view_of

    match = LocalMatch(preset("1980").replace(tokens=1), 4, seed=2)
    match.run_until(lambda state: view_of(state, 0).eliminated[0]
                    and state.phase != MATCH_OVER)
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = lobby_for(4, bots=(1, 2, 3))
        await open_local(app, pilot, match, replace(lobby, options={"hints": True}))
        while not isinstance(app.screen, TableScreen):
            await pilot.press("enter")
        await pilot.pause()
        assert app.session.hints_allowed
        assert app.screen.check_action("hint", ()) is False
        assert "Hint" not in screen_text(app).splitlines()[-1]


def owing(owed: int, *, swap: bool = False) -> LocalMatch:
    """ana owes `owed` cards of a Double Play (1980); holding four ONO 99 when `swap`, of a
    Play 2 (2022, where she may swap them)."""
    mine = [C.ONO99] * 4 if swap else [C.ONO99, C.SEVEN, C.PLAY2, C.MINUS_TEN]
    hands = [mine, [C.TWO] * 3 + [C.FOUR], [C.THREE] * 3 + [C.FIVE]]
    rules = preset("2022" if swap else "1980")
    return LocalMatch.at(position(rules, hands, total=60, owed=owed, obligated=True))


@pytest.mark.parametrize("size", [(80, 24), (61, 19), (40, 12)])
@pytest.mark.parametrize(("owed", "swap"), [(2, False), (1, False), (2, True)])
async def test_the_double_play_prompt_keeps_its_keys_in_sight(
        size: tuple[int, int], owed: int, swap: bool) -> None:
    # Played at 61x19: "Double Play! You owe 2 cards: play the first (1-4," and the rest
    # of the line, the keys, cut off at the edge.
    from rich.cells import cell_len

    app = RecordingApp()
    async with app.run_test(size=size) as pilot:
        await open_local(app, pilot, owing(owed, swap=swap), lobby_for(3, bots=(1, 2)))
        await pilot.pause()
        line = app.screen.query_one("#prompt")
        text = str(line.content)
        assert "You owe" in text and text.endswith(".")
        # Four ONO 99 (swap): the swap is the only move, so no play keys are offered.
        assert ("1-4" in text) != swap and ("s to swap" in text) == swap
        assert cell_len(text) <= line.content_size.width
        row = screen_text(app).splitlines()[line.region.y]
        assert row.strip() == text


async def test_the_prompt_chooses_its_form_again_when_the_terminal_is_resized() -> None:
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, owing(2), lobby_for(3, bots=(1, 2)))
        line = app.screen.query_one("#prompt")
        assert str(line.content).endswith("(1-4, arrows+Enter).")
        await pilot.resize_terminal(40, 12)
        await wait_until(pilot, lambda: str(line.content) == "Double Play! You owe 2 cards: play 1-4.")
        await pilot.resize_terminal(80, 24)
        await wait_until(pilot, lambda: str(line.content).endswith("(1-4, arrows+Enter)."))


@pytest.mark.parametrize("size", [(80, 24), (61, 19)])
@pytest.mark.parametrize("me", [0, 1])
async def test_a_long_name_gives_way_to_the_cards_owed_on_its_seat_row(
        size: tuple[int, int], me: int) -> None:
    """A name of 24 characters (the longest a table allows), away, five tokens, owing a
    Double Play: the name is cut with an ellipsis, and "owes 2" stays on the row."""
    from dataclasses import replace

    from rich.cells import cell_len

    long_name = "Bartholomew-Featherstone"
    rules = preset("1980").replace(tokens=5)
    hands = [[C.ONO99, C.SEVEN, C.PLAY2, C.MINUS_TEN], [C.TWO] * 3 + [C.FOUR],
             [C.THREE] * 3 + [C.FIVE]]
    match = LocalMatch.at(position(rules, hands, total=60, turn=1, owed=2), me=me)
    lobby = lobby_for(3, you=me, bots=(2,), away=(1,) if me == 0 else ())
    seats = (lobby.seats[0], replace(lobby.seats[1], name=long_name), lobby.seats[2])
    app = RecordingApp()
    async with app.run_test(size=size) as pilot:
        await open_local(app, pilot, match, replace(lobby, seats=seats))
        await pilot.pause()
        line = app.screen.query(SeatLine)[1]
        text = line.render().plain
        assert cell_len(text) <= line.content_size.width
        assert text.startswith("▶ Bart") and "…" in text and long_name not in text
        assert text.rstrip().endswith(" owes 2"), text
        assert "4c" in text
        row = next(row for row in screen_text(app).splitlines() if "▶ Bart" in row)
        assert "owes 2" in row


async def test_a_cards_tooltip_is_plain_text() -> None:
    """The reason under the mouse is shown as it reads: brackets in it are not markup
    (a "[/]" raised MarkupError when the tooltip showed, "[b]" made bold)."""
    from textual.app import App, ComposeResult
    from textual.widgets._tooltip import Tooltip

    from ono99tui.ui.widgets.cards import CardFace, CardSlot, HandView

    reason = "not now: [b]7[/b] [/] needs a [hold]"

    class Hand(App[None]):
        TOOLTIP_DELAY = 3600.0  # the test shows it itself (no waiting on the clock)

        def compose(self) -> ComposeResult:
            yield HandView()

    app = Hand()
    async with app.run_test(size=(80, 12), tooltips=True) as pilot:
        face = CardFace("number", "7", "7", "+7", "7")
        app.query_one(HandView).show([CardSlot(face, False, reason)])
        await pilot.pause()
        card = app.query_one(HandView).cards[0]
        await pilot.hover(card)
        app.screen._handle_tooltip_timer(card)  # what the tooltip timer does when it fires
        await pilot.pause()
        tooltip = app.screen.query_one(Tooltip)
        assert tooltip.display
        assert app.is_running and app._exception is None
        assert reason in str(tooltip.render())


async def test_the_terminal_cursor_follows_the_focused_card() -> None:
    # A braille display follows the terminal's cursor: it must sit on the card the keys
    # act on, and move with the focus.
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, example_2(), lobby_for(2))
        cards = hand(app).cards
        await pilot.pause()
        focused = next(card for card in cards if card.has_focus)
        assert app.cursor_position == focused.content_region.offset
        await pilot.press("right")
        await pilot.pause()
        moved = next(card for card in cards if card.has_focus)
        assert moved is not focused
        assert app.cursor_position == moved.content_region.offset
        assert app.cursor_position != focused.content_region.offset
