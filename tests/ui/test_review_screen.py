"""The coach's review screen (`ui/screens/review.py`): on a golden journal at 80x24 (as
`ono99 replay --review` opens it), and from the match-over dialog of a solo match played
by key presses, where it is offered only once the match is over; an SVG snapshot (update
with `pytest --snapshot-update` on this file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from table_helpers import screen_text, solo, start_solo_table, wait_until
from test_solo_match import play_to_the_end
from textual.pilot import Pilot

from ono99tui.bots import review
from ono99tui.bots.review import decisions_in_replay
from ono99tui.commands.replay import ReplayRefused, review_seat
from ono99tui.game import MATCH_OVER
from ono99tui.host.journal.history import read_matches, replay_match
from ono99tui.ui.app import Ono99App
from ono99tui.ui.requests import RematchRequested
from ono99tui.ui.screens.results import MatchEndScreen
from ono99tui.ui.screens.review import ReviewScreen
from ono99tui.ui.screens.table import TableScreen

JOURNALS = Path(__file__).parent.parent / "host" / "journals" / "v1"
QUICK_BUDGET_S = 0.005


def review_app(player: str) -> Ono99App:
    """What `ono99 replay --review --player NAME 2022.journal` opens (a quicker search)."""
    [match] = read_matches(JOURNALS / "2022.journal")
    seat = review_seat(match, player)
    screen = ReviewScreen(decisions_in_replay(replay_match(match), seat), player,
                          budget_s=QUICK_BUDGET_S, quits=True)
    return Ono99App(start_screen=screen, ascii_glyphs=False, sixteen_colours=False)


def reviewed(app: Ono99App) -> bool:
    return isinstance(app.screen, ReviewScreen) and app.screen.review is not None


async def test_the_review_lists_the_costliest_choices_first_at_80x24() -> None:
    app = review_app("cy")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: reviewed(app), timeout=60)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.review is not None
        text = screen_text(app)
        assert "Review of the plays of cy" in text
        assert "plays with a choice" in text
        assert "1. At " in text and "you held" in text and "Chances:" in text
        assert all(len(line) <= 80 for line in text.splitlines())
        costs = [play.cost for play in screen.review.costliest()]
        assert costs == sorted(costs, reverse=True)
        assert "esc" in text.lower() and "Back" in text
        await pilot.press("escape")  # opened by `ono99 replay`: leaving it ends the app
        await wait_until(pilot, lambda: app.return_code is not None)


def test_review_seat_names_the_players() -> None:
    [match] = read_matches(JOURNALS / "2022.journal")
    assert review_seat(match, "cy") == 1 and review_seat(match, "CY") == 1
    with pytest.raises(ReplayRefused, match="bob, cy, ana"):
        review_seat(match, "dee")
    with pytest.raises(ReplayRefused, match="--player NAME"):
        review_seat(match, None)  # three people: whose plays?


def test_review_snapshot(snap_compare) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_until(pilot, lambda: reviewed(pilot.app), timeout=60)
        await pilot.pause()

    assert snap_compare(review_app("ana"), terminal_size=(80, 24), run_before=run_before)


async def test_the_match_over_dialog_offers_the_review_only_once_the_match_is_over(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(review, "REVIEW_BUDGET_S", QUICK_BUDGET_S)
    async with start_solo_table(bots=1, seed=11) as server:
        app = solo(server, bots=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.view is not None
                             and isinstance(app.screen, TableScreen))
            assert not app.session.may_review  # mid-match: no review
            await play_to_the_end(app, pilot)
            assert app.session.view.phase == MATCH_OVER
            assert isinstance(app.screen, MatchEndScreen)
            assert app.session.may_review
            await wait_until(pilot, lambda: "Review" in screen_text(app))  # the footer's key
            await pilot.press("v")
            await wait_until(pilot, lambda: reviewed(app), timeout=60)
            screen = app.screen
            assert isinstance(screen, ReviewScreen) and screen.review is not None
            assert screen.review.seat == app.session.view.seat
            assert "Review of the plays of ana" in screen_text(app)
            await pilot.press("escape")
            await wait_until(pilot, lambda: isinstance(app.screen, MatchEndScreen))
            # A rematch dealt while the review is read closes it and the match's dialog.
            await pilot.press("v")
            await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen))
            app.post_message(RematchRequested())
            await wait_until(pilot, lambda: app.session.view.phase != MATCH_OVER
                             and isinstance(app.screen, TableScreen), timeout=30)
            assert not app.session.may_review
            assert not any(isinstance(screen, ReviewScreen | MatchEndScreen)
                           for screen in app.screen_stack)
