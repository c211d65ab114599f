"""A coach's review in a real terminal: `v` on a solo match's match-over dialog, and
`ono99 replay --review --last` on the journal it kept — each worked out in a child process
of the app, with the costliest choices listed at 80x24."""

from __future__ import annotations

import re
import sys

import pytest
from test_tmux_play import play_to_the_end, quit_and_check_exit
from testkit.tmux import TmuxSession

pytestmark = pytest.mark.tmux

ONO99 = [sys.executable, "-m", "ono99tui"]
REVIEWED = r"Of your \d+ plays? with a choice"


def without_scrollbar(line: str) -> str:
    """A screen row with the scrollbar's thumb (block glyphs) drawn as the blank it covers."""
    return re.sub(r"[\u2580-\u259f]", " ", line)


def test_the_review_from_the_dialog_and_from_the_journal(tmux: TmuxSession) -> None:
    tmux.start([*ONO99, "solo", "--bots", "1", "--bot-delay", "0", "--seed", "5",
                "--player", "tess"])
    tmux.wait_for(r"tess", timeout=30)
    play_to_the_end(tmux, [0])
    tmux.wait_for(r"v Review", timeout=10)
    tmux.send_keys("v")
    tmux.wait_for(r"Review of the plays of tess", timeout=20)
    tmux.wait_for(REVIEWED, timeout=120)
    tmux.wait_until_still(still_for=0.5, timeout=15)
    screen = tmux.capture()
    if "none cost you a percentage point" not in screen:
        assert "1. At " in screen and "you held" in screen, screen
    assert all(len(line) <= 80 for line in screen.splitlines())
    tmux.send_keys("Escape")
    tmux.wait_for(r"Match over", timeout=10)
    quit_and_check_exit(tmux, 0)
    review = tmux.new_window([*ONO99, "replay", "--review", "--last"])
    tmux.wait_for(r"Review of the plays of tess", pane=review, timeout=30)
    tmux.wait_for(REVIEWED, pane=review, timeout=120)
    # The same plays (the journal's are those the app saw), the same seed: the same review
    # as from the dialog, line for line above the footer (a scrollbar's thumb aside: the
    # two lists may be scrolled or sized a row apart).
    assert ([without_scrollbar(line) for line in tmux.capture(review).splitlines()[:-1]]
            == [without_scrollbar(line) for line in screen.splitlines()[:-1]])
    tmux.send_keys("q", pane=review)
    tmux.wait_for(r"\[exit 0\]", pane=review, timeout=20)
