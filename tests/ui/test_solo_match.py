"""A whole solo match over a real loopback table, played by key presses only."""

from __future__ import annotations

from dataclasses import replace

from table_helpers import first_playable, solo, start_solo_table, wait_until

from ono99tui.commands.solo import solo_config
from ono99tui.game import MATCH_OVER, preset
from ono99tui.host.server import TableServer
from ono99tui.ui.screens.results import MatchEndScreen, RoundEndScreen
from ono99tui.ui.screens.table import TableScreen


async def play_to_the_end(app, pilot) -> int:
    """Press keys until the match-end screen shows; returns the number of cards played."""
    played = 0
    while not isinstance(app.screen, MatchEndScreen):
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, (MatchEndScreen, RoundEndScreen))
            or (app.session.view is not None and bool(app.session.view.legal_moves) and app.session.connection_state == "connected"),
        )
        if isinstance(app.screen, RoundEndScreen):
            await pilot.press("enter")
            continue
        if isinstance(app.screen, MatchEndScreen):
            break
        index = first_playable(app)
        before = app.session.view_seq
        if index is None:
            await pilot.press("s")  # the only move left with no playable card: swap four ONO 99
        else:
            # Alternate between number keys and arrows + Enter: both must work.
            if played % 2:
                await pilot.press(str(index + 1))
            else:
                # The turn's first playable card gets the focus (a moment after the view).
                cards = app.screen.query("CardWidget")
                await wait_until(pilot, lambda cards=cards: any(card.has_focus for card in cards))
                focused = next(i for i, card in enumerate(cards) if card.has_focus)
                step = "right" if index >= focused else "left"
                for _ in range(abs(index - focused)):
                    await pilot.press(step)
                await pilot.press("enter")
            played += 1
        await wait_until(
            pilot,
            lambda before=before: app.session.view_seq > before or isinstance(app.screen, MatchEndScreen),
        )
    return played


async def test_solo_match_is_played_to_its_end_and_a_rematch_deals_again() -> None:
    async with start_solo_table(bots=2, seed=11) as server:
        app = solo(server, bots=2)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.view is not None)
            assert isinstance(app.screen_stack[1], TableScreen)
            played = await play_to_the_end(app, pilot)
            assert played >= 1
            assert app.session.view.phase == MATCH_OVER
            assert app.session.view.winners
            assert "Match over" in "\n".join(str(s.content) for s in app.screen.query("Static"))
            assert any("played" in line for line in app.log_lines)

            await pilot.press("r")  # rematch: the player sat first, so hosts and starts it
            await wait_until(pilot, lambda: app.session.view.phase != MATCH_OVER)
            await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
            assert app.session.view.round_no == 1
            assert server.table.journal and len(server.table.journal) == 2


async def test_solo_1980_tokens_match_shows_round_ends() -> None:
    # One token each keeps the match short: a bust costs the token, the next one the match.
    config = replace(solo_config(bots=1, rules="1980", seed=3, bot_delay=0.0),
                     rules=preset("1980").replace(tokens=1))
    async with TableServer(config) as server:
        app = solo(server, bots=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.view is not None)
            await play_to_the_end(app, pilot)
            assert len(app.session.story.round_results) >= 2
            assert [r.round_no for r in app.session.story.round_results] == list(range(1, len(app.session.story.round_results) + 1))
            text = "\n".join(str(s.content) for s in app.screen.query("Static"))
            # The per-round table: a header naming the players, then one row per round.
            header = next(line for line in text.splitlines() if line.startswith("Round "))
            assert "ana" in header and "Normal bot" in header  # the default level
