"""SVG snapshots of what issue 12 added after a match: the matches won across rematches
(on the match-over dialog and on `w` mid-match) and the log after a long match, on its
fresh page for the rematch and scrolled back to the match before. Views come from the
engine with fixed seeds; update with `pytest --snapshot-update` on this file."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from table_helpers import LocalMatch, RecordingApp, lobby_for, open_local, wait_until
from table_items import lobby_updated
from textual.pilot import Pilot

from ono99tui.game import MATCH_OVER, legal_moves, preset, start_match
from ono99tui.ui.requests import TableItem
from ono99tui.ui.screens.results import MatchEndScreen, RoundEndScreen, StandingsScreen


def long_match() -> LocalMatch:
    """1980, three players with two tokens: about 190 moves and 230 log lines."""
    return LocalMatch(preset("1980").replace(tokens=2), 3, seed=5)


async def play_out(pilot: Pilot[Any], match: LocalMatch, chunk: int = 10) -> None:
    """Random legal moves to the end of the match, shown `chunk` moves at a time, each
    round's dialog closed with Enter as a player would."""
    app = pilot.app
    while match.state.phase != MATCH_OVER:
        for _ in range(chunk):
            if match.state.phase == MATCH_OVER:
                break
            match.step(lambda state, seat: match.rng.choice(legal_moves(state, seat)))
        await match.show(app, pilot)
        while isinstance(app.screen, RoundEndScreen):
            await pilot.press("enter")


def won(results: list[int], played: list[int]) -> TableItem:
    """The table's lobby after a match, with the matches won and played so far."""
    return lobby_updated(replace(lobby_for(3, bots=(1, 2)), phase="finished",
                                results={"matches_won": results, "matches_played": played}))


def test_match_over_with_matches_won(snap_compare) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        match = long_match()
        await open_local(pilot.app, pilot, match, lobby_for(3, bots=(1, 2)))
        await play_out(pilot, match, chunk=40)
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, MatchEndScreen))
        pilot.app.post_message(won([1, 0, 2], [3, 3, 2]))  # this match's winner has two now
        await wait_until(pilot, lambda: "Won here" in str(
            pilot.app.screen.query_one("#standings").content))
        pilot.app.clear_notifications()

    assert snap_compare(RecordingApp(), terminal_size=(80, 24), run_before=run_before)


def test_match_over_after_a_long_match_61x19(snap_compare) -> None:
    """Too short for the whole dialog: the standings and rounds scroll, and the rematch
    status and the Rematch / Quit buttons stay at its foot (they were cut off)."""
    async def run_before(pilot: Pilot[Any]) -> None:
        match = long_match()
        await open_local(pilot.app, pilot, match, lobby_for(3, bots=(1, 2)))
        await play_out(pilot, match, chunk=40)
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, MatchEndScreen))
        pilot.app.post_message(won([1, 0, 2], [3, 3, 2]))
        await wait_until(pilot, lambda: "Won here" in str(
            pilot.app.screen.query_one("#standings").content))
        pilot.app.clear_notifications()

    assert snap_compare(RecordingApp(), terminal_size=(61, 19), run_before=run_before)


def test_matches_won_on_w_in_the_next_match(snap_compare) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        match = LocalMatch(preset("1980"), 3, seed=7)
        await open_local(pilot.app, pilot, match, lobby_for(3, bots=(1, 2)))
        pilot.app.post_message(lobby_updated(replace(lobby_for(3, bots=(1, 2)),
                                                    results={"matches_won": [1, 0, 2],
                                                             "matches_played": [3, 3, 2]})))
        await pilot.pause()
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, StandingsScreen))

    assert snap_compare(RecordingApp(), terminal_size=(80, 24), run_before=run_before)


async def long_match_then_rematch(pilot: Pilot[Any]) -> None:
    match = long_match()
    await open_local(pilot.app, pilot, match, lobby_for(3, bots=(1, 2)))
    await play_out(pilot, match)
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MatchEndScreen))
    await pilot.press("escape")
    match.state, match.pending = start_match(match.state.rules, 3, random.Random(3))
    for _ in range(4):
        match.step()
    await match.show(pilot.app, pilot)
    pilot.app.clear_notifications()


def test_log_on_a_fresh_page_after_a_long_match(snap_compare) -> None:
    assert snap_compare(RecordingApp(), terminal_size=(80, 24), run_before=long_match_then_rematch)


def test_log_scrolled_back_to_the_match_before(snap_compare) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await long_match_then_rematch(pilot)
        await pilot.press("pageup")

    assert snap_compare(RecordingApp(), terminal_size=(80, 24), run_before=run_before)
